import ConformanceModel

/// A fault of an adapter or of its transport: the harness could not get a valid answer.
///
/// Thrown from every `JSONRPCAdapter` and `JSONRPCSession` call that could not be completed. It is a
/// system issue, never a verdict on the relying party: the runner records the test case as `error`
/// and goes on with the next one (the adapter process is restarted if it had to be stopped).
package struct AdapterFault: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong: one of the adapter protocol's kinds of `RunFault.Kind` (`isAdapterFault`),
    /// declared once there for the faults and the reports alike.
    package typealias Kind = RunFault.Kind

    /// What went wrong.
    package var kind: Kind
    /// What happened, for a human.
    package var message: String
    /// The method of the call that failed, when one did.
    package var method: String?
    /// The offending bytes (escaped, at most 200 of them) or the tail of the adapter's standard error.
    package var excerpt: String?

    /// Creates a fault of a kind with a message, optionally naming the failed call and an excerpt.
    package init(_ kind: Kind, _ message: String, method: String? = nil, excerpt: String? = nil) {
        self.kind = kind
        self.message = message
        self.method = method
        self.excerpt = excerpt
    }

    /// `adapter fault (<kind>) in <method>: <message> [<excerpt>]`, leaving out the parts that are absent.
    package var description: String {
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
