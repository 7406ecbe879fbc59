import Foundation
import Testing
@testable import WebAuthn

@Suite("Registration verification")
struct RegistrationVerificationTests {
    typealias Reason = WebAuthnVerifier.Reason

    @Test func acceptsAGoodRegistration() throws {
        let ceremony = try Ceremony()
        let (registration, json) = try ceremony.register()
        let outcome = ceremony.verifier.verifyRegistration(
            clientDataJSON: json, attestationObject: registration.attestationObject,
            expecting: .init(challenge: Ceremony.registrationChallenge, userVerification: .required))
        let verified = try #require(outcome.value, "\(String(describing: outcome.reason))")
        #expect(verified.credential.id == registration.credential.id)
        #expect(verified.credential.publicKey == registration.credential.publicKey)
        #expect(verified.credential.signCount == 1)
        #expect(verified.credential.userVerified)
        #expect(!verified.credential.backupEligible && !verified.credential.backupState)
        #expect(verified.credential.aaguid == Data(count: 16))
        #expect(verified.clientData.origin == Ceremony.origin)
    }

    @Test func conditionalCreateDoesNotRequireUserPresence() throws {
        let ceremony = try Ceremony()
        let (registration, json) = try ceremony.register(flags: [])
        let conditional = ceremony.verifier.verifyRegistration(
            clientDataJSON: json, attestationObject: registration.attestationObject,
            expecting: .init(challenge: Ceremony.registrationChallenge, conditionalMediation: true))
        #expect(conditional.value != nil)
        let modal = ceremony.verifier.verifyRegistration(
            clientDataJSON: json, attestationObject: registration.attestationObject,
            expecting: .init(challenge: Ceremony.registrationChallenge))
        #expect(modal.reason == .userNotPresent)
    }

    @Test func conditionalCreateStillEnforcesRequiredUserVerification() throws {
        let ceremony = try Ceremony()
        let (registration, json) = try ceremony.register(flags: [])
        let outcome = ceremony.verifier.verifyRegistration(
            clientDataJSON: json, attestationObject: registration.attestationObject,
            expecting: .init(challenge: Ceremony.registrationChallenge, userVerification: .required, conditionalMediation: true))
        #expect(outcome.reason == .userNotVerified)
    }

    @Test func acceptsBackedUpPasskeysAndAllowedCrossOriginCalls() throws {
        let ceremony = try Ceremony()
        let clientData = CollectedClientData(
            type: .create, challenge: Ceremony.registrationChallenge, origin: Ceremony.origin,
            crossOrigin: true, topOrigin: "https://top.example")
        let (registration, json) = try ceremony.register(clientData: clientData, flags: [.userPresent, .backupEligible, .backupState])
        let verifier = WebAuthnVerifier(
            policy: .init(
                rpId: Ceremony.rpId, allowedOrigins: [Ceremony.origin],
                allowedTopOrigins: ["https://top.example"]))
        let outcome = verifier.verifyRegistration(
            clientDataJSON: json, attestationObject: registration.attestationObject,
            expecting: .init(challenge: Ceremony.registrationChallenge))
        let verified = try #require(outcome.value, "\(String(describing: outcome.reason))")
        #expect(verified.credential.backupEligible && verified.credential.backupState && !verified.credential.userVerified)
    }

    /// One defect per check of the registration ceremony.
    enum Defect: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case malformedClientData, getType, otherChallenge, otherOrigin, crossOriginWithoutAllowedTop
        case malformedAttestationObject, packedFormat, noneWithStatement, truncatedAuthenticatorData
        case otherRpId, noUserPresence, noUserVerification, backupStateWithoutEligibility
        case noAttestedCredentialData, rsaAlgorithm

        var testDescription: String { rawValue }

        var expected: Reason {
            switch self {
            case .malformedClientData: .clientDataMalformed(.missingMember("origin"))
            case .getType: .unexpectedCeremonyType(expected: "webauthn.create", found: "webauthn.get")
            case .otherChallenge: .challengeMismatch
            case .otherOrigin: .originNotAllowed("https://evil.example")
            case .crossOriginWithoutAllowedTop: .crossOriginNotAllowed(topOrigin: "https://evil.example")
            case .malformedAttestationObject: .attestationObjectMalformed(.malformedCBOR(.init(.unexpectedEnd, offset: 0)))
            case .packedFormat: .unsupportedAttestationFormat("packed")
            case .noneWithStatement: .nonEmptyNoneAttestationStatement
            case .truncatedAuthenticatorData: .authenticatorDataMalformed(.init(.tooShort(length: 36), offset: 0))
            case .otherRpId: .rpIdHashMismatch
            case .noUserPresence: .userNotPresent
            case .noUserVerification: .userNotVerified
            case .backupStateWithoutEligibility: .backupStateWithoutEligibility
            case .noAttestedCredentialData: .attestedCredentialDataMissing
            case .rsaAlgorithm: .credentialPublicKeyInvalid(.unexpectedValue(label: 3, found: "-257"))
            }
        }
    }

    @Test(arguments: Defect.allCases)
    func rejectsEachDefect(defect: Defect) throws {
        let configuration = VirtualAuthenticator.Configuration(attestation: defect == .packedFormat ? .packedSelf : .none)
        let ceremony = try Ceremony(configuration: configuration)
        var clientData = Ceremony.clientData(.create)
        var rpId = Ceremony.rpId
        var flags: AuthenticatorData.Flags = [.userPresent, .userVerified]
        switch defect {
        case .getType: clientData.type = .get
        case .otherChallenge: clientData.challenge = Data([9, 9, 9])
        case .otherOrigin: clientData.origin = "https://evil.example"
        case .crossOriginWithoutAllowedTop:
            clientData.crossOrigin = true
            clientData.topOrigin = "https://evil.example"
        case .otherRpId: rpId = "evil.example"
        case .noUserPresence: flags = [.userVerified]
        case .noUserVerification: flags = [.userPresent]
        case .backupStateWithoutEligibility: flags = [.userPresent, .userVerified, .backupState]
        default: break
        }
        var (registration, json) = try ceremony.register(clientData: clientData, rpId: rpId, flags: flags)
        var attestationObject = registration.attestationObject
        let authenticatorData = try AuthenticatorData(bytes: registration.authenticatorData)
        switch defect {
        case .malformedClientData:
            json = Data(#"{"type":"webauthn.create","challenge":"AQ"}"#.utf8)
        case .malformedAttestationObject:
            attestationObject = Data()
        case .noneWithStatement:
            attestationObject =
                AttestationObject(
                    format: "none", statement: ["x5c": []],
                    authenticatorData: registration.authenticatorData
                ).bytes
        case .truncatedAuthenticatorData:
            attestationObject = AttestationObject.none(authenticatorData: registration.authenticatorData.prefix(36)).bytes
        case .noAttestedCredentialData:
            var stripped = authenticatorData
            stripped.attestedCredentialData = nil
            stripped.flags.remove(.attestedCredentialData)
            attestationObject = AttestationObject.none(authenticatorData: stripped.bytes).bytes
        case .rsaAlgorithm:
            var modified = authenticatorData
            let key: CBOR = [1: 2, 3: -257, -1: 1, -2: .bytes(Data(count: 32)), -3: .bytes(Data(count: 32))]
            modified.attestedCredentialData?.credentialPublicKey = key.encoded
            attestationObject = AttestationObject.none(authenticatorData: modified.bytes).bytes
        default:
            break
        }
        let outcome = ceremony.verifier.verifyRegistration(
            clientDataJSON: json, attestationObject: attestationObject,
            expecting: .init(challenge: Ceremony.registrationChallenge, userVerification: .required))
        #expect(outcome.reason == defect.expected)
        #expect(outcome.value == nil)
        #expect(!(outcome.reason?.message.isEmpty ?? true))
    }

    @Test func reasonsHaveReadableMessages() {
        #expect(Reason.originNotAllowed("https://evil.example").message == #"origin "https://evil.example" is not allowed"#)
        #expect(Reason.unsupportedAttestationFormat("packed").description == #"attestation format "packed" is not accepted (only "none")"#)
        #expect(Reason.clientDataMalformed(.missingMember("origin")).message == #"clientDataJSON lacks the required member "origin""#)
    }
}
