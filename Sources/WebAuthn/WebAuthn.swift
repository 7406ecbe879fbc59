// Module WebAuthn.
