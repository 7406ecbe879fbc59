#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization

/// A software authenticator that creates ES256 passkeys and signs assertions, deterministically
/// from a seed, with fault injection for testing relying parties.
///
/// Credential IDs and keys derive from the seed and the order of `makeCredential` calls, so a
/// run is reproducible; ECDSA signatures use random nonces and differ between runs. The
/// authenticator keeps its credentials and their signature counters behind a `Mutex`, so one
/// instance can be shared across tasks.
public final class VirtualAuthenticator: Sendable {
    /// How the authenticator behaves.
    public struct Configuration: Sendable, Hashable {
        /// The AAGUID reported in attested credential data (16 bytes; zero by default).
        public var aaguid: Data
        /// The length of generated credential IDs, 16 to 32 bytes.
        public var credentialIdLength: Int
        /// How signature counters evolve.
        public var signCounter: SignCounter
        /// The attestation statement format of new credentials.
        public var attestation: AttestationFormat

        /// Creates a configuration; the defaults model a synced passkey provider without attestation
        /// but with a per-credential counter.
        public init(
            aaguid: Data = Data(count: 16), credentialIdLength: Int = 16,
            signCounter: SignCounter = .incrementing, attestation: AttestationFormat = .none
        ) {
            self.aaguid = aaguid
            self.credentialIdLength = credentialIdLength
            self.signCounter = signCounter
            self.attestation = attestation
        }
    }

    /// How signature counters evolve.
    public enum SignCounter: Sendable, Hashable {
        /// Each credential's counter goes up by one on every registration and assertion.
        case incrementing
        /// Counters are always 0 (as synced passkeys usually report).
        case alwaysZero
    }

    /// The attestation statement format of new credentials.
    public enum AttestationFormat: Sendable, Hashable {
        /// `"none"`: an empty statement.
        case none
        /// `"packed"` self attestation: `{alg: -7, sig}` signed by the credential key over
        /// `authData || clientDataHash` (useful to test that a relying party rejects formats).
        case packedSelf
    }

    /// A credential the authenticator holds (its "credential source").
    public struct Credential: Sendable, Hashable {
        /// The credential ID.
        public let id: Data
        /// The RP ID the credential is scoped to.
        public let rpId: String
        /// The user handle given at registration.
        public let userHandle: Data
        /// The credential private key.
        public let signingKey: P256SigningKey
        /// The signature counter after the last operation.
        public internal(set) var signCount: UInt32
        /// Whether the credential is backup eligible (BE); fixed at registration.
        public let backupEligible: Bool
        /// Whether the credential was backed up (BS) at the last operation.
        public internal(set) var backupState: Bool

        /// The credential public key in COSE form.
        public var publicKey: COSEKey { COSEKey(publicKey: signingKey.publicKey) }
    }

    /// The result of `makeCredential`.
    public struct Registration: Sendable, Hashable {
        /// The new credential.
        public let credential: Credential
        /// The authenticator data bytes (with attested credential data).
        public let authenticatorData: Data
        /// The attestation object bytes.
        public let attestationObject: Data
    }

    /// The result of `getAssertion`.
    public struct Assertion: Sendable, Hashable {
        /// The ID of the credential that signed.
        public let credentialId: Data
        /// The authenticator data bytes.
        public let authenticatorData: Data
        /// The DER ECDSA signature over `authenticatorData || clientDataHash` (unless a fault was injected).
        public let signature: Data
        /// The user handle of the credential.
        public let userHandle: Data
    }

    /// A deliberate defect in an assertion, to test how relying parties react.
    public enum Fault: Sendable, Hashable {
        /// A well-formed DER signature over different bytes, so verification fails.
        case signatureOverOtherData
        /// A well-formed signature by a key that is not the credential's.
        case signatureByOtherKey
        /// Bytes that are not a DER ECDSA signature at all.
        case malformedSignature
        /// Authenticator data that claims another RP ID (its hash), correctly signed.
        case rpId(String)
        /// Authenticator data with this counter instead of the real one, correctly signed.
        case signCount(UInt32)
    }

    /// Why the authenticator refused an operation.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// The configuration is unusable (the text says why).
        case invalidConfiguration(String)
        /// The client data hash is not 32 bytes.
        case invalidClientDataHash(length: Int)
        /// The user handle is not 1 to 64 bytes.
        case invalidUserHandle(length: Int)
        /// The authenticator holds no credential with this ID.
        case unknownCredential(Data)
        /// The cryptography library failed.
        case crypto(CryptoError)

        /// A one-line human-readable explanation.
        public var description: String {
            switch self {
            case let .invalidConfiguration(text): "invalid virtual authenticator configuration: \(text)"
            case let .invalidClientDataHash(length): "client data hash must be 32 bytes, got \(length)"
            case let .invalidUserHandle(length): "user handle must be 1 to 64 bytes, got \(length)"
            case let .unknownCredential(id): "no credential with ID \(Base64URL.encode(id))"
            case let .crypto(error): "\(error)"
            }
        }
    }

    private struct State {
        var nextIndex: UInt32 = 0
        var credentials: [Data: Credential] = [:]
        var order: [Data] = []
    }

    private let seed: Data
    /// The configuration in force.
    public let configuration: Configuration
    private let state = Mutex(State())

    /// Creates an authenticator whose credential IDs and keys derive from `seed`.
    ///
    /// - Throws: `.invalidConfiguration` for an AAGUID that is not 16 bytes or a credential ID
    ///   length outside 16...32.
    public init(seed: Data, configuration: Configuration = Configuration()) throws(Error) {
        guard configuration.aaguid.count == 16 else { throw .invalidConfiguration("AAGUID must be 16 bytes") }
        guard (16...32).contains(configuration.credentialIdLength) else {
            throw .invalidConfiguration("credential ID length must be 16 to 32 bytes")
        }
        self.seed = Data(seed)
        self.configuration = configuration
    }

    /// The credentials created so far, in creation order.
    public var credentials: [Credential] {
        state.withLock { state in state.order.compactMap { state.credentials[$0] } }
    }

    /// The credential with this ID, with its current counter.
    public func credential(id: Data) -> Credential? {
        state.withLock { $0.credentials[id] }
    }

    /// Creates a credential (authenticatorMakeCredential) and returns it with its attestation.
    ///
    /// - Parameters:
    ///   - rpId: The RP ID; the authenticator data carries its SHA-256.
    ///   - userHandle: The user handle (1 to 64 bytes).
    ///   - clientDataHash: SHA-256 of clientDataJSON (32 bytes); signed only by `.packedSelf`
    ///     attestation, `"none"` does not cover it.
    ///   - flags: The UP, UV, BE and BS bits to report; AT (and ED with extensions) is added.
    ///     BE fixes the credential's backup eligibility.
    ///   - extensions: Authenticator extension outputs to include (a CBOR map), if any.
    ///   - reusedId: An id to give the new credential instead of its own (a faulty or hostile
    ///     authenticator reusing an id another credential has); the new key pair is still its own.
    ///     A credential this authenticator already holds under that id keeps it.
    public func makeCredential(
        rpId: String, userHandle: Data, clientDataHash: Data,
        flags: AuthenticatorData.Flags = [.userPresent, .userVerified],
        extensions: CBOR? = nil, reusedId: Data? = nil
    ) throws(Error) -> Registration {
        guard clientDataHash.count == 32 else { throw .invalidClientDataHash(length: clientDataHash.count) }
        var credential = try newCredential(rpId: rpId, userHandle: userHandle, flags: flags)
        if let reusedId {
            credential = Credential(
                id: reusedId, rpId: credential.rpId, userHandle: credential.userHandle, signingKey: credential.signingKey,
                signCount: credential.signCount, backupEligible: credential.backupEligible, backupState: credential.backupState)
        }
        let id = credential.id
        let signingKey = credential.signingKey
        let attested = AuthenticatorData.AttestedCredentialData(
            aaguid: configuration.aaguid, credentialId: id, credentialPublicKey: credential.publicKey.bytes)
        let authenticatorData = AuthenticatorData(
            rpIdHash: SHA256.hash(Data(rpId.utf8)), flags: flags,
            signCount: credential.signCount,
            attestedCredentialData: attested, extensions: extensions
        ).bytes
        let attestation: AttestationObject
        switch configuration.attestation {
        case .none:
            attestation = .none(authenticatorData: authenticatorData)
        case .packedSelf:
            let signature: Data
            do {
                signature = try signingKey.sign(authenticatorData + clientDataHash)
            } catch {
                throw .crypto(error)
            }
            attestation = AttestationObject(
                format: "packed", statement: ["alg": -7, "sig": .bytes(signature)],
                authenticatorData: authenticatorData)
        }
        if reusedId == nil || state.withLock({ $0.credentials[credential.id] == nil }) { keep(credential) }
        return Registration(
            credential: credential, authenticatorData: authenticatorData,
            attestationObject: attestation.bytes)
    }

    /// Creates and keeps a credential exactly as ``makeCredential(rpId:userHandle:clientDataHash:flags:extensions:)``
    /// does (the same id, key and counter for the same call order), without writing its
    /// authenticator data or attestation: for a credential of an earlier registration, whose
    /// registration bytes nobody reads.
    public func makeStoredCredential(rpId: String, userHandle: Data, flags: AuthenticatorData.Flags = [.userPresent, .userVerified]) throws(Error)
        -> Credential
    {
        let credential = try newCredential(rpId: rpId, userHandle: userHandle, flags: flags)
        keep(credential)
        return credential
    }

    /// The next credential in call order: its id and key derive from its index.
    private func newCredential(rpId: String, userHandle: Data, flags: AuthenticatorData.Flags) throws(Error) -> Credential {
        guard (1...64).contains(userHandle.count) else { throw .invalidUserHandle(length: userHandle.count) }
        let index = state.withLock { state in
            defer { state.nextIndex &+= 1 }
            return state.nextIndex
        }
        let id = Data(derive("credential-id", index).prefix(configuration.credentialIdLength))
        let signingKey: P256SigningKey
        do {
            signingKey = try P256SigningKey(seed: derive("credential-key", index))
        } catch {
            throw .crypto(error)
        }
        return Credential(
            id: id, rpId: rpId, userHandle: Data(userHandle), signingKey: signingKey,
            signCount: configuration.signCounter == .incrementing ? 1 : 0,
            backupEligible: flags.contains(.backupEligible),
            backupState: flags.contains(.backupState))
    }

    /// Keeps a credential, after the others in creation order.
    private func keep(_ credential: Credential) {
        state.withLock { state in
            if state.credentials.updateValue(credential, forKey: credential.id) == nil { state.order.append(credential.id) }
        }
    }

    /// Signs an assertion (authenticatorGetAssertion) with a credential this authenticator holds.
    ///
    /// - Parameters:
    ///   - credential: The credential to use (looked up by ID; its stored counter is used).
    ///   - clientDataHash: SHA-256 of clientDataJSON (32 bytes).
    ///   - flags: The flags to report; nil means UP and UV plus the credential's BE and BS.
    ///     Given flags are written as they are (so BE can be changed on purpose).
    ///   - fault: A defect to inject, if any.
    public func getAssertion(
        credential: Credential, clientDataHash: Data,
        flags: AuthenticatorData.Flags? = nil, fault: Fault? = nil
    ) throws(Error) -> Assertion {
        guard clientDataHash.count == 32 else { throw .invalidClientDataHash(length: clientDataHash.count) }
        let counter = configuration.signCounter
        let current = state.withLock { state -> Credential? in
            guard var stored = state.credentials[credential.id] else { return nil }
            if counter == .incrementing { stored.signCount &+= 1 }
            state.credentials[credential.id] = stored
            return stored
        }
        guard let current else { throw .unknownCredential(credential.id) }
        var reported = flags ?? [.userPresent, .userVerified]
        if flags == nil {
            if current.backupEligible { reported.insert(.backupEligible) }
            if current.backupState { reported.insert(.backupState) }
        }
        var rpId = current.rpId
        var signCount = current.signCount
        switch fault {
        case let .rpId(other): rpId = other
        case let .signCount(value): signCount = value
        default: break
        }
        let authenticatorData = AuthenticatorData(
            rpIdHash: SHA256.hash(Data(rpId.utf8)), flags: reported,
            signCount: signCount
        ).bytes
        var message = authenticatorData + clientDataHash
        var signer = current.signingKey
        let signature: Data
        do {
            switch fault {
            case .signatureOverOtherData:
                message[message.startIndex] ^= 0x01
            case .signatureByOtherKey:
                signer = try P256SigningKey(seed: derive("other-key", 0))
            default:
                break
            }
            if fault == .malformedSignature {
                signature = Data([0x30, 0x03, 0x02, 0x01]) + Data(derive("malformed", 0).prefix(8))
            } else {
                signature = try signer.sign(message)
            }
        } catch {
            throw .crypto(error)
        }
        return Assertion(
            credentialId: current.id, authenticatorData: authenticatorData,
            signature: signature, userHandle: current.userHandle)
    }

    /// `SHA-256(seed || "webauthn.virtual." || label || index)`, the source of all derived bytes.
    private func derive(_ label: String, _ index: UInt32) -> Data {
        let prefix = "webauthn.virtual.".utf8
        var input = Data(capacity: seed.count + prefix.count + label.utf8.count + 4)
        input.append(seed)
        input.append(contentsOf: prefix)
        input.append(contentsOf: label.utf8)
        withUnsafeBytes(of: index.bigEndian) { input.append(contentsOf: $0) }
        return SHA256.hash(input)
    }
}
