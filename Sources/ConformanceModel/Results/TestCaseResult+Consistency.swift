extension TestCaseResult {
    /// Why this test case's verdict does not follow from its steps, or `nil` when it does.
    ///
    /// The runner ends a test case at its first step that does not pass, so its steps read as
    /// passes, then at most one step that ended otherwise, then skipped steps; and the verdict is
    /// that step's ending, or `error` when a fault came after it (a failed `session.close`, the
    /// interaction budget), or the ending decided before any step ran (`notVerified` with its
    /// reason, `error` with its fault). A report whose verdict says more than its steps (a failure
    /// turned into a pass, an error into a failure) was changed after the run: `merge` and `verify`
    /// refuse it.
    ///
    /// - Parameter exploration: an `explore` report, whose failed test case is a history that broke
    ///   an invariant with every step passed (no step of the library states the check).
    public func verdictInconsistency(exploration: Bool = false) -> String? {
        let ended = steps.filter { $0.status != .passed && $0.status != .skipped }
        if ended.count > 1 {
            return "\(ended.count) steps did not pass (lines \(ended.map { String($0.line) }.joined(separator: ", "))), but a test case ends at its first"
        }
        if let last = steps.lastIndex(where: { $0.status != .skipped }), steps[..<last].contains(where: { $0.status == .skipped }) {
            return "step line \(steps[last].line) ran after a skipped step"
        }
        if let stopped = ended.first, let index = steps.firstIndex(of: stopped), steps[(index + 1)...].contains(where: { $0.status == .passed }) {
            return "a step passed after step line \(stopped.line) ended \(stopped.status.rawValue)"
        }
        let step = ended.first
        let ran = "step line \(step?.line ?? 0) ended \(step?.status.rawValue ?? "")"
        switch verdict {
        case .passed:
            if step != nil { return "verdict passed, but \(ran)" }
            if steps.contains(where: { $0.status == .skipped }) { return "verdict passed, but steps were skipped" }
            if fault != nil { return "verdict passed, but it records a fault" }
        case .failed:
            if let step, step.status != .failed { return "verdict failed, but \(ran)" }
            if step == nil && !exploration { return "verdict failed, but no step failed" }
        case .error:
            if fault == nil && step?.status != .error { return "verdict error, but no step erred and no fault is recorded" }
            if step?.status == .undefined { return "verdict error, but \(ran)" }
        case .notVerified:
            if let step, step.status != .notVerified { return "verdict notVerified, but \(ran)" }
            if step == nil && notVerifiedReason == nil { return "verdict notVerified, but no step was left unverified and no reason is recorded" }
            if step == nil && steps.contains(where: { $0.status == .passed }) { return "verdict notVerified before the run, but steps passed" }
        case .undefined:
            if step?.status != .undefined { return "verdict undefined, but no step is undefined" }
        }
        return nil
    }
}

extension RunResult {
    /// The run its test cases make: each criterion's verdict per target and overall folded from its
    /// test cases, the run's from the criteria, the virtual time summed. What a report derives is
    /// computed here, never read back, so that `merge` and `verify` judge a report by its test cases.
    public static func folding(criteria: [CriterionInfo], results: [TestCaseResult], metadata: RunMetadata, wallSeconds: Double) -> RunResult {
        // A monitor's test cases are derived from the findings the others keep: any read back are
        // dropped and made again, so that a merged or audited report judges the findings themselves.
        let results = results.filter { !$0.isMonitorCase }
        let monitors = monitorCases(results, criteria: criteria)
        var byCriterion: [CriterionID: [TestCaseResult]] = [:]
        for result in results + monitors { byCriterion[result.criterionID, default: []].append(result) }
        let folded = criteria.map { info -> CriterionResult in
            let cases = byCriterion[info.id] ?? []
            var targets: [String: Verdict] = [:]
            for target in Set(cases.map(\.target)) {
                targets[target] = Verdict.fold(cases.filter { $0.target == target }.map(\.verdict))
            }
            return CriterionResult(criterion: info, verdict: Verdict.fold(cases.map(\.verdict)), targets: targets)
        }
        return RunResult(
            metadata: metadata, criteria: folded, testCases: results + monitors, verdict: Verdict.fold(folded.map(\.verdict)), wallSeconds: wallSeconds,
            virtualMillis: totalVirtualMillis(results))
    }

    /// The virtual time of all test cases together, saturating at `Int64.max` instead of
    /// overflowing; a negative duration (which no clock gives) counts as zero.
    static func totalVirtualMillis(_ results: [TestCaseResult]) -> Int64 {
        var total: Int64 = 0
        for result in results {
            let (sum, overflow) = total.addingReportingOverflow(max(0, result.virtualMillis))
            if overflow { return .max }
            total = sum
        }
        return total
    }
}
