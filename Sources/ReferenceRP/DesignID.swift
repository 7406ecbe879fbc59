import ConformanceModel

/// A conforming design's stable name (`coalesce-30s`, `random-7-2`), as `selftest` shows it.
/// Written as the plain string; never interchangeable with a mutant's name or a criterion's id.
package struct DesignID: StringIdentifier, ExpressibleByStringInterpolation {
    /// The name as written.
    package let rawValue: String

    /// A name from text already known to be well formed.
    package init(rawValue: String) { self.rawValue = rawValue }
}
