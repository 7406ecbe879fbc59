extension RunResult {
    /// Folds test case results into criterion verdicts (overall and per target) and the run's verdict.
    ///
    /// A criterion passes only when every one of its test cases passed on every target it applies to.
    public static func assemble(plan: TestPlan, results: [TestCaseResult], metadata: RunMetadata, wallSeconds: Double) -> RunResult {
        folding(criteria: plan.criteria, results: results, metadata: metadata, wallSeconds: wallSeconds)
    }

    /// The result of a run that could not start: every planned test case ends `error` with the
    /// fault that stopped the run (the adapter failed at launch or during `adapter.hello`), so that
    /// every report, JUnit included, says what happened and a CI gate sees it.
    public static func unstarted(plan: TestPlan, metadata: RunMetadata, fault: RunFault) -> RunResult {
        var metadata = metadata
        metadata.fault = fault
        let results = plan.cases.map { testCase in
            TestCaseResult(
                id: testCase.id, criterionID: testCase.criterion.id, scenario: testCase.scenario.name, file: testCase.scenario.file,
                line: testCase.scenario.line, verifyItems: testCase.scenario.verifyItems, tags: testCase.scenario.tags,
                target: testCase.target.id.rawValue, outcome: .error(message: "not run: the adapter failed before the run: \(fault)", fault: fault),
                steps: testCase.scenario.steps.map { StepResult(keyword: $0.keyword, text: $0.text, line: $0.line, status: .skipped) },
                evidence: [], virtualMillis: 0, wallSeconds: 0)
        }
        var run = assemble(plan: plan, results: results, metadata: metadata, wallSeconds: 0)
        // A run without a single planned case still does not read as anything but an error.
        if results.isEmpty { run.verdict = .error }
        return run
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
