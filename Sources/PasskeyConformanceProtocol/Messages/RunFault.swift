/// A fault of the adapter or its transport, as a typed value for the reports.
public struct RunFault: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The fault's kind: one of the adapter protocol's (`process-exited`, `timeout`, …) or one of
    /// the harness's own (`harness`, `criteria`, …).
    public var kind: Kind
    /// What happened, for a human.
    public var message: String
    /// The method of the call that failed, when one did.
    public var method: String?
    /// The offending bytes or the tail of the adapter's standard error, when there is one.
    public var excerpt: String?

    /// Creates a fault.
    public init(kind: Kind, message: String, method: String? = nil, excerpt: String? = nil) {
        self.kind = kind
        self.message = message
        self.method = method
        self.excerpt = excerpt
    }

    /// `<kind> in <method>: <message> [<excerpt>]`, leaving out the parts that are absent.
    public var description: String {
        var text = kind.rawValue
        if let method { text += " in \(method)" }
        text += ": \(message)"
        if let excerpt, !excerpt.isEmpty { text += " [\(excerpt)]" }
        return text
    }
}

extension RunFault {
    /// What kind of fault stopped a test case or a run; written as its raw value (`process-exited`).
    public enum Kind: String, Sendable, Codable, Hashable, CaseIterable, CustomStringConvertible {
        /// The adapter command could not be started.
        case launchFailed = "launch-failed"
        /// The adapter process exited (or closed its standard output).
        case processExited = "process-exited"
        /// No answer within the per-call time-out.
        case timeout
        /// The test case's time budget ran out.
        case testCaseTimeout = "test-case-timeout"
        /// A line that is not JSON.
        case malformedMessage = "malformed-message"
        /// The output ended in the middle of a line.
        case truncatedMessage = "truncated-message"
        /// A line longer than the limit.
        case oversizedMessage = "oversized-message"
        /// More adapter-initiated messages per second than the limit.
        case flood
        /// An answer to an id the harness never sent, or already had an answer to.
        case unknownResponseID = "unknown-response-id"
        /// The adapter speaks another major version of the protocol.
        case versionMismatch = "version-mismatch"
        /// A well-framed message that breaks the protocol.
        case protocolViolation = "protocol-violation"
        /// The adapter answered a call with an error (the relying party or adapter failed).
        case adapterError = "adapter-error"
        /// The session's process was stopped or shut down earlier.
        case connectionClosed = "connection-closed"
        /// The harness itself failed (the platform backend could not start, a command's own fault).
        case harness
        /// A step was used in a way its definition cannot serve, or the harness found an issue in a run.
        case systemIssue = "system-issue"
        /// The relying party flooded the transcript beyond the in-process budget of interactions.
        case interactionBudget = "interaction-budget"
        /// The criteria did not load.
        case criteria

        /// The raw value, as reports write it.
        public var description: String { rawValue }

        /// Whether the kind is one of the adapter protocol's (a fault of the adapter or its
        /// transport, `AdapterFault`'s kinds) rather than the harness's own.
        public var isAdapterFault: Bool {
            switch self {
            case .harness, .systemIssue, .interactionBudget, .criteria: false
            default: true
            }
        }

        /// The adapter protocol's fault kinds, in declaration order.
        public static var adapterKinds: [Kind] { allCases.filter(\.isAdapterFault) }
    }
}
