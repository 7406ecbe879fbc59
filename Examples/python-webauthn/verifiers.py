"""The server's WebAuthn verification, done by a real library: `webauthn` (py_webauthn) or `fido2`.

Three configurations, chosen on the adapter's command line:

    careful            py_webauthn, user presence required except for options the server issued
                       as conditional (the automatic upgrade), user verification never required
    library-defaults   py_webauthn with its default arguments: user presence always required
    fido2              python-fido2's Fido2Server, which has no option to waive user presence

Each verifier takes the raw bytes a platform delivers and the ceremony the server remembers, and
returns what the server stores, or raises Rejected with the library's own message and the flags
the authenticator data carried. The relying party's logic (which account, which ceremony, whether
a credential is known) stays in server.py.
"""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass

from passkey_base64url import b64url_encode

# Authenticator data flags (WebAuthn, authenticator data).
USER_PRESENT, USER_VERIFIED, BACKUP_ELIGIBLE, BACKED_UP = 0x01, 0x04, 0x08, 0x10

CONFIGURATIONS = ("careful", "library-defaults", "fido2")


class Rejected(Exception):
    """The library rejected a response. `flags` describes the authenticator data's UP/UV/BE/BS bits;
    `rejected_flags` names the flags the library's message complains about (e.g. "UP")."""

    def __init__(self, message, flags="", rejected_flags=""):
        super().__init__(message)
        self.flags, self.rejected_flags = flags, rejected_flags


@dataclass
class Registered:
    credential_id: bytes
    public_key: bytes  # COSE_Key bytes
    sign_count: int
    backup_eligible: bool


def describe_flags(flags: int) -> str:
    """"UP=0 UV=0 BE=1 BS=0": the four flags the N2.6 criteria talk about."""
    bits = (("UP", USER_PRESENT), ("UV", USER_VERIFIED), ("BE", BACKUP_ELIGIBLE), ("BS", BACKED_UP))
    return " ".join(f"{name}={int(bool(flags & bit))}" for name, bit in bits)


def rejected_flags_in(message: str) -> str:
    """The flags a library's rejection message is about, as flag names ("UP", "UV", "UP UV")."""
    text = message.lower()
    named = []
    if "user presen" in text or "user present" in text or "not present" in text:
        named.append("UP")
    if "user verif" in text or "user verified" in text:
        named.append("UV")
    if "backup" in text or "backed up" in text:
        named.append("BE/BS")
    return " ".join(named)


def package_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def make_verifier(configuration: str):
    if configuration == "fido2":
        return Fido2Verifier()
    return PyWebAuthnVerifier(library_defaults=configuration == "library-defaults")


class PyWebAuthnVerifier:
    """py_webauthn's verify_registration_response and verify_authentication_response."""

    package = "webauthn"

    def __init__(self, library_defaults: bool):
        import webauthn  # noqa: F401  (fails early, with a clear message, when it is missing)
        from webauthn.helpers import parse_attestation_object
        self.library_defaults = library_defaults
        self._parse_attestation_object = parse_attestation_object
        self.version = package_version("webauthn")
        # The one line that makes the difference (README.md, "What it finds in real libraries").
        self.configuration_line = ("verify_registration_response(…)  # require_user_presence defaults to True"
                                   if library_defaults else
                                   "verify_registration_response(…, require_user_presence=not ceremony.conditional)")

    def verify_registration(self, *, credential_id, client_data_json, attestation_object, challenge, rp_id, origins,
                            conditional) -> Registered:
        from webauthn import verify_registration_response
        from webauthn.helpers.exceptions import InvalidRegistrationResponse
        flags = self._registration_flags(attestation_object)
        credential = {
            "id": b64url_encode(credential_id), "rawId": b64url_encode(credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64url_encode(client_data_json),
                         "attestationObject": b64url_encode(attestation_object)},
        }
        arguments = dict(credential=credential, expected_challenge=challenge, expected_rp_id=rp_id,
                         expected_origin=sorted(origins))
        if not self.library_defaults:
            # The careful configuration: no user interacts during a conditional registration, so its
            # authenticator data carries UP=0; every other registration must carry UP=1.
            arguments.update(require_user_presence=not conditional, require_user_verification=False)
        try:
            verified = verify_registration_response(**arguments)
        except InvalidRegistrationResponse as error:
            raise Rejected(str(error), describe_flags(flags), rejected_flags_in(str(error))) from None
        return Registered(verified.credential_id, verified.credential_public_key, verified.sign_count,
                          backup_eligible=bool(flags & BACKUP_ELIGIBLE))

    def verify_assertion(self, *, credential_id, client_data_json, authenticator_data, signature, user_handle,
                         challenge, rp_id, origins, public_key, sign_count) -> int:
        """Verifies an assertion against the stored key; returns the new signature counter."""
        from webauthn import verify_authentication_response
        from webauthn.helpers.exceptions import InvalidAuthenticationResponse
        response = {"clientDataJSON": b64url_encode(client_data_json),
                    "authenticatorData": b64url_encode(authenticator_data), "signature": b64url_encode(signature)}
        if user_handle is not None:
            response["userHandle"] = b64url_encode(user_handle)
        credential = {"id": b64url_encode(credential_id), "rawId": b64url_encode(credential_id), "type": "public-key",
                      "response": response}
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp_id,
                expected_origin=sorted(origins), credential_public_key=public_key,
                credential_current_sign_count=sign_count, require_user_verification=False)
        except InvalidAuthenticationResponse as error:
            flags = authenticator_data[32] if len(authenticator_data) > 32 else 0
            raise Rejected(str(error), describe_flags(flags), rejected_flags_in(str(error))) from None
        return verified.new_sign_count

    def _registration_flags(self, attestation_object) -> int:
        """The flags byte of the registration's authenticator data, read by the library's own parser."""
        try:
            flags = self._parse_attestation_object(attestation_object).auth_data.flags
        except Exception as error:  # noqa: BLE001  (the library's parser reports malformed input)
            raise Rejected(f"malformed attestation object: {error}") from None
        return ((USER_PRESENT if flags.up else 0) | (USER_VERIFIED if flags.uv else 0)
                | (BACKUP_ELIGIBLE if flags.be else 0) | (BACKED_UP if flags.bs else 0))


class Fido2Verifier:
    """python-fido2's Fido2Server.register_complete and authenticate_complete."""

    package = "fido2"

    def __init__(self):
        import fido2  # noqa: F401  (fails early, with a clear message, when it is missing)
        self.version = package_version("fido2")
        self.configuration_line = "Fido2Server(rp, verify_origin=…).register_complete(state, response)  # no option waives UP"

    def _server(self, rp_id, origins):
        from fido2.server import Fido2Server
        from fido2.webauthn import PublicKeyCredentialRpEntity
        return Fido2Server(PublicKeyCredentialRpEntity(name="Example", id=rp_id),
                           verify_origin=lambda origin: origin in origins)

    def verify_registration(self, *, credential_id, client_data_json, attestation_object, challenge, rp_id, origins,
                            conditional) -> Registered:
        from fido2 import cbor
        from fido2.webauthn import AttestationObject
        try:
            flags = AttestationObject(attestation_object).auth_data.flags
        except Exception as error:  # noqa: BLE001
            raise Rejected(f"malformed attestation object: {error}") from None
        response = {"id": b64url_encode(credential_id), "rawId": b64url_encode(credential_id), "type": "public-key",
                    "response": {"clientDataJSON": b64url_encode(client_data_json),
                                 "attestationObject": b64url_encode(attestation_object)}}
        state = {"challenge": b64url_encode(challenge), "user_verification": "preferred"}
        try:
            auth_data = self._server(rp_id, origins).register_complete(state, response)
        except (ValueError, KeyError, TypeError) as error:
            raise Rejected(str(error), describe_flags(int(flags)), rejected_flags_in(str(error))) from None
        data = auth_data.credential_data
        return Registered(bytes(data.credential_id), cbor.encode(dict(data.public_key)), auth_data.counter,
                          backup_eligible=bool(int(flags) & BACKUP_ELIGIBLE))

    def verify_assertion(self, *, credential_id, client_data_json, authenticator_data, signature, user_handle,
                         challenge, rp_id, origins, public_key, sign_count) -> int:
        from fido2 import cbor
        from fido2.cose import CoseKey
        from fido2.webauthn import Aaguid, AttestedCredentialData, AuthenticatorData
        stored = AttestedCredentialData.create(Aaguid.NONE, credential_id, CoseKey.parse(cbor.decode(public_key)))
        response = {"clientDataJSON": b64url_encode(client_data_json),
                    "authenticatorData": b64url_encode(authenticator_data), "signature": b64url_encode(signature)}
        if user_handle is not None:
            response["userHandle"] = b64url_encode(user_handle)
        state = {"challenge": b64url_encode(challenge), "user_verification": "preferred"}
        try:
            self._server(rp_id, origins).authenticate_complete(
                state, [stored], {"id": b64url_encode(credential_id), "rawId": b64url_encode(credential_id),
                                  "type": "public-key", "response": response})
        except (ValueError, KeyError, TypeError) as error:
            flags = authenticator_data[32] if len(authenticator_data) > 32 else 0
            raise Rejected(str(error), describe_flags(flags), rejected_flags_in(str(error))) from None
        counter = AuthenticatorData(authenticator_data).counter
        if (counter or sign_count) and counter <= sign_count:
            # python-fido2 leaves the signature counter to the relying party.
            raise Rejected(f"signature counter {counter} did not grow past {sign_count}")
        return counter
