import ConformanceKit
import Foundation
import ReferenceRP
import Testing

/// The reference RP's server meets malformed registration responses with a logged refusal, never a
/// crash and never a stored credential.
@Suite("Reference RP: malformed registration responses")
struct BadResponseTests {
    static let account = AccountFixture(
        username: "alice@example.com", displayName: "Alice", password: "pw", policy: .passwordOnly,
        rpID: "login.example.com")

    /// Signs in on `target` and returns the session, its host and the registration operation id.
    static func signedIn(_ target: String) async throws -> (any RelyingPartySession, SimulationHost, OperationID) {
        let target = try #require(TargetCatalog.target(id: target))
        let host = SimulationHost(simulator: try PlatformSimulator(target: target, associatedRPIDs: ReferenceRP.relyingPartyIDs, seed: 3))
        let session = try await ReferenceRP().openSession(SessionContext(testCase: "bad-input", target: target.id, device: target.device, seed: 3), host: host)
        try await session.setUp(accounts: [account])
        let outcome = try await session.perform(UserAction.passwordSignIn(username: account.username, password: account.password))
        #expect(outcome.status == .signedIn)
        let operation = try #require(host.takeDeliverable())
        #expect(operation.kind == .create)
        return (session, host, operation.id)
    }

    @Test(
        "Android registration responses that are not what they claim",
        arguments: [
            "not json at all",
            #"{"response":{}}"#,
            #"{"rawId":"AAEC","response":{"clientDataJSON":"e30","attestationObject":"AAEC"}}"#,
            #"{"rawId":"AAEC","response":{"clientDataJSON":"%%%","attestationObject":"oA"}}"#,
        ])
    func android(response: String) async throws {
        let (session, host, operation) = try await Self.signedIn("android-15-gpm")
        try await session.platformCompleted(operation: operation, outcome: PlatformOutcome.androidRegistration(responseJson: response))
        let snapshot = try await session.inspectAccount(username: Self.account.username)
        #expect(snapshot.credentials.isEmpty)
        let telemetry = host.snapshot.telemetry.map(\.value.name)
        #expect(telemetry.contains("malformed-registration-response") || telemetry.contains("registration-rejected"), "telemetry: \(telemetry)")
        #expect(host.snapshot.uiEvents.isEmpty)
    }

    @Test("Apple registrations whose attestation object is not CBOR")
    func appleNotCBOR() async throws {
        let (session, host, operation) = try await Self.signedIn("apple-26.2")
        let challenge = try #require(host.snapshot.operations.first?.registration?.challenge)
        let clientData = Data(
            #"{"type":"webauthn.create","challenge":"\#(challenge.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))","origin":"https://login.example.com"}"#
                .utf8)
        let registration = AppleRegistration(credentialID: Data([1, 2, 3]), rawClientDataJSON: clientData, rawAttestationObject: Data([0xFF, 0x00, 0x13]))
        try await session.platformCompleted(operation: operation, outcome: PlatformOutcome.appleRegistration(registration))
        #expect(try await session.inspectAccount(username: Self.account.username).credentials.isEmpty)
        let rejection = try #require(host.snapshot.telemetry.first { $0.value.name == "registration-rejected" })
        #expect(rejection.value.attributes["reason"]?.isEmpty == false)
    }
}
