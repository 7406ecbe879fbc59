import ConformanceModel
import ConformanceSimulation
import Foundation
import Testing
import WebAuthn

/// The responses every server refuses, whatever its options or flags: a registration that answers a
/// challenge the server never issued, an assertion that names an origin the app is not associated
/// with. Each is used once and changes nothing else about the response.
@Suite("Simulated platform: responses every server refuses")
struct RefusedResponseTests {
    static let rpID = "login.example.com"

    static func clientData(_ text: String?, member: String = "clientDataJSON") throws -> CollectedClientData {
        let json = try JSONValue.parse(Data(try #require(text).utf8))
        let bytes = try #require(json["response"]?[member]?.stringValue.flatMap(Base64URL.decodeIfValid))
        return try CollectedClientData(jsonBytes: bytes)
    }

    @Test("the next registration answers a challenge of the request's length that the server never issued, once")
    func otherChallenge() throws {
        var simulator = try PlatformSimulator(target: try #require(TargetCatalog.target(id: "android-15-gpm")), associatedRPIDs: [Self.rpID], seed: 3)
        let challenge = Data([0, 1, 2, 3, 4, 5, 6, 7])
        let json = #"{"challenge":"\#(Base64URL.encode(challenge))","rp":{"id":"login.example.com"},"user":{"id":"AAECAw","name":"alice@example.com"}}"#
        let request = CreateCredentialRequest.android(AndroidCreatePublicKeyCredentialRequest(requestJson: json, isConditional: false))
        simulator.provider.nextRegistrationAnswersOtherChallenge = true
        let (tampered, _) = simulator.create(request, now: 0)
        let answered = try Self.clientData(tampered.registrationJSON).challenge
        #expect(answered != challenge && answered.count == challenge.count)
        #expect(!simulator.provider.nextRegistrationAnswersOtherChallenge)
        let (plain, _) = simulator.create(request, now: 0)
        #expect(try Self.clientData(plain.registrationJSON).challenge == challenge)
    }

    @Test("an assertion planned as relayed names the foreign origin and is otherwise the passkey's own")
    func foreignOrigin() throws {
        var simulator = try PlatformSimulator(target: try #require(TargetCatalog.target(id: "android-15-gpm")), associatedRPIDs: [Self.rpID], seed: 3)
        simulator.provider.lastAutofill = .init(username: "alice@example.com", rpID: Self.rpID, atMillis: 0)
        let json = #"{"challenge":"AAECAwQFBgc","rp":{"id":"login.example.com"},"user":{"id":"AAECAw","name":"alice@example.com"}}"#
        let (made, _) = simulator.create(
            CreateCredentialRequest.android(AndroidCreatePublicKeyCredentialRequest(requestJson: json, isConditional: true)), now: 1_000)
        let id = try #require(PlatformFamilies.createdCredentialID(in: made))
        let request = GetCredentialRequest.android(
            AndroidGetPublicKeyCredentialOption(requestJson: #"{"challenge":"CQgHBgUEAwIB","rpId":"login.example.com"}"#))
        simulator.provider.nextAssertion = .foreignOrigin(id)
        let (relayed, _) = simulator.get(request, now: 2_000)
        let foreign = try Self.clientData(relayed.authenticationJSON)
        #expect(foreign.origin == ProviderState.foreignOrigin(rpID: Self.rpID) && foreign.origin != simulator.origin(rpID: Self.rpID))
        simulator.provider.nextAssertion = .use(id)
        let (own, _) = simulator.get(request, now: 3_000)
        #expect(try Self.clientData(own.authenticationJSON).origin == simulator.origin(rpID: Self.rpID))
    }
}
