import Foundation
import Testing
@testable import WebAuthn

@Suite("Virtual authenticator")
struct VirtualAuthenticatorTests {
    static let clientDataHash = SHA256.hash(Data("client data".utf8))

    @Test func makeCredentialProducesANoneAttestation() throws {
        let authenticator = try VirtualAuthenticator(seed: Data("seed".utf8))
        let registration = try authenticator.makeCredential(
            rpId: "example.com", userHandle: Data([1, 2, 3]),
            clientDataHash: Self.clientDataHash)
        let object = try AttestationObject(bytes: registration.attestationObject)
        #expect(object == .none(authenticatorData: registration.authenticatorData))
        let data = try AuthenticatorData(bytes: registration.authenticatorData)
        #expect(data.rpIdHash == SHA256.hash(Data("example.com".utf8)))
        #expect(data.flags == [.userPresent, .userVerified, .attestedCredentialData])
        #expect(data.signCount == 1)
        let attested = try #require(data.attestedCredentialData)
        #expect(attested.aaguid == Data(count: 16))
        #expect(attested.credentialId == registration.credential.id)
        #expect(attested.credentialId.count == 16)
        #expect(try COSEKey(decoding: attested.credentialPublicKey) == registration.credential.publicKey)
        #expect(registration.credential.userHandle == Data([1, 2, 3]))
        #expect(registration.credential.rpId == "example.com")
    }

    @Test("a stored credential is the one makeCredential would have made at the same point, and signs alike")
    func storedCredentialMatchesMadeCredential() throws {
        let made = try VirtualAuthenticator(seed: Data("seed".utf8))
        let stored = try VirtualAuthenticator(seed: Data("seed".utf8))
        let flags: AuthenticatorData.Flags = [.userPresent, .userVerified, .backupEligible, .backupState]
        for handle in [Data([1]), Data([2, 3]), Data(repeating: 7, count: 64)] {
            let registration = try made.makeCredential(rpId: "example.com", userHandle: handle, clientDataHash: Self.clientDataHash, flags: flags)
            #expect(try stored.makeStoredCredential(rpId: "example.com", userHandle: handle, flags: flags) == registration.credential)
        }
        #expect(made.credentials == stored.credentials)
        // Later credentials and counters go on from the same state.
        #expect(
            try made.makeCredential(rpId: "b.example", userHandle: Data([9]), clientDataHash: Self.clientDataHash).credential
                == stored.makeCredential(rpId: "b.example", userHandle: Data([9]), clientDataHash: Self.clientDataHash).credential)
        let first = try #require(stored.credentials.first)
        let assertion = try stored.getAssertion(credential: first, clientDataHash: Self.clientDataHash)
        #expect(try AuthenticatorData(bytes: assertion.authenticatorData).signCount == 2)
        #expect(throws: VirtualAuthenticator.Error.self) { try stored.makeStoredCredential(rpId: "example.com", userHandle: Data()) }
    }

    @Test func isDeterministicFromTheSeed() throws {
        func run(_ seed: String) throws -> [VirtualAuthenticator.Credential] {
            let authenticator = try VirtualAuthenticator(seed: Data(seed.utf8), configuration: .init(credentialIdLength: 32))
            return try (0..<3).map { _ in
                try authenticator.makeCredential(rpId: "example.com", userHandle: Data([7]), clientDataHash: Self.clientDataHash).credential
            }
        }
        let first = try run("seed-a")
        #expect(try run("seed-a") == first)
        #expect(Set(first.map(\.id)).count == 3)
        #expect(first.allSatisfy { $0.id.count == 32 })
        #expect(try run("seed-b").map(\.id) != first.map(\.id))
    }

    @Test func assertionSignsAuthenticatorDataAndClientDataHash() throws {
        let authenticator = try VirtualAuthenticator(seed: Data("seed".utf8))
        let registration = try authenticator.makeCredential(
            rpId: "example.com", userHandle: Data([1]),
            clientDataHash: Self.clientDataHash,
            flags: [.userPresent, .backupEligible, .backupState])
        let assertion = try authenticator.getAssertion(credential: registration.credential, clientDataHash: Self.clientDataHash)
        let data = try AuthenticatorData(bytes: assertion.authenticatorData)
        #expect(data.flags == [.userPresent, .userVerified, .backupEligible, .backupState])
        #expect(data.signCount == 2)
        #expect(data.attestedCredentialData == nil)
        #expect(assertion.userHandle == Data([1]))
        #expect(assertion.credentialId == registration.credential.id)
        let key = registration.credential.signingKey.publicKey
        #expect(key.isValidSignature(assertion.signature, for: assertion.authenticatorData + Self.clientDataHash))
        let next = try authenticator.getAssertion(credential: registration.credential, clientDataHash: Self.clientDataHash)
        #expect(try AuthenticatorData(bytes: next.authenticatorData).signCount == 3)
        #expect(authenticator.credential(id: registration.credential.id)?.signCount == 3)
    }

    @Test func alwaysZeroCounterAndPackedSelfAttestation() throws {
        let authenticator = try VirtualAuthenticator(
            seed: Data("seed".utf8),
            configuration: .init(signCounter: .alwaysZero, attestation: .packedSelf))
        let registration = try authenticator.makeCredential(rpId: "example.com", userHandle: Data([1]), clientDataHash: Self.clientDataHash)
        let object = try AttestationObject(bytes: registration.attestationObject)
        #expect(object.format == "packed")
        #expect(object.statement["alg"] == -7)
        let signature = try #require(object.statement["sig"]?.bytesValue)
        #expect(registration.credential.signingKey.publicKey.isValidSignature(signature, for: registration.authenticatorData + Self.clientDataHash))
        let assertion = try authenticator.getAssertion(credential: registration.credential, clientDataHash: Self.clientDataHash)
        #expect(try AuthenticatorData(bytes: assertion.authenticatorData).signCount == 0)
    }

    @Test(arguments: [VirtualAuthenticator.Fault.signatureOverOtherData, .signatureByOtherKey, .malformedSignature])
    func signatureFaultsProduceInvalidSignatures(fault: VirtualAuthenticator.Fault) throws {
        let authenticator = try VirtualAuthenticator(seed: Data("seed".utf8))
        let credential = try authenticator.makeCredential(rpId: "example.com", userHandle: Data([1]), clientDataHash: Self.clientDataHash).credential
        let assertion = try authenticator.getAssertion(credential: credential, clientDataHash: Self.clientDataHash, fault: fault)
        #expect(!credential.signingKey.publicKey.isValidSignature(assertion.signature, for: assertion.authenticatorData + Self.clientDataHash))
    }

    @Test func dataFaultsAreCorrectlySigned() throws {
        let authenticator = try VirtualAuthenticator(seed: Data("seed".utf8))
        let credential = try authenticator.makeCredential(rpId: "example.com", userHandle: Data([1]), clientDataHash: Self.clientDataHash).credential
        let wrongRP = try authenticator.getAssertion(credential: credential, clientDataHash: Self.clientDataHash, fault: .rpId("evil.example"))
        #expect(try AuthenticatorData(bytes: wrongRP.authenticatorData).rpIdHash == SHA256.hash(Data("evil.example".utf8)))
        #expect(credential.signingKey.publicKey.isValidSignature(wrongRP.signature, for: wrongRP.authenticatorData + Self.clientDataHash))
        let counter = try authenticator.getAssertion(credential: credential, clientDataHash: Self.clientDataHash, fault: .signCount(0))
        #expect(try AuthenticatorData(bytes: counter.authenticatorData).signCount == 0)
    }

    @Test func rejectsInvalidRequests() throws {
        #expect(throws: VirtualAuthenticator.Error.invalidConfiguration("credential ID length must be 16 to 32 bytes")) {
            try VirtualAuthenticator(seed: Data(), configuration: .init(credentialIdLength: 15))
        }
        #expect(throws: VirtualAuthenticator.Error.invalidConfiguration("AAGUID must be 16 bytes")) {
            try VirtualAuthenticator(seed: Data(), configuration: .init(aaguid: Data(count: 15)))
        }
        let authenticator = try VirtualAuthenticator(seed: Data("seed".utf8))
        #expect(throws: VirtualAuthenticator.Error.invalidClientDataHash(length: 31)) {
            try authenticator.makeCredential(rpId: "example.com", userHandle: Data([1]), clientDataHash: Data(count: 31))
        }
        #expect(throws: VirtualAuthenticator.Error.invalidUserHandle(length: 0)) {
            try authenticator.makeCredential(rpId: "example.com", userHandle: Data(), clientDataHash: Self.clientDataHash)
        }
        #expect(throws: VirtualAuthenticator.Error.invalidUserHandle(length: 65)) {
            try authenticator.makeCredential(rpId: "example.com", userHandle: Data(count: 65), clientDataHash: Self.clientDataHash)
        }
        let stranger = try VirtualAuthenticator(seed: Data("other".utf8))
        let foreign = try stranger.makeCredential(rpId: "example.com", userHandle: Data([1]), clientDataHash: Self.clientDataHash).credential
        #expect(throws: VirtualAuthenticator.Error.unknownCredential(foreign.id)) {
            try authenticator.getAssertion(credential: foreign, clientDataHash: Self.clientDataHash)
        }
    }

    @Test func concurrentAssertionsGetDistinctCounters() async throws {
        let authenticator = try VirtualAuthenticator(seed: Data("seed".utf8))
        let credential = try authenticator.makeCredential(rpId: "example.com", userHandle: Data([1]), clientDataHash: Self.clientDataHash).credential
        let counters = try await withThrowingTaskGroup(of: UInt32.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let assertion = try authenticator.getAssertion(credential: credential, clientDataHash: Self.clientDataHash)
                    return try AuthenticatorData(bytes: assertion.authenticatorData).signCount
                }
            }
            return try await group.reduce(into: [UInt32]()) { $0.append($1) }
        }
        #expect(Set(counters) == Set(2...21))
        #expect(authenticator.credentials.map(\.signCount) == [21])
    }
}
