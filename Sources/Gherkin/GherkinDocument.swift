// The abstract syntax tree of a Gherkin document: the typed result of the parser.

/// A position in a source file: a 1-based line and, where it is known, a 1-based column.
///
/// Columns count Unicode scalars (code points), so a tab or an emoji is one column. The end of
/// a file has a line but no column.
public struct Location: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column in Unicode scalars, or `nil` where only the line is known (end of file).
    public var column: Int?

    /// Creates a location.
    public init(line: Int, column: Int? = nil) {
        self.line = line
        self.column = column
    }

    /// Orders by line, then by column (a missing column sorts first).
    public static func < (lhs: Location, rhs: Location) -> Bool {
        if lhs.line != rhs.line { return lhs.line < rhs.line }
        return (lhs.column ?? 0) < (rhs.column ?? 0)
    }

    /// `line:column`, with column 0 when it is unknown (the reference message format).
    public var description: String { "\(line):\(column ?? 0)" }
}

/// A parsed `.feature` (or `.feature.md`) file: an optional feature and every comment.
public struct GherkinDocument: Codable, Sendable, Hashable {
    /// The source's URI (a path), as given to the parser.
    public var uri: String?
    /// The feature, or `nil` for a file without one (empty, or comments only).
    public var feature: Feature?
    /// Every `#` comment line of the file, in order.
    public var comments: [Comment]

    /// Creates a document.
    public init(uri: String? = nil, feature: Feature? = nil, comments: [Comment] = []) {
        self.uri = uri
        self.feature = feature
        self.comments = comments
    }
}

/// A `#` comment line.
public struct Comment: Codable, Sendable, Hashable {
    /// Where the line is (column 1: the text keeps its indentation).
    public var location: Location
    /// The whole line, including leading whitespace and the `#`.
    public var text: String

    /// Creates a comment.
    public init(location: Location, text: String) {
        self.location = location
        self.text = text
    }
}

/// A tag such as `@smoke`, on a feature, rule, scenario or examples block.
public struct Tag: Codable, Sendable, Hashable {
    /// Where the `@` is.
    public var location: Location
    /// The tag including its `@`.
    public var name: String
    /// The node id, unique within one parse.
    public var id: String

    /// Creates a tag.
    public init(location: Location, name: String, id: String) {
        self.location = location
        self.name = name
        self.id = id
    }
}

/// A `Feature:` with its header, description and children.
public struct Feature: Codable, Sendable, Hashable {
    /// Where the keyword is.
    public var location: Location
    /// Tags on the lines before the keyword.
    public var tags: [Tag]
    /// The dialect code the file is written in (`en`, `fr`, …).
    public var language: String
    /// The keyword as written (`Feature`, `Fonctionnalité`, …), without the colon.
    ///
    /// Empty only for a Markdown document whose first line is not a `# Feature:` heading: the
    /// reference implementations then take that line as the feature's name and give no keyword,
    /// and the NDJSON form leaves the `keyword` field out.
    public var keyword: String
    /// The text after the keyword's colon, trimmed.
    public var name: String
    /// The free text below the header, lines joined with `\n`, trailing blank lines dropped.
    public var description: String
    /// The background, scenarios and rules, in source order.
    public var children: [FeatureChild]

    /// Creates a feature.
    public init(
        location: Location, tags: [Tag] = [], language: String = "en", keyword: String = "Feature",
        name: String, description: String = "", children: [FeatureChild] = []
    ) {
        self.location = location
        self.tags = tags
        self.language = language
        self.keyword = keyword
        self.name = name
        self.description = description
        self.children = children
    }

    enum CodingKeys: String, CodingKey {
        case location, tags, language, keyword, name, description, children
    }

    /// Decodes a feature; a missing `keyword` becomes the empty string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        location = try c.decode(Location.self, forKey: .location)
        tags = try c.decode([Tag].self, forKey: .tags)
        language = try c.decode(String.self, forKey: .language)
        keyword = try c.decodeIfPresent(String.self, forKey: .keyword) ?? ""
        name = try c.decode(String.self, forKey: .name)
        description = try c.decode(String.self, forKey: .description)
        children = try c.decode([FeatureChild].self, forKey: .children)
    }

    /// Encodes a feature; an empty `keyword` is left out, as the reference does.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(location, forKey: .location)
        try c.encode(tags, forKey: .tags)
        try c.encode(language, forKey: .language)
        if !keyword.isEmpty { try c.encode(keyword, forKey: .keyword) }
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        try c.encode(children, forKey: .children)
    }

    /// The feature's scenarios, including those inside rules, in source order.
    public var allScenarios: [Scenario] {
        children.flatMap { child -> [Scenario] in
            switch child {
            case .background: []
            case .scenario(let scenario): [scenario]
            case .rule(let rule): rule.children.compactMap(\.scenario)
            }
        }
    }
}

/// One child of a feature.
public enum FeatureChild: Codable, Sendable, Hashable {
    /// The feature's `Background:`.
    case background(Background)
    /// A `Scenario:` or `Scenario Outline:`.
    case scenario(Scenario)
    /// A `Rule:` grouping scenarios.
    case rule(Rule)

    enum CodingKeys: String, CodingKey { case background, scenario, rule }

    /// Decodes the single-key object form (`{"scenario": {...}}`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let value = try c.decodeIfPresent(Background.self, forKey: .background) {
            self = .background(value)
        } else if let value = try c.decodeIfPresent(Scenario.self, forKey: .scenario) {
            self = .scenario(value)
        } else {
            self = .rule(try c.decode(Rule.self, forKey: .rule))
        }
    }

    /// Encodes the single-key object form (`{"scenario": {...}}`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .background(let value): try c.encode(value, forKey: .background)
        case .scenario(let value): try c.encode(value, forKey: .scenario)
        case .rule(let value): try c.encode(value, forKey: .rule)
        }
    }
}

/// A `Rule:`: a business rule grouping a background and scenarios.
public struct Rule: Codable, Sendable, Hashable {
    /// The node id.
    public var id: String
    /// Where the keyword is.
    public var location: Location
    /// Tags on the lines before the keyword.
    public var tags: [Tag]
    /// The keyword as written.
    public var keyword: String
    /// The text after the keyword's colon, trimmed.
    public var name: String
    /// The free text below the header.
    public var description: String
    /// The background and scenarios, in source order.
    public var children: [RuleChild]

    /// Creates a rule.
    public init(
        id: String, location: Location, tags: [Tag] = [], keyword: String = "Rule", name: String,
        description: String = "", children: [RuleChild] = []
    ) {
        self.id = id
        self.location = location
        self.tags = tags
        self.keyword = keyword
        self.name = name
        self.description = description
        self.children = children
    }
}

/// One child of a rule.
public enum RuleChild: Codable, Sendable, Hashable {
    /// The rule's `Background:`.
    case background(Background)
    /// A `Scenario:` or `Scenario Outline:`.
    case scenario(Scenario)

    enum CodingKeys: String, CodingKey { case background, scenario }

    /// The scenario, if this child is one.
    public var scenario: Scenario? {
        if case .scenario(let scenario) = self { scenario } else { nil }
    }

    /// Decodes the single-key object form.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let value = try c.decodeIfPresent(Background.self, forKey: .background) {
            self = .background(value)
        } else {
            self = .scenario(try c.decode(Scenario.self, forKey: .scenario))
        }
    }

    /// Encodes the single-key object form.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .background(let value): try c.encode(value, forKey: .background)
        case .scenario(let value): try c.encode(value, forKey: .scenario)
        }
    }
}

/// A `Background:`: steps run before every scenario of its feature or rule.
public struct Background: Codable, Sendable, Hashable {
    /// The node id.
    public var id: String
    /// Where the keyword is.
    public var location: Location
    /// The keyword as written.
    public var keyword: String
    /// The text after the keyword's colon, trimmed.
    public var name: String
    /// The free text below the header.
    public var description: String
    /// The steps.
    public var steps: [Step]

    /// Creates a background.
    public init(
        id: String, location: Location, keyword: String = "Background", name: String = "",
        description: String = "", steps: [Step] = []
    ) {
        self.id = id
        self.location = location
        self.keyword = keyword
        self.name = name
        self.description = description
        self.steps = steps
    }
}

/// A `Scenario:`; with `examples` it is a scenario outline, run once per example row.
public struct Scenario: Codable, Sendable, Hashable {
    /// The node id.
    public var id: String
    /// Where the keyword is.
    public var location: Location
    /// Tags on the lines before the keyword.
    public var tags: [Tag]
    /// The keyword as written (`Scenario`, `Example`, `Scenario Outline`, …).
    public var keyword: String
    /// The text after the keyword's colon, trimmed; may contain `<placeholders>`.
    public var name: String
    /// The free text below the header.
    public var description: String
    /// The steps.
    public var steps: [Step]
    /// The `Examples:` blocks (empty for a plain scenario).
    public var examples: [Examples]

    /// Creates a scenario.
    public init(
        id: String, location: Location, tags: [Tag] = [], keyword: String = "Scenario",
        name: String, description: String = "", steps: [Step] = [], examples: [Examples] = []
    ) {
        self.id = id
        self.location = location
        self.tags = tags
        self.keyword = keyword
        self.name = name
        self.description = description
        self.steps = steps
        self.examples = examples
    }
}

/// An `Examples:` block of a scenario outline: a header row naming the placeholders and one row per run.
public struct Examples: Codable, Sendable, Hashable {
    /// The node id.
    public var id: String
    /// Where the keyword is.
    public var location: Location
    /// Tags on the lines before the keyword.
    public var tags: [Tag]
    /// The keyword as written.
    public var keyword: String
    /// The text after the keyword's colon, trimmed.
    public var name: String
    /// The free text below the header.
    public var description: String
    /// The first row (the placeholder names), or `nil` for a block without a table.
    public var tableHeader: TableRow?
    /// The value rows.
    public var tableBody: [TableRow]

    /// Creates an examples block.
    public init(
        id: String, location: Location, tags: [Tag] = [], keyword: String = "Examples",
        name: String = "", description: String = "", tableHeader: TableRow? = nil,
        tableBody: [TableRow] = []
    ) {
        self.id = id
        self.location = location
        self.tags = tags
        self.keyword = keyword
        self.name = name
        self.description = description
        self.tableHeader = tableHeader
        self.tableBody = tableBody
    }
}

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
