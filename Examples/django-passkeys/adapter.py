#!/usr/bin/env python3
"""A passkey-conformance adapter in front of django-passkeys, served by a real Django server.

The app half is python-webauthn's app (Examples/python-webauthn/app.py); the server half is the
Django project in passkeys_rp/ with django-passkeys and its REST API (the integration its
documentation recommends for mobile apps), running as an HTTP server process on 127.0.0.1
(Examples/loopback-common/). The app reaches it only through Django REST framework's token sign-in,
the package's API endpoints and the project's small account API (Examples/django-common/
project_api.py); fixtures and inspections go through the package's models.

    python3 Examples/django-passkeys/adapter.py [--verbose]

Install the package with `python3 -m pip install "django-passkeys[drf]==2.1"`.
"""

import os
import sys

sys.dont_write_bytecode = True  # keep the examples directory free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "django-common"))

from django_rp import (CAPABILITIES, DjangoPackage, PackageServer, RegistrationRejected,  # noqa: E402
                       authentication_json, challenge_in, parse_creation_options, registration_json, run_adapter)
from passkey_base64url import b64url_decode, b64url_encode  # noqa: E402
from server import Refused, SignInResult  # noqa: E402

# The package's REST API and the project's account API support what the app half declares
# (loopback_rp.CAPABILITIES) but a second factor: the project has no sign-in path besides the
# password and the passkey.
PASSKEYS_CAPABILITIES = [capability for capability in CAPABILITIES if capability != "second-factor"]


class PasskeysServer(PackageServer):
    package = "django-passkeys"

    def __init__(self, base_url):
        super().__init__(base_url)
        self.api_token = None
        self.username = None  # the account the API token belongs to
        self.state_tokens = {}  # challenge -> the package's signed state token for that ceremony

    def headers(self):
        return {"Authorization": f"Token {self.api_token}"} if self.api_token else {}

    def _post(self, path, body, commits=False):
        return self.http.request("POST", path, json_body=body, headers=self.headers(), commits=commits)

    # Django REST framework's token sign-in (rest_framework.authtoken.views.obtain_auth_token).

    def password_sign_in(self, username, password):
        answer = self.http.request("POST", "/api/token/", json_body={"username": username, "password": password})
        if answer.status != 200:
            raise Refused(answer.detail())
        self.api_token, self.username = answer.json()["token"], username
        return self.new_token(), "full"

    def end_sign_in(self):
        self.api_token = self.username = None  # a token client signs out by forgetting its token

    # The package's registration API (passkeys/api/views.py).

    def registration_options(self, token, conditional, now):
        answer = self._post("/passkeys/api/register/options", {})
        if answer.status != 200:
            raise Refused(answer.detail())
        body = answer.json()
        options = body["options"]["publicKey"]
        self.state_tokens[options["challenge"]] = body["state_token"]
        return parse_creation_options(options)

    def finish_registration(self, token, credential_id, client_data_json, attestation_object, now):
        state_token = self.state_tokens.pop(challenge_in(client_data_json), "")
        answer = self._post("/passkeys/api/register/verify", {
            "state_token": state_token, "credential": registration_json(credential_id, client_data_json, attestation_object)},
            commits=True)
        if answer.status != 201:
            raise RegistrationRejected(answer, registration_flags(attestation_object))
        return self.username

    # The package's authentication API.

    def authentication_options(self, rp_id, now):
        answer = self.http.request("POST", "/passkeys/api/authenticate/options", json_body={})
        if answer.status != 200:
            raise Refused(answer.detail())
        body = answer.json()
        challenge = body["options"]["publicKey"]["challenge"]
        self.state_tokens[challenge] = body["state_token"]
        return b64url_decode(challenge)

    def finish_authentication(self, credential_id, client_data_json, authenticator_data, signature, user_handle, now):
        state_token = self.state_tokens.pop(challenge_in(client_data_json), "")
        answer = self.http.request("POST", "/passkeys/api/authenticate/verify", json_body={
            "state_token": state_token,
            "credential": authentication_json(credential_id, client_data_json, authenticator_data, signature, user_handle)},
            commits=True)
        self.lookup_failed(answer)  # the project's test hook: the store could not be asked
        if answer.status == 200:
            body = answer.json()
            self.api_token = body.get("token")
            try:
                self.username = self._current_username()
            except Refused:
                # The package issued a token that Django REST framework then refuses (an inactive
                # account: webauthn.py complete_authentication never checks is_active): the answer's
                # username is all the app has.
                self.username = body.get("username")
            return SignInResult("signed-in", username=self.username, token=self.new_token())
        # 404 "Passkey not found or disabled" does not say which: no proof that the id is unknown.
        return SignInResult("invalid", message=answer.detail())

    def revoke(self, token, credential_id):
        """The package's own endpoint: PATCH /passkeys/api/<id> {"enabled": false} disables the
        passkey, which the package then refuses at sign-in (an inactive record kept for audit)."""
        username, package_id = self.package_id_of(token, credential_id)
        answer = self.http.request("PATCH", f"/passkeys/api/{package_id}", json_body={"enabled": False},
                                   headers=self.headers())
        if answer.status != 200:
            raise Refused(answer.detail())
        return username


def registration_flags(attestation_object):
    """The authenticator data's flags byte, read with python-fido2's parser (for the app's telemetry)."""
    from fido2.webauthn import AttestationObject
    return int(AttestationObject(attestation_object).auth_data.flags)


class Package(DjangoPackage):
    name = "django-passkeys"
    project = HERE
    settings_module = "passkeys_rp.settings"
    capabilities = PASSKEYS_CAPABILITIES
    server_class = PasskeysServer

    # Fixtures and inspections, through Django's and the package's models.

    @staticmethod
    def add_credential(username, credential_id, public_key, sign_count, state):
        """A UserPasskey row as passkeys/webauthn.py complete_registration stores one; a revoked
        passkey is a disabled one (enabled=False), which the package refuses at sign-in."""
        from fido2 import cbor
        from fido2.cose import CoseKey
        from fido2.utils import websafe_encode
        from fido2.webauthn import Aaguid, AttestedCredentialData
        from passkeys.models import UserPasskey
        user = Package.user(username)
        data = AttestedCredentialData.create(Aaguid.NONE, credential_id, CoseKey.parse(cbor.decode(public_key)))
        UserPasskey.objects.create(user=user, name="passkey", token=websafe_encode(data),
                                   credential_id=b64url_encode(credential_id), enabled=state == "active")

    @staticmethod
    def inspect_account(username):
        from passkeys.models import UserPasskey
        from passkeys.webauthn import begin_registration
        user = Package.user(username)
        # The user entity the package puts into its registration options (begin_registration).
        entity = begin_registration(user, None)[0]["publicKey"]["user"]
        return {
            "username": username, "accountID": str(user.pk), "userHandle": b64url_decode(entity["id"]),
            "rpID": Package.relying_party_ids[0], "name": entity["name"], "displayName": entity["displayName"],
            "credentials": [{"credentialID": b64url_decode(passkey.credential_id), "rpID": Package.relying_party_ids[0],
                             "state": "active" if passkey.enabled else "revoked"}
                            for passkey in UserPasskey.objects.filter(user=user).order_by("pk")],
        }


if __name__ == "__main__":
    run_adapter(Package, sys.argv[1:])
