// Building the typed AST from the parser's rule events and tokens.

/// Receives the parser's events (a rule starts, a token is consumed, a rule ends) and builds
/// the ``GherkinDocument``.
///
/// Only the rules that own children have a ``Node`` (feature, rule, background, scenario and
/// examples definitions). Grouping rules (headers, `Scenario` inside `ScenarioDefinition`,
/// `Examples` inside `ExamplesDefinition`) write into the node around them, and the rules that
/// never nest (a step, its doc string or data table, tags, a description, an examples table)
/// gather into buffers of the builder. Ids are taken when a node is completed, so children get
/// theirs before their parents, and tags theirs when their owner completes: the reference's numbering.
struct ASTBuilder {
    /// What has been gathered for a rule that owns children. Where the grammar allows one child
    /// of a kind, the first is kept. Nodes never escape the builder, which is used by one parse on
    /// one thread, so their fields skip the dynamic exclusivity checks.
    final class Node {
        let rule: RuleType
        /// The keyword line.
        @exclusivity(unchecked) var line: Token?
        @exclusivity(unchecked) var tagTokens: [Token] = []
        @exclusivity(unchecked) var hasTags = false
        @exclusivity(unchecked) var description: String?
        @exclusivity(unchecked) var steps: [Step] = []
        @exclusivity(unchecked) var examples: [Examples] = []
        @exclusivity(unchecked) var rows: [TableRow]?
        @exclusivity(unchecked) var background: Background?
        @exclusivity(unchecked) var scenarios: [Scenario] = []
        @exclusivity(unchecked) var rules: [Rule] = []

        init(rule: RuleType) { self.rule = rule }
    }

    var ids: IDGenerator
    /// Every rule started and not yet ended.
    private var rules: [RuleType] = []
    /// The nodes of the owning rules among them.
    private var nodes: [Node] = []
    // Buffers of the rules that do not nest.
    private var stepLine: Token?
    private var stepDocString: DocString?
    private var stepDataTable: DataTable?
    private var leafLine: Token?
    private var leafTexts: [String] = []
    private var leafTokens: [Token] = []

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
        rules.reserveCapacity(12)
        nodes.reserveCapacity(6)
    }

    mutating func startRule(_ rule: RuleType) {
        rules.append(rule)
        switch rule {
        case .feature, .rule, .background, .scenarioDefinition, .examplesDefinition:
            nodes.append(Node(rule: rule))
        case .step:
            stepLine = nil
            stepDocString = nil
            stepDataTable = nil
        case .tags, .description, .docString, .dataTable, .examplesTable:
            leafLine = nil
            leafTexts.removeAll(keepingCapacity: true)
            leafTokens.removeAll(keepingCapacity: true)
        default:
            break
        }
    }

    mutating func build(_ token: Token) {
        if recordsTokens { builtTokens.append(token) }
        switch token.type {
        case .comment:
            comments.append(Comment(location: token.location, text: token.text ?? ""))
        case .featureLine, .ruleLine, .backgroundLine, .scenarioLine, .examplesLine:
            if let node = nodes.last, node.line == nil { node.line = token }
        case .stepLine:
            if stepLine == nil { stepLine = token }
        case .docStringSeparator:
            if leafLine == nil { leafLine = token }
        case .other:
            leafTexts.append(token.text ?? "")
        case .tableRow, .tagLine:
            leafTokens.append(token)
        case .none, .eof, .empty, .language:
            break
        }
    }

    // MARK: Completing rules

    mutating func endRule() throws(GherkinError) {
        guard let rule = rules.popLast() else { return }
        switch rule {
        case .tags:
            if let node = nodes.last, !node.hasTags {
                node.hasTags = true
                node.tagTokens = leafTokens
            }
        case .description:
            guard let node = nodes.last, node.description == nil else { return }
            var lines = leafTexts
            while let last = lines.last, last.isEmpty { lines.removeLast() }
            node.description = lines.joined(separator: "\n")
        case .docString:
            guard let separator = leafLine, stepDocString == nil else { return }
            let mediaType = separator.text.flatMap { $0.isEmpty ? nil : $0 }
            stepDocString = DocString(
                location: separator.location, mediaType: mediaType, content: leafTexts.joined(separator: "\n"),
                delimiter: separator.keyword ?? "\"\"\"")
        case .dataTable:
            let rows = try tableRows(leafTokens)
            guard let first = rows.first, stepDataTable == nil else { return }
            stepDataTable = DataTable(location: first.location, rows: rows)
        case .examplesTable:
            let rows = try tableRows(leafTokens)
            if let node = nodes.last, node.rows == nil { node.rows = rows }
        case .step:
            guard let line = stepLine, let node = nodes.last else { return }
            node.steps.append(
                Step(
                    id: ids.make(), location: line.location, keyword: line.keyword ?? "", keywordType: line.keywordType ?? .unknown,
                    text: line.text ?? "", docString: stepDocString, dataTable: stepDataTable))
        case .background:
            let node = nodes.removeLast()
            guard let line = node.line, let parent = nodes.last, parent.background == nil else { return }
            parent.background = Background(
                id: ids.make(), location: line.location, keyword: line.keyword ?? "", name: line.text ?? "",
                description: node.description ?? "", steps: node.steps)
        case .scenarioDefinition:
            let node = nodes.removeLast()
            let tags = tags(node.tagTokens)
            guard let line = node.line, let parent = nodes.last else { return }
            parent.scenarios.append(
                Scenario(
                    id: ids.make(), location: line.location, tags: tags, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: node.description ?? "", steps: node.steps,
                    examples: node.examples))
        case .examplesDefinition:
            let node = nodes.removeLast()
            let tags = tags(node.tagTokens)
            guard let line = node.line, let parent = nodes.last else { return }
            let rows = node.rows ?? []
            parent.examples.append(
                Examples(
                    id: ids.make(), location: line.location, tags: tags, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: node.description ?? "", tableHeader: rows.first,
                    tableBody: Array(rows.dropFirst())))
        case .rule:
            let node = nodes.removeLast()
            let tags = tags(node.tagTokens)
            guard let line = node.line, let parent = nodes.last else { return }
            var children: [RuleChild] = []
            children.reserveCapacity(node.scenarios.count + 1)
            if let background = node.background { children.append(.background(background)) }
            for scenario in node.scenarios { children.append(.scenario(scenario)) }
            parent.rules.append(
                Rule(
                    id: ids.make(), location: line.location, tags: tags, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: node.description ?? "", children: children))
        case .feature:
            let node = nodes.removeLast()
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
        case .none, .featureHeader, .ruleHeader, .scenario, .examples, .stepArg, .dataTableAndMaybeDocString,
            .docStringAndMaybeDataTable, .descriptionHelper:
            break
        }
    }

    private mutating func tags(_ tokens: [Token]) -> [Tag] {
        var tags: [Tag] = []
        for token in tokens {
            for item in token.items {
                tags.append(Tag(location: item.location, name: item.value, id: ids.make()))
            }
        }
        return tags
    }

    private mutating func tableRows(_ tokens: [Token]) throws(GherkinError) -> [TableRow] {
        var rows: [TableRow] = []
        rows.reserveCapacity(tokens.count)
        for token in tokens {
            rows.append(TableRow(id: ids.make(), location: token.location, cells: token.items))
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
