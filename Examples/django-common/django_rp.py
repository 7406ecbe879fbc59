"""The Django side shared by the Django examples: server processes, their databases, the app's HTTP
client, and the adapter that puts python-webauthn's app (app.py) in front of a Django project.

Each example supplies a `Package`: its Django project (settings, URLs), the package's endpoints as
the app calls them (a `PackageServer`), and the fixtures and inspections done through the
package's models. Everything the server decides is decided by the package's own views, running in
a real Django HTTP server process on 127.0.0.1.
"""

import http.cookiejar
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import traceback
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python-webauthn"))

from app import App  # noqa: E402
from app_protocol import APP_HANDLERS, Dispatcher, device_of, protocol_connection, serve  # noqa: E402
from jsonrpc import INVALID_PARAMS, RpcError  # noqa: E402
from server import Refused  # noqa: E402
from verifiers import describe_flags, package_version, rejected_flags_in  # noqa: E402

class RPServer:
    """One Django HTTP server process with its own SQLite file. It exits when its standard input
    closes, so it never outlives the adapter (rp_serve.py)."""

    def __init__(self, project, settings_module, database, verbose):
        self.database = database
        arguments = [sys.executable, os.path.join(HERE, "rp_serve.py"), project, settings_module, database]
        self.process = subprocess.Popen(arguments + (["--verbose"] if verbose else []), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        self.base_url = None

    def wait_until_listening(self):
        line = self.process.stdout.readline().decode("ascii", "replace").split()
        if len(line) != 2 or line[0] != "port":
            self.stop()
            raise RuntimeError(f"the Django server did not start (it wrote {' '.join(line)!r})")
        self.base_url = f"http://127.0.0.1:{int(line[1])}"

    def stop(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


class Servers:
    """The project's server processes: one per session open at once (usually one for the whole
    run), each on a database that is emptied when a new session takes it."""

    def __init__(self, package, verbose=False):
        """Starts the first server process at once; it imports Django while this process migrates
        its database (the server reads the file only when a request comes)."""
        self.package, self.verbose = package, verbose
        self.directory = tempfile.mkdtemp(prefix="django-rp-")
        self.template = os.path.join(self.directory, "migrated.sqlite3")
        self.idle, self.all = [], []
        first = self._start()
        set_up_django(package.project, package.settings_module)
        use_database(self.template)
        from django.core.management import call_command
        call_command("migrate", verbosity=0)
        use_database(None)
        shutil.copyfile(self.template, first.database)
        first.wait_until_listening()
        self.idle.append(first)

    def _start(self):
        database = os.path.join(self.directory, f"rp-{len(self.all) + 1}.sqlite3")
        server = RPServer(self.package.project, self.package.settings_module, database, self.verbose)
        self.all.append(server)
        return server

    def acquire(self):
        if self.idle:
            server = self.idle.pop()
            use_database(server.database)
            self.package.empty_database()
            return server
        server = self._start()
        use_database(None)
        shutil.copyfile(self.template, server.database)
        server.wait_until_listening()
        return server

    def release(self, server):
        self.idle.append(server)

    def shut_down(self):
        for server in self.all:
            server.stop()
        self.all, self.idle = [], []
        shutil.rmtree(self.directory, ignore_errors=True)


def use_database(path):
    """Points the adapter's own connection (fixtures and inspections through the models) at a file."""
    from django.db import connections
    connection = connections["default"]
    if connection.settings_dict["NAME"] != path:
        connection.close()
        if path is not None:
            connection.settings_dict["NAME"] = path


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, request, fp, code, message, headers, new_url):
        return None


class HttpResponse:
    def __init__(self, status, body):
        self.status, self.body = status, body

    def decoded(self):
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return None

    def json(self):
        value = self.decoded()
        return value if isinstance(value, dict) else {}

    def detail(self):
        """The error message of a JSON error answer (a `detail`, or a list of messages), or the status."""
        value = self.decoded()
        if isinstance(value, dict):
            value = value.get("detail") or value.get("non_field_errors") or value
        if isinstance(value, list):
            value = "; ".join(str(item) for item in value)
        return f"HTTP {self.status}: {value if value not in (None, '', {}) else 'no message'}"


class HttpClient:
    """The app's connection to its server: a cookie jar, no redirects followed, JSON or form bodies."""

    def __init__(self, base_url):
        self.base_url = base_url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirects())

    def request(self, method, path, json_body=None, form=None, headers=None):
        headers = dict(headers or {})
        data = None
        if json_body is not None:
            data, headers["Content-Type"] = json.dumps(json_body).encode("utf-8"), "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode("utf-8")
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with self.opener.open(request, timeout=10) as response:
                return HttpResponse(response.status, response.read())
        except urllib.error.HTTPError as error:
            return HttpResponse(error.code, error.read())

    def cookie(self, name):
        return next((cookie.value for cookie in self.cookies if cookie.name == name), None)


class RegistrationRejected(Refused):
    """The package refused a registration: its answer, and the flags the authenticator data carried."""

    def __init__(self, answer: HttpResponse, flags: int):
        message = answer.detail()
        super().__init__(message, describe_flags(flags), rejected_flags_in(message))


class PackageServer:
    """The server as the app reaches it: the package's HTTP endpoints. A subclass implements the
    calls of app.App that the package has endpoints for; the others are refused, naming what the
    package lacks (the adapter does not declare the capabilities that would need them)."""

    package = "?"  # the package's name, for the app's telemetry (app.App reads server.verifier.package)

    def __init__(self, base_url):
        self.http = HttpClient(base_url)
        self.verifier = self
        self.next_sign_in = 1
        self.current = None  # the app's name for the sign-in the cookies or token now carry

    @property
    def accounts(self):
        return {}  # the app learns nothing about accounts except through its own sign-ins

    def new_token(self):
        """The app's own name for a sign-in; a late response for an older one is discarded by the app."""
        token = f"sign-in-{self.next_sign_in}"
        self.next_sign_in += 1
        self.current = token
        return token

    def sign_out(self, token):
        """Ends the sign-in the app's connection carries. The app also asks to end a sign-in that a
        newer one has replaced; the package's server ended that one when the new sign-in began."""
        if token == self.current:
            self.current = None
            self.end_sign_in()

    def end_sign_in(self):
        """The package's (or the framework's) sign-out."""

    def _lacks(self, what):
        raise Refused(f"{self.package} has no endpoint for {what}")

    def account(self, username):
        self._lacks("reading an account's passkeys")

    def accepted_list(self, username):
        self._lacks("listing an account's accepted credentials")

    def second_factor(self, token, outcome):
        self._lacks("a second factor")

    def recovery_sign_in(self, username):
        self._lacks("account recovery")

    def alternative_sign_in(self, username):
        self._lacks("magic-link, one-time-code or federated sign-in")

    def fully_signed_in(self, token):
        self._lacks("the app's refresh point")

    def revoke(self, token, credential_id):
        self._lacks("revoking a passkey")

    def rename(self, token, name, display_name, confirmed):
        self._lacks("renaming an account")


def registration_json(credential_id, client_data_json, attestation_object):
    """RegistrationResponseJSON as a native app builds it from the platform's registration."""
    from encoding import b64url_encode
    return {"id": b64url_encode(credential_id), "rawId": b64url_encode(credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64url_encode(client_data_json),
                         "attestationObject": b64url_encode(attestation_object)},
            "clientExtensionResults": {}}


def authentication_json(credential_id, client_data_json, authenticator_data, signature, user_handle):
    """AuthenticationResponseJSON as a native app builds it from the platform's assertion."""
    from encoding import b64url_encode
    response = {"clientDataJSON": b64url_encode(client_data_json),
                "authenticatorData": b64url_encode(authenticator_data), "signature": b64url_encode(signature)}
    if user_handle is not None:
        response["userHandle"] = b64url_encode(user_handle)
    return {"id": b64url_encode(credential_id), "rawId": b64url_encode(credential_id), "type": "public-key",
            "response": response, "clientExtensionResults": {}}


class DjangoPackage:
    """What an example says about its package; the fixtures common to every Django project. A
    subclass names the project and adds the package's own credential fixtures and inspections."""

    relying_party_ids = ["login.example.com"]
    from app_protocol import ALL_TARGETS as targets

    @staticmethod
    def empty_database():
        """A fresh server state: no users (their credentials and tokens go with them), no sessions."""
        from django.contrib.auth import get_user_model
        from django.contrib.sessions.models import Session as DjangoSession
        get_user_model().objects.all().delete()
        DjangoSession.objects.all().delete()

    @staticmethod
    def create_account(username, display_name, password, restricted):
        """A Django user; a restricted account is an inactive one, which Django refuses at sign-in."""
        from django.contrib.auth import get_user_model
        first, _, last = display_name.partition(" ")
        get_user_model().objects.create_user(username=username, password=password, first_name=first,
                                             last_name=last, is_active=not restricted)

    @staticmethod
    def user(username):
        from django.contrib.auth import get_user_model
        try:
            return get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist:
            raise Refused(f"no account {username}") from None


class Session:
    """One test case: a server process of its own while it is open, and a fresh app."""

    def __init__(self, package, servers, context, platform):
        self.package = package
        self.rp = servers.acquire()
        self.device = device_of(context)
        self.server = package.server_class(self.rp.base_url)
        self.app = App(self.device, self.server, platform, primary_rp_id=package.relying_party_ids[0])


def run_adapter(package, arguments):
    """The adapter's main: serves the protocol over standard input and output."""
    verbose = "--verbose" in arguments

    def log(text):
        print(f"{package.name}-adapter: {text}", file=sys.stderr, flush=True)

    connection = protocol_connection(log)
    state = {}
    ready = threading.Event()

    def start():
        """Django and the first server process start while the harness greets the adapter."""
        try:
            state["servers"] = Servers(package, verbose)
        except Exception as error:  # noqa: BLE001  (reported to the harness by every session.open)
            log(f"the Django project did not start:\n{traceback.format_exc()}")
            state["failure"] = error
        finally:
            ready.set()

    threading.Thread(target=start, name="django-start", daemon=True).start()

    def servers():
        ready.wait()
        if "failure" in state:
            raise RuntimeError(f"the Django project did not start: {state['failure']}")
        return state["servers"]

    def open_session(context, platform):
        session = Session(package, servers(), context, platform)
        use_database(session.rp.database)
        return session

    def close_session(session):
        servers().release(session.rp)

    def with_database(handler):
        def handle(session, params):
            use_database(session.rp.database)
            return handler(session, params)
        return handle

    def set_up(session, params):
        for account in params.objects("accounts"):
            rp_id = account.string("rpID")
            if rp_id not in package.relying_party_ids:
                raise RpcError(INVALID_PARAMS, f"{account.path}.rpID {rp_id} is not one of this relying party's RP IDs")
            package.create_account(username=account.string("username"), display_name=account.string("displayName"),
                                   password=account.string("password"),
                                   restricted=account.boolean("restricted", optional=True) or False)
        return {}

    def add_credential(session, params):
        credential = params.object("credential")
        package.add_credential(credential.string("username"), credential.bytes("credentialID"),
                               credential.bytes("publicKey"), credential.integer("signCount", optional=True) or 0,
                               credential.choice("state", ("active", "revoked"), optional=True) or "active")
        return {}

    def inspect_account(session, params):
        return package.inspect_account(params.string("username"))

    handlers = {name: with_database(handler) for name, handler in {
        **APP_HANDLERS, "session.setUp": set_up, "session.addCredential": add_credential,
        "session.inspectAccount": inspect_account}.items()}

    def describe():
        return {"name": package.name, "version": package_version(package.name), "targets": package.targets,
                "capabilities": package.capabilities, "relyingPartyIDs": package.relying_party_ids}

    def shut_down():
        ready.wait()
        if "servers" in state:
            state.pop("servers").shut_down()

    dispatcher = Dispatcher(connection, describe, open_session, handlers, close_session, shut_down)
    try:
        serve(connection, dispatcher, log, verbose=verbose)
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the harness has gone
    finally:
        shut_down()


def set_up_django(project, settings_module):
    """Makes the example's Django project importable and configures Django in the adapter process."""
    sys.path.insert(0, project)
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    import django
    django.setup()
