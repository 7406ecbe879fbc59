// Parse errors: collected values, each with a position, never a crash.

/// A defect in a Gherkin source: the reference message and where it is.
///
/// `description` is the reference implementations' full message, `(line:column): message`, which
/// is also what the NDJSON `parseError.message` field holds.
public struct GherkinError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, without the location prefix (for example
    /// `inconsistent cell count within the table`).
    public var message: String
    /// Where it went wrong; at the end of file the column is `nil`.
    public var location: Location
    /// What kind of defect it is.
    public var kind: Kind

    /// The kinds of defect the parser reports.
    public enum Kind: String, Codable, Sendable, Hashable {
        /// A line that the grammar does not allow here.
        case unexpectedToken
        /// The file ended where the grammar needs more.
        case unexpectedEndOfFile
        /// A `# language:` header naming no known dialect.
        case unknownLanguage
        /// A table whose rows have different numbers of cells.
        case inconsistentCellCount
        /// A tag containing whitespace.
        case invalidTag
    }

    /// Creates an error.
    public init(message: String, location: Location, kind: Kind) {
        self.message = message
        self.location = location
        self.kind = kind
    }

    /// The reference message: `(line:column): message`, column 0 when unknown.
    public var description: String { "(\(location)): \(message)" }
}

/// Every error of one parse, thrown by ``GherkinParser/Result/get()``.
public struct GherkinErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errors in the order they were found.
    public var errors: [GherkinError]

    /// Creates the collection.
    public init(_ errors: [GherkinError]) { self.errors = errors }

    /// One reference message per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
