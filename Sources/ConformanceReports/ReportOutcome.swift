import ConformanceModel

/// A verdict as a report shows it: the run's `Verdict`, plus `waived` for a failure that a live
/// waiver accepts.
///
/// Only `failed` can become `waived`; every other verdict is shown as it is. The cases are declared
/// in the order reports list them.
package enum ReportOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// The relying party met the criterion.
    case passed
    /// The relying party broke the criterion, and no live waiver accepts it.
    case failed
    /// Failed, and covered by a live waiver.
    case waived
    /// The harness, the adapter or the transport failed; not decided.
    case error
    /// A capability or target was missing; not a pass.
    case notVerified
    /// A step matches no step definition: a defect in the criterion file.
    case undefined

    /// The outcome of a verdict: `failed` becomes `waived` when `waived` is true; nothing else changes.
    package init(_ verdict: Verdict, waived: Bool) {
        switch verdict {
        case .passed: self = .passed
        case .failed: self = waived ? .waived : .failed
        case .error: self = .error
        case .notVerified: self = .notVerified
        case .undefined: self = .undefined
        }
    }

    /// Plain words for a reader: `passed`, `waived`, `failed`, `error`, `not verified`, `undefined`.
    package var words: String {
        switch self {
        case .passed: "passed"
        case .waived: "waived"
        case .failed: "failed"
        case .error: "error"
        case .notVerified: "not verified"
        case .undefined: "undefined"
        }
    }

    /// The most severe of several outcomes: passed < waived < not verified < failed < undefined < error;
    /// `passed` for none.
    static func worst(_ outcomes: [ReportOutcome]) -> ReportOutcome {
        let order: [ReportOutcome] = [.passed, .waived, .notVerified, .failed, .undefined, .error]
        return outcomes.max { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! } ?? .passed
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
