import ConformanceModel

/// A fault of an adapter or of its transport: the harness could not get a valid answer.
///
/// Thrown from every `JSONRPCAdapter` and `JSONRPCSession` call that could not be completed. It is a
/// system issue, never a verdict on the relying party: the runner records the test case as `error`
/// and goes on with the next one (the adapter process is restarted if it had to be stopped).
public struct AdapterFault: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The adapter command could not be started.
        case launchFailed = "launch-failed"
        /// The adapter process exited (or closed its standard output).
        case processExited = "process-exited"
        /// No answer within the per-call time-out; the process was stopped.
        case timeout
        /// The test case's time budget ran out; the process was stopped if a call was in flight.
        case testCaseTimeout = "test-case-timeout"
        /// A line that is not JSON; the process was stopped.
        case malformedMessage = "malformed-message"
        /// The output ended in the middle of a line; the process was stopped.
        case truncatedMessage = "truncated-message"
        /// A line longer than the limit; the process was stopped.
        case oversizedMessage = "oversized-message"
        /// More adapter-initiated messages per second than the limit; the process was stopped.
        case flood
        /// An answer to an id the harness never sent (or already had an answer to); the process was stopped.
        case unknownResponseID = "unknown-response-id"
        /// The adapter speaks another major version of the protocol; the process was stopped.
        case versionMismatch = "version-mismatch"
        /// A well-framed message that breaks the protocol: an invalid envelope, a result of the wrong
        /// shape, a platform call with invalid params. Envelope violations stop the process; a bad
        /// result or a bad platform call fails only the session concerned.
        case protocolViolation = "protocol-violation"
        /// The adapter answered the call with a JSON-RPC error (the relying party or adapter failed).
        case adapterError = "adapter-error"
        /// The session's process was stopped or shut down earlier; the session cannot go on.
        case connectionClosed = "connection-closed"
    }

    /// What went wrong.
    public var kind: Kind
    /// What happened, for a human.
    public var message: String
    /// The method of the call that failed, when one did.
    public var method: String?
    /// The offending bytes (escaped, at most 200 of them) or the tail of the adapter's standard error.
    public var excerpt: String?

    /// Creates a fault of a kind with a message, optionally naming the failed call and an excerpt.
    public init(_ kind: Kind, _ message: String, method: String? = nil, excerpt: String? = nil) {
        self.kind = kind
        self.message = message
        self.method = method
        self.excerpt = excerpt
    }

    /// `adapter fault (<kind>) in <method>: <message> [<excerpt>]`, leaving out the parts that are absent.
    public var description: String {
        var text = "adapter fault (\(kind.rawValue))"
        if let method { text += " in \(method)" }
        text += ": \(message)"
        if let excerpt, !excerpt.isEmpty { text += " [\(excerpt)]" }
        return text
    }

    /// The same fault, attributed to the call `method`.
    func during(_ method: String) -> AdapterFault {
        var copy = self
        if copy.method == nil { copy.method = method }
        return copy
    }
}

extension AdapterFault.Kind {
    /// The same kind as the reports' fault kind.
    public var runFaultKind: RunFault.Kind {
        switch self {
        case .launchFailed: .launchFailed
        case .processExited: .processExited
        case .timeout: .timeout
        case .testCaseTimeout: .testCaseTimeout
        case .malformedMessage: .malformedMessage
        case .truncatedMessage: .truncatedMessage
        case .oversizedMessage: .oversizedMessage
        case .flood: .flood
        case .unknownResponseID: .unknownResponseID
        case .versionMismatch: .versionMismatch
        case .protocolViolation: .protocolViolation
        case .adapterError: .adapterError
        case .connectionClosed: .connectionClosed
        }
    }
}
