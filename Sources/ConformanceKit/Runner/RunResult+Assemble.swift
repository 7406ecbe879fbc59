extension RunResult {
    /// Folds test case results into criterion verdicts (overall and per target) and the run's verdict.
    ///
    /// A criterion passes only when every one of its test cases passed on every target it applies to.
    public static func assemble(plan: TestPlan, results: [TestCaseResult], metadata: RunMetadata, wallSeconds: Double) -> RunResult {
        var byCriterion: [String: [TestCaseResult]] = [:]
        for result in results { byCriterion[result.criterionID, default: []].append(result) }
        let criteria = plan.criteria.map { info -> CriterionResult in
            let cases = byCriterion[info.id] ?? []
            var targets: [String: Verdict] = [:]
            for target in Set(cases.map(\.target)) {
                targets[target] = Verdict.fold(cases.filter { $0.target == target }.map(\.verdict))
            }
            return CriterionResult(criterion: info, verdict: Verdict.fold(cases.map(\.verdict)), targets: targets)
        }
        return RunResult(metadata: metadata, criteria: criteria, testCases: results, verdict: Verdict.fold(criteria.map(\.verdict)),
                         wallSeconds: wallSeconds, virtualMillis: results.reduce(0) { $0 + $1.virtualMillis })
    }
}

extension RunResult {
    /// The same run with every wall-clock duration set to zero: what stays equal between two runs
    /// with the same seed, criteria, adapter and harness (reproducible, diffable reports).
    public func withoutWallTimes() -> RunResult {
        var copy = self
        copy.wallSeconds = 0
        copy.testCases = testCases.map { testCase in
            var testCase = testCase
            testCase.wallSeconds = 0
            return testCase
        }
        return copy
    }
}
