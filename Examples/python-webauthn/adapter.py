#!/usr/bin/env python3
"""A passkey-conformance adapter whose server verifies with a real WebAuthn library.

The harness starts this process and speaks JSON-RPC 2.0 with it over standard input and output,
one message per line. Each test case is a session: a fresh app (app.py) and in-memory server
(server.py); the server hands every registration and assertion to a real library (verifiers.py).

    python3 Examples/python-webauthn/adapter.py                     careful py_webauthn configuration
    python3 Examples/python-webauthn/adapter.py --library-defaults  py_webauthn's default verification
    python3 Examples/python-webauthn/adapter.py --verifier fido2    python-fido2's Fido2Server

Run it through the harness:

    swift run passkey-conformance run --adapter-command "python3 Examples/python-webauthn/adapter.py"

Pass --verbose to log every message on standard error. Install the libraries with
`python3 -m pip install webauthn fido2`. With `--listen unix:PATH` (or `--listen tcp:127.0.0.1:PORT`)
it listens on that socket instead, serving one harness connection after another
(`passkey-conformance run --adapter-connect unix:PATH`) until SIGTERM or SIGINT. The protocol's
transport is ../python-common/passkey_jsonrpc.py, shared by every Python example.
"""

import os
import sys

if sys.version_info < (3, 9):
    sys.exit(f"python-webauthn-adapter: needs Python 3.9 or later, this is {sys.version.split()[0]}")
sys.dont_write_bytecode = True  # keep the examples directory free of __pycache__

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python-common"))

import argparse  # noqa: E402

from app import App  # noqa: E402
from app_protocol import ALL_TARGETS, APP_HANDLERS, Dispatcher, device_of, serve  # noqa: E402
from passkey_jsonrpc import (EX_USAGE, INVALID_PARAMS, RpcError, parse_listen_address, serve_socket,  # noqa: E402
                             stdio_connection)
from server import FAULT_KINDS, AccountFixture, Server  # noqa: E402
from verifiers import make_verifier  # noqa: E402
from web import DESIGNS, MUTANTS, WebFrontEnd  # noqa: E402

NAME, VERSION = "python-webauthn-example-rp", "1.0.0"

# The RP IDs the relying party is configured with; the first is the primary one.
RELYING_PARTY_IDS = ["login.example.com", "accounts.example.org"]

# What this example implements.
CAPABILITIES = [
    "conditional-create", "passkey-sign-in", "second-factor", "recovery-sign-in", "account-switch",
    "explicit-creation", "signals", "revocation", "refresh-point", "rename", "fault-injection",
    "alternative-sign-in", "relaunch",
]


def parse_arguments(arguments):
    parser = argparse.ArgumentParser(description="passkey-conformance adapter with a real WebAuthn library")
    parser.add_argument("--verifier", choices=("webauthn", "fido2"), default="webauthn",
                        help="the library that verifies registrations and assertions (default: webauthn)")
    parser.add_argument("--library-defaults", action="store_true",
                        help="call py_webauthn with its default arguments (user presence always required)")
    parser.add_argument("--verbose", action="store_true", help="log every message on standard error")
    parser.add_argument("--web-mutant", choices=sorted(MUTANTS), help="a fault of the web front end (web targets only)")
    parser.add_argument("--web-design", choices=sorted(DESIGNS), help="another conforming design of the web front end")
    parser.add_argument("--describe", action="store_true",
                        help="print the configuration (library, version, the line that makes the difference) as JSON and exit")
    parser.add_argument("--listen", metavar="unix:PATH|tcp:127.0.0.1:PORT",
                        help="listen on this socket and serve one harness connection after another "
                             "(run --adapter-connect), instead of standard input and output")
    options = parser.parse_args(arguments)
    if options.library_defaults and options.verifier != "webauthn":
        parser.error("--library-defaults applies to --verifier webauthn")
    if options.listen is not None:
        try:
            options.listen = parse_listen_address(options.listen)
        except ValueError as error:
            parser.exit(EX_USAGE, f"{parser.prog}: --listen: {error}\n")
    options.configuration = "fido2" if options.verifier == "fido2" else (
        "library-defaults" if options.library_defaults else "careful")
    return options


OPTIONS = parse_arguments(sys.argv[1:])
VERBOSE = OPTIONS.verbose


def log(text):
    print(f"python-webauthn-adapter: {text}", file=sys.stderr, flush=True)


class Session:
    """One test case: a fresh server and app."""

    def __init__(self, context, platform, verifier):
        self.device = device_of(context)
        # A web page at login.example.com answers for both RP IDs (accounts.example.org names it as
        # a related origin), so the server accepts that origin too.
        app_origin = "https://login.example.com" if self.device.platform == "web" else self.device.app_origin
        self.server = Server(seed=context.integer("seed"), app_origin=app_origin, verifier=verifier)
        self.app = App(self.device, self.server, platform, primary_rp_id=RELYING_PARTY_IDS[0])
        # On a web target the app is the page in the harness's browser; its requests come here.
        self.web = WebFrontEnd(self.server, platform.now, OPTIONS.web_mutant, OPTIONS.web_design) if self.device.platform == "web" else None


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


def inspect_account(session, params):
    account = session.server.account(params.string("username"))
    return {
        "username": account.username, "accountID": account.account_id, "userHandle": account.user_handle,
        "rpID": account.rp_id, "name": account.name, "displayName": account.display_name,
        "credentials": [{"credentialID": credential.id, "rpID": credential.rp_id, "state": credential.state}
                        for credential in account.credentials],
    }


def inject_fault(session, params):
    fault = params.object("fault")
    kind = fault.choice("kind", FAULT_KINDS + ("network-failure", "answer-lost-after-commit"))
    count = fault.integer("count", optional=True)
    target = session.web or session.app  # on a web target the page's network fails
    if kind == "network-failure":
        target.network_failures = float("inf") if count is None else count
    elif kind == "answer-lost-after-commit":
        target.lost_answers = float("inf") if count is None else count
    else:
        session.server.inject(kind, count)
    return {}


def web_request(session, params):
    if session.web is None:
        raise RpcError(INVALID_PARAMS, "this session is not on a web target")
    request = params.object("request")
    status, content_type, body = session.web.handle(
        request.string("method"), request.string("url"), request.string("body", optional=True))
    return {"status": status, "contentType": content_type, "body": body}


HANDLERS = {
    **APP_HANDLERS,
    "session.setUp": set_up,
    "session.addCredential": add_credential,
    "session.inspectAccount": inspect_account,
    "session.injectFault": inject_fault,
    "session.webRequest": web_request,
}

WEB_TARGETS = ["web-chromium", "web-chromium-declining", "web-chromium-no-signals", "web-chromium-no-conditional-create"]


def describe():
    return {"name": NAME, "version": VERSION, "targets": ALL_TARGETS + WEB_TARGETS, "capabilities": CAPABILITIES,
            "relyingPartyIDs": RELYING_PARTY_IDS,
            "web": {"startURL": "https://login.example.com/", "origins": ["https://login.example.com", "https://accounts.example.org"]}}


def main():
    if OPTIONS.describe:
        import json
        verifier = make_verifier(OPTIONS.configuration)
        print(json.dumps({"configuration": OPTIONS.configuration, "library": verifier.package,
                          "version": verifier.version, "line": verifier.configuration_line}))
        return
    # On standard input and output, the protocol is set aside before the libraries load (a print of
    # theirs then goes to standard error); over a socket, standard output is not the protocol's.
    connection = None if OPTIONS.listen else stdio_connection(log)
    try:
        verifier = make_verifier(OPTIONS.configuration)
    except ImportError as error:
        log(f"cannot load the verification library ({error}); install it: python3 -m pip install webauthn fido2")
        raise SystemExit(1) from None
    log(f"verifying with {verifier.package} {verifier.version} ({OPTIONS.configuration})")

    def serve_connection(connection):
        """One harness connection: its own dispatcher and sessions."""
        dispatcher = Dispatcher(connection, describe, lambda context, platform: Session(context, platform, verifier), HANDLERS)
        serve(connection, dispatcher, log, verbose=VERBOSE)

    if OPTIONS.listen:
        sys.exit(serve_socket(OPTIONS.listen, serve_connection, log, verbose=VERBOSE))
    try:
        serve_connection(connection)
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the harness has gone


if __name__ == "__main__":
    main()
