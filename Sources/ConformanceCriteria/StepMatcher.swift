import ConformanceModel

/// What the criteria loader needs of a step library: whether a step's text names exactly one step
/// definition, with arguments that definition accepts. The loader checks every step of every
/// criterion file against it, without depending on the steps themselves.
public protocol StepMatcher: Sendable {
    /// How `text` fares against the step definitions.
    func check(_ text: String) -> StepCheck
    /// The account aliases the step of `text` creates and those it needs to exist.
    func accounts(_ text: String) -> StepAccounts
}

extension StepMatcher {
    /// A matcher that knows nothing of accounts: no step creates or needs one.
    public func accounts(_ text: String) -> StepAccounts { StepAccounts() }
}

/// The account aliases one step creates and needs.
public struct StepAccounts: Sendable, Hashable {
    /// Aliases of the accounts the step creates.
    public var creates: [String]
    /// Aliases of the accounts that must exist before the step.
    public var uses: [String]
    /// Creates the lists (empty by default).
    public init(creates: [String] = [], uses: [String] = []) {
        self.creates = creates
        self.uses = uses
    }
}

/// The outcome of checking one step's text against the step definitions.
public enum StepCheck: Sendable, Hashable {
    /// Exactly one definition matches, and it accepts the arguments.
    case defined
    /// Exactly one definition matches, and it cannot serve these arguments: why.
    case invalidArguments(String)
    /// No definition matches.
    case undefined
    /// Several definitions match; the sources of their patterns.
    case ambiguous([String])

    /// A step's text for a diagnostic: at most 120 characters, the rest elided with its length.
    public static func excerpt(_ text: String) -> String {
        text.count <= 120 ? text : "\(text.prefix(100))… (\(text.count) characters)"
    }
}
