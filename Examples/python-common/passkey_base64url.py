"""base64url: the byte encoding of WebAuthn's JSON forms and of the adapter protocol.

Shared by every Python example (Examples/python-common/); standard library only.
"""

import base64
import binascii
import re

_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


def b64url_encode(data):
    """Unpadded base64url, as WebAuthn's JSON forms and the adapter protocol write bytes."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text):
    """Decodes canonical unpadded base64url; raises ValueError for anything else."""
    if not isinstance(text, str) or not _BASE64URL.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError(f"not unpadded base64url: {str(text)[:40]!r}")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except binascii.Error as error:
        raise ValueError(f"not base64url: {error}") from None
    if b64url_encode(data) != text:
        raise ValueError(f"not canonical base64url: {text[:40]!r}")
    return data
