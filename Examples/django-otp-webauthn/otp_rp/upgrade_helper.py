"""What a project adds to django-otp-webauthn so that automatic passkey upgrades are stored: its own
helper class (the documented setting `OTP_WEBAUTHN_HELPER_CLASS`, "The class to use for webauthn
operations"), which waives user presence for exactly the registration options it issued as
conditional, and requires it for every other. Used by `adapter.py --upgrade-helper`
(settings_upgrade.py); the example's measured configuration keeps the package's own helper.
"""

from django_otp_webauthn.helpers import WebAuthnHelper
from webauthn import verify_registration_response
from webauthn.helpers import base64url_to_bytes, parse_registration_credential_json


class ConditionalUpgradeHelper(WebAuthnHelper):
    def get_registration_state(self, creation_options):
        """The server's own record of the ceremony: whether the app asked for conditional options
        (`?conditional=1` on registration/begin/), kept in the session, never read from the response."""
        state = super().get_registration_state(creation_options)
        state["conditional"] = self.request is not None and self.request.GET.get("conditional") == "1"
        return state

    def register_complete(self, user, state, data):
        """The package's `register_complete`, with `require_user_presence` decided by the state."""
        credential = parse_registration_credential_json(data)
        kwargs = {}
        if self.get_supported_key_algorithms():
            kwargs["supported_pub_key_algs"] = self.get_supported_key_algorithms()
        response = verify_registration_response(
            credential=credential, expected_challenge=base64url_to_bytes(state["challenge"]),
            expected_rp_id=self.get_relying_party_domain(), expected_origin=self.get_allowed_origins(),
            require_user_verification=state["require_user_verification"],
            require_user_presence=not state.get("conditional", False), **kwargs)
        device = self.create_credential(user, response, credential, data)
        device.save()
        self.create_attestation(device, response.attestation_object, credential.response.client_data_json)
        return device
