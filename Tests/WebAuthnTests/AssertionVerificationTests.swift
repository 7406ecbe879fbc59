import Foundation
import Testing
@testable import WebAuthn

@Suite("Assertion verification")
struct AssertionVerificationTests {
    typealias Reason = WebAuthnVerifier.Reason

    /// Signs an assertion for the standard client data and verifies it.
    static func verify(
        ceremony: Ceremony, record: WebAuthnVerifier.CredentialRecord, credential: VirtualAuthenticator.Credential,
        clientData: CollectedClientData = Ceremony.clientData(.get), flags: AuthenticatorData.Flags? = nil,
        fault: VirtualAuthenticator.Fault? = nil,
        expectation: WebAuthnVerifier.AssertionExpectation = .init(challenge: Ceremony.assertionChallenge, userHandle: Ceremony.userHandle),
        verifier: WebAuthnVerifier? = nil
    ) throws -> WebAuthnVerifier.Outcome<WebAuthnVerifier.Authentication> {
        let json = clientData.jsonBytes
        let assertion = try ceremony.authenticator.getAssertion(
            credential: credential, clientDataHash: SHA256.hash(json),
            flags: flags, fault: fault)
        return (verifier ?? ceremony.verifier).verifyAssertion(
            credentialId: assertion.credentialId, clientDataJSON: json, authenticatorData: assertion.authenticatorData,
            signature: assertion.signature, userHandle: assertion.userHandle, credential: record, expecting: expectation)
    }

    @Test func acceptsAGoodAssertionAndUpdatesTheRecord() throws {
        let ceremony = try Ceremony()
        let (record, credential) = try ceremony.registeredRecord()
        let outcome = try Self.verify(ceremony: ceremony, record: record, credential: credential)
        let verified = try #require(outcome.value, "\(String(describing: outcome.reason))")
        #expect(verified.credential.signCount == 2)
        #expect(!verified.signCountAnomaly)
        #expect(verified.clientData.type == .get)
        let second = try Self.verify(ceremony: ceremony, record: verified.credential, credential: credential)
        #expect(second.value?.credential.signCount == 3)
    }

    @Test func acceptsZeroCountersOfSyncedPasskeys() throws {
        let ceremony = try Ceremony(configuration: .init(signCounter: .alwaysZero))
        let (record, credential) = try ceremony.registeredRecord(flags: [.userPresent, .backupEligible, .backupState])
        #expect(record.signCount == 0)
        let outcome = try Self.verify(ceremony: ceremony, record: record, credential: credential)
        #expect(outcome.value?.credential.signCount == 0)
        #expect(outcome.value?.signCountAnomaly == false)
    }

    @Test func ignorePolicyAcceptsCounterRegressionButReportsIt() throws {
        let ceremony = try Ceremony()
        let (record, credential) = try ceremony.registeredRecord()
        let lenient = WebAuthnVerifier(policy: .init(rpId: Ceremony.rpId, allowedOrigins: [Ceremony.origin], signCountPolicy: .ignore))
        let outcome = try Self.verify(ceremony: ceremony, record: record, credential: credential, fault: .signCount(1), verifier: lenient)
        #expect(outcome.value?.signCountAnomaly == true)
    }

    @Test func userPresenceCanBeWaivedByTheCaller() throws {
        let ceremony = try Ceremony()
        let (record, credential) = try ceremony.registeredRecord()
        let outcome = try Self.verify(
            ceremony: ceremony, record: record, credential: credential, flags: [],
            expectation: .init(challenge: Ceremony.assertionChallenge, requireUserPresence: false))
        #expect(outcome.value != nil)
    }

    @Test func detectsClientDataChangedAfterSigning() throws {
        let ceremony = try Ceremony()
        let (record, credential) = try ceremony.registeredRecord()
        let signed = Ceremony.clientData(.get).jsonBytes
        let assertion = try ceremony.authenticator.getAssertion(credential: credential, clientDataHash: SHA256.hash(signed))
        // Same members in another order: still valid client data, but not what was signed.
        let reordered = Data(#"{"challenge":"oKGio6SlpqeoqaqrrK2urw","type":"webauthn.get","origin":"https://example.com"}"#.utf8)
        #expect(try CollectedClientData(jsonBytes: reordered).challenge == Ceremony.assertionChallenge)
        let outcome = ceremony.verifier.verifyAssertion(
            credentialId: assertion.credentialId, clientDataJSON: reordered, authenticatorData: assertion.authenticatorData,
            signature: assertion.signature, userHandle: nil, credential: record,
            expecting: .init(challenge: Ceremony.assertionChallenge))
        #expect(outcome.reason == .signatureInvalid)
    }

    /// One defect per check of the authentication ceremony.
    enum Defect: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case otherCredentialId, otherUserHandle, malformedClientData, createType, otherChallenge, otherOrigin
        case otherRpId, noUserPresence, noUserVerification, backupStateWithoutEligibility, backupEligibilityChanged
        case signatureOverOtherData, signatureByOtherKey, malformedSignature, counterNotIncreased

        var testDescription: String { rawValue }

        var expected: Reason {
            switch self {
            case .otherCredentialId: .credentialIdMismatch
            case .otherUserHandle: .userHandleMismatch
            case .malformedClientData: .clientDataMalformed(.notAnObject)
            case .createType: .unexpectedCeremonyType(expected: "webauthn.get", found: "webauthn.create")
            case .otherChallenge: .challengeMismatch
            case .otherOrigin: .originNotAllowed("http://example.com")
            case .otherRpId: .rpIdHashMismatch
            case .noUserPresence: .userNotPresent
            case .noUserVerification: .userNotVerified
            case .backupStateWithoutEligibility: .backupStateWithoutEligibility
            case .backupEligibilityChanged: .backupEligibilityChanged(stored: false, received: true)
            case .signatureOverOtherData, .signatureByOtherKey, .malformedSignature: .signatureInvalid
            case .counterNotIncreased: .signCountNotIncreased(stored: 1, received: 1)
            }
        }
    }

    @Test(arguments: Defect.allCases)
    func rejectsEachDefect(defect: Defect) throws {
        let ceremony = try Ceremony()
        var (record, credential) = try ceremony.registeredRecord()
        var clientData = Ceremony.clientData(.get)
        var flags: AuthenticatorData.Flags?
        var fault: VirtualAuthenticator.Fault?
        var expectation = WebAuthnVerifier.AssertionExpectation(
            challenge: Ceremony.assertionChallenge, userVerification: .required,
            userHandle: Ceremony.userHandle)
        switch defect {
        case .otherCredentialId: record.id = Data(repeating: 1, count: 16)
        case .otherUserHandle: expectation.userHandle = Data("someone-else".utf8)
        case .createType: clientData.type = .create
        case .otherChallenge: clientData.challenge = Ceremony.registrationChallenge
        case .otherOrigin: clientData.origin = "http://example.com"
        case .otherRpId: fault = .rpId("example.org")
        case .noUserPresence: flags = [.userVerified]
        case .noUserVerification: flags = [.userPresent]
        case .backupStateWithoutEligibility: flags = [.userPresent, .userVerified, .backupState]
        case .backupEligibilityChanged: flags = [.userPresent, .userVerified, .backupEligible]
        case .signatureOverOtherData: fault = .signatureOverOtherData
        case .signatureByOtherKey: fault = .signatureByOtherKey
        case .malformedSignature: fault = .malformedSignature
        case .counterNotIncreased: fault = .signCount(1)
        case .malformedClientData: break
        }
        let outcome: WebAuthnVerifier.Outcome<WebAuthnVerifier.Authentication>
        if defect == .malformedClientData {
            let json = Data("[]".utf8)
            let assertion = try ceremony.authenticator.getAssertion(credential: credential, clientDataHash: SHA256.hash(json))
            outcome = ceremony.verifier.verifyAssertion(
                credentialId: assertion.credentialId, clientDataJSON: json, authenticatorData: assertion.authenticatorData,
                signature: assertion.signature, userHandle: assertion.userHandle, credential: record, expecting: expectation)
        } else {
            outcome = try Self.verify(
                ceremony: ceremony, record: record, credential: credential, clientData: clientData,
                flags: flags, fault: fault, expectation: expectation)
        }
        #expect(outcome.reason == defect.expected)
        #expect(outcome.value == nil)
    }
}
