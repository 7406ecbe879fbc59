// Deterministic node ids.

/// Hands out the ids of AST nodes and pickles: `"0"`, `"1"`, `"2"`, … in creation order.
///
/// The reference implementations use one counter for a document and its pickles, so pickle ids
/// continue where the document's ids stop; pass the same generator to the parser and the compiler
/// to get that (``PickleCompiler/compile(_:uri:)`` does it for you).
public struct IDGenerator: Sendable, Hashable {
    /// The next id to hand out.
    public private(set) var next: Int

    /// Creates a generator whose first id is `start`.
    public init(startingAt start: Int = 0) { next = start }

    /// Returns the next id.
    public mutating func make() -> String {
        defer { next += 1 }
        return String(next)
    }
}
