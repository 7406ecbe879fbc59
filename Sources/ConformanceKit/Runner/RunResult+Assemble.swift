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
    ///
    /// The fault is told once, as the run's (`metadata.fault`): each test case carries it as its
    /// typed `fault` and says in its message only that it did not run and where to look, so that a
    /// report or the console does not repeat the adapter's standard error for every test case.
    public static func unstarted(plan: TestPlan, metadata: RunMetadata, fault: RunFault) -> RunResult {
        var metadata = metadata
        metadata.fault = fault
        let message = notRunMessage(fault)
        let results = plan.cases.map { testCase in
            TestCaseResult(
                id: testCase.id, criterionID: testCase.criterion.id, scenario: testCase.scenario.name, file: testCase.scenario.file,
                line: testCase.scenario.line, verifyItems: testCase.scenario.verifyItems, tags: testCase.scenario.tags,
                target: testCase.target.id.rawValue, outcome: .error(message: message, fault: fault),
                steps: testCase.scenario.steps.map { StepResult(keyword: $0.keyword, text: $0.text, line: $0.line, status: .skipped) },
                evidence: [], virtualMillis: 0, wallSeconds: 0)
        }
        var run = assemble(plan: plan, results: results, metadata: metadata, wallSeconds: 0)
        // A run without a single planned case still does not read as anything but an error.
        if results.isEmpty { run.verdict = .error }
        return run
    }

    /// The message of a test case that did not run because the adapter did not start: it refers to
    /// the run's fault instead of repeating it.
    public static func notRunMessage(_ fault: RunFault) -> String {
        "not run: the adapter did not start, see the run fault (\(fault.kind.rawValue)\(fault.method.map { " in \($0)" } ?? ""))"
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
