import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// The runner's verdicts against a fake in-process adapter and plain test steps.
@Suite("Runner semantics")
struct RunnerTests {
    /// Loads one criterion made of `scenarios` with the test steps, planned on `targets`.
    static func plan(_ scenarios: [CriterionText.Scenario], targets: [String] = ["apple-18"]) throws -> TestPlan {
        let text = CriterionText.criterion(scenarios: scenarios)
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)], library: TestSteps.library)
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        return TestPlan.make(loaded.criteria, filter: .init(targets: targets.map(TargetID.init(rawValue:))))
    }

    static func run(_ plan: TestPlan, adapter: FakeAdapter, library: StepLibrary = TestSteps.library) async -> [TestCaseResult] {
        await Runner(adapter: adapter, library: library).run(plan, description: adapter.description)
    }

    @Test("passing steps give passed, with every step passed and no evidence")
    func passes() async throws {
        let plan = try Self.plan([.init("Fine", steps: ["When the user refreshes as alice", "Then the step passes"])])
        let adapter = FakeAdapter()
        let results = await Self.run(plan, adapter: adapter)
        let result = try #require(results.first)
        #expect(result.verdict == .passed)
        #expect(result.message == nil)
        #expect(result.steps.map(\.status) == [.passed, .passed])
        #expect(result.evidence.isEmpty)
        #expect(adapter.log.all == ["openSession \(result.id)", "perform \(result.id) recovery-sign-in alice", "close \(result.id)"])
    }

    @Test("a step no definition matches gives undefined, and the adapter is never asked")
    func undefinedStep() async throws {
        let plan = try Self.plan([.init("Uses a step the runner lacks", steps: ["When the user refreshes as alice", "Then the step passes"])])
        let adapter = FakeAdapter()
        let narrower = StepLibrary(TestSteps.definitions.filter { $0.pattern.source != "the step passes" })
        let result = try #require(await Self.run(plan, adapter: adapter, library: narrower).first)
        #expect(result.verdict == .undefined)
        #expect(result.message?.contains(#"no step definition matches "the step passes""#) == true, "\(result.message ?? "nil")")
        #expect(result.steps.map(\.status) == [.skipped, .undefined])
        #expect(adapter.log.all.isEmpty)
    }

    @Test("a step two definitions match gives undefined too")
    func ambiguousStep() async throws {
        let plan = try Self.plan([.init("Ambiguous at run time", steps: ["Then the step passes"])])
        let doubled = StepLibrary(TestSteps.definitions + [StepDefinition("the step {word}") { _, _ in .passed }])
        let result = try #require(await Self.run(plan, adapter: FakeAdapter(), library: doubled).first)
        #expect(result.verdict == .undefined)
        #expect(result.message?.contains(#"2 step definitions match "the step passes""#) == true, "\(result.message ?? "nil")")
    }

    @Test("a target the adapter does not declare is not verified, and its criterion does not pass")
    func undeclaredTarget() async throws {
        let plan = try Self.plan([.init("Fine", steps: ["Then the step passes"])], targets: ["apple-18", "android-15-gpm"])
        let adapter = FakeAdapter(targets: ["apple-18"])
        let results = await Self.run(plan, adapter: adapter)
        #expect(results.map(\.target) == ["apple-18", "android-15-gpm"])
        #expect(results.map(\.verdict) == [.passed, .notVerified])
        #expect(results[1].message == "the adapter does not declare the target android-15-gpm")
        #expect(!adapter.log.all.contains { $0.contains("@android-15-gpm") })
        let run = RunResult.assemble(plan: plan, results: results, metadata: VerdictTests.metadata, wallSeconds: 0)
        #expect(run.criteria.map(\.verdict) == [.notVerified])
        #expect(run.verdict != .passed)
    }

    @Test(
        "a capability the adapter lacks is not verified, whether a tag or a step needs it",
        arguments: [
            CriterionText.Scenario("Tagged", tags: ["@needs:signals"], steps: ["Then the step passes"]),
            CriterionText.Scenario("Step needs it", steps: ["Then the step needs the signals capability"]),
        ])
    func missingCapability(_ scenario: CriterionText.Scenario) async throws {
        let plan = try Self.plan([scenario])
        let adapter = FakeAdapter(capabilities: Capability.allCases.filter { $0 != .signals })
        let result = try #require(await Self.run(plan, adapter: adapter).first)
        #expect(result.verdict == .notVerified)
        #expect(result.message == "the adapter does not declare the capability signals")
        #expect(adapter.log.all.isEmpty)
        // With the capability declared, the same case passes: the verdict came from the capability alone.
        #expect(await Self.run(plan, adapter: FakeAdapter()).first?.verdict == .passed)
    }

    @Test("an adapter that throws gives error with its message, and the run goes on to the next case")
    func adapterThrows() async throws {
        let plan = try Self.plan([
            .init("Transport breaks", steps: ["When the user refreshes as mallory", "Then the step passes"]),
            .init("Next case", steps: ["When the user refreshes as alice", "Then the step passes"]),
        ])
        let adapter = FakeAdapter(faults: .init(performFailures: ["mallory": "connection reset by peer"]))
        let results = await Self.run(plan, adapter: adapter)
        #expect(results.map(\.verdict) == [.error, .passed])
        let broken = results[0]
        #expect(broken.message?.hasSuffix("When the user refreshes as mallory: connection reset by peer") == true, "\(broken.message ?? "nil")")
        #expect(broken.steps.map(\.status) == [.error, .skipped])
        #expect(broken.steps[0].message == "connection reset by peer")
        #expect(broken.evidence.contains { $0.name == "user.recovery-sign-in" }, "the evidence shows the call that broke")
        #expect(adapter.log.all.contains("perform \(results[1].id) recovery-sign-in alice"))
        #expect(adapter.log.all.contains("close \(broken.id)"), "the broken session is still closed")
    }

    @Test("an adapter that cannot open a session gives error for that case only")
    func openSessionThrows() async throws {
        let plan = try Self.plan([.init("Cannot start", steps: ["Then the step passes"]), .init("Starts", steps: ["Then the step passes"])])
        let adapter = FakeAdapter(faults: .init(openSessionFailures: ["Cannot start": "the adapter process exited with status 3"]))
        let results = await Self.run(plan, adapter: adapter)
        #expect(results.map(\.verdict) == [.error, .passed])
        #expect(results[0].message == "the adapter could not open a session: the adapter process exited with status 3")
    }

    @Test("a step that throws a system issue gives error, not failed")
    func stepThrows() async throws {
        let plan = try Self.plan([.init("Harness fault", steps: [#"Then the step throws "the simulator lost its state""#])])
        let result = try #require(await Self.run(plan, adapter: FakeAdapter()).first)
        #expect(result.verdict == .error)
        #expect(result.message?.hasSuffix("the simulator lost its state") == true)
    }

    @Test("a failing step gives failed with the transcript as evidence, and later steps are skipped")
    func failingStep() async throws {
        let plan = try Self.plan([
            .init(
                "The RP breaks the criterion",
                steps: [
                    "When the user refreshes as alice",
                    #"Then the step fails because "the app asked before the second factor""#,
                    "And the step passes",
                ])
        ])
        let result = try #require(await Self.run(plan, adapter: FakeAdapter()).first)
        #expect(result.verdict == .failed)
        #expect(result.steps.map(\.status) == [.passed, .failed, .skipped])
        #expect(result.steps[1].message == "the app asked before the second factor")
        let stepLine = try #require(plan.cases.first?.scenario.steps[1].line)
        #expect(
            result.message
                == #"line \#(stepLine): Then the step fails because "the app asked before the second factor": the app asked before the second factor"#)
        let names = result.evidence.map(\.name)
        #expect(names.contains("session.open"))
        #expect(names.contains("user.recovery-sign-in"))
        #expect(names.contains("test.assertion"))
        #expect(result.evidence.last?.name == "step.failed")
        #expect(result.evidence.last?.summary == "the app asked before the second factor")
        #expect(result.evidence.map(\.sequence) == Array(1...result.evidence.count), "the evidence is the whole transcript, in order")
    }

    @Test("a step that is not verified stops the case as not verified")
    func stepNotVerified() async throws {
        let plan = try Self.plan([.init("Needs more", steps: [#"Given the step is not verified because "no recovery flow""#, "Then the step passes"])])
        let result = try #require(await Self.run(plan, adapter: FakeAdapter()).first)
        #expect(result.verdict == .notVerified)
        #expect(result.message == "no recovery flow")
        #expect(result.steps.map(\.status) == [.notVerified, .skipped])
    }

    @Test("events report the start and every finished case, in order")
    func events() async throws {
        let plan = try Self.plan([.init("One", steps: ["Then the step passes"]), .init("Two", steps: ["Then the step passes"])])
        let adapter = FakeAdapter()
        let log = FakeAdapter.CallLog()
        _ = await Runner(adapter: adapter, library: TestSteps.library).run(plan, description: adapter.description) { event in
            switch event {
            case .started(let total): log.append("started \(total)")
            case .finished(let result, let index, let total): log.append("finished \(index)/\(total) \(result.verdict.rawValue)")
            }
        }
        #expect(log.all == ["started 2", "finished 1/2 passed", "finished 2/2 passed"])
    }

    @Test("case seeds differ per case and per run seed, and repeat for the same inputs")
    func caseSeeds() {
        let a = Runner.caseSeed(1, "N9.9-AC01/x@apple-18")
        #expect(a == Runner.caseSeed(1, "N9.9-AC01/x@apple-18"))
        #expect(a != Runner.caseSeed(2, "N9.9-AC01/x@apple-18"))
        #expect(a != Runner.caseSeed(1, "N9.9-AC01/x@apple-26.2"))
    }
}
