"""The example relying party's web front end: its pages and the HTTP API they call.

On a web target the harness loads the page (web/index.html, web/app.js) in Chromium; every
request the page makes to https://<RP ID> reaches this module through `session.webRequest`. The
page does in JavaScript what app.py does natively: password sign-in and the automatic passkey
upgrade after it, explicit creation, passkey sign-in, revocation, rename and the three signals of
PublicKeyCredential. The server (server.py) is the same, and verifies with the same library.

`--web-mutant NAME` (see MUTANTS) and `--web-design NAME` (see DESIGNS) change what the page does,
to show the harness catches faults of a web relying party and passes other conforming designs.
"""

from __future__ import annotations

import json
import os
import sys
from urllib.parse import urlsplit

# The adapter puts ../python-common on the path too; this module is also imported on its own
# (Scripts/web-selftest.sh reads MUTANTS and DESIGNS).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python-common"))

from passkey_base64url import b64url_decode, b64url_encode  # noqa: E402
from server import LookupFailed, Refused  # noqa: E402

# The page's origin; the second RP ID's site names it as a related origin.
WEB_ORIGIN = "https://login.example.com"

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web")

# Faults of a web relying party, two forms per item the web wording covers.
MUTANTS = {
    "upgrade-without-capability-check": "asks for a conditional create without reading getClientCapabilities()",
    "upgrade-modal-fallback": "falls back to a modal create where the browser has no conditional create",
    "upgrade-before-second-factor": "asks for the upgrade after the password, before the second factor",
    "upgrade-after-alternative-sign-in": "asks for the upgrade after a sign-in without the stored password (a magic link)",
    "partial-accepted-list": "leaves the newest passkey out of signalAllAcceptedCredentials",
    "accepted-list-before-change": "sends the list it read before the change that triggered the reconciliation",
    "user-details-without-display-name": "calls signalCurrentUserDetails without displayName",
    "user-details-old-name": "calls signalCurrentUserDetails with the name from before the rename",
}

# Other conforming designs: the harness must pass them too.
DESIGNS = {
    "upgrade-delay": "asks for the upgrade 3 s after the sign-in instead of at once",
    "signal-schedule": "coalesces reconciliations over 30 s instead of 1 s",
}


class WebFrontEnd:
    """The page's view of one test case: what it is served and what its API calls do."""

    def __init__(self, server, now, mutant=None, design=None):
        self.server = server
        self.now = now  # the harness's virtual clock, in milliseconds
        self.mutant = mutant or ""
        self.design = design or ""
        self.stage = "signed-out"
        self.username = None
        self.token = None  # the sign-in the page holds now
        # Injected faults of the network between the page and the server (float("inf"): all): a
        # submission that never reaches the server, and a committed request whose answer is lost.
        self.network_failures = 0
        self.lost_answers = 0

    def session_snapshot(self):
        return {"stage": self.stage} if self.username is None else {"stage": self.stage, "username": self.username}

    def handle(self, method, url, body):
        """The answer to one request of the page: (status, content type, body text)."""
        path = urlsplit(url).path or "/"
        if method == "GET":
            return self._file(url, path)
        try:
            request = json.loads(body or "{}")
        except ValueError:
            return _json(400, {"error": "the body is not JSON"})
        handler = self.API.get(path)
        if handler is None:
            return _json(404, {"error": f"no API {path}"})
        submits = path in ("/api/registration", "/api/authentication")
        if submits and self.network_failures > 0:
            self.network_failures -= 1
            return _json(503, {"error": "the server cannot be reached", "network": True})
        try:
            answer = handler(self, request)
            if (submits or path == "/api/accepted-list") and self.lost_answers > 0:
                self.lost_answers -= 1
                return _json(503, {"error": "the server's answer was lost", "network": True})
            return _json(200, answer)
        except Refused as refusal:
            return _json(403, {"error": str(refusal), "flags": refusal.flags, "rejectedFlags": refusal.rejected_flags})
        except LookupFailed as failure:
            return _json(503, {"error": str(failure)})

    def _file(self, url, path):
        if path == "/.well-known/webauthn":
            # Related Origin Requests (WebAuthn Level 3): the page at login.example.com may use the
            # second RP ID, accounts.example.org, which names it here.
            return 200, "application/json", json.dumps({"origins": [WEB_ORIGIN]})
        if urlsplit(url).hostname != urlsplit(WEB_ORIGIN).hostname:
            return 404, "text/plain", "not found"
        name = {"/": "index.html", "/app.js": "app.js"}.get(path)
        if name is None:
            return 404, "text/plain", "not found"
        with open(os.path.join(HERE, name), encoding="utf-8") as file:
            text = file.read()
        if name == "index.html":
            text = text.replace("{{mutant}}", self.mutant).replace("{{design}}", self.design)
        return 200, "text/html; charset=utf-8" if name.endswith(".html") else "text/javascript", text

    # The API.

    def sign_in(self, request):
        token, assurance = self.server.password_sign_in(request["username"], request["password"])
        self.username, self.token = request["username"], token
        self.stage = "signed-in" if assurance == "full" else "awaiting-second-factor"
        return {"token": token, "stage": self.stage}

    def second_factor(self, request):
        self.server.second_factor(request["token"], request["outcome"])
        self.stage = "signed-in"
        return {"stage": self.stage}

    def recovery(self, request):
        token = self.server.recovery_sign_in(request["username"])
        self.username, self.stage, self.token = request["username"], "signed-in-limited", token
        return {"token": token, "stage": self.stage}

    def alternative(self, request):
        token = self.server.alternative_sign_in(request["username"])
        self.username, self.stage, self.token = request["username"], "signed-in", token
        return {"token": token, "stage": self.stage}

    def sign_out(self, request):
        token = request.get("token")
        if token:
            self.server.sign_out(token)
        if token is None or token == self.token:
            # The page's own sign-in ended; ending an earlier one (replaced by a new sign-in) leaves it.
            self.username, self.stage, self.token = None, "signed-out", None
        return {}

    def registration_options(self, request):
        options = self.server.registration_options(request["token"], bool(request.get("conditional")), self.now())
        return {
            "challenge": b64url_encode(options.challenge),
            "rp": {"id": options.rp_id, "name": "Example"},
            "user": {"id": b64url_encode(options.user_handle), "name": options.user_name, "displayName": options.display_name},
            "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
            "excludeCredentials": [{"type": "public-key", "id": b64url_encode(credential_id)} for credential_id in options.excluded],
            "authenticatorSelection": {"residentKey": "required", "userVerification": "preferred"},
            "attestation": "none",
        }

    def registration(self, request):
        credential = request["credential"]
        response = credential["response"]
        username = self.server.finish_registration(
            request["token"], b64url_decode(credential["rawId"]), b64url_decode(response["clientDataJSON"]),
            b64url_decode(response["attestationObject"]), self.now())
        return {"username": username}

    def authentication_options(self, request):
        rp_id = request.get("rpId") or "login.example.com"
        challenge = self.server.authentication_options(rp_id, self.now())
        return {"challenge": b64url_encode(challenge), "rpId": rp_id, "userVerification": "preferred"}

    def authentication(self, request):
        credential = request["credential"]
        response = credential["response"]
        handle = response.get("userHandle")
        result = self.server.finish_authentication(
            b64url_decode(credential["rawId"]), b64url_decode(response["clientDataJSON"]),
            b64url_decode(response["authenticatorData"]), b64url_decode(response["signature"]),
            b64url_decode(handle) if handle else None, self.now())
        if result.kind == "signed-in":
            self.username, self.stage, self.token = result.username, "signed-in", result.token
        return {"status": result.kind, "username": result.username, "token": result.token, "message": result.message}

    def revoke(self, request):
        return {"username": self.server.revoke(request["token"], b64url_decode(request["credentialId"]))}

    def rename(self, request):
        username = self.server.rename(request["token"], request.get("name"), request.get("displayName"),
                                      confirmed=request.get("confirmed") is True)
        return self.user_details({"token": request["token"]}) | {"username": username}

    def user_details(self, request):
        account = self.server.account(self.server.fully_signed_in(request["token"]))
        return {"rpId": account.rp_id, "userId": b64url_encode(account.user_handle), "name": account.name,
                "displayName": account.display_name}

    def accepted_list(self, request):
        account = self.server.account(self.server.fully_signed_in(request["token"]))
        ids = self.server.accepted_list(account.username)
        return {"rpId": account.rp_id, "userId": b64url_encode(account.user_handle),
                "allAcceptedCredentialIds": [b64url_encode(credential_id) for credential_id in ids]}

    def passkeys(self, request):
        account = self.server.account(self.server.fully_signed_in(request["token"]))
        return {"count": len(account.accepted_ids())}

    API = {
        "/api/sign-in": sign_in, "/api/second-factor": second_factor, "/api/recovery": recovery,
        "/api/alternative": alternative, "/api/sign-out": sign_out,
        "/api/registration-options": registration_options, "/api/registration": registration,
        "/api/authentication-options": authentication_options, "/api/authentication": authentication,
        "/api/revoke": revoke, "/api/rename": rename, "/api/user-details": user_details,
        "/api/accepted-list": accepted_list, "/api/passkeys": passkeys,
    }


def _json(status, value):
    return status, "application/json", json.dumps(value)
