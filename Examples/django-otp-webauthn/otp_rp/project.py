"""The project's own code beside django-otp-webauthn: its policy hook and its small account API.

Passkeys are a sign-in method in this project (the package's default,
OTP_WEBAUTHN_ALLOW_PASSWORDLESS_LOGIN = True), not a second factor: the registration views are the
package's, subclassed as its documentation says to change who counts as MFA-enrolled
(`RegistrationCeremonyMixin.user_is_mfa_enrolled`: "If you want to change the behavior of this
check, override user_is_mfa_enrolled"). An account is MFA-enrolled when it holds a confirmed
django_otp device that is not a passkey; such an account must pass that device before it may
register a passkey, exactly as the package's guard intends.
"""

from django_otp import devices_for_user
from django_otp_webauthn import views as package_views
from django_otp_webauthn.helpers import WebAuthnHelper
from django_otp_webauthn.models import WebAuthnCredential, WebAuthnUserHandle


def enrolled_in_other_factor(user):
    return any(not isinstance(device, WebAuthnCredential) for device in devices_for_user(user, confirmed=True))


class BeginCredentialRegistrationView(package_views.BeginCredentialRegistrationView):
    def user_is_mfa_enrolled(self, user):
        return enrolled_in_other_factor(user)


class CompleteCredentialRegistrationView(package_views.CompleteCredentialRegistrationView):
    def user_is_mfa_enrolled(self, user):
        return enrolled_in_other_factor(user)


class Hooks:
    """What the project API (django-common/project_api.py) needs to know about the package."""

    @staticmethod
    def key(user):
        """The account's key as the app and the harness know it (the adapter's fixtures keep it in
        the email field, which a rename leaves alone)."""
        return user.email

    @staticmethod
    def authenticate(request):
        return request.user if request.user.is_authenticated else None

    @staticmethod
    def user_handle(user):
        return WebAuthnUserHandle.get_handle_for_user(user)

    @staticmethod
    def account_name(user):
        return WebAuthnHelper(request=None).get_credential_name(user)

    @staticmethod
    def display_name(user):
        return WebAuthnHelper(request=None).get_credential_display_name(user)

    @staticmethod
    def credentials(user):
        """The passkeys the package accepts at sign-in (`check_device_usable`: confirmed ones)."""
        return [(bytes(credential.credential_id), credential.pk)
                for credential in WebAuthnCredential.objects.filter(user=user, confirmed=True).order_by("pk")]

    @staticmethod
    def revoke(user, credential_id):
        """The package has no endpoint that removes a passkey; the project deletes the device, as
        django_otp's own admin does."""
        deleted, _ = WebAuthnCredential.objects.filter(user=user, credential_id=credential_id).delete()
        return deleted > 0

    @staticmethod
    def second_factor_due(request, user):
        """django_otp's own test: an account with another device must verify it (OTPMiddleware)."""
        return enrolled_in_other_factor(user) and not request.user.is_verified()

    @staticmethod
    def verify_second_factor(request, user, code):
        """django_otp's documented form for an authenticated user (OTPTokenForm), then its login."""
        from django_otp import login as otp_login
        from django_otp.forms import OTPTokenForm
        from django_otp.plugins.otp_totp.models import TOTPDevice
        device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
        if device is None:
            return False
        form = OTPTokenForm(user, request, data={"otp_device": device.persistent_id, "otp_token": code})
        if not form.is_valid():
            return False
        otp_login(request, user.otp_device)
        return True

    @staticmethod
    def rename(user, name, display_name):
        if name is not None:
            user.username = name
        if display_name is not None:
            user.first_name, _, user.last_name = display_name.partition(" ")
        user.save()
