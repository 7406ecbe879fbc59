#!/usr/bin/env python3
"""A passkey-conformance adapter in front of django-otp-webauthn, served by a real Django server.

The app half is python-webauthn's app (Examples/python-webauthn/app.py); the server half is the
Django project in otp_rp/ with django-otp-webauthn installed and configured as its documentation
says, running as an HTTP server process on 127.0.0.1 (Examples/loopback-common/). The app reaches it
only through Django's sign-in views, the package's four WebAuthn endpoints and the project's small
account API (Examples/django-common/project_api.py); fixtures and inspections go through the
package's models.

    python3 Examples/django-otp-webauthn/adapter.py [--verbose] [--upgrade-helper]

--upgrade-helper serves the project with its own helper class (otp_rp/upgrade_helper.py, the
documented OTP_WEBAUTHN_HELPER_CLASS), which waives user presence for the options the server issued
as conditional: what a project adds so that automatic upgrades are stored.

Install the package with `python3 -m pip install django-otp-webauthn==0.10.3`.
"""

import os
import sys

sys.dont_write_bytecode = True  # keep the examples directory free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "django-common"))

from django_rp import (CAPABILITIES, DjangoPackage, PackageServer, RegistrationRejected,  # noqa: E402
                       authentication_json, parse_creation_options, registration_flags, registration_json,
                       run_adapter, typed_code)
from server import LookupFailed, Refused, SignInResult  # noqa: E402

# The package and the project's account API support every capability the app half declares
# (loopback_rp.CAPABILITIES; not recovery-sign-in and alternative-sign-in: the project has no other
# sign-in path); the second factor is django_otp's TOTP device, for the accounts whose policy asks
# for one.
TOTP_STEP_SECONDS = 30  # django_otp's TOTPDevice default


class OTPWebAuthnServer(PackageServer):
    package = "django-otp-webauthn"

    def headers(self):
        """Django's CSRF protection covers the package's and the project's views: the app sends the
        cookie's token back, as the package's own JavaScript does. A client without the cookie
        fetches the sign-in form."""
        if self.http.cookie("csrftoken") is None:
            self.http.request("GET", "/accounts/login/")
        return {"X-CSRFToken": self.http.cookie("csrftoken") or ""}

    def _post(self, path, body=None, commits=False):
        return self.http.request("POST", path, json_body=body or {}, headers=self.headers(), commits=commits)

    # Django's own password sign-in (django.contrib.auth.views.LoginView / LogoutView).

    def password_sign_in(self, username, password):
        answer = self.http.request("POST", "/accounts/login/", form={"username": username, "password": password},
                                   headers=self.headers())
        if answer.status != 302:
            raise Refused("wrong username or password, or an inactive account")
        self.username = username
        return self.new_token(), "password-only" if self._me().get("secondFactorDue") else "full"

    def second_factor(self, token, outcome):
        """The user types the code their authenticator app shows: now (correct), another one (wrong),
        or one from ten steps ago (expired); the project checks it with django_otp's OTPTokenForm."""
        code = typed_code(lambda offset: totp_code(self.username, offset), outcome,
                          expired_offset=-10 * TOTP_STEP_SECONDS)
        answer = self._post("/project/second-factor", {"code": code})
        if answer.status != 200:
            raise Refused(answer.detail())

    def end_sign_in(self):
        self.http.request("POST", "/accounts/logout/", form={}, headers=self.headers())

    # The package's registration endpoints (django_otp_webauthn/views.py).

    def registration_options(self, token, conditional, now):
        # The project's own helper (--upgrade-helper) records whether the options are conditional;
        # the package's helper ignores the query.
        answer = self._post("/webauthn/registration/begin/" + ("?conditional=1" if conditional else ""))
        if answer.status != 200:
            raise Refused(answer.detail())
        return parse_creation_options(answer.json())

    def finish_registration(self, token, credential_id, client_data_json, attestation_object, now):
        answer = self._post("/webauthn/registration/complete/",
                            registration_json(credential_id, client_data_json, attestation_object), commits=True)
        if answer.status != 200:
            raise RegistrationRejected(answer, registration_flags(attestation_object))
        return credential_owner(answer.json().get("id"))

    # The package's authentication endpoints.

    def authentication_options(self, rp_id, now):
        answer = self._post("/webauthn/authentication/begin/")
        if answer.status != 200:
            raise Refused(answer.detail())
        from passkey_base64url import b64url_decode
        return b64url_decode(answer.json()["challenge"])

    def finish_authentication(self, credential_id, client_data_json, authenticator_data, signature, user_handle, now):
        answer = self._post("/webauthn/authentication/complete/", authentication_json(
            credential_id, client_data_json, authenticator_data, signature, user_handle), commits=True)
        self.lookup_failed(answer)  # the project's test hook: the store could not be asked
        if answer.status == 200:
            return SignInResult("signed-in", username=credential_owner(answer.json().get("id")), token=self.new_token())
        code = answer.json().get("code")
        if code == "credential_not_found":  # views.py: helpers.authenticate_complete found no record of the id
            return SignInResult("unknown-credential", message=answer.detail())
        if code == "credential_disabled":
            return SignInResult("revoked", message=answer.detail())
        if code == "user_disabled":
            return SignInResult("restricted", message=answer.detail())
        if answer.status >= 500:
            raise LookupFailed(answer.detail())
        return SignInResult("invalid", message=answer.detail())


def totp_key(username):
    """The secret of the account's TOTP device (the fixture's; the user's authenticator app holds it too)."""
    import hashlib
    return hashlib.sha1(f"totp:{username}".encode("utf-8")).digest()


def totp_code(username, offset_seconds):
    import time
    from django_otp.oath import TOTP
    generator = TOTP(totp_key(username), step=TOTP_STEP_SECONDS)
    generator.time = time.time() + offset_seconds
    return f"{generator.token():06d}"


def credential_owner(device_id):
    """The username of the account a credential (the package's device id) belongs to."""
    from django_otp_webauthn.models import WebAuthnCredential
    return WebAuthnCredential.objects.select_related("user").get(pk=device_id).user.email  # the account's key


class Package(DjangoPackage):
    name = "django-otp-webauthn"
    project = HERE
    settings_module = "otp_rp.settings"
    capabilities = CAPABILITIES
    server_class = OTPWebAuthnServer
    policies = ("password-only", "password-and-second-factor")

    @staticmethod
    def create_account(username, display_name, password, policy, restricted, rp_id):
        """A Django user; an account whose policy asks for a second factor gets a TOTP device."""
        DjangoPackage.create_account(username, display_name, password, policy, restricted, rp_id)
        if policy == "password-and-second-factor":
            from django_otp.plugins.otp_totp.models import TOTPDevice
            TOTPDevice.objects.create(user=Package.user(username), name="authenticator app",
                                      key=totp_key(username).hex(), step=TOTP_STEP_SECONDS, confirmed=True)

    # Fixtures and inspections, through Django's and the package's models.

    @staticmethod
    def add_credential(username, credential_id, public_key, sign_count, state):
        from django_otp_webauthn.models import WebAuthnCredential
        user = Package.user(username)
        # A revoked passkey is a disabled device: the package refuses it (check_device_usable).
        WebAuthnCredential.objects.create(user=user, name="passkey", credential_id=credential_id,
                                          public_key=public_key, sign_count=sign_count,
                                          confirmed=state == "active", discoverable=True)

    @staticmethod
    def inspect_account(username):
        from django_otp_webauthn.helpers import WebAuthnHelper
        from django_otp_webauthn.models import WebAuthnCredential, WebAuthnUserHandle
        user = Package.user(username)
        credentials = WebAuthnCredential.objects.filter(user=user).order_by("pk")
        helper = WebAuthnHelper(request=None)  # the names the package puts into its registration options
        return {
            "username": username, "accountID": str(user.pk), "userHandle": WebAuthnUserHandle.get_handle_for_user(user),
            "rpID": Package.relying_party_ids[0], "name": helper.get_credential_name(user),
            "displayName": helper.get_credential_display_name(user),
            "credentials": [{"credentialID": bytes(credential.credential_id), "rpID": Package.relying_party_ids[0],
                             "state": "active" if credential.confirmed else "revoked"} for credential in credentials],
        }


if __name__ == "__main__":
    if "--upgrade-helper" in sys.argv[1:]:
        Package.settings_module = "otp_rp.settings_upgrade"
    run_adapter(Package, sys.argv[1:])
