// The AST of steps and their arguments.

/// The grammatical role of a step keyword.
public enum StepKeywordType: String, Codable, Sendable, Hashable, CaseIterable {
    /// `Given`: sets up context.
    case context = "Context"
    /// `When`: performs the action.
    case action = "Action"
    /// `Then`: checks the outcome.
    case outcome = "Outcome"
    /// `And`, `But`: continues the previous step's role.
    case conjunction = "Conjunction"
    /// A keyword with several roles, such as `*`.
    case unknown = "Unknown"
}

/// A step: a keyword, its text, and an optional data table and/or doc string.
public struct Step: Codable, Sendable, Hashable {
    /// The node id.
    public var id: String
    /// Where the keyword is.
    public var location: Location
    /// The keyword as written, including its trailing space where the dialect has one (`Given `).
    public var keyword: String
    /// The role of the keyword.
    public var keywordType: StepKeywordType
    /// The text after the keyword, trimmed.
    public var text: String
    /// The doc string argument, if any.
    public var docString: DocString?
    /// The data table argument, if any.
    public var dataTable: DataTable?

    /// Creates a step.
    public init(
        id: String, location: Location, keyword: String, keywordType: StepKeywordType, text: String,
        docString: DocString? = nil, dataTable: DataTable? = nil
    ) {
        self.id = id
        self.location = location
        self.keyword = keyword
        self.keywordType = keywordType
        self.text = text
        self.docString = docString
        self.dataTable = dataTable
    }
}

/// A data table argument of a step.
public struct DataTable: Codable, Sendable, Hashable {
    /// Where the first row is.
    public var location: Location
    /// The rows; every row has the same number of cells.
    public var rows: [TableRow]

    /// Creates a data table.
    public init(location: Location, rows: [TableRow]) {
        self.location = location
        self.rows = rows
    }
}

/// A `| a | b |` row of a data table or examples table.
public struct TableRow: Codable, Sendable, Hashable {
    /// The node id.
    public var id: String
    /// Where the first `|` is.
    public var location: Location
    /// The cells between the pipes.
    public var cells: [TableCell]

    /// Creates a row.
    public init(id: String, location: Location, cells: [TableCell]) {
        self.id = id
        self.location = location
        self.cells = cells
    }
}

/// One cell of a table row, unescaped (`\|` → `|`, `\\` → `\`, `\n` → newline) and trimmed.
public struct TableCell: Codable, Sendable, Hashable {
    /// Where the cell's first non-blank character is.
    public var location: Location
    /// The unescaped, trimmed value.
    public var value: String

    /// Creates a cell.
    public init(location: Location, value: String) {
        self.location = location
        self.value = value
    }
}

/// A doc string argument of a step: a block of text between `"""` or ```` ``` ```` delimiters.
public struct DocString: Codable, Sendable, Hashable {
    /// Where the opening delimiter is.
    public var location: Location
    /// The text after the opening delimiter (`json`, `xml`, …), or `nil`.
    public var mediaType: String?
    /// The lines between the delimiters, de-indented by the delimiter's indentation, joined with `\n`.
    public var content: String
    /// The delimiter as written (`"""`, ```` ``` ````, or ```` ```` ```` in Markdown).
    public var delimiter: String

    /// Creates a doc string.
    public init(location: Location, mediaType: String? = nil, content: String, delimiter: String = "\"\"\"") {
        self.location = location
        self.mediaType = mediaType
        self.content = content
        self.delimiter = delimiter
    }
}
