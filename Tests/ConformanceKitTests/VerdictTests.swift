import ConformanceKit
import ConformanceTestSupport
import Testing

@Suite("Run results assembled from verdicts")
struct VerdictTests {
    /// Two criteria, each with two scenarios, on two targets: eight cases.
    static func plan() throws -> TestPlan {
        func criterion(_ id: String) -> (String, String) {
            (
                "c/\(id).feature",
                CriterionText.criterion(
                    id: id,
                    scenarios: [
                        .init("First", steps: ["Then no passkey registration request has been issued"]),
                        .init("Second", steps: ["Then no passkey registration request has been issued"]),
                    ])
            )
        }
        let loaded = CriterionText.load([criterion("N9.9-AC01"), criterion("N9.9-AC02")])
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        return TestPlan.make(loaded.criteria, filter: .init(targets: ["apple-18", "android-15-gpm"]))
    }

    static func result(_ testCase: TestPlan.Case, _ verdict: Verdict) -> TestCaseResult {
        TestCaseResult(
            id: testCase.id, criterionID: testCase.criterion.id, scenario: testCase.scenario.name, file: testCase.scenario.file,
            line: testCase.scenario.line, verifyItems: testCase.scenario.verifyItems, tags: testCase.scenario.tags,
            target: testCase.target.id.rawValue, outcome: TestCaseOutcome(verdict: verdict, message: nil), steps: [], evidence: [], virtualMillis: 10,
            wallSeconds: 0.5)
    }

    static let metadata = RunMetadata(
        harnessVersion: "test", criteriaDigest: "", adapter: .init(name: "fake", version: "0", transport: "in-process"),
        targets: [], seed: 1, startedAt: "2026-01-01T00:00:00Z", filters: [:])

    @Test("assemble: a criterion passes only if all its cases passed on every target")
    func assemble() throws {
        let plan = try Self.plan()
        try #require(plan.cases.count == 8)
        // N9.9-AC01: everything passes. N9.9-AC02: one case fails on android-15-gpm only.
        let failing = try #require(plan.cases.first { $0.criterion.id == "N9.9-AC02" && $0.target.id == "android-15-gpm" && $0.scenario.name == "Second" })
        let results = plan.cases.map { Self.result($0, $0.id == failing.id ? .failed : .passed) }
        let run = RunResult.assemble(plan: plan, results: results, metadata: Self.metadata, wallSeconds: 1)
        #expect(run.criteria.map(\.criterion.id) == ["N9.9-AC01", "N9.9-AC02"])
        #expect(run.criteria.map(\.verdict) == [.passed, .failed])
        #expect(run.criteria[0].targets == ["apple-18": .passed, "android-15-gpm": .passed])
        #expect(run.criteria[1].targets == ["apple-18": .passed, "android-15-gpm": .failed])
        #expect(run.verdict == .failed)
        #expect(run.testCases == results)
        #expect(run.virtualMillis == 80)
        #expect(run.counts == [.passed: 7, .failed: 1])
    }

    @Test("assemble: a not-verified case keeps its criterion from passing", arguments: [Verdict.notVerified, .undefined, .error])
    func notPassedIsNotPassed(_ verdict: Verdict) throws {
        let plan = try Self.plan()
        let odd = try #require(plan.cases.first)
        let run = RunResult.assemble(
            plan: plan, results: plan.cases.map { Self.result($0, $0.id == odd.id ? verdict : .passed) },
            metadata: Self.metadata, wallSeconds: 1)
        #expect(run.criteria.first { $0.criterion.id == odd.criterion.id }?.verdict == verdict)
        #expect(run.criteria.first { $0.criterion.id == odd.criterion.id }?.targets[odd.target.id.rawValue] == verdict)
        #expect(run.verdict == verdict)
    }

    @Test("assemble: a planned criterion with no result is not verified, never passed")
    func missingResults() throws {
        let plan = try Self.plan()
        let results = plan.cases.filter { $0.criterion.id == "N9.9-AC01" }.map { Self.result($0, .passed) }
        let run = RunResult.assemble(plan: plan, results: results, metadata: Self.metadata, wallSeconds: 1)
        #expect(run.criteria.map(\.verdict) == [.passed, .notVerified])
        #expect(run.verdict == .notVerified)
    }

    @Test("assemble: an empty plan gives a run that is not verified")
    func emptyPlan() throws {
        let plan = TestPlan.make([])
        let run = RunResult.assemble(plan: plan, results: [], metadata: Self.metadata, wallSeconds: 0)
        #expect(run.criteria.isEmpty)
        #expect(run.verdict == .notVerified)
    }
}
