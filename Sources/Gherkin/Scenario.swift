// The AST below the feature: rules, backgrounds, scenarios and their examples.

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
