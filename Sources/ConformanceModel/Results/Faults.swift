/// A fault that stops a test case with the verdict `error`: the adapter, the transport or the
/// harness failed, or a step was used in a way its definition cannot serve (an authoring defect).
public struct SystemIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for the report.
    public var message: String
    /// Creates an issue with a message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// What the relying party did that stops a step from going on (it started hundreds of platform
/// operations in one step, its timers ran away): the test case *fails* with this message and the
/// transcript as evidence, because the RP, not the harness, broke it.
public struct RelyingPartyFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the relying party did, for the report.
    public var message: String
    /// Creates a failure with a message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
