#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension WebAuthnVerifier {
    /// Why a response was rejected; each case names one check of WebAuthn §7.1 / §7.2.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// clientDataJSON could not be parsed.
        case clientDataMalformed(CollectedClientData.ParseError)
        /// `type` is not the ceremony's (`webauthn.create` / `webauthn.get`).
        case unexpectedCeremonyType(expected: String, found: String)
        /// `challenge` is not the one issued.
        case challengeMismatch
        /// `origin` is not in the allowed set.
        case originNotAllowed(String)
        /// `crossOrigin` is true and `topOrigin` is absent or not allowed.
        case crossOriginNotAllowed(topOrigin: String?)
        /// The attestation object could not be parsed.
        case attestationObjectMalformed(AttestationObject.ParseError)
        /// The attestation format is not `"none"`.
        case unsupportedAttestationFormat(String)
        /// The format is `"none"` but the statement is not the empty map.
        case nonEmptyNoneAttestationStatement
        /// The authenticator data could not be parsed.
        case authenticatorDataMalformed(AuthenticatorData.ParseError)
        /// `rpIdHash` is not SHA-256 of the RP ID.
        case rpIdHashMismatch
        /// UP is not set although required.
        case userNotPresent
        /// UV is not set although the options required it.
        case userNotVerified
        /// BS is set while BE is not.
        case backupStateWithoutEligibility
        /// A registration without attested credential data (AT).
        case attestedCredentialDataMissing
        /// The credential public key is not a valid ES256 COSE key.
        case credentialPublicKeyInvalid(COSEKey.DecodingError)
        /// The assertion names another credential than the stored record.
        case credentialIdMismatch
        /// The assertion's user handle is not the account's.
        case userHandleMismatch
        /// BE differs from the value stored at registration.
        case backupEligibilityChanged(stored: Bool, received: Bool)
        /// The signature does not verify with the stored public key.
        case signatureInvalid
        /// The counter did not increase (policy `.rejectNonIncreasing`).
        case signCountNotIncreased(stored: UInt32, received: UInt32)

        /// A one-line explanation for logs.
        public var message: String {
            switch self {
            case let .clientDataMalformed(error): "\(error)"
            case let .unexpectedCeremonyType(expected, found): "client data type is \"\(found)\", expected \"\(expected)\""
            case .challengeMismatch: "client data challenge does not match the challenge issued"
            case let .originNotAllowed(origin): "origin \"\(origin)\" is not allowed"
            case let .crossOriginNotAllowed(topOrigin):
                "cross-origin call with " + (topOrigin.map { "top origin \"\($0)\" that is not allowed" } ?? "no top origin")
            case let .attestationObjectMalformed(error): "\(error)"
            case let .unsupportedAttestationFormat(format): "attestation format \"\(format)\" is not accepted (only \"none\")"
            case .nonEmptyNoneAttestationStatement: "attestation format \"none\" with a non-empty statement"
            case let .authenticatorDataMalformed(error): "\(error)"
            case .rpIdHashMismatch: "rpIdHash is not SHA-256 of the expected RP ID"
            case .userNotPresent: "user presence (UP) flag is not set"
            case .userNotVerified: "user verification was required but the UV flag is not set"
            case .backupStateWithoutEligibility: "backup state (BS) is set without backup eligibility (BE)"
            case .attestedCredentialDataMissing: "registration lacks attested credential data (AT flag)"
            case let .credentialPublicKeyInvalid(error): "\(error)"
            case .credentialIdMismatch: "assertion credential ID differs from the stored credential"
            case .userHandleMismatch: "assertion user handle differs from the account's user handle"
            case let .backupEligibilityChanged(stored, received):
                "backup eligibility (BE) changed from \(stored) at registration to \(received)"
            case .signatureInvalid: "assertion signature does not verify with the stored public key"
            case let .signCountNotIncreased(stored, received):
                "signature counter \(received) is not greater than the stored \(stored) (possible cloned authenticator)"
            }
        }

        /// The same as `message`.
        public var description: String { message }
    }
}
