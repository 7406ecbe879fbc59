// Pickles: the executable form of a scenario, one per scenario or example row.

/// One executable test case compiled from a scenario, or from one example row of an outline.
public struct Pickle: Codable, Sendable, Hashable {
    /// The pickle id (continues the id sequence of the document it came from).
    public var id: String
    /// The URI of the source file.
    public var uri: String
    /// Where the scenario is, or for an outline the example row.
    public var location: Location
    /// The scenario name, with `<placeholders>` replaced for an example row.
    public var name: String
    /// The dialect code of the feature.
    public var language: String
    /// Background steps followed by the scenario's steps.
    public var steps: [PickleStep]
    /// The feature's, rule's, scenario's and examples' tags, in that order.
    public var tags: [PickleTag]
    /// The scenario id, and for an outline the example row id.
    public var astNodeIds: [String]

    /// Creates a pickle.
    public init(
        id: String, uri: String, location: Location, name: String, language: String,
        steps: [PickleStep], tags: [PickleTag], astNodeIds: [String]
    ) {
        self.id = id
        self.uri = uri
        self.location = location
        self.name = name
        self.language = language
        self.steps = steps
        self.tags = tags
        self.astNodeIds = astNodeIds
    }
}

/// The role of a pickle step, with conjunctions resolved to the role of the step before.
public enum PickleStepType: String, Codable, Sendable, Hashable, CaseIterable {
    /// Sets up context (`Given`).
    case context = "Context"
    /// Performs the action (`When`).
    case action = "Action"
    /// Checks the outcome (`Then`).
    case outcome = "Outcome"
    /// No known role (`*`, or a conjunction with no known step before it).
    case unknown = "Unknown"
}

/// One step of a pickle.
public struct PickleStep: Codable, Sendable, Hashable {
    /// The pickle step id.
    public var id: String
    /// The step text, with `<placeholders>` replaced.
    public var text: String
    /// The resolved role.
    public var type: PickleStepType
    /// The doc string and/or data table, with `<placeholders>` replaced; `nil` if the step has neither.
    public var argument: PickleStepArgument?
    /// The step id, and for an outline the example row id.
    public var astNodeIds: [String]

    /// Creates a pickle step.
    public init(id: String, text: String, type: PickleStepType, argument: PickleStepArgument? = nil, astNodeIds: [String]) {
        self.id = id
        self.text = text
        self.type = type
        self.argument = argument
        self.astNodeIds = astNodeIds
    }
}

/// The argument of a pickle step: a doc string, a data table, or both.
public struct PickleStepArgument: Codable, Sendable, Hashable {
    /// The doc string, if any.
    public var docString: PickleDocString?
    /// The data table, if any.
    public var dataTable: PickleTable?

    /// Creates an argument.
    public init(docString: PickleDocString? = nil, dataTable: PickleTable? = nil) {
        self.docString = docString
        self.dataTable = dataTable
    }
}

/// A doc string argument of a pickle step.
public struct PickleDocString: Codable, Sendable, Hashable {
    /// The media type, if the doc string had one.
    public var mediaType: String?
    /// The content.
    public var content: String
    /// 1 or 2 when the step has both a doc string and a data table: its position among the two.
    public var argumentIndex: Int?

    /// Creates a doc string argument.
    public init(mediaType: String? = nil, content: String, argumentIndex: Int? = nil) {
        self.mediaType = mediaType
        self.content = content
        self.argumentIndex = argumentIndex
    }
}

/// A data table argument of a pickle step.
public struct PickleTable: Codable, Sendable, Hashable {
    /// The rows.
    public var rows: [PickleTableRow]
    /// 1 or 2 when the step has both a doc string and a data table: its position among the two.
    public var argumentIndex: Int?

    /// Creates a table argument.
    public init(rows: [PickleTableRow], argumentIndex: Int? = nil) {
        self.rows = rows
        self.argumentIndex = argumentIndex
    }
}

/// A row of a pickle data table.
public struct PickleTableRow: Codable, Sendable, Hashable {
    /// The cells.
    public var cells: [PickleTableCell]

    /// Creates a row.
    public init(cells: [PickleTableCell]) { self.cells = cells }
}

/// A cell of a pickle data table.
public struct PickleTableCell: Codable, Sendable, Hashable {
    /// The value, with `<placeholders>` replaced.
    public var value: String

    /// Creates a cell.
    public init(value: String) { self.value = value }
}

/// A tag of a pickle, inherited from the feature, rule, scenario or examples block.
public struct PickleTag: Codable, Sendable, Hashable {
    /// The tag including its `@`.
    public var name: String
    /// The id of the tag node in the document.
    public var astNodeId: String

    /// Creates a pickle tag.
    public init(name: String, astNodeId: String) {
        self.name = name
        self.astNodeId = astNodeId
    }
}
