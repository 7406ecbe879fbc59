// WebAuthn's byte strings are base64url and its keys are the crypto module's: both come with it.
@_exported import Base64URLCoding
@_exported import ConformanceCrypto
