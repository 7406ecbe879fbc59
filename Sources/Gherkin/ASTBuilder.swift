// Building the typed AST from the parser's rule events and tokens.

/// Receives the parser's events (a rule starts, a token is consumed, a rule ends) and builds
/// the ``GherkinDocument``.
///
/// Each rule being parsed has a ``Node`` on a stack. A token goes to the node on top; when a rule
/// ends, its node becomes an AST value handed to the node below, or, for the rules that only
/// group (headers, `Scenario` inside `ScenarioDefinition`, `Tags`), its parts are merged into it.
/// Ids are taken when a node is completed, so children get theirs before their parents, and tags
/// theirs when their owner completes: the reference's numbering.
struct ASTBuilder {
    /// What has been gathered for one rule. Where the grammar allows one child of a kind, the
    /// first is kept. (A class: nodes are pushed and popped for every step, and moving large
    /// structs in and out of the stack costs more than the allocation.)
    final class Node {
        let rule: RuleType
        /// The keyword line (feature, rule, background, scenario, examples, step) or the opening
        /// doc string delimiter.
        var line: Token?
        /// Description or doc string lines.
        var texts: [String] = []
        var rowTokens: [Token] = []
        var tagTokens: [Token] = []
        var hasTags = false
        var description: String?
        var steps: [Step] = []
        var examples: [Examples] = []
        var rows: [TableRow]?
        var docString: DocString?
        var dataTable: DataTable?
        var background: Background?
        var scenarios: [Scenario] = []
        var rules: [Rule] = []

        init(rule: RuleType) { self.rule = rule }
    }

    var ids: IDGenerator
    private var stack: [Node] = [Node(rule: .none)]
    private var feature: Feature?
    private var hasFeature = false
    /// The document, once the `GherkinDocument` rule has ended.
    private(set) var document: GherkinDocument?
    private(set) var comments: [Comment] = []
    /// Every token built, when recording for the token format.
    private(set) var builtTokens: [Token] = []
    let recordsTokens: Bool

    init(ids: IDGenerator, recordsTokens: Bool = false) {
        self.ids = ids
        self.recordsTokens = recordsTokens
        stack.reserveCapacity(12)
    }

    mutating func startRule(_ rule: RuleType) {
        stack.append(Node(rule: rule))
    }

    mutating func build(_ token: Token) {
        if recordsTokens { builtTokens.append(token) }
        let top = stack[stack.count - 1]
        switch token.type {
        case .comment:
            comments.append(Comment(location: token.location, text: token.text ?? ""))
        case .featureLine, .ruleLine, .backgroundLine, .scenarioLine, .examplesLine, .stepLine, .docStringSeparator:
            if top.line == nil { top.line = token }
        case .other:
            top.texts.append(token.text ?? "")
        case .tableRow:
            top.rowTokens.append(token)
        case .tagLine:
            top.tagTokens.append(token)
        case .none, .eof, .empty, .language:
            break
        }
    }

    // MARK: Completing rules

    mutating func endRule() throws(GherkinError) {
        guard stack.count > 1 else { return }
        let node = stack.removeLast()
        let top = stack[stack.count - 1]
        switch node.rule {
        case .tags:
            if !top.hasTags {
                top.hasTags = true
                top.tagTokens = node.tagTokens
            }
        case .featureHeader, .ruleHeader, .scenario, .examples:
            // Grouping rules: their parts belong to the rule around them.
            top.line = node.line
            top.description = node.description
            if node.hasTags {
                top.hasTags = true
                top.tagTokens = node.tagTokens
            }
            top.steps = node.steps
            top.examples = node.examples
            top.rows = node.rows
        case .description:
            guard top.description == nil else { return }
            var lines = node.texts
            while let last = lines.last, last.isEmpty { lines.removeLast() }
            top.description = lines.joined(separator: "\n")
        case .docString:
            guard let separator = node.line, top.docString == nil else { return }
            let mediaType = separator.text.flatMap { $0.isEmpty ? nil : $0 }
            top.docString = DocString(
                location: separator.location, mediaType: mediaType, content: node.texts.joined(separator: "\n"),
                delimiter: separator.keyword ?? "\"\"\"")
        case .dataTable:
            let rows = try tableRows(node.rowTokens)
            guard let first = rows.first, top.dataTable == nil else { return }
            top.dataTable = DataTable(location: first.location, rows: rows)
        case .examplesTable:
            let rows = try tableRows(node.rowTokens)
            if top.rows == nil { top.rows = rows }
        case .step:
            guard let line = node.line else { return }
            top.steps.append(
                Step(
                    id: ids.make(), location: line.location, keyword: line.keyword ?? "", keywordType: line.keywordType,
                    text: line.text ?? "", docString: node.docString, dataTable: node.dataTable))
        case .background:
            guard let line = node.line, top.background == nil else { return }
            top.background = Background(
                id: ids.make(), location: line.location, keyword: line.keyword ?? "", name: line.text ?? "",
                description: node.description ?? "", steps: node.steps)
        case .scenarioDefinition:
            let tags = tags(node.tagTokens)
            guard let line = node.line else { return }
            top.scenarios.append(
                Scenario(
                    id: ids.make(), location: line.location, tags: tags, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: node.description ?? "", steps: node.steps,
                    examples: node.examples))
        case .examplesDefinition:
            let tags = tags(node.tagTokens)
            guard let line = node.line else { return }
            let rows = node.rows ?? []
            top.examples.append(
                Examples(
                    id: ids.make(), location: line.location, tags: tags, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: node.description ?? "", tableHeader: rows.first,
                    tableBody: Array(rows.dropFirst())))
        case .rule:
            let tags = tags(node.tagTokens)
            guard let line = node.line else { return }
            var children: [RuleChild] = []
            children.reserveCapacity(node.scenarios.count + 1)
            if let background = node.background { children.append(.background(background)) }
            for scenario in node.scenarios { children.append(.scenario(scenario)) }
            top.rules.append(
                Rule(
                    id: ids.make(), location: line.location, tags: tags, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: node.description ?? "", children: children))
        case .feature:
            guard !hasFeature else { return }
            hasFeature = true
            let tags = tags(node.tagTokens)
            guard let line = node.line else { return }
            var children: [FeatureChild] = []
            children.reserveCapacity(node.scenarios.count + node.rules.count + 1)
            if let background = node.background { children.append(.background(background)) }
            for scenario in node.scenarios { children.append(.scenario(scenario)) }
            for rule in node.rules { children.append(.rule(rule)) }
            feature = Feature(
                location: line.location, tags: tags, language: line.dialect, keyword: line.keyword ?? "",
                name: line.text ?? "", description: node.description ?? "", children: children)
        case .gherkinDocument:
            if document == nil { document = GherkinDocument(feature: feature, comments: comments) }
        case .none, .stepArg, .dataTableAndMaybeDocString, .docStringAndMaybeDataTable, .descriptionHelper:
            break
        }
    }

    private mutating func tags(_ tokens: [Token]) -> [Tag] {
        var tags: [Tag] = []
        for token in tokens {
            for item in token.items {
                tags.append(
                    Tag(location: Location(line: token.lineNumber, column: item.column), name: item.text, id: ids.make()))
            }
        }
        return tags
    }

    private mutating func tableRows(_ tokens: [Token]) throws(GherkinError) -> [TableRow] {
        var rows: [TableRow] = []
        rows.reserveCapacity(tokens.count)
        for token in tokens {
            let cells = token.items.map {
                TableCell(location: Location(line: token.lineNumber, column: $0.column), value: $0.text)
            }
            rows.append(TableRow(id: ids.make(), location: token.location, cells: cells))
        }
        if let count = rows.first?.cells.count {
            for row in rows where row.cells.count != count {
                throw GherkinError(
                    message: "inconsistent cell count within the table", location: row.location,
                    kind: .inconsistentCellCount)
            }
        }
        return rows
    }
}
