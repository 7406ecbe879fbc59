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
        return next < Self.cacheSize ? Self.cached[next] : Self.decimal(next)
    }

    private static let cacheSize = 4096
    /// The first ids, formatted once: a document rarely needs more.
    private static let cached: [String] = (0..<cacheSize).map(decimal)

    /// `n` in decimal, without the generic formatting machinery.
    static func decimal(_ n: Int) -> String {
        guard n >= 0 && n < 10_000_000_000_000 else { return String(n) }
        return String(unsafeUninitializedCapacity: 14) { buffer in
            var digits = 1
            var rest = n / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            var value = n
            for index in stride(from: digits - 1, through: 0, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            return digits
        }
    }
}
