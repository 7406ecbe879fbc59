import ConformanceKit

/// A verdict as a report shows it: the run's `Verdict`, plus `waived` for a failure that a live
/// waiver accepts.
///
/// Only `failed` can become `waived`; every other verdict is shown as it is. The cases are declared
/// in the order reports list them.
public enum ReportOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    case passed
    case failed
    /// Failed, and covered by a live waiver.
    case waived
    case error
    case notVerified
    case undefined

    /// The outcome of a verdict, given whether its failures are all waived.
    public init(_ verdict: Verdict, waived: Bool) {
        switch verdict {
        case .passed: self = .passed
        case .failed: self = waived ? .waived : .failed
        case .error: self = .error
        case .notVerified: self = .notVerified
        case .undefined: self = .undefined
        }
    }

    /// Plain words for a reader: `passed`, `waived`, `failed`, `error`, `not verified`, `undefined`.
    public var words: String {
        switch self {
        case .passed: "passed"
        case .waived: "waived"
        case .failed: "failed"
        case .error: "error"
        case .notVerified: "not verified"
        case .undefined: "undefined"
        }
    }

    /// The outcome of a verdict over several test cases: `failed` becomes `waived` only when at
    /// least one of its failures is waived and none is unexpected.
    static func folded(_ verdict: Verdict, caseOutcomes: some Sequence<ReportOutcome>) -> ReportOutcome {
        var sawWaived = false
        for outcome in caseOutcomes {
            if outcome == .failed { return ReportOutcome(verdict, waived: false) }
            if outcome == .waived { sawWaived = true }
        }
        return ReportOutcome(verdict, waived: sawWaived)
    }
}
