"""WebAuthn registration verification for attestation "none", with the standard library only.

A registration with attestation "none" carries no signature, so it can be verified without any
cryptography beyond SHA-256 (WebAuthn Level 3, section 7.1): the client data's type, challenge
and origin, the authenticator data's RP ID hash and flags, and the shape of the credential
public key. Verifying a passkey *sign-in* needs an ES256 signature check, which the standard
library cannot do; this example therefore does not offer passkey sign-in (see README.md).
"""

import hashlib
import json
from dataclasses import dataclass
from typing import Optional

import cbor
from passkey_base64url import b64url_decode

# Authenticator data flags (WebAuthn section 6.1).
USER_PRESENT = 0x01
USER_VERIFIED = 0x04
BACKUP_ELIGIBLE = 0x08
BACKED_UP = 0x10
ATTESTED_CREDENTIAL_DATA = 0x40
EXTENSION_DATA = 0x80

MAX_CREDENTIAL_ID_LENGTH = 1023


class RegistrationRejected(Exception):
    """The registration response fails a check; the message says which."""


@dataclass
class ClientData:
    type: str
    challenge: bytes
    origin: str
    cross_origin: bool


@dataclass
class AuthenticatorData:
    rp_id_hash: bytes
    flags: int
    sign_count: int
    credential_id: Optional[bytes] = None  # present when the AT flag is set
    credential_public_key: Optional[bytes] = None  # the COSE_Key exactly as received


@dataclass
class VerifiedCredential:
    """What the server stores about a newly registered credential."""
    credential_id: bytes
    public_key: bytes
    sign_count: int
    backup_eligible: bool
    backed_up: bool
    user_verified: bool


def parse_client_data(raw):
    """Reads clientDataJSON; raises RegistrationRejected when it is malformed."""
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise RegistrationRejected(f"clientDataJSON is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise RegistrationRejected("clientDataJSON is not a JSON object")
    for member in ("type", "challenge", "origin"):
        if not isinstance(value.get(member), str):
            raise RegistrationRejected(f'clientDataJSON lacks the text member "{member}"')
    cross_origin = value.get("crossOrigin", False)
    if not isinstance(cross_origin, bool):
        raise RegistrationRejected('clientDataJSON member "crossOrigin" is not a boolean')
    try:
        challenge = b64url_decode(value["challenge"])
    except ValueError as error:
        raise RegistrationRejected(f"clientDataJSON challenge: {error}") from None
    return ClientData(value["type"], challenge, value["origin"], cross_origin)


def parse_authenticator_data(data):
    """Reads authenticator data: rpIdHash, flags, signCount, attested credential data, extensions."""
    if len(data) < 37:
        raise RegistrationRejected(f"authenticator data is {len(data)} bytes, shorter than 37")
    parsed = AuthenticatorData(rp_id_hash=data[:32], flags=data[32], sign_count=int.from_bytes(data[33:37], "big"))
    position = 37
    if parsed.flags & ATTESTED_CREDENTIAL_DATA:
        if len(data) < position + 18:
            raise RegistrationRejected("attested credential data is truncated")
        length = int.from_bytes(data[53:55], "big")  # after the 16-byte AAGUID
        position = 55
        if not 1 <= length <= MAX_CREDENTIAL_ID_LENGTH or len(data) < position + length:
            raise RegistrationRejected(f"credential id length {length} is invalid or truncated")
        parsed.credential_id = data[position:position + length]
        position += length
        try:
            _, end = cbor.decode_prefix(data, position)
        except cbor.CBORError as error:
            raise RegistrationRejected(f"credential public key: {error}") from None
        parsed.credential_public_key = data[position:end]
        position = end
    if parsed.flags & EXTENSION_DATA:
        try:
            extensions, position = cbor.decode_prefix(data, position)
        except cbor.CBORError as error:
            raise RegistrationRejected(f"extensions: {error}") from None
        if not isinstance(extensions, dict):
            raise RegistrationRejected("extensions are not a CBOR map")
    if position != len(data):
        raise RegistrationRejected(f"{len(data) - position} byte(s) left over after the authenticator data")
    return parsed


def check_es256_key(cose_key):
    """The credential public key must be the ES256 (P-256) key the options asked for (alg -7)."""
    try:
        key = cbor.decode(cose_key)
    except cbor.CBORError as error:
        raise RegistrationRejected(f"credential public key: {error}") from None
    if not isinstance(key, dict):
        raise RegistrationRejected("the credential public key is not a COSE_Key map")
    # COSE labels: 1 kty (2 = EC2), 3 alg (-7 = ES256), -1 crv (1 = P-256), -2 x, -3 y.
    if key.get(1) != 2 or key.get(3) != -7 or key.get(-1) != 1:
        raise RegistrationRejected("the credential public key is not an ES256 P-256 key")
    for label in (-2, -3):
        if not isinstance(key.get(label), bytes) or len(key[label]) != 32:
            raise RegistrationRejected("the credential public key's coordinates are not 32 bytes each")


def verify_registration(client_data_json, attestation_object, *, challenge, rp_id, origins, conditional):
    """Verifies a registration response with attestation "none" (WebAuthn section 7.1).

    `conditional` says whether the server issued the options for a conditional (automatic)
    registration: only then may user presence be absent. User verification is never required,
    as the options ask for it as "preferred". Returns the credential to store.
    """
    client = parse_client_data(client_data_json)
    if client.type != "webauthn.create":
        raise RegistrationRejected(f"clientDataJSON type is {client.type!r}, not 'webauthn.create'")
    if client.challenge != challenge:
        raise RegistrationRejected("the challenge is not the one issued")
    if client.origin not in origins:
        raise RegistrationRejected(f"the origin {client.origin!r} is not allowed")
    if client.cross_origin:
        raise RegistrationRejected("cross-origin registrations are not allowed")

    try:
        attestation = cbor.decode(attestation_object)
    except cbor.CBORError as error:
        raise RegistrationRejected(f"attestation object: {error}") from None
    if not isinstance(attestation, dict) or not isinstance(attestation.get("authData"), bytes):
        raise RegistrationRejected("the attestation object is not a map with authData bytes")
    if attestation.get("fmt") != "none" or attestation.get("attStmt") != {}:
        raise RegistrationRejected(f"attestation format {attestation.get('fmt')!r} with statement "
                                   f"{attestation.get('attStmt')!r} is not 'none' with an empty statement")

    data = parse_authenticator_data(attestation["authData"])
    if data.rp_id_hash != hashlib.sha256(rp_id.encode("utf-8")).digest():
        raise RegistrationRejected(f"rpIdHash is not SHA-256 of {rp_id!r}")
    if not conditional and not data.flags & USER_PRESENT:
        raise RegistrationRejected("user presence (UP) is required for modal registration options")
    if data.flags & BACKED_UP and not data.flags & BACKUP_ELIGIBLE:
        raise RegistrationRejected("backed up (BS) without backup eligible (BE)")
    if data.credential_id is None:
        raise RegistrationRejected("no attested credential data (AT)")
    check_es256_key(data.credential_public_key)
    return VerifiedCredential(
        credential_id=data.credential_id, public_key=data.credential_public_key, sign_count=data.sign_count,
        backup_eligible=bool(data.flags & BACKUP_ELIGIBLE), backed_up=bool(data.flags & BACKED_UP),
        user_verified=bool(data.flags & USER_VERIFIED))
