// Building the typed AST from the parser's rule events and tokens.

/// Receives the parser's events (a rule starts, a token is consumed, a rule ends) and builds
/// the ``GherkinDocument``. Ids are taken when a node is completed, so children get theirs first.
struct ASTBuilder {
    enum Item {
        case node(Node)
        case step(Step)
        case docString(DocString)
        case dataTable(DataTable)
        case rows([TableRow])
        case background(Background)
        case scenario(Scenario)
        case examples(Examples)
        case description(String)
        case rule(Rule)
        case feature(Feature?)
        case document(GherkinDocument)
    }

    struct Node {
        let rule: RuleType
        var tokens: [Token] = []
        var items: [(RuleType, Item)] = []

        func firstToken(_ type: TokenType) -> Token? { tokens.first { $0.type == type } }

        func first(_ rule: RuleType) -> Item? { items.first { $0.0 == rule }?.1 }

        func all(_ rule: RuleType) -> [Item] { items.compactMap { $0.0 == rule ? $0.1 : nil } }
    }

    var ids: IDGenerator
    private var stack: [Node] = [Node(rule: .none)]
    private(set) var comments: [Comment] = []
    /// Every token built, when recording for the token format.
    private(set) var builtTokens: [Token] = []
    let recordsTokens: Bool

    init(ids: IDGenerator, recordsTokens: Bool = false) {
        self.ids = ids
        self.recordsTokens = recordsTokens
    }

    mutating func startRule(_ rule: RuleType) {
        stack.append(Node(rule: rule))
    }

    mutating func endRule() throws(GherkinError) {
        guard stack.count > 1 else { return }
        let node = stack.removeLast()
        let item = try transform(node)
        stack[stack.count - 1].items.append((node.rule, item))
    }

    mutating func build(_ token: Token) {
        if recordsTokens { builtTokens.append(token) }
        if token.type == .comment {
            comments.append(Comment(location: token.location, text: token.text ?? ""))
        } else {
            stack[stack.count - 1].tokens.append(token)
        }
    }

    /// The document, once the `GherkinDocument` rule has ended.
    var document: GherkinDocument? {
        guard case .document(let document)? = stack.first?.first(.gherkinDocument) else { return nil }
        return document
    }

    // MARK: Transformations

    private mutating func transform(_ node: Node) throws(GherkinError) -> Item {
        switch node.rule {
        case .step:
            guard let line = node.firstToken(.stepLine) else { return .node(node) }
            var docString: DocString?
            var dataTable: DataTable?
            if case .docString(let d)? = node.first(.docString) { docString = d }
            if case .dataTable(let d)? = node.first(.dataTable) { dataTable = d }
            return .step(
                Step(
                    id: ids.make(), location: line.location, keyword: line.keyword ?? "", keywordType: line.keywordType,
                    text: line.text ?? "", docString: docString, dataTable: dataTable))
        case .docString:
            guard let separator = node.firstToken(.docStringSeparator) else { return .node(node) }
            let content = node.tokens.lazy.filter { $0.type == .other }.map { $0.text ?? "" }.joined(separator: "\n")
            let mediaType = separator.text.flatMap { $0.isEmpty ? nil : $0 }
            return .docString(
                DocString(
                    location: separator.location, mediaType: mediaType, content: content,
                    delimiter: separator.keyword ?? "\"\"\""))
        case .dataTable:
            let rows = try tableRows(node)
            guard let first = rows.first else { return .node(node) }
            return .dataTable(DataTable(location: first.location, rows: rows))
        case .examplesTable:
            return .rows(try tableRows(node))
        case .background:
            guard let line = node.firstToken(.backgroundLine) else { return .node(node) }
            let description = Self.description(node)
            let steps = Self.steps(node)
            return .background(
                Background(
                    id: ids.make(), location: line.location, keyword: line.keyword ?? "", name: line.text ?? "",
                    description: description, steps: steps))
        case .scenarioDefinition:
            let tags = tags(node)
            guard case .node(let scenario)? = node.first(.scenario), let line = scenario.firstToken(.scenarioLine) else {
                return .node(node)
            }
            let examples: [Examples] = scenario.all(.examplesDefinition).compactMap {
                if case .examples(let e) = $0 { e } else { nil }
            }
            return .scenario(
                Scenario(
                    id: ids.make(), location: line.location, tags: tags, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: Self.description(scenario), steps: Self.steps(scenario),
                    examples: examples))
        case .examplesDefinition:
            let tags = tags(node)
            guard case .node(let examples)? = node.first(.examples), let line = examples.firstToken(.examplesLine) else {
                return .node(node)
            }
            var rows: [TableRow] = []
            if case .rows(let r)? = examples.first(.examplesTable) { rows = r }
            return .examples(
                Examples(
                    id: ids.make(), location: line.location, tags: tags, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: Self.description(examples), tableHeader: rows.first,
                    tableBody: Array(rows.dropFirst())))
        case .description:
            var lines = node.tokens.filter { $0.type == .other }.map { $0.text ?? "" }
            while let last = lines.last, last.isEmpty { lines.removeLast() }
            return .description(lines.joined(separator: "\n"))
        case .rule:
            guard case .node(let header)? = node.first(.ruleHeader) else { return .node(node) }
            let tags = tags(header)
            guard let line = header.firstToken(.ruleLine) else { return .node(node) }
            var children: [RuleChild] = []
            if case .background(let b)? = node.first(.background) { children.append(.background(b)) }
            for item in node.all(.scenarioDefinition) {
                if case .scenario(let s) = item { children.append(.scenario(s)) }
            }
            return .rule(
                Rule(
                    id: ids.make(), location: line.location, tags: tags, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: Self.description(header), children: children))
        case .feature:
            guard case .node(let header)? = node.first(.featureHeader) else { return .feature(nil) }
            let tags = tags(header)
            guard let line = header.firstToken(.featureLine) else { return .feature(nil) }
            var children: [FeatureChild] = []
            if case .background(let b)? = node.first(.background) { children.append(.background(b)) }
            for item in node.all(.scenarioDefinition) {
                if case .scenario(let s) = item { children.append(.scenario(s)) }
            }
            for item in node.all(.rule) {
                if case .rule(let r) = item { children.append(.rule(r)) }
            }
            return .feature(
                Feature(
                    location: line.location, tags: tags, language: line.dialect, keyword: line.keyword ?? "",
                    name: line.text ?? "", description: Self.description(header), children: children))
        case .gherkinDocument:
            var feature: Feature?
            if case .feature(let f)? = node.first(.feature) { feature = f }
            return .document(GherkinDocument(feature: feature, comments: comments))
        default:
            return .node(node)
        }
    }

    private mutating func tags(_ node: Node) -> [Tag] {
        guard case .node(let tagsNode)? = node.first(.tags) else { return [] }
        var tags: [Tag] = []
        for token in tagsNode.tokens where token.type == .tagLine {
            for item in token.items {
                tags.append(
                    Tag(location: Location(line: token.lineNumber, column: item.column), name: item.text, id: ids.make()))
            }
        }
        return tags
    }

    private mutating func tableRows(_ node: Node) throws(GherkinError) -> [TableRow] {
        var rows: [TableRow] = []
        for token in node.tokens where token.type == .tableRow {
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

    private static func description(_ node: Node) -> String {
        if case .description(let d)? = node.first(.description) { return d }
        return ""
    }

    private static func steps(_ node: Node) -> [Step] {
        node.all(.step).compactMap { if case .step(let s) = $0 { s } else { nil } }
    }
}
