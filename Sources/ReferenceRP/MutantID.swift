import ConformanceModel

/// A mutant's stable name (`double-request`), as `selftest` and the adapter's name show it.
/// Written as the plain string; never interchangeable with a criterion's or a verify item's id.
package struct MutantID: StringIdentifier {
    /// The name as written.
    package let rawValue: String

    /// A name from text already known to be well formed.
    package init(rawValue: String) { self.rawValue = rawValue }
}
