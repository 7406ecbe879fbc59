import ConformanceKit

/// The process exit status a run maps to, for a CI job to gate on.
///
/// | status | name | when |
/// |---|---|---|
/// | 0 | `conformant` | no unexpected failure, nothing undefined, no error, no waiver problem (`notVerified` cases do not change the status; reports list them) |
/// | 1 | `nonConformant` | a `failed` test case no live waiver covers, an `undefined` test case, or a waiver problem (expired or stale) |
/// | 2 | `harnessError` | any `error` verdict: the harness, the adapter or the transport failed, so the run could not decide |
///
/// `harnessError` wins over `nonConformant`: a run that could not finish says nothing reliable
/// about the relying party.
public enum ExitStatus: Int32, Sendable, Hashable, Codable, CaseIterable {
    /// The relying party met every criterion that could be checked.
    case conformant = 0
    /// The relying party broke a criterion, a criterion file has an undefined step, or a waiver needs attention.
    case nonConformant = 1
    /// The harness, the adapter or the transport failed; the run could not decide.
    case harnessError = 2

    /// The exit status of a run with its waivers applied.
    ///
    /// - Parameters:
    ///   - run: the run's result.
    ///   - waivers: the waiver evaluation for the run (`.none` when no waiver file is used).
    public static func `for`(_ run: RunResult, _ waivers: WaiverEvaluation = .none) -> ExitStatus {
        let verdicts = [run.verdict] + run.criteria.map(\.verdict) + run.criteria.flatMap(\.targets.values) + run.testCases.map(\.verdict)
        if verdicts.contains(.error) { return .harnessError }
        if verdicts.contains(.undefined) || !waivers.problems.isEmpty { return .nonConformant }
        let unexpectedFailure = run.testCases.contains { $0.verdict == .failed && waivers.waiver(forTestCase: $0.id) == nil }
        if unexpectedFailure { return .nonConformant }
        // A criterion (or the run) that says `failed` without a failed test case behind it is not
        // covered by any waiver: the failure is unexpected.
        let failedTestCases = run.testCases.filter { $0.verdict == .failed }
        let criterionFailedWithoutCase = run.criteria.contains { criterion in
            criterion.verdict == .failed && !failedTestCases.contains { $0.criterionID == criterion.criterion.id }
        }
        if criterionFailedWithoutCase || (run.verdict == .failed && failedTestCases.isEmpty) { return .nonConformant }
        return .conformant
    }

    /// Words for a reader: "conformant", "not conformant", "not decided (harness or adapter error)".
    public var words: String {
        switch self {
        case .conformant: "conformant"
        case .nonConformant: "not conformant"
        case .harnessError: "not decided (harness or adapter error)"
        }
    }

    /// The words for a run's headline: a conformant run that left criteria unverified says so, so
    /// that a partial run never reads as a full pass.
    public func headline(_ run: RunResult) -> String {
        let unverified = run.criteria.filter { $0.verdict == .notVerified }.map(\.criterion.id)
        guard self == .conformant, !unverified.isEmpty else { return words }
        return "conformant in what could be verified; \(unverified.count) of \(run.criteria.count) criteria not verified (\(unverified.joined(separator: ", ")))"
    }
}
