#!/usr/bin/env python3
"""A passkey-conformance adapter in front of Flask-Security, served by a real Flask server.

The app half is python-webauthn's app (Examples/python-webauthn/app.py); the server half is the
Flask project in fs_rp/ with Flask-Security 5.9.2 configured as its documentation says for a token
client, running as an HTTP server process on 127.0.0.1 behind the loopback runner
(Examples/loopback-common/). The app reaches it only through the package's JSON API (/login,
/logout, /wan-register, /wan-signin, /wan-delete) and the project's small
account API; fixtures and inspections go through the package's datastore.

    python3 Examples/flask-security/adapter.py [--verbose]

Install the package with `python3 -m pip install "Flask-Security[common,fsqla,mfa]==5.9.2"`.
"""

import json
import os
import sys

sys.dont_write_bytecode = True  # keep the examples directory free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "loopback-common"))

from loopback_rp import (CAPABILITIES, RP_ID, BasePackage, PackageServer, ProxiedClient,  # noqa: E402
                         RegistrationRejected, authentication_json, challenge_in, parse_creation_options,
                         registration_flags, registration_json, run_adapter, typed_code)
from passkey_base64url import b64url_decode  # noqa: E402
from server import Refused, SignInResult  # noqa: E402

# The package's API and the project's account API support every capability the app half declares
# (loopback_rp.CAPABILITIES; not recovery-sign-in and alternative-sign-in: the project enables
# neither the package's recovery nor its unified sign-in); the second factor is the package's
# two-factor sign-in with an authenticator app (TOTP).
RELYING_PARTY_IDS = [RP_ID, "accounts.example.org"]  # the project serves both hosts (fs_rp/app.py, User.rp_id)


def errors_of(answer):
    """Flask-Security's JSON errors: response.errors (every field's messages)."""
    errors = answer.json().get("response", {}).get("errors")
    return "; ".join(errors) if isinstance(errors, list) and errors else answer.detail()


class FlaskSecurityServer(PackageServer):
    package = "Flask-Security"

    def __init__(self, base_url):
        super().__init__(base_url)
        # Through the TLS proxy (ProxyFix in fs_rp/app.py), at the host of the RP the app talks to
        # (self.http.host follows the account or the ceremony); a token client, without cookies.
        self.http = ProxiedClient(base_url)
        self.auth_token = None
        self.states = {}  # challenge -> (the package's wan_state token, the RP ID) of that ceremony
        self.next_name = 1
        self.two_factor = None  # the cookie client of a sign-in waiting for its second factor
        self.username = None

    def headers(self):
        return {"Authentication-Token": self.auth_token} if self.auth_token else {}

    def _post(self, path, body, authenticated=True, commits=False):
        return self.http.request("POST", path, json_body=body, headers=self.headers() if authenticated else {},
                                 commits=commits)

    # The package's sign-in (views.py, login and logout).

    def password_sign_in(self, username, password):
        # The package keeps a pending second factor in the session: this one exchange keeps cookies.
        client = ProxiedClient(self.http.base_url, keep_cookies=True)
        answer = client.request("POST", "/login?include_auth_token", json_body={"email": username, "password": password})
        if answer.status != 200:
            raise Refused(errors_of(answer))
        body = answer.json()["response"]
        self.username = username
        if body.get("tf_required"):
            self.two_factor, self.auth_token = client, None
            return self.new_token(), "password-only"
        self.two_factor, self.auth_token = None, body["user"]["authentication_token"]
        self._follow_account()
        return self.new_token(), "full"

    def _follow_account(self):
        """The app reaches the signed-in account's RP at its own host from now on."""
        self.http.host = self._me()["rpID"]

    def second_factor(self, token, outcome):
        """The user types the code their authenticator app shows: now (correct), another one (wrong),
        or one from ten minutes ago (expired); the package's /tf-validate checks it."""
        if self.two_factor is None or token != self.current:
            raise Refused("no second factor is due")
        code = typed_code(lambda offset: totp_code(self.username, offset), outcome, expired_offset=-600)
        answer = self.two_factor.request("POST", "/tf-validate?include_auth_token", json_body={"code": code})
        if answer.status != 200:
            raise Refused(errors_of(answer))
        self.auth_token = answer.json()["response"]["user"]["authentication_token"]
        self.two_factor = None  # signed in: the token from here on, no session cookie
        self._follow_account()

    def end_sign_in(self):
        self._post("/logout", {})
        self.auth_token = self.two_factor = None  # a token client signs out by forgetting its token

    # Registration (webauthn.py, webauthn_register and webauthn_register_response).

    def registration_options(self, token, conditional, now):
        name = f"passkey {self.next_name}"
        self.next_name += 1
        answer = self._post("/wan-register", {"name": name, "usage": "first"})
        if answer.status != 200:
            raise Refused(errors_of(answer))
        body = answer.json()["response"]
        options = body["credential_options"]
        self.states[options["challenge"]] = (body["wan_state"], self.http.host)
        return parse_creation_options(options)

    def finish_registration(self, token, credential_id, client_data_json, attestation_object, now):
        state, _ = self.states.pop(challenge_in(client_data_json), ("-", None))
        credential = registration_json(credential_id, client_data_json, attestation_object, transports=["internal"])
        answer = self._post(f"/wan-register/{state}", {"credential": json.dumps(credential)}, commits=True)
        if answer.status != 200:
            raise RegistrationRejected(answer, registration_flags(attestation_object), message=errors_of(answer))
        return self._current_username()

    # Passkey sign-in (webauthn.py, webauthn_signin and webauthn_signin_response).

    def authentication_options(self, rp_id, now):
        self.http.host = rp_id  # the sign-in screen of that RP
        answer = self._post("/wan-signin", {}, authenticated=False)
        if answer.status != 200:
            raise Refused(errors_of(answer))
        body = answer.json()["response"]
        challenge = body["credential_options"]["challenge"]
        self.states[challenge] = (body["wan_state"], rp_id)
        return b64url_decode(challenge)

    def finish_authentication(self, credential_id, client_data_json, authenticator_data, signature, user_handle, now):
        state, rp_id = self.states.pop(challenge_in(client_data_json), ("-", None))
        if rp_id is not None:
            self.http.host = rp_id
        credential = authentication_json(credential_id, client_data_json, authenticator_data, signature, user_handle)
        answer = self._post(f"/wan-signin/{state}?include_auth_token", {"credential": json.dumps(credential)},
                            authenticated=False, commits=True)
        self.lookup_failed(answer)  # the project's test hook: the store could not be asked
        if answer.status == 403:  # the project's revocation record (fs_rp/app.py, passkey_sign_in_guard)
            return SignInResult("revoked", message=answer.detail())
        if answer.status == 200:
            self.auth_token = answer.json()["response"]["user"]["authentication_token"]
            self._follow_account()
            return SignInResult("signed-in", username=self._current_username(), token=self.new_token())
        message = errors_of(answer)
        if "Unregistered passkey." in message:  # WEBAUTHN_UNKNOWN_CREDENTIAL_ID: no record of the id
            return SignInResult("unknown-credential", message=message)
        if "Account is disabled." in message:  # DISABLED_ACCOUNT
            return SignInResult("restricted", message=message)
        return SignInResult("invalid", message=message)

    # Passkey management and profile.

    def revoke(self, token, credential_id):
        """The package's own endpoint: /wan-delete removes the passkey by its nickname."""
        username, name = self.package_id_of(token, credential_id)
        answer = self._post("/wan-delete", {"name": name})
        if answer.status != 200:
            raise Refused(errors_of(answer))
        return username



def totp_code(username, offset_seconds):
    """The code the account's authenticator app shows (the fixture's secret, which the app holds too)."""
    import time
    with Package._context():
        user = Package._user(username)
        totp = Package.current.security._totp_factory._totp.from_source(user.tf_totp_secret)
        return totp.generate(time=time.time() + offset_seconds).token


class Package(BasePackage):
    name = "Flask-Security"
    relying_party_ids = RELYING_PARTY_IDS
    capabilities = CAPABILITIES
    server_class = FlaskSecurityServer
    policies = ("password-only", "password-and-second-factor")
    apps = {}  # SQLite file -> the Flask app the adapter reads it through
    current = None

    @staticmethod
    def serve_arguments():
        return ["wsgi", HERE, "fs_rp.app:create_app"]

    @classmethod
    def _app(cls, path):
        if HERE not in sys.path:
            sys.path.insert(0, HERE)
        from fs_rp.app import create_app
        if path not in cls.apps:
            cls.apps[path] = create_app(path)
        return cls.apps[path]

    @classmethod
    def prepare_template(cls, path):
        from fs_rp.app import db
        with cls._app(path).app_context():
            db.create_all()

    @classmethod
    def use_database(cls, path):
        """A connection per use (NullPool): pointing at another file only chooses the app."""
        cls.current = None if path is None else cls._app(path)

    @classmethod
    def _context(cls):
        if cls.current is None:
            raise Refused("no session's database is open")
        return cls.current.app_context()

    @classmethod
    def _user(cls, username):
        user = cls.current.security.datastore.find_user(username=username)
        if user is None:
            raise Refused(f"no account {username}")
        return user

    @classmethod
    def create_account(cls, username, display_name, password, policy, restricted, rp_id):
        from flask_security import hash_password
        from fs_rp.app import db
        with cls._context():
            user = cls.current.security.datastore.create_user(
                email=username, username=username, password=hash_password(password),
                active=not restricted, display_name=display_name, rp_id=rp_id)
            if policy == "password-and-second-factor":
                # The package's two-factor set-up, done: an authenticator app holds the secret.
                user.tf_primary_method = "authenticator"
                user.tf_totp_secret = cls.current.security._totp_factory.generate_totp_secret()
            db.session.commit()

    @classmethod
    def add_credential(cls, username, credential_id, public_key, sign_count, state):
        """A passkey as webauthn_register_response stores one, for first-factor use. The package keeps
        no inactive passkeys (/wan-delete deletes the record): a revoked passkey is the project's
        audit record of a deleted one (fs_rp/app.py, RevokedPasskey)."""
        from fs_rp.app import RevokedPasskey, db
        with cls._context():
            user = cls._user(username)
            if state == "active":
                cls.current.security.datastore.create_webauthn(
                    user, credential_id=credential_id, public_key=public_key, name=f"fixture {len(user.webauthn) + 1}",
                    sign_count=sign_count, usage="first", device_type="multi_device", backup_state=True,
                    transports=["internal"])
            else:
                db.session.add(RevokedPasskey(user_id=user.id, credential_id=credential_id))
            db.session.commit()

    @classmethod
    def inspect_account(cls, username):
        from fs_rp.app import RevokedPasskey
        with cls._context():
            user = cls._user(username)
            revoked = RevokedPasskey.query.filter_by(user_id=user.id).order_by(RevokedPasskey.id).all()
            return {
                "username": username, "accountID": str(user.id), "userHandle": user.fs_webauthn_user_handle.encode(),
                "rpID": user.rp_id, "name": user.calc_username(), "displayName": user.display_name or user.calc_username(),
                "credentials": [{"credentialID": bytes(credential.credential_id), "rpID": user.rp_id, "state": "active"}
                                for credential in sorted(user.webauthn, key=lambda item: item.id)]
                + [{"credentialID": bytes(record.credential_id), "rpID": user.rp_id, "state": "revoked"}
                   for record in revoked],
            }


if __name__ == "__main__":
    run_adapter(Package, sys.argv[1:])
