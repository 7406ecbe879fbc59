"""The Flask project around Flask-Security 5.9.2, configured as its documentation describes for an
API client that authenticates with a token: SQLAlchemy models from the package's `fsqla_v3`
mixins on SQLite, WebAuthn enabled, the email address as the account's name, CSRF only for session
authentication, and the documented `WebauthnUtil` subclass that names the Android app's origin.

`create_app(database)` is the factory Examples/loopback-common/rp_serve.py serves; the adapter
calls it too, for fixtures and inspections through the same models.
"""

import os
import sys

from flask import Flask, jsonify, request
from flask_security import Security, SQLAlchemyUserDatastore, WebauthnUtil
from flask_security.models import fsqla_v3 as fsqla
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.pool import NullPool
from werkzeug.middleware.proxy_fix import ProxyFix

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "loopback-common"))

import project_faults  # noqa: E402

RP_ID = "login.example.com"  # the primary RP; an account may belong to another (User.rp_id)
ANDROID_APP_ORIGIN = "android:apk-key-hash:pGqTtS2CkmrhUe9yVdUlq3vl8JgWbaJ7wT4KiOOl1b4"

db = SQLAlchemy()
fsqla.FsModels.set_db_info(db)


class Role(db.Model, fsqla.FsRoleMixin):
    pass


class User(db.Model, fsqla.FsUserMixin):
    # The project's own column: the name its passkeys show beside the account's name (its email).
    # The `username` column of the package's model is not enabled as a sign-in identity here
    # (SECURITY_USERNAME_ENABLE is off); the adapter keeps the account's key in it, which a rename
    # (a new email address) leaves alone.
    display_name = db.Column(db.String(255), nullable=True)
    # The project's own column: the RP ID the account's passkeys belong to. The package takes the RP ID
    # from the request's host, so the app reaches the account's RP at its own host.
    rp_id = db.Column(db.String(255), nullable=False, default=RP_ID)


class WebAuthn(db.Model, fsqla.FsWebAuthnMixin):
    pass


class RevokedPasskey(db.Model):
    """The project's audit record of a passkey the user removed. The package deletes a passkey at
    /wan-delete; the project keeps its id (the package's `wan_deleted` signal), so that a later
    sign-in with it is refused as revoked, not as a passkey the server never had."""
    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id"), nullable=False)
    credential_id = db.Column(db.LargeBinary(1024), unique=True, nullable=False)


class ProjectWebauthnUtil(WebauthnUtil):
    """The documented way to tune the relying party (`Security(webauthn_util_cls=...)`)."""

    def origin(self):
        """The web origin (the TLS proxy's, see ProxyFix below) and the Android app's own origin:
        py_webauthn's `expected_origin` takes a list."""
        return [request.host_url.rstrip("/"), ANDROID_APP_ORIGIN]

    def registration_options(self, user, usage, existing_options):
        options = super().registration_options(user, usage, existing_options)
        options["user_display_name"] = user.display_name or user.calc_username()
        return options


def b64url(data):
    import base64
    return base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode("ascii")


def create_app(database):
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY="passkey-conformance-example-only",
        SECURITY_PASSWORD_SALT="passkey-conformance-example-only",
        # Test-only: the fixtures' passwords are not secrets, and argon2 would dominate the run time.
        SECURITY_PASSWORD_HASH="plaintext",
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{database}",
        # A connection per request: the runner replaces the file between test cases.
        SQLALCHEMY_ENGINE_OPTIONS={"poolclass": NullPool},
        SECURITY_WEBAUTHN=True,
        SECURITY_WAN_RP_NAME="Example",
        # CSRF for session authentication only; the app authenticates with its token
        # (the package's documentation, "CSRF": token-based clients).
        WTF_CSRF_CHECK_DEFAULT=False,
        SECURITY_CSRF_PROTECT_MECHANISMS=["session", "basic"],
        SECURITY_CSRF_IGNORE_UNAUTH_ENDPOINTS=True,
        SECURITY_RETURN_GENERIC_RESPONSES=False,
        # The second factor of the accounts whose policy asks for one: the package's two-factor
        # support with an authenticator app (TOTP). A user without a primary method signs in with
        # the password alone (SECURITY_TWO_FACTOR_REQUIRED keeps its default, False).
        SECURITY_TWO_FACTOR=True,
        SECURITY_TWO_FACTOR_ENABLED_METHODS=["authenticator"],
        SECURITY_TOTP_SECRETS={"1": "passkey-conformance-example-only-totp"},
        SECURITY_TOTP_ISSUER="Example",
    )
    # Behind a TLS proxy, as a deployment is: the proxy's scheme and host become the request's, so
    # the RP ID (request.host) and the web origin are login.example.com's.
    app.wsgi_app = ProxyFix(app.wsgi_app, x_proto=1, x_host=1)
    db.init_app(app)
    CSRFProtect(app)
    datastore = SQLAlchemyUserDatastore(db, User, Role, WebAuthn)
    app.security = Security(app, datastore, webauthn_util_cls=ProjectWebauthnUtil)
    register_project_api(app, datastore)
    from flask_security.signals import wan_deleted
    wan_deleted.connect(record_revocation, app)
    return app


def record_revocation(app, user, name, **extra):
    """`wan_deleted` is sent before the package deletes the passkey: its id is still readable."""
    for credential in user.webauthn:
        if credential.name == name:
            db.session.add(RevokedPasskey(user_id=user.id, credential_id=bytes(credential.credential_id)))


def presented_credential_id():
    """The raw id of the credential a /wan-signin/<state> request presents, or None."""
    import base64
    import json
    body = request.get_json(silent=True) or {}
    try:
        raw_id = json.loads(body.get("credential", ""))["rawId"]
        return base64.urlsafe_b64decode(raw_id + "=" * (-len(raw_id) % 4))
    except (TypeError, ValueError, KeyError):
        return None


def register_project_api(app, datastore):
    """The project's own small API beside the package (paths: Examples/loopback-common/loopback_rp.py)."""
    from flask_security import auth_token_required, current_user

    def me_payload(user):
        return {"username": user.username, "userHandle": b64url(user.fs_webauthn_user_handle.encode()),
                "name": user.calc_username(), "displayName": user.display_name or user.calc_username(),
                "rpID": user.rp_id}

    @app.get("/project/me")
    @auth_token_required
    def me():
        return jsonify(me_payload(current_user))

    @app.get("/project/credentials")
    @auth_token_required
    def credentials():
        user = current_user

        def read_store():
            # The passkeys the package accepts as a first factor (webauthn.py, _is_cred_usable).
            return [{"credentialID": b64url(credential.credential_id), "packageID": credential.name}
                    for credential in sorted(user.webauthn, key=lambda item: item.id) if credential.usage == "first"]
        try:
            items = project_faults.accepted_list(user.id, read_store)
        except project_faults.StoreFailure as failure:
            return jsonify({"detail": str(failure)}), failure.status
        return jsonify({"username": user.username, "userHandle": b64url(user.fs_webauthn_user_handle.encode()),
                        "credentials": items})

    @app.post("/project/profile")
    @auth_token_required
    def profile():
        """The account's name (its email address, which the package's options carry as the user name)
        and the project's display name. The package's own change-email flow confirms the new address
        by a mailed link; the project's profile view stands for the confirmed change."""
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or not body or not set(body) <= {"name", "displayName"}:
            return jsonify({"detail": "give name, displayName or both"}), 400
        if "name" in body:
            current_user.email = body["name"]
        if "displayName" in body:
            current_user.display_name = body["displayName"]
        db.session.commit()
        return jsonify({"username": current_user.username})

    @app.post("/project/test/fault")
    def fault():
        body = request.get_json(silent=True) or {}
        try:
            project_faults.arm(body.get("kind"), body.get("count"))
        except ValueError as error:
            return jsonify({"detail": str(error)}), 400
        return jsonify({})

    @app.post("/project/test/reset")
    def reset():
        project_faults.reset()
        return jsonify({})

    @app.before_request
    def passkey_sign_in_guard():
        """Before the package's passkey sign-in looks the credential up: the test-only fault hook (an
        armed `credential-lookup-failure` answers 503), then the project's revocation record."""
        if request.method != "POST" or not request.path.startswith("/wan-signin/"):
            return None
        if project_faults.take("credential-lookup-failure"):
            return jsonify({"detail": "the credential store did not answer"}), 503
        credential_id = presented_credential_id()
        if credential_id is not None and RevokedPasskey.query.filter_by(credential_id=credential_id).first():
            return jsonify({"detail": "This passkey has been removed from its account."}), 403
        return None
