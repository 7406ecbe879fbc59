/// How one test case ended, with exactly what that ending carries: a pass carries nothing, a
/// failure its message, an error its message and fault, a case that could not be verified its
/// message and reason, an undefined step its message. A pass with a fault, or a failure with a
/// not-verified reason, cannot be written down.
///
/// Messages are optional so that a report read back says exactly what it said when written.
public enum TestCaseOutcome: Sendable, Hashable {
    /// The relying party met what the scenario checks.
    case passed
    /// The relying party broke what the scenario checks: the step, and what it saw.
    case failed(message: String?)
    /// The run could not decide: the adapter, the transport or the harness failed; `fault` says how.
    case error(message: String?, fault: RunFault?)
    /// A target, capability or protocol feature the scenario needs is missing; `reason` says which.
    case notVerified(message: String?, reason: NotVerifiedReason?)
    /// A step matches no step definition, or several: a defect in the criterion file.
    case undefined(message: String?)

    /// Assembles an outcome from the members a report writes side by side (`verdict`, `message`,
    /// `fault`, `notVerified`); a member that the verdict cannot carry is left out.
    public init(verdict: Verdict, message: String?, fault: RunFault? = nil, notVerifiedReason: NotVerifiedReason? = nil) {
        switch verdict {
        case .passed: self = .passed
        case .failed: self = .failed(message: message)
        case .error: self = .error(message: message, fault: fault)
        case .notVerified: self = .notVerified(message: message, reason: notVerifiedReason)
        case .undefined: self = .undefined(message: message)
        }
    }

    /// The verdict this outcome stands for.
    ///
    /// Kept out of line: Swift 6.3.1's release optimizer (CopyPropagation) aborts with an ownership
    /// error when this switch is inlined into a loop over borrowed results (`ReportModel.init`).
    @inline(never)
    public var verdict: Verdict {
        switch self {
        case .passed: .passed
        case .failed: .failed
        case .error: .error
        case .notVerified: .notVerified
        case .undefined: .undefined
        }
    }

    /// Why the test case did not pass; `nil` for a pass.
    public var message: String? {
        switch self {
        case .passed: nil
        case .failed(let message), .error(let message, _), .notVerified(let message, _), .undefined(let message): message
        }
    }

    /// The fault behind an `error`, when there is one; `nil` for every other outcome.
    public var fault: RunFault? {
        if case .error(_, let fault) = self { return fault }
        return nil
    }

    /// Why the test case is `notVerified`, when it is; `nil` for every other outcome.
    public var notVerifiedReason: NotVerifiedReason? {
        if case .notVerified(_, let reason) = self { return reason }
        return nil
    }

    /// The same outcome with another message; a pass, which has none, stays as it is.
    public func replacingMessage(_ message: String?) -> TestCaseOutcome {
        switch self {
        case .passed: .passed
        case .failed: .failed(message: message)
        case .error(_, let fault): .error(message: message, fault: fault)
        case .notVerified(_, let reason): .notVerified(message: message, reason: reason)
        case .undefined: .undefined(message: message)
        }
    }
}
