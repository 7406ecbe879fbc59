"""The app half of the adapter protocol, shared by every adapter that drives app.py: the harness's
platform as the app sees it, the session methods that reach only the app, and the main loop.

An adapter supplies what depends on its server: `open_session` (a fresh app and server for one
test case), the methods that reach the server directly (fixtures, inspections, faults) and its
description for `adapter.hello`. Examples/python-webauthn/adapter.py (an in-memory server) and the
examples in front of real packages (Examples/loopback-common/) are built on it. The transport
(JSON-RPC over standard input and output, or a socket) is ../python-common/passkey_jsonrpc.py,
which the adapter puts on the path.
"""

import traceback

from app import Action, BadAction, Device, PlatformError, PlatformOutcome
from passkey_jsonrpc import (ADAPTER_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, PLATFORM_CALL_FAILED, UNKNOWN_SESSION,
                             UNSUPPORTED_VERSION, HarnessGone, Params, RpcError)
from server import Refused

PROTOCOL_VERSION = "1.3"

# Every target of the harness's TargetCatalog: the app checks the device's versions at run time.
ALL_TARGETS = [
    "apple-17.4", "apple-18", "apple-18-third-party", "apple-18-third-party-no-conditional", "apple-26.0", "apple-26.1", "apple-26.2",
    "macos-14", "macos-15", "visionos-2", "macos-26.2", "visionos-26.2",
    "android-15-gpm", "android-15-gpm-play-25.12", "android-15-third-party", "android-15-third-party-no-events", "android-14-gpm",
    "android-15-androidx-1.5",
]

ACTION_KINDS = (
    "password-sign-in", "second-factor", "recovery-sign-in", "alternative-sign-in", "passkey-sign-in", "sign-out",
    "switch-account", "create-passkey", "revoke-passkey", "rename", "refresh", "manage-passkeys", "relaunch",
)


class HarnessPlatform:
    """The platform of one session as the app sees it: each method is a call to the harness."""

    def __init__(self, connection, session):
        self.connection, self.session = connection, session

    def create_credential(self, request):
        return self._call("platform.createCredential", ("operation", str), request=request)

    def signal(self, request):
        return self._call("platform.signal", ("operation", str), request=request)

    def get_credential(self, request):
        return self._call("platform.getCredential", ("operation", str), request=request)

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


def device_of(context: Params) -> Device:
    """The device of a session's context, as the app reads it at run time."""
    device = context.object("device")
    return Device(platform=device.choice("platform", ("apple", "android", "web")), os_version=device.string("osVersion"),
                  library_version=device.string("credentialsLibraryVersion", optional=True),
                  app_origin=device.string("appOrigin", optional=True),
                  os_family=device.choice("osFamily", ("ios", "ipados", "macos", "visionos", "android", "chromium"), optional=True))


# The session methods that reach only the app; `session.app` is an app.App.

def perform(session, params):
    action = params.object("action")
    outcome = session.app.perform(Action(
        kind=action.choice("kind", ACTION_KINDS), username=action.string("username", optional=True),
        password=action.string("password", optional=True),
        second_factor=action.choice("secondFactor", ("correct", "wrong", "expired"), optional=True),
        credential_id=action.bytes("credentialID", optional=True), rp_id=action.string("rpID", optional=True),
        new_name=action.string("newName", optional=True),
        new_display_name=action.string("newDisplayName", optional=True),
        confirmed=action.boolean("confirmed", optional=True)))
    if outcome.message is None:
        return {"status": outcome.status}
    return {"status": outcome.status, "message": outcome.message}


def inspect_session(session, params):
    if getattr(session, "web", None) is not None:
        return session.web.session_snapshot()
    app = session.app
    return {"stage": app.stage} if app.username is None else {"stage": app.stage, "username": app.username}


def platform_completed(session, params):
    outcome = params.object("outcome")
    error = outcome.object("error", optional=True)
    apple = outcome.object("appleRegistration", optional=True)
    assertion = outcome.object("appleAssertion", optional=True)
    session.app.platform_completed(params.string("operation"), PlatformOutcome(
        error=None if error is None else PlatformError(
            name=error.string("name"), message=error.string("message"), type=error.string("type", optional=True),
            domain=error.string("domain", optional=True), code=error.integer("code", optional=True),
            retry_millis=error.integer("retryMillis", optional=True)),
        android_registration_json=outcome.string("androidRegistrationResponseJson", optional=True),
        apple_registration=None if apple is None else (
            apple.bytes("credentialID"), apple.bytes("rawClientDataJSON"), apple.bytes("rawAttestationObject")),
        android_authentication_json=outcome.string("androidAuthenticationResponseJson", optional=True),
        apple_assertion=None if assertion is None else (
            assertion.bytes("credentialID"), assertion.bytes("userID", optional=True),
            assertion.bytes("rawClientDataJSON"), assertion.bytes("rawAuthenticatorData"), assertion.bytes("signature"))))
    return {}


def timer_fired(session, params):
    session.app.timer_fired(params.string("timer"))
    return {}


APP_HANDLERS = {
    "session.perform": perform,
    "session.inspectSession": inspect_session,
    "session.platformCompleted": platform_completed,
    "session.timerFired": timer_fired,
}


class Dispatcher:
    """Routes the harness's requests: version negotiation, sessions, and each session method to its
    handler. `handlers` maps the session methods to functions of (session, params)."""

    def __init__(self, connection, describe, open_session, handlers, close_session=None, shut_down=None):
        self.connection = connection
        self.describe, self.open_session, self.handlers = describe, open_session, handlers
        self.close_session = close_session or (lambda session: None)
        self.shut_down = shut_down or (lambda: None)
        self.sessions = {}
        self.greeted = False
        self.finished = False

    def handle(self, method, params: Params):
        if method not in self.handlers and method not in ("adapter.hello", "adapter.shutdown", "session.open", "session.close"):
            raise RpcError(METHOD_NOT_FOUND, f"the adapter has no method {method}")
        if method == "adapter.hello":
            return self.hello(params)
        if not self.greeted:
            raise RpcError(UNSUPPORTED_VERSION, "call adapter.hello first")
        if method == "adapter.shutdown":
            self.close_all()
            self.finished = True
            return {}
        session_id = params.string("session")
        if method == "session.open":
            if session_id in self.sessions:
                raise RpcError(INVALID_PARAMS, f"session {session_id} is already open")
            context = params.object("context")
            self.sessions[session_id] = self.open_session(context, HarnessPlatform(self.connection, session_id))
            return {"session": session_id}
        session = self.sessions.get(session_id)
        if session is None:
            raise RpcError(UNKNOWN_SESSION, f"no open session {session_id}")
        if method == "session.close":
            self.close_session(self.sessions.pop(session_id))
            return {}
        return self.handlers[method](session, params)

    def close_all(self):
        for session in self.sessions.values():
            self.close_session(session)
        self.sessions.clear()
        self.shut_down()

    def hello(self, params):
        version = params.string("protocolVersion")
        if version.split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
            raise RpcError(UNSUPPORTED_VERSION,
                           f"the harness speaks protocol {version}; this adapter speaks {PROTOCOL_VERSION}",
                           data={"supported": PROTOCOL_VERSION})
        self.greeted = True
        return {"protocolVersion": PROTOCOL_VERSION, **self.describe()}


def serve(connection, dispatcher, log, verbose=False):
    """The main loop of one connection: one harness request at a time, each answered with a result
    or an error, until the harness closes its end or calls adapter.shutdown."""
    while not dispatcher.finished:
        message = connection.next_request()
        if message is None:
            return  # the harness closed our input
        if verbose:
            log(f"<- {message.method} {message.params}")
        if message.kind == "notification":
            continue  # the protocol has no harness notifications; nothing to answer
        try:
            result = dispatcher.handle(message.method, Params(message.params))
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
