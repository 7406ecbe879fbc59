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
