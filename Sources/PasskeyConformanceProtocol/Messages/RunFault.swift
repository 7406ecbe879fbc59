/// A fault of the adapter or its transport, as a typed value for the reports.
public struct RunFault: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The fault's kind, e.g. `process-exited`, `timeout`, `launch-failed` (the adapter protocol's
    /// fault kinds), or `harness` for a fault of the harness itself.
    public var kind: String
    /// What happened, for a human.
    public var message: String
    /// The method of the call that failed, when one did.
    public var method: String?
    /// The offending bytes or the tail of the adapter's standard error, when there is one.
    public var excerpt: String?

    /// Creates a fault.
    public init(kind: String, message: String, method: String? = nil, excerpt: String? = nil) {
        self.kind = kind
        self.message = message
        self.method = method
        self.excerpt = excerpt
    }

    /// `<kind> in <method>: <message> [<excerpt>]`, leaving out the parts that are absent.
    public var description: String {
        var text = kind
        if let method { text += " in \(method)" }
        text += ": \(message)"
        if let excerpt, !excerpt.isEmpty { text += " [\(excerpt)]" }
        return text
    }
}
