import ConformanceKit
import ConformanceEvidence
import ConformanceReports

/// The terminal summary of a run: one line per criterion, then the failures, the gaps and the result.
///
/// Every piece of text that came from the adapter or the criterion files goes through
/// `Output.inline(_:)`: shown with its control and bidirectional characters escaped, never able to
/// start a line of its own.
enum Summary {
    static func symbol(_ verdict: Verdict) -> String {
        switch verdict {
        case .passed: "pass"
        case .failed: "FAIL"
        case .error: "ERROR"
        case .notVerified: "not verified"
        case .undefined: "UNDEFINED"
        }
    }

    /// The summary; `faultShown` says that the run's fault (its standard error and what to check)
    /// was printed already (`faultLines(_:)` on standard error), so that it is told once.
    static func text(_ run: RunResult, waivers: WaiverEvaluation, faultShown: Bool = false) -> String {
        // The counts and outcomes the reports give, from the model they are written from.
        let model = ReportModel(run, waivers: waivers)
        var lines: [String] = []
        if let notice = criteriaNotice(run.metadata) { lines.append(notice) }
        let adapter = run.metadata.adapter
        lines.append(
            "passkey-conformance \(run.metadata.harnessVersion) against \(Output.inline(adapter.name)) \(Output.inline(adapter.version)) (\(adapter.transport)), seed \(run.metadata.seed)"
        )
        if let notice = waiverDateNotice(waivers) { lines.append(notice) }
        for criterion in run.criteria {
            let info = criterion.criterion
            let cases = run.testCases.filter { $0.criterionID == info.id }
            let passed = cases.filter { $0.verdict == .passed }.count
            // As the reports show it: a warning below the gate, waived when waivers accept every failure.
            let shown =
                if criterion.verdict == .failed && !run.gateCovers(criterion: info.id) {
                    "WARN"
                } else if model.outcome(ofCriterion: info.id) == .waived {
                    "waived"
                } else {
                    symbol(criterion.verdict)
                }
            lines.append(
                "  " + Output.inline(info.id.rawValue).padding(toLength: 11, withPad: " ", startingAt: 0)
                    + shown.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + "\(passed)/\(cases.count) test cases  \(Output.inline(info.title))")
        }
        if let fault = run.metadata.fault {
            if faultShown {
                lines.append("  run fault: \(Output.inline(ReportNotices.faultLine(fault))); see above")
            } else {
                let fault = faultLines(run.metadata)
                lines += ["  run fault: " + fault[0]] + fault.dropFirst().map { "  " + $0 }
            }
        }
        // Test cases that did not run because the adapter did not start: one line, not one each.
        let notRun = Set(run.testCases.filter { $0.verdict == .error && run.metadata.fault != nil && $0.fault == run.metadata.fault }.map(\.id))
        if !notRun.isEmpty {
            lines.append("  ERROR \(notRun.count) test case(s) not run: the adapter did not start, see the run fault above")
        }
        let problems = run.testCases.filter { $0.verdict != .passed && $0.verdict != .notVerified && !notRun.contains($0.id) }
        for result in problems.prefix(20) {
            let waived = waivers.waiver(forTestCase: result.id) != nil ? " (waived)" : ""
            let warning = result.verdict == .failed && !run.gateCovers(criterion: result.criterionID)
            lines.append("  \(warning ? "WARN (below the gate)" : symbol(result.verdict))\(waived) \(Output.inline(result.id))")
            if let message = result.message { lines.append("      \(Output.inline(message))") }
        }
        if problems.count > 20 { lines.append("  … and \(problems.count - 20) more; see the reports") }
        lines.append(
            "\(run.testCases.count) test cases: \(ReportModel.counted(model.caseCounts)); \(String(format: "%.3f", run.wallSeconds)) s wall, \(run.virtualMillis / 1000) s virtual"
        )
        for problem in waivers.problems { lines.append("waiver problem: \(Output.inline(problem.description))") }
        let status = model.exitStatus
        let warnings = run.testCases.filter { $0.verdict == .failed && !run.gateCovers(criterion: $0.criterionID) }
        let warningGaps = ExitStatus.Gap.belowGate(in: run, waivers: waivers)
        if !warnings.isEmpty || !warningGaps.isEmpty {
            let gate = run.metadata.gate ?? .all
            lines.append(
                "Warnings (below --gate \(gate.rawValue), the exit status does not count them): \(warnings.count) failed test case(s), "
                    + "\(warningGaps.count) gap(s)")
        }
        let gaps = ExitStatus.Gap.gating(in: run, waivers: waivers)
        if (status == .conformant || status == .incomplete) && !gaps.isEmpty {
            lines.append("Gaps (\(gaps.count)): what no passed test case shows, and what to declare to verify it:")
            for gap in gaps.prefix(30) { lines.append("  " + Output.inline(gap.detail)) }
            if gaps.count > 30 { lines.append("  … and \(gaps.count - 30) more; see the reports (summary.gaps)") }
        }
        lines.append("Result: " + Output.inline(status.headline(run, waivers: waivers)))
        return lines.joined(separator: "\n")
    }

    /// The run's fault told once, for the console (the first line to be prefixed by the caller):
    /// what failed, the adapter's last standard error
    /// lines (each on a line of its own behind `| `, so that none can pass for the harness's own
    /// output, its hidden characters made visible) and the first thing to check.
    static func faultLines(_ metadata: RunMetadata) -> [String] {
        guard let fault = metadata.fault else { return [] }
        let what = fault.kind == .criteria ? "the criteria did not load" : "the adapter did not start"
        var lines = ["\(what): \(Output.inline(ReportNotices.faultLine(fault)))"]
        if let standardError = ReportNotices.standardErrorLines(fault) {
            lines.append("  the adapter's standard error (its last lines):")
            lines += standardError.map { "  | " + Output.inline($0) }
        }
        if let hint = ReportNotices.faultHint(metadata) { lines.append("  first thing to check: " + Output.inline(hint)) }
        return lines
    }

    /// The first line of a run whose criteria are not the suite shipped with the harness.
    static func criteriaNotice(_ metadata: RunMetadata) -> String? {
        ReportNotices.criteria(metadata).map { "NOTE: " + Output.inline($0) }
    }

    /// Says that the waivers were judged on another day than the clock's, and which expired waivers
    /// that keeps alive; `nil` when they were judged today.
    static func waiverDateNotice(_ waivers: WaiverEvaluation) -> String? {
        ReportNotices.waiverDate(waivers).map(Output.inline)
    }
}
