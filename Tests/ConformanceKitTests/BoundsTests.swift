import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// Virtual time, timers, evidence and interactions are bounded: no input overflows, crashes or
/// grows a report without limit.
@Suite("Bounds")
struct BoundsTests {
    @Test("a timer scheduled with the largest delay saturates instead of overflowing, at any virtual time")
    func timerSaturates() {
        var clock = VirtualClock()
        clock.move(to: 5_000)
        _ = clock.schedule(afterMillis: .max, label: "far away")
        _ = clock.schedule(afterMillis: -10, label: "in the past")
        #expect(clock.timers.map(\.dueMillis) == [.max, 5_000])
        #expect(clock.popDue(notAfter: VirtualClock.budgetMillis)?.label == "in the past")
        #expect(clock.popDue(notAfter: VirtualClock.budgetMillis) == nil)
        #expect(VirtualClock.adding(.max, to: .max) == .max)
    }

    @Test("letting time pass refuses a negative duration and one beyond the test case's budget, with a reason")
    func deadlines() throws {
        #expect(try VirtualClock.deadline(after: 1_000, from: 500) == 1_500)
        #expect(throws: SystemIssue.self) { try VirtualClock.deadline(after: -1, from: 0) }
        #expect(throws: SystemIssue.self) { try VirtualClock.deadline(after: .max, from: 1) }
        #expect(throws: SystemIssue.self) { try VirtualClock.deadline(after: VirtualClock.budgetMillis, from: 1) }
        #expect(try VirtualClock.deadline(after: VirtualClock.budgetMillis, from: 0) == VirtualClock.budgetMillis)
    }

    static let library = StepLibrary(
        TestSteps.definitions + [
            StepDefinition("{word} ms pass") { world, arguments in
                try await world.advance(byMillis: Int64(arguments[0]) ?? 0)
                return .passed
            },
            StepDefinition("the relying party schedules a timer after {word} ms") { world, arguments in
                _ = await world.host.platformHost.scheduleTimer(afterMillis: Int64(arguments[0]) ?? 0, label: "adapter's timer")
                return .passed
            },
            StepDefinition("the relying party shows {word} messages") { world, arguments in
                for index in 0..<(Int(arguments[0]) ?? 0) { await world.host.platformHost.show(UIEvent(.message, "message \(index)")) }
                return .passed
            },
        ])

    static func run(_ steps: [String]) async throws -> TestCaseResult {
        let text = CriterionText.criterion(scenarios: [CriterionText.Scenario("Bounded", steps: steps)])
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)], library: library)
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let plan = TestPlan.make(loaded.criteria, filter: .init(targets: ["apple-18"]))
        let adapter = FakeAdapter()
        return try #require(await Runner(adapter: adapter, library: library).run(plan, description: adapter.description).first)
    }

    @Test(
        "a huge or negative duration in a step ends the test case as error, never as a crash",
        arguments: [
            ("9223372036854775807", "budget of virtual time"), ("-1", "cannot go back"),
        ])
    func hugeDurations(millis: String, words: String) async throws {
        let result = try await Self.run(["When 1000 ms pass", "Then \(millis) ms pass"])
        #expect(result.verdict == .error)
        #expect(result.message?.contains(words) == true, "\(result.message ?? "nil")")
    }

    @Test("clock.schedule with afterMillis 2^63-1 once time is above 0 saturates; the test case goes on")
    func hugeTimer() async throws {
        let result = try await Self.run([
            "When 1000 ms pass", "And the relying party schedules a timer after 9223372036854775807 ms",
            "And 60000 ms pass", "Then the step passes",
        ])
        #expect(result.verdict == .passed, "\(result.message ?? "")")
        #expect(result.virtualMillis == 61_000)
    }

    @Test("a test case that floods the transcript ends as error, and its evidence is cut visibly")
    func interactionBudgetAndEvidenceCap() async throws {
        let result = try await Self.run(["When the relying party shows \(Caps.interactionBudget + 10) messages", "Then the step passes"])
        #expect(result.verdict == .error)
        #expect(result.message?.contains("budget of \(Caps.interactionBudget) interactions") == true, "\(result.message ?? "nil")")
        #expect(result.evidence.count == Caps.evidenceHead + 1 + Caps.evidenceTail)
        let marker = result.evidence[Caps.evidenceHead]
        #expect(marker.name == "evidence.cut")
        #expect(marker.summary.contains("left out"), "\(marker.summary)")
    }

    @Test("long texts are cut with a note of how much")
    func textCap() {
        #expect(Caps.text("short") == "short")
        let long = String(repeating: "x", count: Caps.textCharacters + 5)
        #expect(Caps.text(long) == String(repeating: "x", count: Caps.textCharacters) + "… [cut: 5 more characters]")
    }

    @Test("the run's total of virtual time saturates instead of overflowing")
    func totalSaturates() throws {
        let text = CriterionText.criterion(scenarios: [.init("A", steps: ["Then the step passes"]), .init("B", steps: ["Then the step passes"])])
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)], library: TestSteps.library)
        let plan = TestPlan.make(loaded.criteria, filter: .init(targets: ["apple-18"]))
        let metadata = RunMetadata(
            harnessVersion: "t", criteriaDigest: "", adapter: .init(name: "f", version: "0", transport: "in-process"),
            targets: ["apple-18"], seed: 1, startedAt: "", filters: [:])
        let cases = plan.cases.map { testCase in
            TestCaseResult(
                id: testCase.id, criterionID: testCase.criterion.id, scenario: testCase.scenario.name, file: "", line: 1, verifyItems: [],
                tags: [], target: "apple-18", outcome: .passed, steps: [], evidence: [], virtualMillis: .max, wallSeconds: 0)
        }
        #expect(RunResult.assemble(plan: plan, results: cases, metadata: metadata, wallSeconds: 0).virtualMillis == .max)
    }
}

/// Outcomes carry their kind as data: faults with kind and method, not-verified reasons with a kind.
@Suite("Structured outcomes")
struct StructuredOutcomeTests {
    /// A session whose close fails, around the fake's own.
    struct ClosingBadly: RelyingPartyAdapter {
        let inner = FakeAdapter()
        func describe() async throws -> AdapterDescription { try await inner.describe() }
        func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
            Session(inner: try await inner.openSession(context, host: host))
        }
        func shutdown() async {}

        struct Session: RelyingPartySession {
            let inner: any RelyingPartySession
            func setUp(accounts: [AccountFixture]) async throws { try await inner.setUp(accounts: accounts) }
            func addCredential(_ credential: CredentialFixture) async throws { try await inner.addCredential(credential) }
            func perform(_ action: UserAction) async throws -> ActionOutcome { try await inner.perform(action) }
            func inspectAccount(username: String) async throws -> AccountSnapshot { try await inner.inspectAccount(username: username) }
            func inspectSession() async throws -> SessionSnapshot { try await inner.inspectSession() }
            func injectFault(_ fault: Fault) async throws { try await inner.injectFault(fault) }
            func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {
                try await inner.platformCompleted(operation: operation, outcome: outcome)
            }
            func timerFired(_ timer: TimerID) async throws { try await inner.timerFired(timer) }
            func close() async { await inner.close() }
            func closeReportingFault() async -> RunFault? {
                await inner.close()
                return RunFault(kind: .timeout, message: "no answer within 5 s", method: "session.close")
            }
        }
    }

    static func plan(_ steps: [String], targets: [String] = ["apple-18"]) throws -> TestPlan {
        let text = CriterionText.criterion(scenarios: [CriterionText.Scenario("Outcome", steps: steps)])
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)], library: TestSteps.library)
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        return TestPlan.make(loaded.criteria, filter: .init(targets: targets.map(TargetID.init(rawValue:))))
    }

    @Test("a failing session.close turns a pass into error, with the fault's kind and method")
    func closeFault() async throws {
        let adapter = ClosingBadly()
        let result = try #require(
            await Runner(adapter: adapter, library: TestSteps.library)
                .run(try Self.plan(["Then the step passes"]), description: adapter.inner.description).first)
        #expect(result.verdict == .error)
        #expect(result.fault == RunFault(kind: .timeout, message: "no answer within 5 s", method: "session.close"))
        #expect(result.message?.contains("session.close failed") == true)
    }

    @Test("not verified carries its kind: undeclared target, missing capability, or a step's reason")
    func notVerifiedKinds() async throws {
        let undeclared = FakeAdapter(targets: ["android-15-gpm"])
        let first = try #require(
            await Runner(adapter: undeclared, library: TestSteps.library)
                .run(try Self.plan(["Then the step passes"]), description: undeclared.description).first)
        #expect(first.notVerifiedReason == NotVerifiedReason(kind: .undeclaredTarget, detail: "apple-18"))

        let lacking = FakeAdapter(capabilities: [])
        let second = try #require(
            await Runner(adapter: lacking, library: TestSteps.library)
                .run(try Self.plan(["Then the step needs the signals capability"]), description: lacking.description).first)
        #expect(second.notVerifiedReason == NotVerifiedReason(kind: .missingCapability, detail: "signals"))

        let full = FakeAdapter()
        let third = try #require(
            await Runner(adapter: full, library: TestSteps.library)
                .run(try Self.plan([#"Then the step is not verified because "no such API""#]), description: full.description).first)
        #expect(third.notVerifiedReason?.kind == .step)
        #expect(third.notVerifiedReason?.detail.contains("no such API") == true)
        #expect(third.fault == nil)
    }

    @Test("a step that throws records a typed system issue")
    func thrownFault() async throws {
        let adapter = FakeAdapter()
        let result = try #require(
            await Runner(adapter: adapter, library: TestSteps.library)
                .run(try Self.plan([#"Then the step throws "the world ended""#]), description: adapter.description).first)
        #expect(result.verdict == .error)
        #expect(result.fault?.kind == .systemIssue)
        #expect(result.fault?.message == "the world ended")
    }
}

/// Report paths never depend on where the criteria lie, and never end in a slash.
@Suite("Criteria paths")
struct CriteriaPathTests {
    @Test("a single file given as the root is shown under its directory's name, as in a directory load")
    func singleFileRoot() throws {
        let file = PackagePaths.criteria.appendingPathComponent("N2.6-automatic-upgrade/N2.6-AC01.feature").path
        let single = CriteriaLoader().load(root: file)
        let whole = CriteriaLoader().load(root: PackagePaths.criteria.path)
        let criterion = try #require(single.criteria.first)
        #expect(criterion.info.file == "N2.6-automatic-upgrade/N2.6-AC01.feature")
        #expect(criterion.scenarios.allSatisfy { $0.file == criterion.info.file })
        let same = try #require(whole.criteria.first { $0.info.id == criterion.info.id })
        #expect(same.info.file == "Criteria/N2.6-automatic-upgrade/N2.6-AC01.feature")
    }
}
