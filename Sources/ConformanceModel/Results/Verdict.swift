/// How a test case, or a criterion, ended.
public enum Verdict: String, Sendable, Codable, Hashable, CaseIterable, Comparable {
    /// The relying party met the criterion.
    case passed
    /// The relying party broke the criterion; evidence is attached.
    case failed
    /// The run could not decide: adapter crash, protocol violation, time-out, harness fault.
    case error
    /// A capability or target the scenario needs is missing.
    case notVerified
    /// A step matches no step definition, or several: a defect in the criterion file.
    case undefined

    /// Severity order used to fold verdicts: the worst wins.
    var severity: Int {
        switch self {
        case .passed: 0
        case .notVerified: 1
        case .failed: 2
        case .undefined: 3
        case .error: 4
        }
    }

    /// Orders verdicts by severity: `passed`, `notVerified`, `failed`, `undefined`, then `error`.
    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.severity < rhs.severity }

    /// Folds many verdicts into one: passed only when every one passed; otherwise the most severe.
    /// An empty list folds to `notVerified` (nothing was shown).
    public static func fold<S: Sequence>(_ verdicts: S) -> Verdict where S.Element == Verdict {
        var worst: Verdict?
        for verdict in verdicts { worst = max(worst ?? verdict, verdict) }
        return worst ?? .notVerified
    }
}
