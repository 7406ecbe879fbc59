#!/usr/bin/env python3
"""A passkey-conformance adapter in front of django-allauth, served by a real Django server.

The app half is python-webauthn's app (Examples/python-webauthn/app.py); the server half is the
Django project in allauth_rp/ with django-allauth 65.21.1 (allauth.mfa's WebAuthn and passkey
login, the headless API's `app` client) configured as its documentation says, running as an HTTP
server process on 127.0.0.1 (Examples/loopback-common/). The app reaches it only through the
headless API and the project's small account API (Examples/django-common/project_api.py);
fixtures and inspections go through allauth's models.

    python3 Examples/django-allauth/adapter.py [--verbose]

Install the package with `python3 -m pip install "django-allauth[mfa]==65.21.1"`.
"""

import hashlib
import os
import sys

sys.dont_write_bytecode = True  # keep the examples directory free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "django-common"))

from django_rp import (CAPABILITIES, RP_ID, DjangoPackage, PackageServer, ProxiedClient,  # noqa: E402
                       RegistrationRejected, authentication_json, challenge_in, parse_creation_options,
                       registration_flags, registration_json, run_adapter, typed_code)
from passkey_base64url import b64url_decode  # noqa: E402
from server import Refused, SignInResult  # noqa: E402

# The headless API and the project's account API support every capability the app half declares
# (loopback_rp.CAPABILITIES; not recovery-sign-in and alternative-sign-in); the second factor is
# allauth.mfa's TOTP.
# A passkey is a second factor in allauth (mfa/adapter.py, is_mfa_enabled: any authenticator enables
# MFA), so a password-only account cannot hold one.
DECLARATIONS = ["passkey-second-factor"]

API = "/_allauth/app/v1"


def flows_of(answer):
    return [flow.get("id") for flow in answer.json().get("data", {}).get("flows", []) if flow.get("is_pending")]


class AllauthServer(PackageServer):
    package = "django-allauth"

    def __init__(self, base_url):
        super().__init__(base_url)
        # Through the TLS proxy (settings.py: USE_X_FORWARDED_HOST, SECURE_PROXY_SSL_HEADER), without
        # cookies: the app client's session is the token allauth hands it.
        self.http = ProxiedClient(base_url)
        self.session_token = None
        self.ceremony_tokens = {}  # challenge -> the session token of the sign-in ceremony that issued it
        self.next_name = 1
        self.pending = None  # (username, password) of a sign-in waiting for its second factor

    def headers(self):
        return {"X-Session-Token": self.session_token} if self.session_token else {}

    def _call(self, method, path, body=None, token=None, commits=False):
        if token is None:
            headers = self.headers()
        else:  # a ceremony's own session token, or none ("")
            headers = {"X-Session-Token": token} if token else {}
        return self.http.request(method, API + path, json_body=body, headers=headers, commits=commits)

    # Sign-in (headless/account/views.py LoginView; reauthentication as allauth.mfa requires it).

    def password_sign_in(self, username, password):
        answer = self._call("POST", "/auth/login", {"username": username, "password": password}, token="")
        self.pending = None
        if answer.status == 401 and "mfa_authenticate" in flows_of(answer):
            # The account has an authenticator: the sign-in waits for it (allauth's MFA stage).
            self.session_token = answer.json().get("meta", {}).get("session_token")
            self.pending = (username, password)
            return self.new_token(), "password-only"
        if answer.status != 200:
            raise Refused(answer.detail())
        self.session_token = answer.json()["meta"]["session_token"]
        self._reauthenticate(password)
        return self.new_token(), "full"

    def _reauthenticate(self, password):
        """allauth.mfa asks for a recent reauthentication before a passkey is added or removed
        (MFA_REAUTHENTICATION_REQUIRED, default True); the app gives the password the user just
        entered, once, right after the sign-in."""
        answer = self._call("POST", "/auth/reauthenticate", {"password": password})
        if answer.status != 200:
            raise Refused(f"reauthentication: {answer.detail()}")

    def second_factor(self, token, outcome):
        """The code the user's authenticator app shows: now (correct), another one (wrong), or one
        from ten minutes ago (expired), sent to allauth's MFA stage (POST …/auth/2fa/authenticate)."""
        if self.pending is None or token != self.current:
            raise Refused("no second factor is due")
        username, password = self.pending
        code = typed_code(lambda offset: totp_code(username, offset), outcome, expired_offset=-600)
        answer = self._call("POST", "/auth/2fa/authenticate", {"code": code})
        if answer.status != 200:
            raise Refused(answer.detail())
        self.session_token = answer.json().get("meta", {}).get("session_token") or self.session_token
        self.pending = None
        self._reauthenticate(password)

    def end_sign_in(self):
        self._call("DELETE", "/auth/session")
        self.session_token = self.pending = None

    # Registration (headless/mfa/views.py ManageWebAuthnView; mfa/webauthn/internal/auth.py).

    def registration_options(self, token, conditional, now):
        answer = self._call("GET", "/account/authenticators/webauthn?passwordless")
        if answer.status != 200:
            raise Refused(answer.detail())
        return parse_creation_options(answer.json()["data"]["creation_options"]["publicKey"])

    def finish_registration(self, token, credential_id, client_data_json, attestation_object, now):
        name = f"passkey {self.next_name}"
        self.next_name += 1
        answer = self._call("POST", "/account/authenticators/webauthn", {
            "name": name, "passwordless": True,
            "credential": registration_json(credential_id, client_data_json, attestation_object)}, commits=True)
        if answer.status != 200:
            raise RegistrationRejected(answer, registration_flags(attestation_object))
        return self._current_username()

    # Passkey sign-in (headless/mfa/views.py LoginWebAuthnView).

    def authentication_options(self, rp_id, now):
        answer = self._call("GET", "/auth/webauthn/login", token="")
        if answer.status != 200:
            raise Refused(answer.detail())
        body = answer.json()
        challenge = body["data"]["request_options"]["publicKey"]["challenge"]
        self.ceremony_tokens[challenge] = body.get("meta", {}).get("session_token")
        return b64url_decode(challenge)

    def finish_authentication(self, credential_id, client_data_json, authenticator_data, signature, user_handle, now):
        token = self.ceremony_tokens.pop(challenge_in(client_data_json), None) or "-"
        answer = self._call("POST", "/auth/webauthn/login", {"credential": authentication_json(
            credential_id, client_data_json, authenticator_data, signature, user_handle)}, token=token, commits=True)
        self.lookup_failed(answer)  # the project's test hook: the store could not be asked
        if answer.status == 403:  # the project's record of removed passkeys (project_api.lookup_guard)
            return SignInResult("revoked", message=answer.detail())
        if answer.status == 200:
            self.session_token = answer.json()["meta"]["session_token"]
            return SignInResult("signed-in", username=self._current_username(), token=self.new_token())
        # allauth answers every refusal with "Incorrect code." (incorrect_code): nothing says the id is unknown.
        return SignInResult("invalid", message=answer.detail())

    # Passkey management.

    def revoke(self, token, credential_id):
        """allauth's own endpoint: DELETE …/account/authenticators/webauthn {"authenticators": [id]}."""
        username, package_id = self.package_id_of(token, credential_id)
        answer = self._call("DELETE", "/account/authenticators/webauthn", {"authenticators": [package_id]})
        if answer.status != 200:
            raise Refused(answer.detail())
        return username


def fixture_registration(credential_id, public_key, sign_count):
    """A registration response as allauth stores one (Authenticator.data["credential"]), for a passkey
    made elsewhere: a `none` attestation whose authenticator data carries the credential."""
    from fido2 import cbor
    from fido2.cose import CoseKey
    from fido2.webauthn import (Aaguid, AttestationObject, AttestedCredentialData, AuthenticatorData,
                                CollectedClientData)
    data = AttestedCredentialData.create(Aaguid.NONE, credential_id, CoseKey.parse(cbor.decode(public_key)))
    flags = AuthenticatorData.FLAG.UP | AuthenticatorData.FLAG.UV | AuthenticatorData.FLAG.AT \
        | AuthenticatorData.FLAG.BE | AuthenticatorData.FLAG.BS
    auth_data = AuthenticatorData.create(hashlib.sha256(RP_ID.encode()).digest(), flags, sign_count, data)
    client_data = CollectedClientData.create(type="webauthn.create", challenge=b"fixture", origin=f"https://{RP_ID}")
    response = registration_json(credential_id, bytes(client_data), bytes(AttestationObject.create("none", auth_data, {})))
    response["clientExtensionResults"] = {"credProps": {"rk": True}}
    return response


def totp_code(username, offset_seconds):
    """The code the account's authenticator app shows (the fixture's secret, which the app holds too)."""
    import time
    from allauth.mfa.models import Authenticator
    from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
    from allauth.mfa.utils import decrypt
    authenticator = Authenticator.objects.get(user=Package.user(username), type=Authenticator.Type.TOTP)
    return format_hotp_value(hotp_value(decrypt(authenticator.data["secret"]), int(time.time() + offset_seconds) // 30))


class Package(DjangoPackage):
    name = "django-allauth"
    project = HERE
    settings_module = "allauth_rp.settings"
    capabilities = CAPABILITIES
    declarations = DECLARATIONS
    server_class = AllauthServer
    policies = ("password-only", "password-and-second-factor")

    @staticmethod
    def create_account(username, display_name, password, policy, restricted, rp_id):
        """A Django user; an account whose policy asks for a second factor gets allauth's TOTP."""
        DjangoPackage.create_account(username, display_name, password, policy, restricted, rp_id)
        if policy == "password-and-second-factor":
            from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
            TOTP.activate(Package.user(username), generate_totp_secret())

    @staticmethod
    def user(username):
        """The account the harness calls `username`: the username it signs in with (a rename
        changes its email address, the name allauth shows)."""
        from django.contrib.auth import get_user_model
        try:
            return get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist:
            raise Refused(f"no account {username}") from None

    @staticmethod
    def add_credential(username, credential_id, public_key, sign_count, state):
        """An allauth WebAuthn authenticator; allauth deletes a removed passkey, so a revoked one is
        the project's audit record of it (allauth_rp/models.py)."""
        from allauth.mfa.models import Authenticator
        from allauth_rp.models import RevokedPasskey
        user = Package.user(username)
        if state == "active":
            Authenticator.objects.create(user=user, type=Authenticator.Type.WEBAUTHN, data={
                "name": f"fixture {Authenticator.objects.filter(user=user).count() + 1}",
                "credential": fixture_registration(credential_id, public_key, sign_count)})
        else:
            RevokedPasskey.objects.create(user=user, credential_id=credential_id)

    @staticmethod
    def inspect_account(username):
        from allauth_rp.models import RevokedPasskey
        from allauth_rp.project import Hooks
        user = Package.user(username)
        return {
            "username": username, "accountID": str(user.pk), "userHandle": Hooks.user_handle(user),
            "rpID": RP_ID, "name": Hooks.account_name(user), "displayName": Hooks.display_name(user),
            "credentials": [{"credentialID": credential_id, "rpID": RP_ID, "state": "active"}
                            for credential_id, _ in Hooks.credentials(user)]
            + [{"credentialID": bytes(record.credential_id), "rpID": RP_ID, "state": "revoked"}
               for record in RevokedPasskey.objects.filter(user=user).order_by("pk")],
        }


if __name__ == "__main__":
    run_adapter(Package, sys.argv[1:])
