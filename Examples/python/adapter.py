#!/usr/bin/env python3
"""An example passkey-conformance adapter in Python (3.9+, standard library only).

The harness starts this process and speaks JSON-RPC 2.0 with it over standard input and output,
one message per line. Each test case is a session: a fresh app (app.py) and in-memory server
(server.py). This file maps the protocol onto them:

    harness -> adapter   adapter.hello, adapter.shutdown, session.open / setUp / addCredential /
                         perform / inspectAccount / inspectSession / injectFault /
                         platformCompleted / timerFired / close
    adapter -> harness   platform.createCredential / getCredential / signal, clock.now /
                         schedule / cancel, ui.show, telemetry.record (HarnessPlatform below)

Run it through the harness:

    swift run passkey-conformance run --adapter-command "python3 Examples/python/adapter.py"

Pass --verbose to log every message on standard error. With `--listen unix:PATH` (or
`--listen tcp:127.0.0.1:PORT`) it listens on that socket instead, serving one harness connection
after another (`passkey-conformance run --adapter-connect unix:PATH`) until SIGTERM or SIGINT.
The protocol's transport is ../python-common/passkey_jsonrpc.py, shared by every Python example.
"""

import os
import sys
import traceback

if sys.version_info < (3, 9):
    sys.exit(f"python-adapter: needs Python 3.9 or later, this is {sys.version.split()[0]}")
sys.dont_write_bytecode = True  # keep the examples directory free of __pycache__

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python-common"))

from app import Action, App, BadAction, Device, PlatformError, PlatformOutcome  # noqa: E402
from passkey_jsonrpc import (ADAPTER_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, PLATFORM_CALL_FAILED,  # noqa: E402
                             UNKNOWN_SESSION, UNSUPPORTED_VERSION, HarnessGone, Params, RpcError, listen_argument,
                             serve_socket, stdio_connection)
from server import FAULT_KINDS, AccountFixture, Refused, Server  # noqa: E402

PROTOCOL_VERSION = "1.2"
NAME, VERSION = "python-example-rp", "1.0.0"

# The RP IDs the relying party is configured with; the first is the primary one.
RELYING_PARTY_IDS = ["login.example.com", "accounts.example.org"]

# Every target of the harness's TargetCatalog: the app checks the device's versions at run time.
TARGETS = [
    "apple-17.4", "apple-18", "apple-18-third-party", "apple-18-third-party-no-conditional", "apple-26.0", "apple-26.1", "apple-26.2",
    "macos-14", "macos-15", "visionos-2", "macos-26.2", "visionos-26.2",
    "android-15-gpm", "android-15-gpm-play-25.12", "android-15-third-party", "android-15-third-party-no-events", "android-14-gpm",
    "android-15-androidx-1.5",
]

# What this example implements. Not "passkey-sign-in": verifying an ES256 assertion needs
# cryptography the standard library does not have (README.md). Not "alternative-sign-in".
CAPABILITIES = [
    "conditional-create", "second-factor", "recovery-sign-in", "account-switch", "explicit-creation",
    "signals", "revocation", "refresh-point", "rename", "fault-injection", "alternative-sign-in", "relaunch",
]

ACTION_KINDS = (
    "password-sign-in", "second-factor", "recovery-sign-in", "alternative-sign-in", "passkey-sign-in", "sign-out",
    "switch-account", "create-passkey", "revoke-passkey", "rename", "refresh", "manage-passkeys", "relaunch",
)

VERBOSE = "--verbose" in sys.argv[1:]


def log(text):
    print(f"python-adapter: {text}", file=sys.stderr, flush=True)


class HarnessPlatform:
    """The platform of one session as the app sees it: each method is a call to the harness."""

    def __init__(self, connection, session):
        self.connection, self.session = connection, session

    def create_credential(self, request):
        return self._call("platform.createCredential", ("operation", str), request=request)

    def signal(self, request):
        return self._call("platform.signal", ("operation", str), request=request)

    def now(self):
        return self._call("clock.now", ("millis", int))

    def schedule_timer(self, after_millis, label):
        return self._call("clock.schedule", ("timer", str), afterMillis=after_millis, label=label)

    def cancel_timer(self, timer):
        self.connection.notify("clock.cancel", {"session": self.session, "timer": timer})

    def show(self, kind, text):
        """kind: error, confirmation, message or screen."""
        self.connection.notify("ui.show", {"session": self.session, "event": {"kind": kind, "text": text}})

    def telemetry(self, name, attributes):
        event = {"name": name, "attributes": attributes}
        self.connection.notify("telemetry.record", {"session": self.session, "event": event})

    def _call(self, method, expected, **params):
        """Calls the harness and returns the one member of its result the method defines."""
        member, kind = expected
        result = self.connection.call(method, {"session": self.session, **params})
        value = result.get(member) if isinstance(result, dict) else None
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RpcError(PLATFORM_CALL_FAILED, f"the harness's answer to {method} has no {kind.__name__} {member!r}")
        return value


class Session:
    """One test case: a fresh server and app."""

    def __init__(self, context: Params, platform):
        device = context.object("device")
        self.device = Device(platform=device.choice("platform", ("apple", "android")),
                             os_version=device.string("osVersion"),
                             library_version=device.string("credentialsLibraryVersion", optional=True),
                             app_origin=device.string("appOrigin", optional=True),
                             os_family=device.choice("osFamily", ("ios", "ipados", "macos", "visionos", "android"), optional=True))
        self.server = Server(seed=context.integer("seed"), app_origin=self.device.app_origin)
        self.app = App(self.device, self.server, platform)


class Adapter:
    def __init__(self, connection):
        self.connection = connection
        self.sessions = {}
        self.greeted = False
        self.finished = False

    def handle(self, method, params: Params):
        if method not in HANDLERS and method not in ("adapter.hello", "adapter.shutdown", "session.open"):
            raise RpcError(METHOD_NOT_FOUND, f"the adapter has no method {method}")
        if method == "adapter.hello":
            return self.hello(params)
        if not self.greeted:
            raise RpcError(UNSUPPORTED_VERSION, "call adapter.hello first")
        if method == "adapter.shutdown":
            self.sessions.clear()
            self.finished = True
            return {}
        session_id = params.string("session")
        if method == "session.open":
            if session_id in self.sessions:
                raise RpcError(INVALID_PARAMS, f"session {session_id} is already open")
            context = params.object("context")
            self.sessions[session_id] = Session(context, HarnessPlatform(self.connection, session_id))
            return {"session": session_id}
        session = self.sessions.get(session_id)
        if session is None:
            raise RpcError(UNKNOWN_SESSION, f"no open session {session_id}")
        if method == "session.close":
            del self.sessions[session_id]
            return {}
        return HANDLERS[method](session, params)

    def hello(self, params):
        version = params.string("protocolVersion")
        if version.split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
            raise RpcError(UNSUPPORTED_VERSION,
                           f"the harness speaks protocol {version}; this adapter speaks {PROTOCOL_VERSION}",
                           data={"supported": PROTOCOL_VERSION})
        self.greeted = True
        return {"protocolVersion": PROTOCOL_VERSION, "name": NAME, "version": VERSION, "targets": TARGETS,
                "capabilities": CAPABILITIES, "relyingPartyIDs": RELYING_PARTY_IDS}


# The session methods: params in, result out. A real adapter would reach its server's fixtures and
# inspections through a test-only API here, and drive its app (UI test, instrumentation) in perform.

def set_up(session, params):
    for account in params.objects("accounts"):
        rp_id = account.string("rpID")
        if rp_id not in RELYING_PARTY_IDS:
            raise RpcError(INVALID_PARAMS, f"{account.path}.rpID {rp_id} is not one of this relying party's RP IDs")
        session.server.create_account(AccountFixture(
            username=account.string("username"), display_name=account.string("displayName"),
            password=account.string("password"),
            policy=account.choice("policy", ("password-only", "password-and-second-factor")), rp_id=rp_id,
            restricted=account.boolean("restricted", optional=True) or False))
    return {}


def add_credential(session, params):
    credential = params.object("credential")
    session.server.add_credential(
        credential.string("username"), credential.bytes("credentialID"), credential.bytes("publicKey"),
        sign_count=credential.integer("signCount", optional=True) or 0,
        state=credential.choice("state", ("active", "revoked"), optional=True) or "active")
    return {}


def perform(session, params):
    action = params.object("action")
    outcome = session.app.perform(Action(
        kind=action.choice("kind", ACTION_KINDS), username=action.string("username", optional=True),
        password=action.string("password", optional=True),
        second_factor=action.choice("secondFactor", ("correct", "wrong", "expired"), optional=True),
        credential_id=action.bytes("credentialID", optional=True), new_name=action.string("newName", optional=True),
        new_display_name=action.string("newDisplayName", optional=True),
        confirmed=action.boolean("confirmed", optional=True)))
    if outcome.message is None:
        return {"status": outcome.status}
    return {"status": outcome.status, "message": outcome.message}


def inspect_account(session, params):
    account = session.server.account(params.string("username"))
    return {
        "username": account.username, "accountID": account.account_id, "userHandle": account.user_handle,
        "rpID": account.rp_id, "name": account.name, "displayName": account.display_name,
        "credentials": [{"credentialID": credential.id, "rpID": credential.rp_id, "state": credential.state}
                        for credential in account.credentials],
    }


def inspect_session(session, params):
    app = session.app
    return {"stage": app.stage} if app.username is None else {"stage": app.stage, "username": app.username}


def inject_fault(session, params):
    fault = params.object("fault")
    kind = fault.choice("kind", FAULT_KINDS + ("network-failure", "answer-lost-after-commit"))
    count = fault.integer("count", optional=True)
    if kind == "network-failure":
        session.app.network_failures = float("inf") if count is None else count
    elif kind == "answer-lost-after-commit":
        session.app.lost_answers = float("inf") if count is None else count
    else:
        session.server.inject(kind, count)
    return {}


def platform_completed(session, params):
    outcome = params.object("outcome")
    error = outcome.object("error", optional=True)
    apple = outcome.object("appleRegistration", optional=True)
    session.app.platform_completed(params.string("operation"), PlatformOutcome(
        error=None if error is None else PlatformError(
            name=error.string("name"), message=error.string("message"), type=error.string("type", optional=True),
            domain=error.string("domain", optional=True), code=error.integer("code", optional=True),
            retry_millis=error.integer("retryMillis", optional=True)),
        android_registration_json=outcome.string("androidRegistrationResponseJson", optional=True),
        apple_registration=None if apple is None else (
            apple.bytes("credentialID"), apple.bytes("rawClientDataJSON"), apple.bytes("rawAttestationObject"))))
    return {}


def timer_fired(session, params):
    session.app.timer_fired(params.string("timer"))
    return {}


HANDLERS = {
    "session.setUp": set_up,
    "session.addCredential": add_credential,
    "session.perform": perform,
    "session.inspectAccount": inspect_account,
    "session.inspectSession": inspect_session,
    "session.injectFault": inject_fault,
    "session.platformCompleted": platform_completed,
    "session.timerFired": timer_fired,
    "session.close": None,  # handled by Adapter.handle
}


def serve(connection):
    """The main loop of one connection: one harness request at a time, each answered with a result
    or an error, until the harness closes its end or calls adapter.shutdown."""
    adapter = Adapter(connection)
    while not adapter.finished:
        message = connection.next_request()
        if message is None:
            return  # the harness closed our input
        if VERBOSE:
            log(f"<- {message.method} {message.params}")
        if message.kind == "notification":
            continue  # the protocol has no harness notifications; nothing to answer
        try:
            result = adapter.handle(message.method, Params(message.params))
        except RpcError as error:
            connection.answer_error(message.id, error.code, error.message, error.data)
        except Refused as error:  # e.g. inspecting an account that does not exist
            connection.answer_error(message.id, ADAPTER_ERROR, str(error))
        except BadAction as error:
            connection.answer_error(message.id, INVALID_PARAMS, str(error))
        except HarnessGone:
            return
        except Exception as error:  # a bug in the example RP: report it, keep serving
            log(f"{message.method} failed:\n{traceback.format_exc()}")
            connection.answer_error(message.id, ADAPTER_ERROR, f"{type(error).__name__}: {error}")
        else:
            connection.answer(message.id, result)


def main():
    listen = listen_argument(sys.argv[1:], "python-adapter")  # exits with status 64 if malformed
    if listen is not None:
        # A fresh Adapter (and sessions) per connection; one connection's end is not the process's.
        sys.exit(serve_socket(listen, serve, log, verbose=VERBOSE))
    # Keep the protocol on a private copy of standard output and point file descriptor 1 at
    # standard error, so that a stray print() cannot corrupt the message stream.
    connection = stdio_connection(log)
    try:
        serve(connection)
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the harness has gone


if __name__ == "__main__":
    main()
