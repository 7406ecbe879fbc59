/// One criterion filter as given on the command line: a criterion's id (`N2.6-AC01`) or a group
/// (`N3.2`). It selects the criterion of that id, every criterion whose id continues it after a
/// hyphen, and every criterion of that group. Written as the plain string.
public struct CriterionSelector: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id or group as given.
    public let text: String

    /// A selector for an id or group.
    public init(_ text: String) { self.text = text }
    /// A selector of exactly one criterion and those whose id continues it after a hyphen.
    public init(_ id: CriterionID) { self.text = id.rawValue }
    /// A selector written as a literal (`"N3.2"`).
    public init(stringLiteral text: String) { self.text = text }

    /// Whether the criterion with `id`, in `group` when known, is selected.
    public func selects(_ id: CriterionID, group: String? = nil) -> Bool {
        id.rawValue == text || id.rawValue.hasPrefix(text + "-") || group == text
    }

    /// The id or group as given.
    public var description: String { text }

    /// Reads the plain string.
    public init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }
    /// Writes the plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// Which criteria a run covers: all of them, those some selector selects, or none at all (every
/// criterion asked for lies beyond the run's level).
public enum CriterionSelection: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// Every criterion.
    case all
    /// The criteria at least one of these selectors selects.
    case matching([CriterionSelector])
    /// No criterion: the plan is empty.
    case nothing

    /// Every criterion when `selectors` is empty, otherwise those they select.
    public init(_ selectors: [CriterionSelector]) { self = selectors.isEmpty ? .all : .matching(selectors) }
    /// A selection written as a literal list (`["N2.6-AC01", "N3.2"]`); empty selects every criterion.
    public init(arrayLiteral selectors: CriterionSelector...) { self.init(selectors) }

    /// Whether the criterion with `id`, in `group` when known, is covered.
    public func selects(_ id: CriterionID, group: String? = nil) -> Bool {
        switch self {
        case .all: true
        case .matching(let selectors): selectors.contains { $0.selects(id, group: group) }
        case .nothing: false
        }
    }
}
