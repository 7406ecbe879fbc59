"""The project's own code beside django-passkeys: what its small account API needs to know.

The package's REST API already lists (`GET /passkeys/api/`), renames and disables or deletes
(`PATCH`/`DELETE /passkeys/api/<id>`) an account's passkeys, but its list gives neither the
credential ids nor the user handle an app needs for the accepted list it signals; the project's
`/project/credentials` view adds them. Revocation goes through the package's own endpoint.
"""

from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from passkeys.models import UserPasskey
from passkeys.webauthn import begin_registration


def _b64url_decode(text):
    import base64
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Hooks:
    token_authenticated = True  # a token header, no session cookie: no CSRF check
    @staticmethod
    def key(user):
        """The account's key as the app and the harness know it (the adapter's fixtures keep it in
        the email field, which a rename leaves alone)."""
        return user.email

    @staticmethod
    def authenticate(request):
        """The API's authentication: Django REST framework's token, as the package's API views use it."""
        try:
            found = TokenAuthentication().authenticate(request)
        except AuthenticationFailed:
            return None
        return found[0] if found else None

    @staticmethod
    def _user_entity(user):
        """The user entity the package puts into its registration options (webauthn.py, begin_registration)."""
        return begin_registration(user, None)[0]["publicKey"]["user"]

    @staticmethod
    def user_handle(user):
        return _b64url_decode(Hooks._user_entity(user)["id"])

    @staticmethod
    def account_name(user):
        return Hooks._user_entity(user)["name"]

    @staticmethod
    def display_name(user):
        return Hooks._user_entity(user)["displayName"]

    @staticmethod
    def credentials(user):
        """The passkeys the package accepts at sign-in (webauthn.py, complete_authentication: enabled ones)."""
        return [(_b64url_decode(passkey.credential_id), passkey.pk)
                for passkey in UserPasskey.objects.filter(user=user, enabled=True).order_by("pk")]

    @staticmethod
    def rename(user, name, display_name):
        if name is not None:
            user.username = name
        if display_name is not None:
            user.first_name, _, user.last_name = display_name.partition(" ")
        user.save()
