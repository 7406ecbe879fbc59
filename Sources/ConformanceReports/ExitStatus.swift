import ConformanceModel

/// The process exit status a run maps to, for a CI job to gate on.
///
/// | status | name | when |
/// |---|---|---|
/// | 0 | `conformant` | every selected criterion verified on at least one target, no unexpected failure, nothing undefined, no error, no waiver problem |
/// | 1 | `nonConformant` | a `failed` test case no live waiver covers, or a waiver problem (expired or stale) |
/// | 2 | `harnessError` | any `error` or `undefined` verdict, or a fault before the run: the harness, the adapter, the transport or a criterion file failed, so the run could not decide |
/// | 3 | `incomplete` | nothing failed, but the run verified too little: no test case selected, no target the adapter declared is known, or a selected criterion has no verified test case (unless `--allow-not-verified`) |
/// | 130 | `interrupted` | the run was stopped by `SIGINT`; the report is partial |
/// | 143 | `terminated` | the run was stopped by `SIGTERM`; the report is partial |
///
/// An interruption wins over everything; then `harnessError` over `nonConformant` (a run that
/// could not finish says nothing reliable about the relying party), and `nonConformant` over
/// `incomplete` (a failure is a failure, however little else ran).
public enum ExitStatus: Int32, Sendable, Hashable, Codable, CaseIterable {
    /// The relying party met every selected criterion, each verified on at least one target.
    case conformant = 0
    /// The relying party broke a criterion, or a waiver needs attention.
    case nonConformant = 1
    /// The harness, the adapter, the transport or a criterion file (an undefined step) failed; the run could not decide.
    case harnessError = 2
    /// Nothing failed, but the run verified too little to call the relying party conformant.
    case incomplete = 3
    /// Stopped by `SIGINT` (128 + 2).
    case interrupted = 130
    /// Stopped by `SIGTERM` (128 + 15).
    case terminated = 143

    /// The exit status of a run with its waivers applied.
    ///
    /// - Parameters:
    ///   - run: the run's result.
    ///   - waivers: the waiver evaluation for the run (`.none` when no waiver file is used).
    public static func `for`(_ run: RunResult, _ waivers: WaiverEvaluation = .none) -> ExitStatus {
        switch run.metadata.interruption {
        case .sigint: return .interrupted
        case .sigterm: return .terminated
        case nil: break
        }
        let verdicts = [run.verdict] + run.criteria.map(\.verdict) + run.criteria.flatMap(\.targets.values) + run.testCases.map(\.verdict)
        if run.metadata.fault != nil || verdicts.contains(.error) || verdicts.contains(.undefined) { return .harnessError }
        if !waivers.problems.isEmpty { return .nonConformant }
        let unexpectedFailure = run.testCases.contains { $0.verdict == .failed && waivers.waiver(forTestCase: $0.id) == nil }
        if unexpectedFailure { return .nonConformant }
        // A criterion (or the run) that says `failed` without a failed test case behind it is not
        // covered by any waiver: the failure is unexpected.
        let failedTestCases = run.testCases.filter { $0.verdict == .failed }
        let criterionFailedWithoutCase = run.criteria.contains { criterion in
            criterion.verdict == .failed && !failedTestCases.contains { $0.criterionID == criterion.criterion.id }
        }
        if criterionFailedWithoutCase || (run.verdict == .failed && failedTestCases.isEmpty) { return .nonConformant }
        if !run.metadata.allowNotVerified && !Gap.all(in: run).isEmpty { return .incomplete }
        return .conformant
    }

    /// Words for a reader: "conformant", "not conformant", "not decided (…)", "incomplete", "interrupted".
    public var words: String {
        switch self {
        case .conformant: "conformant"
        case .nonConformant: "not conformant"
        case .harnessError: "not decided (harness, adapter or criterion-file error)"
        case .incomplete: "incomplete (too little verified to decide)"
        case .interrupted: "interrupted (SIGINT); partial report"
        case .terminated: "terminated (SIGTERM); partial report"
        }
    }

    /// The words for a run's headline: a run that left criteria unverified says which, so that a
    /// partial run never reads as a full pass.
    public func headline(_ run: RunResult) -> String {
        let gaps = Gap.all(in: run)
        guard self == .conformant || self == .incomplete, !gaps.isEmpty else { return words }
        let listed = gaps.prefix(5).map(\.detail).joined(separator: "; ") + (gaps.count > 5 ? "; … \(gaps.count - 5) more" : "")
        if self == .conformant {
            return "conformant in what could be verified (--allow-not-verified): \(listed)"
        }
        return "\(words): \(listed); see the report, or pass --allow-not-verified to accept"
    }

    /// Why a run that failed nothing is still *incomplete*: a kind and a sentence.
    public struct Gap: Sendable, Hashable, Codable {
        /// The kinds of gap.
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            /// The filters (or an empty criteria directory) selected no test case.
            case noTestCase
            /// The adapter declared no target the harness knows.
            case noKnownTarget
            /// A selected criterion has no test case that passed or failed on any target.
            case criterionNotVerified
        }

        /// The kind of gap.
        public var kind: Kind
        /// The criterion concerned (for `criterionNotVerified`), else `nil`.
        public var criterion: String?
        /// A sentence for a reader.
        public var detail: String

        private enum CodingKeys: String, CodingKey { case kind, criterion, detail }

        /// Encodes every member, `criterion` as `null` when there is none (the report's convention).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(criterion, forKey: .criterion)
            try container.encode(detail, forKey: .detail)
        }

        /// Every gap of `run`, in a stable order: the run-wide ones, then criteria in run order.
        public static func all(in run: RunResult) -> [Gap] {
            var gaps: [Gap] = []
            if run.testCases.isEmpty {
                gaps.append(Gap(kind: .noTestCase, criterion: nil, detail: "the filters selected no test case"))
            }
            let adapter = run.metadata.adapter
            if let declaredTargets = adapter.declaredTargets, declaredTargets.allSatisfy({ adapter.unknownTargets.contains($0) }) {
                let declared = declaredTargets.isEmpty ? "none" : declaredTargets.joined(separator: ", ")
                gaps.append(Gap(kind: .noKnownTarget, criterion: nil, detail: "the adapter declares no known target (declared: \(declared))"))
            }
            for criterion in run.criteria {
                let id = criterion.criterion.id
                let verified = run.testCases.contains { $0.criterionID == id && ($0.verdict == .passed || $0.verdict == .failed) }
                if !verified {
                    gaps.append(Gap(kind: .criterionNotVerified, criterion: id, detail: "\(id) has no verified test case"))
                }
            }
            return gaps
        }
    }
}
