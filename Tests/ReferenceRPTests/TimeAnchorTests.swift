import ConformanceKit
import ConformanceTestSupport
import Foundation
@testable import ReferenceRP
import Testing

/// Time judged by the numbers the criteria document anchors, not by shorter ones of the harness's:
/// "promptly" is the credential manager's recent-autofill window (a provider knob), N2.6-AC06's
/// control releases before any challenge lifetime, and quiescence follows the RP's own schedule.
@Suite("Time anchored to the criteria document", .heavy)
struct TimeAnchorTests {
    static func design(_ id: DesignID) throws -> ReferenceDesign { try #require(ReferenceDesign.all.first { $0.id == id }) }

    static func run(_ adapter: ReferenceRP, criteria: [String], target: String) async throws -> RunResult {
        let loaded = CriterionText.packageCriteria()
        return try await Suite.run(
            criteria: loaded.criteria, digest: loaded.digest, adapter: adapter, transport: "in-process",
            filter: .init(criteria: CriterionSelection(criteria.map { CriterionSelector($0) }), targets: [TargetID(rawValue: target)]), seed: 1,
            startedAt: Date(timeIntervalSince1970: 1_800_000_000), keepsTranscriptsOfPasses: true)
    }

    static func problems(_ run: RunResult) -> String {
        run.testCases.filter { $0.verdict != .passed }.prefix(3).map { "\($0.id): \($0.verdict) \($0.message ?? "")" }.joined(separator: "\n")
    }

    @Test(
        "an app that asks 15 s or 60 s after the sign-in passes N2.6-AC01, AC05 and AC06, on Apple and on Android",
        arguments: ["upgrade-after-15s", "upgrade-after-60s"] as [DesignID], ["apple-18", "android-15-gpm"])
    func delayedUpgradePasses(id: DesignID, target: String) async throws {
        let run = try await Self.run(ReferenceRP(design: try Self.design(id)), criteria: ["N2.6-AC01", "N2.6-AC05", "N2.6-AC06"], target: target)
        #expect(run.testCases.count > 20)
        #expect(run.testCases.allSatisfy { $0.verdict == .passed }, "\(id) on \(target):\n\(Self.problems(run))")
        // The simulated user waited for the request: a moment of 15 or 60 s is in the transcripts.
        let moments = run.testCases.flatMap(\.evidence).filter { $0.name == "clock.upgradeMoment" }
        #expect(!moments.isEmpty)
    }

    @Test(
        "a 30 s challenge lifetime passes N2.6-AC06's control, alone and with an upgrade asked 60 s after the sign-in",
        arguments: ["apple-18", "android-15-gpm"])
    func shortChallengePassesControl(target: String) async throws {
        for design in [try Self.design("challenge-30s"), try ReferenceDesign.parse("knobs:challenge-lifetime-ms=30000;upgrade-delay-ms=60000")] {
            let run = try await Self.run(ReferenceRP(design: design), criteria: ["N2.6-AC06"], target: target)
            #expect(run.testCases.count >= 4)
            #expect(run.testCases.allSatisfy { $0.verdict == .passed }, "\(design.summary) on \(target):\n\(Self.problems(run))")
        }
        // The server does refuse a response later than 30 s: the control passes because it releases after 1 s.
        #expect(HarnessBounds.controlReleaseMillis == 1_000)
    }

    /// One request, promptly, with a sign-out right after the sign-in (which the simulated user
    /// makes only once the app has had its window), on a provider whose window a Given step may set.
    static func prompt(window: String?) -> String {
        """
        @criterion:N2.6-AC05 @level:core @group:N2.6 @requires:conditional-create
        Feature: N2.6-AC05 Promptly, by the provider's window
          Statement:
            One conditional request promptly after the sign-in.
          Verification:
            Sign in, then sign out.
          Items:
            V1: exactly one request, promptly
          Source: N2.6-AC05, test

          Background:
            Given an account "alice" with the sign-in policy "password only"
            And the credential manager holds a saved password for "alice"
        \(window.map { "    And the credential manager keeps its autofill context for \($0) seconds" } ?? "")

          @verify:N2.6-AC05.V1
          Scenario: A sign-out after the sign-in
            When the user signs in as "alice" with the autofilled password
            And the user signs out
            Then exactly 1 conditional registration request has been issued for "alice"
            And the registration request followed the sign-in promptly
        """
    }

    /// Runs one scenario file on `android-15-gpm`, keeping the transcript of a pass too.
    static func runFile(_ text: String, _ adapter: ReferenceRP) async throws -> TestCaseResult {
        let loaded = CriterionText.load([("c/N2.6-AC05.feature", text)])
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let plan = TestPlan.make(loaded.criteria, filter: .init(targets: ["android-15-gpm"]))
        let testCase = try #require(plan.cases.first)
        return await Runner(adapter: adapter, keepsTranscriptsOfPasses: true).run(testCase, description: try await adapter.describe())
    }

    static func runPrompt(_ adapter: ReferenceRP, window: String? = nil) async throws -> TestCaseResult {
        try await runFile(prompt(window: window), adapter)
    }

    @Test(
        "the bound of \"promptly\" is the provider's window: 3 minutes passes with 5; with 2 the user signs out first and the request is absent; 60 s passes with 2"
    )
    func boundIsTheProvidersWindow() async throws {
        let threeMinutes = ReferenceRP(design: try ReferenceDesign.parse("knobs:upgrade-delay-ms=180000"))
        let passes = try await Self.runPrompt(threeMinutes)
        #expect(passes.verdict == .passed, "\(passes.message ?? "")")
        let moment = try #require(passes.evidence.first { $0.name == "clock.upgradeMoment" })
        #expect(moment.summary.contains("300 s after the sign-in"), "\(moment.summary)")
        let signOut = try #require(passes.evidence.first { $0.name == "user.sign-out" })
        #expect(signOut.atMillis == 180_000, "the user signs out only once the app has asked")

        // With a 2-minute window the simulated user waits 2 minutes; the app's request comes only after the sign-out.
        let late = try await Self.runPrompt(threeMinutes, window: "120")
        #expect(late.verdict == .failed)
        #expect(late.message?.contains("absent:") == true && late.message?.contains("120 s") == true, "\(late.message ?? "")")
        let shortWindow = try await Self.runPrompt(ReferenceRP(design: try Self.design("upgrade-after-60s")), window: "120")
        #expect(shortWindow.verdict == .passed, "\(shortWindow.message ?? "")")
    }

    @Test("a request after the window is reported as late, one that never comes as absent")
    func lateAndAbsent() async throws {
        // The request comes 301 s after the sign-in: counted, but late.
        let scenario = """
            @criterion:N2.6-AC05 @level:core @group:N2.6 @requires:conditional-create
            Feature: N2.6-AC05 Late
              Statement:
                One conditional request promptly after the sign-in.
              Verification:
                Sign in.
              Items:
                V1: exactly one request, promptly
              Source: N2.6-AC05, test

              Background:
                Given an account "alice" with the sign-in policy "password only"
                And the credential manager holds a saved password for "alice"

              @verify:N2.6-AC05.V1
              Scenario: A sign-in
                When the user signs in as "alice" with the autofilled password
                Then exactly 1 conditional registration request has been issued for "alice"
                And the registration request followed the sign-in promptly
            """
        let late = try await Self.runFile(scenario, ReferenceRP(mutation: .upgradeJustAfterTheWindow))
        #expect(late.verdict == .failed)
        #expect(
            late.steps.first { $0.status == .failed }?.text == "the registration request followed the sign-in promptly",
            "the request is counted; its promptness fails")
        #expect(late.message?.contains("late:") == true && late.message?.contains("301 s after the sign-in") == true, "\(late.message ?? "")")
        #expect(late.message?.contains("autofill window of 300 s") == true, "\(late.message ?? "")")

        // The sign-out comes once the window has passed: the app's timer then finds another session and never asks.
        let absent = try await Self.runPrompt(ReferenceRP(mutation: .upgradeJustAfterTheWindow))
        #expect(absent.verdict == .failed)
        #expect(absent.message?.contains("the app issued 0") == true && absent.message?.contains("absent:") == true, "\(absent.message ?? "")")
        let never = try await Self.runPrompt(ReferenceRP(mutation: .neverUpgrade))
        #expect(never.message?.contains("absent: no registration request followed the sign-in") == true, "\(never.message ?? "")")
    }

    @Test("the provider knob's range is checked when the files load")
    func windowRange() {
        let loaded = CriterionText.load(
            [("c/N2.6-AC05.feature", Self.prompt(window: "30"))], library: .standard)
        #expect(loaded.diagnostics.contains { $0.message.contains("30 is out of range") && $0.message.contains("60…1,800") }, "\(loaded.diagnostics)")
        #expect(ProviderState.autofillWindowRange.contains(ProviderState.defaultAutofillWindowMillis))
    }
}
