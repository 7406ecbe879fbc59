/// The process exit status a run maps to, for a CI job to gate on.
///
/// | status | name | when |
/// |---|---|---|
/// | 0 | `conformant` | every selected verify item has a test case that passed, no unexpected failure, nothing undefined, no error, no waiver problem |
/// | 1 | `nonConformant` | a `failed` test case no live waiver covers, or a waiver problem (expired or stale) |
/// | 2 | `harnessError` | any `error` or `undefined` verdict, or a fault before the run: the harness, the adapter, the transport or a criterion file failed, so the run could not decide |
/// | 3 | `incomplete` | nothing failed, but the run showed too little (see `Gap`); `--allow-not-verified` accepts verify items left unshown only when at least one test case passed |
/// | 129 | `hangup` | the run was stopped by `SIGHUP`; the report is partial |
/// | 130 | `interrupted` | the run was stopped by `SIGINT`; the report is partial |
/// | 143 | `terminated` | the run was stopped by `SIGTERM`; the report is partial |
///
/// An interruption wins over everything; then `harnessError` over `nonConformant` (a run that
/// could not finish says nothing reliable about the relying party), and `nonConformant` over
/// `incomplete` (a failure is a failure, however little else ran). A run in which nothing passed is
/// never `conformant`. An `explore` report (its metadata's filters name `explore`) that broke no
/// invariant is `conformant`, since it verifies invariants rather than verify items.
public enum ExitStatus: Int32, Sendable, Hashable, Codable, CaseIterable {
    /// The relying party met every selected verify item, each shown by a test case that passed.
    case conformant = 0
    /// The relying party broke a criterion, or a waiver needs attention.
    case nonConformant = 1
    /// The harness, the adapter, the transport or a criterion file (an undefined step) failed; the run could not decide.
    case harnessError = 2
    /// Nothing failed, but the run showed too little to call the relying party conformant.
    case incomplete = 3
    /// Stopped by `SIGHUP` (128 + 1).
    case hangup = 129
    /// Stopped by `SIGINT` (128 + 2).
    case interrupted = 130
    /// Stopped by `SIGTERM` (128 + 15).
    case terminated = 143

    /// The exit status of a run with its waivers applied: `Decision`'s status, so that the status and
    /// the reasons the reports give for it are decided in one place.
    ///
    /// - Parameters:
    ///   - run: the run's result.
    ///   - waivers: the waiver evaluation for the run (`.none` when no waiver file is used).
    public static func `for`(_ run: RunResult, _ waivers: WaiverEvaluation = .none) -> ExitStatus {
        Decision(run, waivers: waivers).status
    }

    /// Whether `--allow-not-verified` accepts the gaps: it was given, at least one test case passed,
    /// and every gap is a verify item (or criterion) left unshown, never a run that selected
    /// nothing or declared no known target.
    static func gapsAccepted(_ gaps: [Gap], in run: RunResult) -> Bool {
        guard run.metadata.allowNotVerified, run.testCases.contains(where: { $0.verdict == .passed }) else { return false }
        return gaps.allSatisfy(\.kind.isAcceptable)
    }

    /// Words for a reader: "conformant", "not conformant", "not decided (…)", "incomplete", "interrupted".
    public var words: String {
        switch self {
        case .conformant: "conformant"
        case .nonConformant: "not conformant"
        case .harnessError: "not decided (harness, adapter or criterion-file error)"
        case .incomplete: "incomplete (too little verified to decide)"
        case .hangup: "hung up (SIGHUP); partial report"
        case .interrupted: "interrupted (SIGINT); partial report"
        case .terminated: "terminated (SIGTERM); partial report"
        }
    }

    /// The words for a run's headline: a run that left verify items unshown says how many and
    /// which, so that a partial run never reads as a full pass.
    public func headline(_ run: RunResult, waivers: WaiverEvaluation = .none) -> String {
        if let shard = run.metadata.shard, self == .conformant {
            return "nothing failed in shard \(shard.index) of \(shard.count); merge the shards' reports to judge the run"
        }
        let gaps = Gap.gating(in: run, waivers: waivers)
        guard self == .conformant || self == .incomplete, !gaps.isEmpty else { return words }
        let listed = gaps.prefix(5).map(\.detail).joined(separator: "; ") + (gaps.count > 5 ? "; … \(gaps.count - 5) more" : "")
        if self == .conformant {
            return "conformant in what could be verified (--allow-not-verified), \(gaps.count) gap(s): \(listed)"
        }
        let accept =
            run.metadata.allowNotVerified
            ? (run.testCases.contains { $0.verdict == .passed }
                ? "--allow-not-verified does not accept a run that selected nothing or declared no known target"
                : "--allow-not-verified accepts gaps only when at least one test case passed")
            : "pass --allow-not-verified to accept gaps while at least one test case passes"
        return "\(words), \(gaps.count) gap(s): \(listed); see the report (\(accept))"
    }
}

extension ExitStatus {
    /// The case name, as the JSON report's `summary.status` writes it.
    public var name: String {
        switch self {
        case .conformant: "conformant"
        case .nonConformant: "nonConformant"
        case .harnessError: "harnessError"
        case .incomplete: "incomplete"
        case .interrupted: "interrupted"
        case .terminated: "terminated"
        case .hangup: "hangup"
        }
    }
}
