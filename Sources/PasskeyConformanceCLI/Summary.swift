import ConformanceKit
import ConformanceReports

/// The terminal summary of a run: one line per criterion, then the failures.
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

    static func text(_ run: RunResult, waivers: WaiverEvaluation) -> String {
        var lines: [String] = []
        lines.append(
            "passkey-conformance \(run.metadata.harnessVersion) against \(run.metadata.adapter.name) \(run.metadata.adapter.version) (\(run.metadata.adapter.transport)), seed \(run.metadata.seed)"
        )
        for criterion in run.criteria {
            let info = criterion.criterion
            let cases = run.testCases.filter { $0.criterionID == info.id }
            let passed = cases.filter { $0.verdict == .passed }.count
            lines.append(
                "  " + info.id.padding(toLength: 11, withPad: " ", startingAt: 0) + symbol(criterion.verdict).padding(toLength: 13, withPad: " ", startingAt: 0)
                    + "\(passed)/\(cases.count) test cases  \(info.title)")
        }
        let problems = run.testCases.filter { $0.verdict != .passed && $0.verdict != .notVerified }
        for result in problems.prefix(20) {
            let waived = waivers.waiver(forTestCase: result.id) != nil ? " (waived)" : ""
            lines.append("  \(symbol(result.verdict))\(waived) \(result.id)")
            if let message = result.message { lines.append("      \(message)") }
        }
        if problems.count > 20 { lines.append("  … and \(problems.count - 20) more; see the reports") }
        let counts = run.counts
        lines.append(
            "\(run.testCases.count) test cases: \(counts[.passed, default: 0]) passed, \(counts[.failed, default: 0]) failed, \(counts[.error, default: 0]) errors, \(counts[.notVerified, default: 0]) not verified, \(counts[.undefined, default: 0]) undefined; \(String(format: "%.3f", run.wallSeconds)) s wall, \(run.virtualMillis / 1000) s virtual"
        )
        for problem in waivers.problems { lines.append("waiver problem: \(problem)") }
        lines.append("Result: " + ExitStatus.for(run, waivers).headline(run))
        return lines.joined(separator: "\n")
    }
}
