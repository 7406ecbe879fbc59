import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// Protocol 1.2 against adapters of 1.0, 1.1 and of later minors: what an adapter answers about its
/// version, what the harness ignores, and which test cases an older adapter cannot be judged on.
@Suite("Adapter protocol versions")
struct ProtocolVersionTests {
    static func description(_ json: String) throws -> AdapterDescription {
        try Wire.decoder().decode(AdapterDescription.self, from: Data(json.utf8))
    }

    @Test("the harness speaks 1.4")
    func harnessVersion() {
        #expect(adapterProtocolVersion == "1.4")
        #expect(ProtocolFeature.webFrontEnd.since == "1.3")
        #expect(ProtocolFeature.batchInspection.since == "1.4")
    }

    @Test("each protocol feature names the minor that added it")
    func featureMinors() throws {
        #expect(ProtocolFeature.osFamily.since == "1.1")
        #expect(ProtocolFeature.credentialLookupFailure.since == "1.1")
        #expect(ProtocolFeature.answerLostAfterCommit.since == "1.2")
        let oneOne = try Self.description(
            #"{"protocolVersion":"1.1","name":"mid","version":"1","targets":["apple-18"],"capabilities":["signals"],"relyingPartyIDs":["example.com"]}"#)
        #expect(oneOne.implements(.credentialLookupFailure) && !oneOne.implements(.answerLostAfterCommit))
    }

    @Test("an answer without protocolVersion is an adapter of 1.0")
    func absentVersionIsOneZero() throws {
        let description = try Self.description(
            #"{"name":"old","version":"1","targets":["apple-18"],"capabilities":["signals"],"relyingPartyIDs":["example.com"]}"#)
        #expect(description.protocolVersion == "1.0")
        #expect(description.protocolMinor == 0)
        #expect(!description.implements(.osFamily))
    }

    @Test("an unknown capability is ignored and kept for the reports, not a decoding error")
    func unknownCapabilityIgnored() throws {
        let description = try Self.description(
            #"{"protocolVersion":"1.7","name":"new","version":"1","targets":["apple-18"],"capabilities":["signals","teleport","signals","teleport"],"relyingPartyIDs":["example.com"]}"#
        )
        #expect(description.capabilities == [.signals])
        #expect(description.ignoredCapabilities == ["teleport"])
        #expect(description.implements(.osFamily), "a later minor has everything 1.1 added")
        #expect(description.implements(.answerLostAfterCommit), "and everything 1.2 added")
        let encoded = String(decoding: try Wire.encoder().encode(description), as: UTF8.self)
        #expect(!encoded.contains("teleport") && !encoded.contains("ignoredCapabilities"), "\(encoded)")
    }

    @Test("a decode error of an adapter answer quotes the value and lists the valid values")
    func decodeErrorsListValidValues() {
        do {
            _ = try Wire.decoder().decode(ActionOutcome.self, from: Data(#"{"status":"signed_in"}"#.utf8))
            Issue.record("decoded an invalid status")
        } catch {
            let text = "\(error)"
            #expect(text.contains(#""signed_in" is not a valid value"#), "\(text)")
            #expect(text.contains("signed-in, second-factor-required, signed-in-limited, rejected, pending, done"), "\(text)")
            #expect(!text.contains("Cannot initialize"), "\(text)")
        }
        #expect(SessionSnapshot.Stage.invalidValueMessage("x\ny").hasPrefix(#""x\ny" is not a valid value"#), "control characters are escaped")
    }

    static func plan(targets: [String], library: StepLibrary) throws -> TestPlan {
        let text = CriterionText.criterion(scenarios: [.init("Fine", steps: ["When the user refreshes as alice", "Then the step passes"])])
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)], library: library)
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        return TestPlan.make(loaded.criteria, filter: .init(targets: targets.map(TargetID.init(rawValue:))))
    }

    @Test("with an adapter of 1.0, a macOS or visionOS target is not verified (no osFamily), never failed; 1.1 runs it")
    func osFamilyNeedsOneOne() async throws {
        let plan = try Self.plan(targets: ["apple-18", "macos-15", "visionos-2"], library: TestSteps.library)
        let old = FakeAdapter(protocolVersion: "1.0")
        let results = await Runner(adapter: old, library: TestSteps.library).run(plan, description: old.description)
        #expect(results.map(\.verdict) == [.passed, .notVerified, .notVerified])
        #expect(results[1].notVerifiedReason == NotVerifiedReason(kind: .protocolVersion, detail: "DeviceInfo.osFamily"))
        #expect(results[1].message?.contains("added in adapter protocol 1.1; the adapter implements 1.0") == true, "\(results[1].message ?? "")")
        let current = FakeAdapter()
        let again = await Runner(adapter: current, library: TestSteps.library).run(plan, description: current.description)
        #expect(again.map(\.verdict) == [.passed, .passed, .passed])
    }

    /// A factory that serves the web targets and has no browser, as on a machine without Chromium.
    struct NoBrowser: PlatformBackendFactory {
        func serves(_ target: Target) -> Bool { target.platform == .web }
        func makeBackend(for target: Target, associatedRPIDs: [String], seed: UInt64, keepsPayloads: Bool) throws -> any PlatformBackend {
            throw SystemIssue("no browser")
        }
        func unavailability(of target: Target) -> String? { "no Chromium is installed" }
    }

    @Test("a web target joins a plan only when named, and without a browser its test case is not verified, never failed or in error")
    func webTargetWithoutBrowser() async throws {
        #expect(try Self.plan(targets: [], library: TestSteps.library).cases.allSatisfy { $0.target.platform != .web })
        let plan = try Self.plan(targets: ["apple-18", "web-chromium"], library: TestSteps.library)
        #expect(plan.cases.map(\.target.id.rawValue) == ["apple-18", "web-chromium"])
        let adapter = FakeAdapter(targets: ["apple-18", "web-chromium"])
        var runner = Runner(adapter: adapter, library: TestSteps.library)
        runner.platforms = PlatformBackendFactories([SimulatedPlatforms(), NoBrowser()])
        let results = await runner.run(plan, description: adapter.description)
        #expect(results.map(\.verdict) == [.passed, .notVerified])
        #expect(results[1].notVerifiedReason == NotVerifiedReason(kind: .platformUnavailable, detail: "no Chromium is installed"))
    }

    @Test("with an adapter of 1.0, a step that injects a 1.1 fault kind makes its test case not verified")
    func faultKindNeedsOneOne() async throws {
        let lookup = StepDefinition("the step passes", protocolFeatures: [.credentialLookupFailure]) { _, _ in .passed }
        let library = StepLibrary(TestSteps.definitions.filter { $0.pattern.source != "the step passes" } + [lookup])
        let plan = try Self.plan(targets: ["apple-18"], library: library)
        let old = FakeAdapter(protocolVersion: "1.0")
        let result = try #require(await Runner(adapter: old, library: library).run(plan, description: old.description).first)
        #expect(result.verdict == .notVerified)
        #expect(result.notVerifiedReason?.kind == .protocolVersion)
        #expect(old.log.all.isEmpty, "decided before a session opens")
        let current = FakeAdapter()
        #expect(await Runner(adapter: current, library: library).run(plan, description: current.description).first?.verdict == .passed)
    }

    @Test("with an adapter of 1.1, a step that injects answer-lost-after-commit makes its test case not verified, naming it and 1.2")
    func lostAnswerNeedsOneTwo() async throws {
        let lost = StepDefinition("the step passes", protocolFeatures: [.answerLostAfterCommit]) { _, _ in .passed }
        let library = StepLibrary(TestSteps.definitions.filter { $0.pattern.source != "the step passes" } + [lost])
        let plan = try Self.plan(targets: ["apple-18"], library: library)
        let old = FakeAdapter(protocolVersion: "1.1")
        let result = try #require(await Runner(adapter: old, library: library).run(plan, description: old.description).first)
        #expect(result.verdict == .notVerified)
        #expect(result.notVerifiedReason == NotVerifiedReason(kind: .protocolVersion, detail: "the fault kind answer-lost-after-commit"))
        #expect(result.message?.contains("added in adapter protocol 1.2; the adapter implements 1.1") == true, "\(result.message ?? "")")
        #expect(old.log.all.isEmpty, "decided before a session opens")
        let current = FakeAdapter()
        #expect(await Runner(adapter: current, library: library).run(plan, description: current.description).first?.verdict == .passed)
    }

    @Test("every standard step injecting credential-lookup-failure declares it as a 1.1 feature")
    func standardStepDeclaresFeature() throws {
        let definitions = StepLibrary.standard.definitions.filter { $0.pattern.source.contains("lookup of the presented credential fails") }
        #expect(definitions.count == 2)
        #expect(definitions.allSatisfy { $0.protocolFeatures == [.credentialLookupFailure] })
    }

    @Test("every standard step injecting answer-lost-after-commit declares it as a 1.2 feature")
    func lostAnswerStepsDeclareFeature() throws {
        let definitions = StepLibrary.standard.definitions.filter { $0.pattern.source.contains("lost after the server committed") }
        #expect(definitions.count == 2)
        #expect(definitions.allSatisfy { $0.protocolFeatures == [.answerLostAfterCommit] && $0.needs == [.faultInjection] })
    }
}
