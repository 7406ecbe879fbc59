import ConformanceModel
import ConformanceSimulation
import Foundation
import Testing
import WebAuthn

/// The simulated Android platform returns the WebAuthn Level 3 `RegistrationResponseJSON` and
/// `AuthenticationResponseJSON` shapes with every member, and the members agree with each other as
/// they do on a real device (Documentation/platform-fidelity.md, F1).
@Suite("Simulated Android: WebAuthn L3 response JSON")
struct AndroidResponseJSONTests {
    static let rpID = "login.example.com"
    static let user = #""user":{"id":"AAECAw","name":"alice@example.com","displayName":"Alice"}"#

    /// A GPM simulator that has just created a passkey for alice through a conditional request.
    static func registered() throws -> (PlatformSimulator, JSONValue) {
        var simulator = try PlatformSimulator(target: try #require(TargetCatalog.target(id: "android-15-gpm")), associatedRPIDs: [rpID], seed: 3)
        simulator.provider.lastAutofill = .init(username: "alice@example.com", rpID: rpID, atMillis: 0)
        let json = #"{"challenge":"AAECAwQFBgc","rp":{"id":"login.example.com"},"# + user + "}"
        let request = CreateCredentialRequest.android(AndroidCreatePublicKeyCredentialRequest(requestJson: json, isConditional: true))
        let (outcome, _) = simulator.create(request, now: 1_000)
        let text = try #require(outcome.registrationJSON, "no registration: \(String(describing: outcome.error))")
        return (simulator, try JSONValue.parse(Data(text.utf8)))
    }

    /// The member names of an object, or `nil` when the value is not one.
    static func keys(_ value: JSONValue?) -> Set<String>? {
        if case .object(let members) = value { return Set(members.keys) }
        return nil
    }

    static func bytes(_ value: JSONValue?, _ member: String) throws -> Data {
        let text = try #require(value?.stringValue, "\(member) is not a string")
        return try #require(Base64URL.decodeIfValid(text), "\(member) is not base64url")
    }

    @Test("The registration response has every member of RegistrationResponseJSON and AuthenticatorAttestationResponseJSON")
    func registrationMembers() throws {
        let (_, json) = try Self.registered()
        #expect(Self.keys(json) == ["id", "rawId", "type", "authenticatorAttachment", "clientExtensionResults", "response"])
        #expect(json["type"]?.stringValue == "public-key")
        #expect(json["authenticatorAttachment"]?.stringValue == "platform")
        #expect(Self.keys(json["clientExtensionResults"]) == [])
        let response = try #require(json["response"])
        #expect(
            Self.keys(response)
                == ["clientDataJSON", "authenticatorData", "transports", "publicKey", "publicKeyAlgorithm", "attestationObject"])
        #expect(response["publicKeyAlgorithm"] == .number(-7))
        #expect(response["transports"]?.arrayValue?.allSatisfy { $0.stringValue != nil } == true)
        #expect(json["id"]?.stringValue == json["rawId"]?.stringValue)
    }

    @Test("authenticatorData is the one inside attestationObject, and id is its credential id")
    func authenticatorDataMatches() throws {
        let (_, json) = try Self.registered()
        let response = try #require(json["response"])
        let attestation = try AttestationObject(bytes: try Self.bytes(response["attestationObject"], "attestationObject"))
        let authenticatorData = try Self.bytes(response["authenticatorData"], "authenticatorData")
        #expect(authenticatorData == attestation.authenticatorData)
        let parsed = try AuthenticatorData(bytes: authenticatorData)
        #expect(parsed.attestedCredentialData?.credentialId == (try Self.bytes(json["rawId"], "rawId")))
    }

    @Test("publicKey is the DER SubjectPublicKeyInfo of the COSE key in the attestation object")
    func publicKeyMatches() throws {
        let (_, json) = try Self.registered()
        let response = try #require(json["response"])
        let attestation = try AttestationObject(bytes: try Self.bytes(response["attestationObject"], "attestationObject"))
        let attested = try #require(try AuthenticatorData(bytes: attestation.authenticatorData).attestedCredentialData)
        let coseKey = try COSEKey(decoding: attested.credentialPublicKey)
        let fromSPKI = try P256PublicKey(subjectPublicKeyInfo: try Self.bytes(response["publicKey"], "publicKey"))
        #expect(fromSPKI == coseKey.publicKey)
        #expect(Int64(response["publicKeyAlgorithm"]?.numberValue ?? 0) == COSEKey.algorithmES256)
    }

    @Test("The authentication response has every member of AuthenticationResponseJSON, and its signature verifies with publicKey")
    func authenticationMembers() throws {
        var (simulator, registration) = try Self.registered()
        let publicKey = try P256PublicKey(subjectPublicKeyInfo: try Self.bytes(registration["response"]?["publicKey"], "publicKey"))
        let request = GetCredentialRequest.android(
            AndroidGetPublicKeyCredentialOption(
                requestJson: #"{"challenge":"CQgHBgUEAwIB","rpId":"login.example.com","userVerification":"preferred"}"#))
        let (outcome, _) = simulator.get(request, now: 2_000)
        let text = try #require(outcome.authenticationJSON, "no assertion: \(String(describing: outcome.error))")
        let json = try JSONValue.parse(Data(text.utf8))
        #expect(Self.keys(json) == ["id", "rawId", "type", "authenticatorAttachment", "clientExtensionResults", "response"])
        #expect(json["type"]?.stringValue == "public-key")
        #expect(json["authenticatorAttachment"]?.stringValue == "platform")
        #expect(json["id"]?.stringValue == registration["id"]?.stringValue)
        let response = try #require(json["response"])
        #expect(Self.keys(response) == ["clientDataJSON", "authenticatorData", "signature", "userHandle"])
        #expect(try Self.bytes(response["userHandle"], "userHandle") == Data([0, 1, 2, 3]))
        let clientDataJSON = try Self.bytes(response["clientDataJSON"], "clientDataJSON")
        var signed = try Self.bytes(response["authenticatorData"], "authenticatorData")
        signed.append(SHA256.hash(clientDataJSON))
        #expect(publicKey.isValidSignature(try Self.bytes(response["signature"], "signature"), for: signed))
    }
}
