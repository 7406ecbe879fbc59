"""The project's own code beside django-allauth: what its small account API needs to know."""

from allauth.headless.internal.sessionkit import authenticate_by_x_session_token
from allauth.mfa.adapter import get_adapter
from allauth.mfa.models import Authenticator


def credential_id_of(authenticator):
    return bytes(authenticator.wrap().authenticator_data.credential_data.credential_id)


def record_revocation(sender, request, user, authenticator, **extra):
    """`authenticator_removed` comes after the delete; the instance still holds its data."""
    from allauth_rp.models import RevokedPasskey
    if authenticator.type == Authenticator.Type.WEBAUTHN:
        RevokedPasskey.objects.get_or_create(user=user, credential_id=credential_id_of(authenticator))


def is_revoked(credential_id):
    from allauth_rp.models import RevokedPasskey
    return RevokedPasskey.objects.filter(credential_id=credential_id).exists()


class Hooks:
    token_authenticated = True  # a token header, no session cookie: no CSRF check
    @staticmethod
    def key(user):
        """The account's key as the app and the harness know it: the username it signs in with. The
        name allauth puts into its options is the email address (`_get_user_identifier`), which a
        rename changes."""
        return user.username

    @staticmethod
    def authenticate(request):
        """The headless app client's session token, as allauth's own DRF and Ninja integrations read it."""
        token = request.headers.get("X-Session-Token")
        found = authenticate_by_x_session_token(token) if token else None
        return found[0] if found else None

    @staticmethod
    def _user_entity(user):
        """The user entity allauth puts into its options (mfa/adapter.py, get_public_key_credential_user_entity)."""
        return get_adapter().get_public_key_credential_user_entity(user)

    @staticmethod
    def user_handle(user):
        return Hooks._user_entity(user)["id"]

    @staticmethod
    def account_name(user):
        return Hooks._user_entity(user)["name"]

    @staticmethod
    def display_name(user):
        return Hooks._user_entity(user)["display_name"]

    @staticmethod
    def credentials(user):
        """Every WebAuthn authenticator of the account (allauth accepts each at sign-in)."""
        return [(credential_id_of(authenticator), authenticator.pk)
                for authenticator in Authenticator.objects.filter(user=user, type=Authenticator.Type.WEBAUTHN)
                .order_by("pk")]

    @staticmethod
    def rename(user, name, display_name):
        if name is not None:
            user.email = name  # what allauth shows as the account's name
        if display_name is not None:
            user.first_name, _, user.last_name = display_name.partition(" ")
        user.save()
