#!/usr/bin/env python3
"""Independent check of WebAuthn bytes produced by the Swift WebAuthn module.

Usage: check_webauthn.py DIR

DIR holds files written by the Swift test suite:
  expected.json                  {"rpId", "origin", "registrationChallenge", "assertionChallenge"}
                                 (challenges in base64url)
  registration.clientDataJSON    raw clientDataJSON of the registration
  registration.attestationObject raw attestation object (CBOR)
  assertion.clientDataJSON       raw clientDataJSON of the assertion
  assertion.authenticatorData    raw authenticator data of the assertion
  assertion.signature            DER ECDSA signature of the assertion

The bytes are decoded with cbor2 and the ES256 signature verified with the
`cryptography` package, sharing no code with the Swift implementation.

Prints one JSON object {"ok": bool, "checks": [...], "failures": [...]} and
exits 0 when every check passes, 1 when a check fails, 2 when the checker
cannot run (bad usage, missing file, missing Python module).
"""

import base64
import hashlib
import io
import json
import os
import struct
import sys

try:
    import cbor2
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
except ImportError as error:  # the Swift test checks for the modules first; this is a fallback
    print(json.dumps({"ok": False, "error": f"missing Python module: {error.name}"}))
    sys.exit(2)


class Checker:
    def __init__(self):
        self.checks = []
        self.failures = []

    def expect(self, condition, description):
        (self.checks if condition else self.failures).append(description)
        return condition


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def decode_single(data):
    """Decodes one CBOR item and returns it with the number of bytes it used."""
    stream = io.BytesIO(data)
    value = cbor2.CBORDecoder(stream).decode()
    return value, stream.tell()


def check_client_data(checker, raw, ceremony, challenge, origin):
    prefix = '{"type":"webauthn.%s","challenge":' % ceremony
    checker.expect(raw.startswith(prefix.encode()), f"{ceremony}: clientDataJSON starts with {prefix}")
    data = json.loads(raw.decode("utf-8"))
    checker.expect(data.get("type") == f"webauthn.{ceremony}", f"{ceremony}: type is webauthn.{ceremony}")
    checker.expect(data.get("challenge") == challenge, f"{ceremony}: challenge matches")
    checker.expect("=" not in data.get("challenge", "="), f"{ceremony}: challenge has no padding")
    checker.expect(data.get("origin") == origin, f"{ceremony}: origin matches")
    checker.expect(data.get("crossOrigin") is False, f"{ceremony}: crossOrigin is false")
    checker.expect(list(data)[:4] == ["type", "challenge", "origin", "crossOrigin"], f"{ceremony}: member order")


def parse_authenticator_data(checker, data, rp_id, label):
    """Returns (flags, sign_count, credential_id, cose_key) per WebAuthn section 6.1."""
    checker.expect(len(data) >= 37, f"{label}: authenticator data has at least 37 bytes")
    rp_id_hash, flags, sign_count = data[:32], data[32], struct.unpack(">I", data[33:37])[0]
    checker.expect(rp_id_hash == hashlib.sha256(rp_id.encode()).digest(), f"{label}: rpIdHash is SHA-256 of the RP ID")
    checker.expect(flags & 0x01, f"{label}: UP flag set")
    checker.expect(not (flags & 0x10) or (flags & 0x08), f"{label}: BS only with BE")
    offset, credential_id, cose_key = 37, None, None
    if flags & 0x40:
        aaguid = data[offset:offset + 16]
        checker.expect(len(aaguid) == 16, f"{label}: AAGUID present")
        (length,) = struct.unpack(">H", data[offset + 16:offset + 18])
        checker.expect(length <= 1023, f"{label}: credential ID length <= 1023")
        offset += 18
        credential_id = data[offset:offset + length]
        checker.expect(len(credential_id) == length and 16 <= length <= 32, f"{label}: credential ID of 16-32 bytes")
        offset += length
        key_bytes = data[offset:]
        cose_key, used = decode_single(key_bytes)
        key_bytes = key_bytes[:used]
        offset += used
        checker.expect(key_bytes[:10] == bytes.fromhex("a5010203262001215820"), f"{label}: COSE key starts A5 01 02 03 26 20 01 21 58 20")
        checker.expect(cbor2.dumps(cose_key, canonical=True) == key_bytes, f"{label}: COSE key is canonical CBOR")
    if flags & 0x80:
        extensions, used = decode_single(data[offset:])
        checker.expect(isinstance(extensions, dict), f"{label}: extensions are a map")
        offset += used
    checker.expect(offset == len(data), f"{label}: no trailing bytes in authenticator data")
    return flags, sign_count, credential_id, cose_key


def public_key_from_cose(checker, cose_key):
    ok = checker.expect(isinstance(cose_key, dict) and cose_key.get(1) == 2 and cose_key.get(3) == -7
                        and cose_key.get(-1) == 1 and set(cose_key) == {1, 3, -1, -2, -3},
                        "COSE key is EC2 / ES256 / P-256 with exactly kty, alg, crv, x, y")
    x, y = (cose_key.get(-2), cose_key.get(-3)) if isinstance(cose_key, dict) else (None, None)
    ok = checker.expect(isinstance(x, bytes) and isinstance(y, bytes) and len(x) == 32 and len(y) == 32,
                        "COSE key x and y are 32-byte strings") and ok
    if not ok:
        return None
    try:
        numbers = ec.EllipticCurvePublicNumbers(int.from_bytes(x, "big"), int.from_bytes(y, "big"), ec.SECP256R1())
        key = numbers.public_key()
    except ValueError:
        checker.expect(False, "COSE key point is on P-256")
        return None
    checker.expect(True, "COSE key point is on P-256")
    return key


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(json.dumps({"ok": False, "error": "usage: check_webauthn.py DIR"}))
        return 2
    directory = argv[1]

    def read(name):
        with open(os.path.join(directory, name), "rb") as handle:
            return handle.read()

    try:
        expected = json.loads(read("expected.json"))
        files = {name: read(name) for name in (
            "registration.clientDataJSON", "registration.attestationObject",
            "assertion.clientDataJSON", "assertion.authenticatorData", "assertion.signature")}
    except (OSError, ValueError) as error:
        print(json.dumps({"ok": False, "error": f"cannot read inputs: {error}"}))
        return 2

    checker = Checker()
    rp_id, origin = expected["rpId"], expected["origin"]
    try:
        check_client_data(checker, files["registration.clientDataJSON"], "create",
                          expected["registrationChallenge"], origin)
        raw_object = files["registration.attestationObject"]
        attestation, used = decode_single(raw_object)
        checker.expect(used == len(raw_object), "attestation object has no trailing bytes")
        checker.expect(cbor2.dumps(attestation, canonical=True) == raw_object, "attestation object is canonical CBOR")
        checker.expect(isinstance(attestation, dict) and set(attestation) == {"fmt", "attStmt", "authData"},
                       "attestation object has exactly fmt, attStmt, authData")
        checker.expect(attestation.get("fmt") == "none", "fmt is none")
        checker.expect(attestation.get("attStmt") == {}, "attStmt is the empty map")
        flags, _, credential_id, cose_key = parse_authenticator_data(
            checker, attestation.get("authData", b""), rp_id, "registration")
        checker.expect(flags & 0x40, "registration: AT flag set")
        public_key = public_key_from_cose(checker, cose_key) if cose_key is not None else None

        client_data = files["assertion.clientDataJSON"]
        check_client_data(checker, client_data, "get", expected["assertionChallenge"], origin)
        authenticator_data = files["assertion.authenticatorData"]
        assertion_flags, _, _, _ = parse_authenticator_data(checker, authenticator_data, rp_id, "assertion")
        checker.expect(not assertion_flags & 0x40, "assertion: AT flag clear")
        if public_key is not None:
            signed = authenticator_data + hashlib.sha256(client_data).digest()
            try:
                public_key.verify(files["assertion.signature"], signed, ec.ECDSA(hashes.SHA256()))
                checker.expect(True, "assertion: ES256 signature over authData || SHA-256(clientDataJSON) verifies")
            except InvalidSignature:
                checker.expect(False, "assertion: ES256 signature over authData || SHA-256(clientDataJSON) verifies")
        checker.expect(b64url_decode(expected["registrationChallenge"]) != b"", "registration challenge is not empty")
        checker.expect(credential_id is not None, "registration: credential ID present")
    except (cbor2.CBORDecodeError, ValueError, KeyError, struct.error, UnicodeDecodeError) as error:
        checker.expect(False, f"input could not be decoded: {type(error).__name__}: {error}")

    ok = not checker.failures
    print(json.dumps({"ok": ok, "checks": checker.checks, "failures": checker.failures}, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
