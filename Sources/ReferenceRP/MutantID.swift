import ConformanceModel

/// A mutant's stable name (`double-request`), as `selftest` and the adapter's name show it.
/// Written as the plain string; never interchangeable with a criterion's or a verify item's id.
public struct MutantID: StringIdentifier {
    /// The name as written.
    public let rawValue: String

    /// A name from text already known to be well formed.
    public init(rawValue: String) { self.rawValue = rawValue }
}
