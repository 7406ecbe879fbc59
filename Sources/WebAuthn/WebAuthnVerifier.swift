#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The relying party's verification of registration and authentication responses
/// (WebAuthn §7.1 and §7.2), restricted to `"none"` attestation and ES256 credentials.
///
/// Results are values: `.verified` with what the relying party stores, or `.rejected` with a
/// precise `Reason` it can log. Nothing is thrown.
public struct WebAuthnVerifier: Sendable {
    /// The relying party's configuration, fixed across ceremonies.
    public struct Policy: Sendable, Hashable {
        /// The RP ID; authenticator data must carry its SHA-256.
        public var rpId: String
        /// The origins (exact strings such as `https://example.com`) allowed in client data.
        public var allowedOrigins: Set<String>
        /// Top-level origins allowed for cross-origin calls; `crossOrigin: true` is rejected
        /// unless `topOrigin` is in this set (empty by default: no cross-origin calls).
        public var allowedTopOrigins: Set<String>
        /// What to do when an assertion's counter does not increase.
        public var signCountPolicy: SignCountPolicy

        /// Creates a policy.
        public init(
            rpId: String, allowedOrigins: Set<String>, allowedTopOrigins: Set<String> = [],
            signCountPolicy: SignCountPolicy = .rejectNonIncreasing
        ) {
            self.rpId = rpId
            self.allowedOrigins = allowedOrigins
            self.allowedTopOrigins = allowedTopOrigins
            self.signCountPolicy = signCountPolicy
        }
    }

    /// What to do when an assertion's signature counter does not increase (WebAuthn §7.2 step 22:
    /// either counter non-zero and the new one not greater than the stored one).
    public enum SignCountPolicy: Sendable, Hashable {
        /// Reject the assertion (a possibly cloned authenticator).
        case rejectNonIncreasing
        /// Accept it and only report the counters.
        case ignore
    }

    /// The `userVerification` requirement the options carried.
    public enum UserVerificationRequirement: String, Sendable, Hashable {
        /// UV must be set.
        case required
        /// UV is wanted but not checked.
        case preferred
        /// UV is not wanted and not checked.
        case discouraged
    }

    /// What the relying party issued in `PublicKeyCredentialCreationOptions`.
    public struct RegistrationExpectation: Sendable, Hashable {
        /// The challenge sent to the client.
        public var challenge: Data
        /// The user verification requirement sent.
        public var userVerification: UserVerificationRequirement
        /// Whether `create()` was called with `mediation: "conditional"`; then UP is not required
        /// (WebAuthn L3 §7.1). This must come from the server's own session, never from the client.
        public var conditionalMediation: Bool

        /// Creates an expectation.
        public init(
            challenge: Data, userVerification: UserVerificationRequirement = .preferred,
            conditionalMediation: Bool = false
        ) {
            self.challenge = challenge
            self.userVerification = userVerification
            self.conditionalMediation = conditionalMediation
        }
    }

    /// What the relying party issued in `PublicKeyCredentialRequestOptions`, and whom it expects.
    public struct AssertionExpectation: Sendable, Hashable {
        /// The challenge sent to the client.
        public var challenge: Data
        /// The user verification requirement sent.
        public var userVerification: UserVerificationRequirement
        /// Whether UP must be set (true per WebAuthn §7.2).
        public var requireUserPresence: Bool
        /// The user handle of the account the credential belongs to; when the response carries a
        /// user handle it must equal this one.
        public var userHandle: Data?

        /// Creates an expectation.
        public init(
            challenge: Data, userVerification: UserVerificationRequirement = .preferred,
            requireUserPresence: Bool = true, userHandle: Data? = nil
        ) {
            self.challenge = challenge
            self.userVerification = userVerification
            self.requireUserPresence = requireUserPresence
            self.userHandle = userHandle
        }
    }

    /// The credential record a relying party stores after registration (WebAuthn §4 "credential record").
    public struct CredentialRecord: Sendable, Hashable {
        /// The credential ID.
        public var id: Data
        /// The credential public key.
        public var publicKey: COSEKey
        /// The last signature counter seen.
        public var signCount: UInt32
        /// Whether the credential is backup eligible (must not change).
        public var backupEligible: Bool
        /// Whether the credential was backed up at the last ceremony.
        public var backupState: Bool
        /// Whether the user was verified at registration.
        public var userVerified: Bool
        /// The AAGUID reported at registration.
        public var aaguid: Data

        /// Creates a record.
        public init(
            id: Data, publicKey: COSEKey, signCount: UInt32, backupEligible: Bool,
            backupState: Bool, userVerified: Bool, aaguid: Data
        ) {
            self.id = id
            self.publicKey = publicKey
            self.signCount = signCount
            self.backupEligible = backupEligible
            self.backupState = backupState
            self.userVerified = userVerified
            self.aaguid = aaguid
        }
    }

    /// A verified registration.
    public struct Registration: Sendable, Hashable {
        /// The record to store.
        public let credential: CredentialRecord
        /// The parsed client data.
        public let clientData: CollectedClientData
        /// The parsed authenticator data.
        public let authenticatorData: AuthenticatorData
    }

    /// A verified authentication.
    public struct Authentication: Sendable, Hashable {
        /// The stored record updated with the new counter and backup state.
        public let credential: CredentialRecord
        /// The parsed client data.
        public let clientData: CollectedClientData
        /// The parsed authenticator data.
        public let authenticatorData: AuthenticatorData
        /// Whether the counters did not increase while either was non-zero (reported even when
        /// the policy accepts it).
        public let signCountAnomaly: Bool
    }

    /// The result of a verification: a value, never a thrown error.
    public enum Outcome<Value: Sendable & Hashable>: Sendable, Hashable {
        /// The response is valid.
        case verified(Value)
        /// The response is invalid for this reason.
        case rejected(Reason)

        /// The verified value, or nil when rejected.
        public var value: Value? {
            if case let .verified(value) = self { value } else { nil }
        }

        /// The reason of a rejection, or nil when verified.
        public var reason: Reason? {
            if case let .rejected(reason) = self { reason } else { nil }
        }
    }

    /// The relying party configuration in force.
    public let policy: Policy

    /// Creates a verifier for `policy`.
    public init(policy: Policy) {
        self.policy = policy
    }
}
