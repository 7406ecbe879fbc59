import ConformanceModel
import ConformanceSimulation
import Foundation
import Testing
import WebAuthn

/// The simulated platforms answer malformed requests the way the real libraries do: with a clear
/// error naming what is wrong, a note in the transcript, and never a crash.
@Suite("Simulated platform: bad input")
struct PlatformSimulatorTests {
    static func simulator(_ id: String) throws -> PlatformSimulator {
        try PlatformSimulator(target: try #require(TargetCatalog.target(id: id)), associatedRPIDs: ["login.example.com"], seed: 1)
    }

    static func android(_ json: String, conditional: Bool = true) -> CreateCredentialRequest {
        CreateCredentialRequest.android(AndroidCreatePublicKeyCredentialRequest(requestJson: json, isConditional: conditional))
    }

    static let goodUser = #""user":{"id":"AAECAw","name":"alice@example.com","displayName":"Alice"}"#

    @Test(
        "Malformed Android registration requests are refused with the offending member named",
        arguments: [
            ("", "is empty"),
            ("{not json", "is not valid JSON"),
            ("[1,2]", "is not a JSON object"),
            (#"{"challenge":"AAAA","rp":{"id":"login.example.com"},"user":{"id":"AAECAw"}}"#, "lacks user.name"),
            (#"{"challenge":"AAAA","rp":{"id":"login.example.com"},"user":{"id":"a+b/","name":"a"}}"#, "user.id is not base64url"),
            (#"{"challenge":"AAAA","rp":{"id":"login.example.com"},"user":{"id":"","name":"a"}}"#, "user.id must be 1 to 64 bytes"),
            (#"{"challenge":"!!","rp":{"id":"login.example.com"},"user":{"id":"AAECAw","name":"a"}}"#, "challenge is missing or not base64url"),
            (#"{"challenge":"AAAA","user":{"id":"AAECAw","name":"a"}}"#, "lacks rp.id"),
            (
                #"{"challenge":"AAAA","rp":{"id":"login.example.com"},"user":{"id":"AAECAw","name":"a"},"excludeCredentials":[{"id":"%%"}]}"#,
                "excludeCredentials[0].id is missing or not base64url"
            ),
        ])
    func malformedRegistration(json: String, expected: String) throws {
        var simulator = try Self.simulator("android-15-gpm")
        let (outcome, notes) = simulator.create(Self.android(json), now: 0)
        let error = try #require(outcome.error)
        #expect(error.name == "IllegalArgumentException")
        #expect(error.message.contains(expected), "message: \(error.message)")
        #expect(notes.contains { $0.kind == .malformedRequest })
    }

    @Test("A well-formed conditional request after a matching autofill creates a passkey with UP=0 and UV=0")
    func wellFormedRegistration() throws {
        var simulator = try Self.simulator("android-15-gpm")
        simulator.provider.lastAutofill = .init(username: "alice@example.com", rpID: "login.example.com", atMillis: 0)
        let json = #"{"challenge":"AAECAwQFBgc","rp":{"id":"login.example.com"},"# + Self.goodUser + "}"
        let (outcome, _) = simulator.create(Self.android(json), now: 1_000)
        let response = try #require(outcome.registrationJSON)
        let parsed = try JSONDecoder().decode(JSONValue.self, from: Data(response.utf8))
        let attestation = try #require(parsed["response"]?["attestationObject"]?.stringValue.flatMap(Base64URL.decodeIfValid))
        let authenticatorData = try AuthenticatorData(bytes: try AttestationObject(bytes: attestation).authenticatorData)
        #expect(!authenticatorData.flags.contains(.userPresent))
        #expect(!authenticatorData.flags.contains(.userVerified))
        #expect(authenticatorData.flags.contains(.attestedCredentialData))
    }

    @Test("isConditional on a library without it is an unsupported call, not a crash")
    func unsupportedConditional() throws {
        var simulator = try Self.simulator("android-15-androidx-1.5")
        let json = #"{"challenge":"AAECAwQFBgc","rp":{"id":"login.example.com"},"# + Self.goodUser + "}"
        let (outcome, notes) = simulator.create(Self.android(json), now: 0)
        #expect(outcome.error?.name == "NoSuchMethodError")
        #expect(notes.contains { $0.kind == .unsupportedCall })
    }

    static func signal(_ type: String, _ json: String) -> SignalRequest {
        SignalRequest.android(AndroidSignalRequest(type: type, requestJson: json))
    }

    @Test(
        "Malformed Android signals are refused with the library's validation message",
        arguments: [
            (AndroidSignalRequest.unknownCredentialType, "nope", "not a JSON object"),
            (AndroidSignalRequest.unknownCredentialType, #"{"rpId":"login.example.com"}"#, #"missing key "credentialId""#),
            (AndroidSignalRequest.unknownCredentialType, #"{"rpId":"login.example.com","credentialId":"AA=="}"#, "is not base64url"),
            (AndroidSignalRequest.allAcceptedCredentialsType, #"{"rpId":"login.example.com","userId":"AAEC"}"#, #"missing key "allAcceptedCredentialIds""#),
            (
                AndroidSignalRequest.allAcceptedCredentialsType, #"{"rpId":"login.example.com","userId":"AAEC","allAcceptedCredentialIds":"AAEC,AAED"}"#,
                "is not an array"
            ),
            (
                AndroidSignalRequest.allAcceptedCredentialsType, #"{"rpId":"login.example.com","userId":"AAEC","allAcceptedCredentialIds":["AAEC",7]}"#,
                "allAcceptedCredentialIds[1] is not a base64url string"
            ),
            (AndroidSignalRequest.currentUserDetailsType, #"{"rpId":"login.example.com","userId":"AAEC","name":"a"}"#, #"missing key "displayName""#),
            ("androidx.credentials.SOMETHING_ELSE", #"{"rpId":"login.example.com"}"#, "unknown signal request type"),
            (AndroidSignalRequest.unknownCredentialType, #"{"rpId":"https://login.example.com","credentialId":"AAEC"}"#, "is not a domain name"),
        ])
    func malformedSignal(type: String, json: String, expected: String) throws {
        var simulator = try Self.simulator("android-15-gpm")
        let (outcome, notes) = simulator.signal(Self.signal(type, json), now: 0)
        let error = try #require(outcome.error)
        #expect(error.message.contains(expected), "message: \(error.message)")
        #expect(notes.contains { $0.kind == .malformedRequest })
    }

    @Test("The Android platform allows ten signal calls per 120 seconds and names retryMillis")
    func rateLimit() throws {
        var simulator = try Self.simulator("android-15-gpm")
        let request = Self.signal(AndroidSignalRequest.unknownCredentialType, #"{"rpId":"login.example.com","credentialId":"AAEC"}"#)
        for call in 0..<10 {
            #expect(simulator.signal(request, now: Int64(call) * 1_000).0.isSignalAccepted)
        }
        let refused = simulator.signal(request, now: 10_000).0.error
        #expect(refused?.name == "SignalCredentialRateLimitExceededException")
        #expect(refused?.retryMillis == 110_000)
        // One millisecond early is still refused; exactly retryMillis later gets through; the window
        // then holds ten accepted calls again (1 s … 9 s and 120 s).
        let early = simulator.signal(request, now: 119_999).0
        let onTime = simulator.signal(request, now: 120_000).0
        let next = simulator.signal(request, now: 120_001).0
        #expect(early.error?.retryMillis == 1)
        #expect(onTime.isSignalAccepted)
        #expect(next.error?.retryMillis == 999)
    }

    @Test(
        "Apple signal interfaces exist only from their OS version",
        arguments: [
            ("apple-18", AppleSignalInterface.credentialUpdater, false),
            ("apple-26.0", .credentialUpdater, true),
            ("apple-26.0", .credentialDataManager, false),
            ("apple-26.2", .credentialDataManager, true),
        ])
    func appleAvailability(target: String, interface: AppleSignalInterface, available: Bool) throws {
        var simulator = try Self.simulator(target)
        let report = AppleSignalReport(
            interface: interface, method: .reportUnknownPublicKeyCredential,
            relyingPartyIdentifier: "login.example.com", credentialID: Data([1, 2, 3]))
        let (outcome, notes) = simulator.signal(SignalRequest.apple(report), now: 0)
        #expect((outcome.isSignalAccepted) == available)
        #expect(notes.contains { $0.kind == .unsupportedCall } == !available)
    }

    @Test(
        "RP IDs must be domain names",
        arguments: [
            ("login.example.com", true), ("example.org", true), ("https://login.example.com", false), ("localhost", false),
            ("Login.Example.com", false), ("-bad.example.com", false), ("a..b", false), ("", false),
        ])
    func domains(text: String, valid: Bool) {
        #expect(PlatformSimulator.isDomain(text) == valid)
    }
}
