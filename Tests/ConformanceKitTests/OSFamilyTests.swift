import ConformanceKit
import Foundation
import ReferenceRP
import Testing
import ConformanceTestSupport

/// The device's OS family: on the wire (`osFamily`, absent means the platform's default), in the
/// targets, and in the simulator's judgement of Apple's conditional request style, whose floor
/// differs by family (iOS and iPadOS 18, macOS 15, visionOS 2).
@Suite("OS family and the conditional request style's floors", .heavy)
struct OSFamilyTests {
    static let rpID = "login.example.com"

    static func appleRequest(style: AppleRequestStyle?, userVerification: String = "preferred") -> CreateCredentialRequest {
        CreateCredentialRequest.apple(
            AppleRegistrationRequest(
                relyingPartyIdentifier: rpID, challenge: Data([1, 2, 3, 4]), name: "alice@example.com",
                userID: Data([0, 1, 2, 3]), requestStyle: style, userVerificationPreference: userVerification))
    }

    @Test("A device without osFamily decodes to the platform's default family")
    func absentFamilyIsTheDefault() throws {
        let apple = try Wire.decode(DeviceInfo.self, from: try JSONValue.parse(Data(#"{"platform":"apple","osVersion":"18.0"}"#.utf8)))
        #expect(apple.osFamily == nil)
        #expect(apple.family == .ios)
        let android = try Wire.decode(DeviceInfo.self, from: try JSONValue.parse(Data(#"{"platform":"android","osVersion":"15"}"#.utf8)))
        #expect(android.family == .android)
    }

    @Test("osFamily goes over the wire and back", arguments: OSFamily.allCases)
    func roundTrip(_ family: OSFamily) throws {
        let device = DeviceInfo(platform: family.platform, osVersion: "15.0", osFamily: family)
        let payload = Wire.jsonValue(device)
        #expect(payload["osFamily"]?.stringValue == family.rawValue)
        #expect(try Wire.decode(DeviceInfo.self, from: payload) == device)
    }

    @Test("An osFamily of the other platform is refused when decoding")
    func mismatchedFamilyIsRefused() throws {
        let payload = try JSONValue.parse(Data(#"{"platform":"apple","osVersion":"15","osFamily":"android"}"#.utf8))
        #expect(throws: DecodingError.self) { try Wire.decode(DeviceInfo.self, from: payload) }
    }

    @Test("Every target's device carries its family, and the new families have targets on both sides of their floor")
    func targetsCarryTheFamily() throws {
        for target in TargetCatalog.all {
            #expect(target.device.family == target.osFamily)
            #expect(target.osFamily.platform == target.platform, "target \(target.id)")
        }
        #expect(TargetCatalog.target(id: "macos-14")?.osFamily == .macos)
        #expect(TargetCatalog.target(id: "macos-15")?.osFamily == .macos)
        #expect(TargetCatalog.target(id: "visionos-2")?.osFamily == .visionos)
        #expect(TargetCatalog.target(id: "apple-18")?.osFamily == .ios)
    }

    @Test("Every Apple target declares the conditional request style exactly when its family and version reach the floor")
    func featuresAgreeWithFloors() {
        for target in TargetCatalog.all where target.platform == .apple {
            #expect(target.has(.conditionalCreateAPI) == target.hasConditionalRequestStyle, "target \(target.id)")
        }
    }

    @Test(
        "The floors by family and version",
        arguments: [
            (OSFamily.ios, "17.4", false), (.ios, "18.0", true), (.ipados, "17.7", false), (.ipados, "18", true),
            (.macos, "14.4", false), (.macos, "15.0", true), (.macos, "26.2", true),
            (.visionos, "1.3", false), (.visionos, "2.0", true), (.visionos, "26.0", true), (.android, "15", false),
        ])
    func floors(_ family: OSFamily, _ version: String, _ available: Bool) {
        let target = Target(id: "t", title: "t", platform: family.platform, osFamily: family, osVersion: version, provider: .iCloudKeychain, features: [])
        #expect(target.hasConditionalRequestStyle == available)
    }

    @Test("Versions compare part by part as numbers")
    func versionComparison() {
        #expect(Target.version("15", isAtLeast: "15.0"))
        #expect(Target.version("26.10", isAtLeast: "26.2"))
        #expect(!Target.version("14.9", isAtLeast: "15"))
        #expect(!Target.version("2", isAtLeast: "2.0.1"))
    }

    @Test("requestStyle is absent below the family's floor and present at it", arguments: [("macos-14", false), ("macos-15", true), ("visionos-2", true)])
    func simulatorJudgesByFamily(_ id: String, _ available: Bool) throws {
        var simulator = try PlatformSimulator(target: try #require(TargetCatalog.target(id: id)), associatedRPIDs: [Self.rpID], seed: 1)
        simulator.provider.lastAutofill = .init(username: "alice@example.com", rpID: Self.rpID, atMillis: 0)
        let (outcome, notes) = simulator.create(Self.appleRequest(style: .conditional), now: 1_000)
        if available {
            #expect(outcome.appleRegistrationResult != nil, "error: \(String(describing: outcome.error))")
            #expect(!notes.contains { $0.kind == .unsupportedCall })
        } else {
            #expect(outcome.error?.name == "UnavailableAPI")
            #expect(notes.contains { $0.kind == .unsupportedCall && $0.text.contains("macOS 14.0") && $0.text.contains("macOS 15.0 and later") })
        }
    }

    @Test("The reference RP passes every N2.6 criterion on the family targets, using the family's floor")
    func referenceRPUsesTheFamily() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let loaded = CriteriaLoader().load(root: root.appendingPathComponent("Criteria").path)
        #expect(!loaded.hasErrors)
        let targets = ["macos-14", "macos-15", "visionos-2"]
        let run = try await Suite.run(
            criteria: loaded.criteria, digest: loaded.digest, adapter: ReferenceRP(), transport: "in-process",
            filter: .init(criteria: ["N2.6"], targets: targets.map(TargetID.init(rawValue:))), seed: 5)
        for target in targets {
            #expect(run.testCases.contains { $0.target == target }, "no test case on \(target)")
        }
        let notPassed = run.testCases.filter { $0.verdict != .passed }.map { "\($0.id): \($0.message ?? "")" }
        #expect(notPassed.count == 0, "\(notPassed.prefix(5))")
    }
}

/// WebAuthn L3: a conditional create that requires user verification fails with ConstraintError,
/// because the conditional ceremony collects none; each platform reports it in its own form
/// (Documentation/platform-fidelity.md, F3).
@Suite("Conditional request that requires user verification")
struct ConditionalUserVerificationTests {
    static let rpID = "login.example.com"

    static func android(userVerification: String, conditional: Bool) -> CreateCredentialRequest {
        let json =
            #"{"challenge":"AAECAwQFBgc","rp":{"id":"login.example.com"},"user":{"id":"AAECAw","name":"alice@example.com","displayName":"Alice"},"#
            + #""authenticatorSelection":{"userVerification":"\#(userVerification)"}}"#
        return CreateCredentialRequest.android(AndroidCreatePublicKeyCredentialRequest(requestJson: json, isConditional: conditional))
    }

    static func simulator(_ id: String) throws -> PlatformSimulator {
        var simulator = try PlatformSimulator(target: try #require(TargetCatalog.target(id: id)), associatedRPIDs: [rpID], seed: 2)
        simulator.provider.lastAutofill = .init(username: "alice@example.com", rpID: rpID, atMillis: 0)
        return simulator
    }

    @Test("Android: CreatePublicKeyCredentialDomException with ConstraintError, without UI and without a passkey")
    func androidConstraintError() throws {
        var simulator = try Self.simulator("android-15-gpm")
        let (outcome, notes) = simulator.create(Self.android(userVerification: "required", conditional: true), now: 1_000)
        let error = try #require(outcome.error)
        #expect(error.name == "CreatePublicKeyCredentialDomException")
        #expect(error.type == "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_DOM_EXCEPTION/androidx.credentials.TYPE_CONSTRAINT_ERROR")
        #expect(error.message.hasPrefix("ConstraintError"))
        #expect(!notes.contains { $0.kind == .uiShown })
        #expect(simulator.provider.passkeys.isEmpty)
    }

    @Test(
        "Apple: a .conditional request with userVerificationPreference .required fails without UI and without a passkey",
        arguments: ["apple-18", "macos-15", "visionos-2"])
    func appleRefused(_ id: String) throws {
        var simulator = try Self.simulator(id)
        let (outcome, notes) = simulator.create(OSFamilyTests.appleRequest(style: .conditional, userVerification: "required"), now: 1_000)
        let error = try #require(outcome.error)
        #expect(error.domain == "com.apple.AuthenticationServices.AuthorizationError")
        #expect(error.code == 1004)
        #expect(error.code != 1001, "must not look like the silent 'declined' outcome")
        #expect(!notes.contains { $0.kind == .uiShown })
        #expect(simulator.provider.passkeys.isEmpty)
    }

    @Test(
        "Only conditional requests are refused: preferred or discouraged UV creates, and a modal request may require UV",
        arguments: [("preferred", true), ("discouraged", true), ("required", false)])
    func otherCombinationsCreate(_ userVerification: String, _ conditional: Bool) throws {
        var simulator = try Self.simulator("android-15-gpm")
        let (outcome, _) = simulator.create(Self.android(userVerification: userVerification, conditional: conditional), now: 1_000)
        #expect(outcome.registrationJSON != nil, "error: \(String(describing: outcome.error))")
        var apple = try Self.simulator("apple-18")
        let (appleOutcome, _) = apple.create(
            OSFamilyTests.appleRequest(style: conditional ? .conditional : nil, userVerification: userVerification), now: 1_000)
        #expect(appleOutcome.appleRegistrationResult != nil, "error: \(String(describing: appleOutcome.error))")
    }
}
