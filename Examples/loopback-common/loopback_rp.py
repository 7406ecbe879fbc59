"""What the examples in front of a real relying-party package share, whatever its framework (Django,
Flask): the loopback server processes and their SQLite files, the app's HTTP client (also behind a
TLS proxy), the app's server as reached over HTTP (the package's endpoints plus the project's own
small API), the small pieces every adapter needs (its capabilities, the creation options read into
what the app asks for, the second factor's typed code), and the adapter's main loop.

Each example supplies a `Package`: how to serve its project (`serve_arguments`), how to prepare an empty,
migrated database (`prepare_template`) and point the adapter's own database connection at a file
(`use_database`), the fixtures and inspections done through the package's models, and a
`PackageServer` subclass with the package's endpoints as the app calls them. Everything the server
decides is decided by the package's code, running in a real HTTP server process on 127.0.0.1.

The project API (`/project/...`) is the few views a real deployment writes beside the package; every
example serves the same paths, so that the app's calls are the same:

    GET  /project/me                   the signed-in account: username, userHandle, name, displayName, rpID
    GET  /project/credentials          its accepted credentials: userHandle, credentials [{credentialID, packageID}]
    POST /project/credentials/revoke   {credentialID}: revokes one (only where the package has no endpoint for it)
    POST /project/profile              {name?, displayName?}: renames the account
    POST /project/test/fault           {kind, count?}: test-only, arms a fault of the project's views
    POST /project/test/reset           test-only: disarms every fault (also the health check)
"""

import http.cookiejar
import json
import os
import shutil
import signal
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
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python-common"))

from app import App, NetworkError  # noqa: E402
from app_protocol import ALL_TARGETS, APP_HANDLERS, Dispatcher, device_of, serve  # noqa: E402
from passkey_base64url import b64url_decode, b64url_encode  # noqa: E402
from passkey_jsonrpc import INVALID_PARAMS, RpcError, stdio_connection  # noqa: E402
from server import LookupFailed, Refused, RegistrationOptions  # noqa: E402
from verifiers import describe_flags, package_version, rejected_flags_in  # noqa: E402

STORE_FAULTS = ("partial-credential-data", "pagination-failure", "credential-list-timeout", "stale-cache",
                "credential-lookup-failure")

RP_ID = "login.example.com"  # every project's primary RP ID, and the public host its proxy serves

# What the app half and the project API support together, where the package has an endpoint for each
# of them. No project here offers account recovery or another way to sign in, so recovery-sign-in
# and alternative-sign-in are never declared; an example without a second factor leaves that out too.
CAPABILITIES = ["conditional-create", "second-factor", "passkey-sign-in", "explicit-creation", "account-switch",
                "relaunch", "signals", "revocation", "rename", "refresh-point", "fault-injection"]


class LoopbackServer:
    """One server process on 127.0.0.1 with its own SQLite file, in a process group of its own.

    Started with `start`, it is healthy once it has written its port and answered the project's
    reset; `stop` closes its input (it exits at end of input) and, should it not exit at once,
    kills its whole process group."""

    def __init__(self, serve_arguments, database, verbose):
        self.database = database
        arguments = [sys.executable, os.path.join(HERE, "rp_serve.py"), *serve_arguments, database]
        self.process = subprocess.Popen(arguments + (["--verbose"] if verbose else []), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, start_new_session=True)
        self.base_url = None

    def wait_until_listening(self):
        """Reads the port the server writes once it listens, then checks that it answers."""
        line = self.process.stdout.readline().decode("ascii", "replace").split()
        if len(line) != 2 or line[0] != "port":
            self.stop()
            raise RuntimeError(f"the server process did not start (it wrote {' '.join(line)!r}; "
                               "its standard error above says why)")
        self.base_url = f"http://127.0.0.1:{int(line[1])}"
        self.reset()

    def reset(self):
        """The health check, and a fresh start for the project's test hooks: every fault disarmed."""
        answer = HttpClient(self.base_url).request("POST", "/project/test/reset", json_body={})
        if answer.status != 200:
            raise RuntimeError(f"the server at {self.base_url} is not healthy: /project/test/reset answered "
                               f"{answer.detail()}")

    def stop(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()


class Servers:
    """The project's server processes: one per session open at once, each on its own SQLite file,
    which is replaced by a fresh copy of the migrated template whenever a new session takes the
    process."""

    # Started at once: a test case's session, and the differential session the harness opens beside
    # it (the same scenario without its trigger). Starting a server imports its framework, which on
    # a busy machine can outlast the harness's time-out for session.open; more are started on demand
    # (--jobs N).
    STARTED_AHEAD = 2

    def __init__(self, package, verbose=False):
        """Starts the first server processes at once; they import their framework while this process
        prepares the template database (a server opens the file only when a request comes). Returns
        once the first answers; the others join the idle ones when they answer (`acquire` waits
        for them rather than start more)."""
        self.package, self.verbose = package, verbose
        self.directory = tempfile.mkdtemp(prefix="loopback-rp-")
        self.template = os.path.join(self.directory, "migrated.sqlite3")
        self.idle, self.all = [], []
        self.lock = threading.Lock()
        first, *spares = [self._start() for _ in range(self.STARTED_AHEAD)]
        package.prepare_template(self.template)
        for server in [first, *spares]:
            shutil.copyfile(self.template, server.database)
        first.wait_until_listening()
        self.idle.append(first)
        self.spares = threading.Thread(target=self._wait_for, args=(spares,), name="spare-servers", daemon=True)
        self.spares.start()

    def _wait_for(self, servers):
        for server in servers:
            try:
                server.wait_until_listening()
            except RuntimeError:
                continue  # acquire starts another when it needs one
            with self.lock:
                self.idle.append(server)

    def _start(self):
        database = os.path.join(self.directory, f"rp-{len(self.all) + 1}.sqlite3")
        server = LoopbackServer(self.package.serve_arguments(), database, self.verbose)
        self.all.append(server)
        return server

    def acquire(self):
        """A server for a new session, on a fresh database (the server keeps no connection open
        between requests, and the adapter closes its own before the file is replaced)."""
        with self.lock:
            server = self.idle.pop() if self.idle else None
        if server is None and self.spares.is_alive():
            self.spares.join()
            with self.lock:
                server = self.idle.pop() if self.idle else None
        if server is not None:
            self.package.use_database(None)
            shutil.copyfile(self.template, server.database)
            server.reset()
            return server
        server = self._start()
        self.package.use_database(None)
        shutil.copyfile(self.template, server.database)
        server.wait_until_listening()
        return server

    def release(self, server):
        with self.lock:
            self.idle.append(server)

    def shut_down(self):
        for server in self.all:
            server.stop()
        self.all, self.idle = [], []
        self.package.use_database(None)
        shutil.rmtree(self.directory, ignore_errors=True)


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
            value = value.get("detail") or value.get("non_field_errors") or value.get("errors") or value
        if isinstance(value, list):
            value = "; ".join(str(item.get("message", item)) if isinstance(item, dict) else str(item)
                              for item in value)
        if value in (None, "", {}):
            value = self.body[:200].decode("utf-8", "replace") or "no message"
        return f"HTTP {self.status}: {value}"


class AnswerLost(NetworkError):
    """The connection broke after the request went out: the server handled it, the app never heard
    back. The app cannot tell this from a server it could not reach, and treats both alike."""


class HttpClient:
    """The app's connection to its server: a cookie jar, no redirects followed, JSON or form bodies.

    It is also where the protocol's `answer-lost-after-commit` strikes: `lose_answers` arms it, and
    a request sent with `commits=True` (the caller's word that the server commits something the app
    waits to hear about: a submitted registration or assertion, a read of the accepted list) then
    goes out and is handled to the end by the server, but its answer is thrown away, headers and
    cookies included, and the caller gets AnswerLost, a NetworkError like any other."""

    def __init__(self, base_url):
        self.base_url = base_url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirects())
        # Without the cookie processor: what a lost answer would have set never reaches the jar.
        self.dropping_opener = urllib.request.build_opener(_NoRedirects())
        self.answers_to_lose = 0  # committing requests whose answer is lost next (float("inf"): every one)

    def lose_answers(self, count):
        """Arms answer-lost-after-commit for `count` committing requests, or until the session ends
        (None); arming it again replaces what is left of the previous one."""
        self.answers_to_lose = float("inf") if count is None else count

    def request(self, method, path, json_body=None, form=None, headers=None, commits=False):
        headers = dict(headers or {})
        data = None
        if json_body is not None:
            data, headers["Content-Type"] = json.dumps(json_body).encode("utf-8"), "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode("utf-8")
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers.setdefault("Accept", "application/json")
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        if commits and self.answers_to_lose > 0:
            self.answers_to_lose -= 1
            self._send_and_drop(request)
            raise AnswerLost(f"{method} {path}: the connection dropped before the server's answer arrived")
        try:
            with self.opener.open(request, timeout=30) as response:
                return HttpResponse(response.status, response.read())
        except urllib.error.HTTPError as error:
            return HttpResponse(error.code, error.read())

    def _send_and_drop(self, request):
        """Sends the request with the app's cookies and waits until the server has answered (so its
        work is done and committed), then forgets the answer."""
        self.cookies.add_cookie_header(request)
        try:
            with self.dropping_opener.open(request, timeout=30) as response:
                response.read()
        except urllib.error.HTTPError as error:
            error.read()

    def cookie(self, name):
        return next((cookie.value for cookie in self.cookies if cookie.name == name), None)


class ProxiedClient(HttpClient):
    """The app's requests as they reach a project that sits behind a TLS proxy and trusts its
    forwarding headers (Django's USE_X_FORWARDED_HOST and SECURE_PROXY_SSL_HEADER, Werkzeug's
    ProxyFix): each one names the public scheme and `host`, which the caller may change as it goes
    (the host of the RP the app talks to). A client that signs its requests with a token keeps no
    cookies; `keep_cookies` is for an exchange whose state the package holds in a session cookie."""

    def __init__(self, base_url, host=RP_ID, keep_cookies=False):
        super().__init__(base_url)
        self.host = host
        if not keep_cookies:
            self.cookies.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))

    def request(self, method, path, json_body=None, form=None, headers=None, commits=False):
        headers = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": self.host, **(headers or {})}
        return super().request(method, path, json_body=json_body, form=form, headers=headers, commits=commits)


class RegistrationRejected(Refused):
    """The package refused a registration: its answer, and the flags the authenticator data carried."""

    def __init__(self, answer: HttpResponse, flags: int, message=None):
        message = answer.detail() if message is None else f"HTTP {answer.status}: {message}"
        super().__init__(message, describe_flags(flags), rejected_flags_in(message))


class AccountView:
    """What the app knows of its signed-in account, from the project's `/project/me` and
    `/project/credentials` (app.Signals reads `rp_id`, `user_handle`, `name` and `display_name`)."""

    def __init__(self, me, credentials=None):
        self.username = me["username"]
        self.user_handle = b64url_decode(me["userHandle"])
        self.rp_id = me["rpID"]
        self.name = me["name"]
        self.display_name = me["displayName"]
        self.credentials = credentials or []

    def accepted_ids(self):
        return [b64url_decode(item["credentialID"]) for item in self.credentials]


class PackageServer:
    """The server as the app reaches it: the package's HTTP endpoints and the project's own API. A
    subclass implements the sign-in and passkey ceremonies through the package's endpoints, and
    `headers()` (how the app authenticates its requests); revocation goes through the package's own
    endpoint where it has one (`revoke`). What neither offers is refused, naming what is missing
    (the adapter does not declare the capabilities that would need it). A subclass sends the request
    that submits a registration, and the one that submits an assertion, with `commits=True`: those
    are the ones whose answer the fault answer-lost-after-commit may lose (see HttpClient)."""

    package = "?"  # the package's name, for the app's telemetry (app.App reads server.verifier.package)

    def __init__(self, base_url):
        self.http = HttpClient(base_url)
        self.verifier = self
        self.next_sign_in = 1
        self.current = None  # the app's name for the sign-in the cookies or token now carry

    @property
    def accounts(self):
        return {}  # the app learns about accounts only through its own sign-ins

    def headers(self):
        """What authenticates the app's requests (a token header, a CSRF token); cookies go by themselves."""
        return {}

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

    def _project(self, method, path, body=None, commits=False):
        return self.http.request(method, "/project/" + path, json_body=body if method == "POST" else None,
                                 headers=self.headers(), commits=commits)

    # The project's API.

    def _me(self):
        answer = self._project("GET", "me")
        if answer.status != 200:
            raise Refused(f"who am I: {answer.detail()}")
        return answer.json()

    def _current_username(self):
        return self._me()["username"]

    def account(self, username):
        """The signed-in account's details (the app asks only about the account it is signed in as)."""
        me = self._me()
        if me["username"] != username:
            raise Refused(f"signed in as {me['username']}, not {username}")
        return AccountView(me)

    def _credentials(self, username, commits=False):
        answer = self._project("GET", "credentials", commits=commits)
        if answer.status != 200:
            raise Refused(f"the account's credentials: {answer.detail()}")
        body = answer.json()
        if body.get("username") != username:
            raise Refused(f"signed in as {body.get('username')}, not {username}")
        return body["credentials"]

    def accepted_list(self, username):
        """The list the app's reconciliation sends: a read whose answer can be lost (the other reads of
        the same view, for a revocation, cannot)."""
        return [b64url_decode(item["credentialID"]) for item in self._credentials(username, commits=True)]

    def fully_signed_in(self, token):
        if token != self.current:
            raise Refused("sign in first")
        return self._current_username()

    def revoke(self, token, credential_id):
        username = self.fully_signed_in(token)
        answer = self._project("POST", "credentials/revoke", {"credentialID": b64url_encode(credential_id)})
        if answer.status != 200:
            raise Refused(answer.detail())
        return username

    def package_id_of(self, token, credential_id):
        """The package's own id of one of the account's credentials (for its revocation endpoint)."""
        username = self.fully_signed_in(token)
        wanted = b64url_encode(credential_id)
        for item in self._credentials(username):
            if item["credentialID"] == wanted:
                return username, item["packageID"]
        raise Refused("no such passkey")

    def rename(self, token, name, display_name, confirmed):
        username = self.fully_signed_in(token)
        if not confirmed:
            raise Refused("the change was not confirmed")
        body = {key: value for key, value in (("name", name), ("displayName", display_name)) if value is not None}
        answer = self._project("POST", "profile", body)
        if answer.status != 200:
            raise Refused(answer.detail())
        return answer.json().get("username", username)

    def inject(self, kind, count):
        answer = self.http.request("POST", "/project/test/fault", json_body={"kind": kind, "count": count})
        if answer.status != 200:
            raise Refused(f"the test hook refused the fault: {answer.detail()}")

    def second_factor(self, token, outcome):
        self._lacks("a second factor")

    def recovery_sign_in(self, username):
        self._lacks("account recovery")

    def alternative_sign_in(self, username):
        self._lacks("magic-link, one-time-code or federated sign-in")

    @staticmethod
    def lookup_failed(answer):
        """The project's test hook answers 503 for an armed `credential-lookup-failure`."""
        if answer.status == 503:
            raise LookupFailed(answer.detail())


def parse_creation_options(options):
    """What the app needs from PublicKeyCredentialCreationOptions in WebAuthn's JSON encoding (the
    `publicKey` member each package hands out, under its own wrapping) to ask the platform for a
    passkey."""
    return RegistrationOptions(
        challenge=b64url_decode(options["challenge"]), rp_id=options["rp"]["id"],
        user_handle=b64url_decode(options["user"]["id"]), user_name=options["user"]["name"],
        display_name=options["user"]["displayName"],
        excluded=[b64url_decode(item["id"]) for item in options.get("excludeCredentials", [])])


def typed_code(code_at, outcome, expired_offset):
    """The one-time code the user types for a second factor. `code_at(offset_seconds)` is what the
    account's authenticator app shows that many seconds from now; the outcome chooses the code:
    "correct" the current one, "expired" the one at `expired_offset` (negative: a past code, older
    than the package tolerates), "wrong" six digits the app does not show now (the current code
    moved by half the range)."""
    code = code_at(expired_offset if outcome == "expired" else 0)
    if outcome == "wrong":
        code = f"{(int(code) + 500_000) % 1_000_000:06d}"
    return code


def registration_json(credential_id, client_data_json, attestation_object, transports=None):
    """RegistrationResponseJSON as a native app builds it from the platform's registration."""
    response = {"clientDataJSON": b64url_encode(client_data_json), "attestationObject": b64url_encode(attestation_object)}
    if transports is not None:
        response["transports"] = transports
    return {"id": b64url_encode(credential_id), "rawId": b64url_encode(credential_id), "type": "public-key",
            "response": response, "clientExtensionResults": {}}


def authentication_json(credential_id, client_data_json, authenticator_data, signature, user_handle):
    """AuthenticationResponseJSON as a native app builds it from the platform's assertion."""
    response = {"clientDataJSON": b64url_encode(client_data_json),
                "authenticatorData": b64url_encode(authenticator_data), "signature": b64url_encode(signature)}
    if user_handle is not None:
        response["userHandle"] = b64url_encode(user_handle)
    return {"id": b64url_encode(credential_id), "rawId": b64url_encode(credential_id), "type": "public-key",
            "response": response, "clientExtensionResults": {}}


def registration_flags(attestation_object):
    """The authenticator data's flags byte (UP, UV, BE, BS), read with py_webauthn's parser."""
    from webauthn.helpers import parse_attestation_object
    flags = parse_attestation_object(attestation_object).auth_data.flags
    return (1 if flags.up else 0) | (4 if flags.uv else 0) | (8 if flags.be else 0) | (16 if flags.bs else 0)


def challenge_in(client_data_json):
    return json.loads(client_data_json.decode("utf-8"))["challenge"]


class Session:
    """One test case: a server process of its own while it is open, and a fresh app."""

    def __init__(self, package, servers, context, platform):
        self.package = package
        self.rp = servers.acquire()
        self.device = device_of(context)
        self.server = package.server_class(self.rp.base_url)
        self.app = App(self.device, self.server, platform, primary_rp_id=package.relying_party_ids[0])


class BasePackage:
    """What every example says about its package; a subclass fills in the rest."""

    relying_party_ids = [RP_ID]
    targets = ALL_TARGETS
    policies = ("password-only",)  # the sign-in policies the project can represent
    declarations = []  # what the package's account model cannot represent (AdapterDescription.declarations)

    @staticmethod
    def use_database(path):
        """Points the adapter's own database connection at a file (None: closes it)."""
        raise NotImplementedError


def run_adapter(package, arguments):
    """The adapter's main: serves the protocol over standard input and output."""
    verbose = "--verbose" in arguments

    def log(text):
        print(f"{package.name}-adapter: {text}", file=sys.stderr, flush=True)

    connection = stdio_connection(log)
    state = {}
    ready = threading.Event()

    def start():
        """The project and the first server process start while the harness greets the adapter."""
        try:
            state["servers"] = Servers(package, verbose)
        except Exception as error:  # noqa: BLE001  (reported to the harness by every session.open)
            log(f"the project did not start:\n{traceback.format_exc()}")
            state["failure"] = error
        finally:
            ready.set()

    threading.Thread(target=start, name="project-start", daemon=True).start()

    def servers():
        ready.wait()
        if "failure" in state:
            raise RuntimeError(f"the project did not start: {state['failure']}")
        return state["servers"]

    def open_session(context, platform):
        session = Session(package, servers(), context, platform)
        package.use_database(session.rp.database)
        return session

    def close_session(session):
        servers().release(session.rp)

    def with_database(handler):
        def handle(session, params):
            package.use_database(session.rp.database)
            return handler(session, params)
        return handle

    def set_up(session, params):
        for account in params.objects("accounts"):
            rp_id = account.string("rpID")
            if rp_id not in package.relying_party_ids:
                raise RpcError(INVALID_PARAMS, f"{account.path}.rpID {rp_id} is not one of this relying party's RP IDs")
            policy = account.choice("policy", ("password-only", "password-and-second-factor"))
            if policy not in package.policies:
                raise RpcError(INVALID_PARAMS, f"{account.path}.policy {policy} cannot be represented by this project")
            package.create_account(username=account.string("username"), display_name=account.string("displayName"),
                                   password=account.string("password"), policy=policy, rp_id=rp_id,
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

    def inject_fault(session, params):
        fault = params.object("fault")
        kind = fault.choice("kind", STORE_FAULTS + ("network-failure", "answer-lost-after-commit"))
        count = fault.integer("count", optional=True)
        if kind == "network-failure":
            session.app.network_failures = float("inf") if count is None else count
        elif kind == "answer-lost-after-commit":
            # Struck in the app's HTTP client: the server process works as usual, and only the
            # answer to a committing request goes missing on its way back.
            session.server.http.lose_answers(count)
        else:
            session.server.inject(kind, count)
        return {}

    handlers = {name: with_database(handler) for name, handler in {
        **APP_HANDLERS, "session.setUp": set_up, "session.addCredential": add_credential,
        "session.inspectAccount": inspect_account, "session.injectFault": inject_fault}.items()}

    def describe():
        # The project starts while the harness waits for this answer (the launch time-out), not
        # during the first session.open (a per-call time-out).
        ready.wait()
        # Protocol 1.2: its one addition, answer-lost-after-commit, is struck in the app's HTTP client.
        description = {"protocolVersion": "1.2", "name": package.name, "version": package_version(package.name), "targets": package.targets,
                       "capabilities": package.capabilities, "relyingPartyIDs": package.relying_party_ids}
        if package.declarations:
            description["declarations"] = package.declarations
        return description

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
