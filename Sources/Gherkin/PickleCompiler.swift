// Compiling a document into pickles: one per scenario, one per example row of an outline.

/// Turns a ``GherkinDocument`` into ``Pickle``s.
///
/// - A scenario without examples gives one pickle; a scenario outline gives one per row of each
///   examples table that has a header, with `<name>` placeholders in the name, step texts, doc
///   strings (content and media type) and data table cells replaced by the row's values.
/// - Background steps (the feature's, then the rule's) come before the scenario's steps, but only
///   when the scenario has steps of its own.
/// - Tags are inherited: feature, rule, scenario, then examples.
/// - A conjunction (`And`, `But`) takes the type of the step before it; `*` is `Unknown`.
public struct PickleCompiler: Sendable {
    /// Creates a compiler.
    public init() {}

    /// Compiles `document`; pickle ids continue after the highest numeric id in the document, which
    /// is where the reference's shared counter stands after parsing it.
    public func compile(_ document: GherkinDocument, uri: String) -> [Pickle] {
        var ids = IDGenerator(startingAt: Self.nextID(after: document))
        return compile(document, uri: uri, ids: &ids)
    }

    /// Compiles `document`, taking ids from `ids`.
    public func compile(_ document: GherkinDocument, uri: String, ids: inout IDGenerator) -> [Pickle] {
        var pickles: [Pickle] = []
        compile(document, uri: uri, ids: &ids) { pickles.append($0) }
        return pickles
    }

    /// Compiles `document`, taking ids from `ids`, and hands each pickle to `body` as soon as its
    /// scenario is compiled, so a large document's pickles need not all be held at once.
    public func compile(_ document: GherkinDocument, uri: String, ids: inout IDGenerator, each body: (Pickle) -> Void) {
        guard let feature = document.feature else { return }
        var context = Context(uri: uri, language: feature.language, ids: ids)
        func compile(_ scenario: Scenario, _ tags: [Tag], _ background: [Step]) {
            context.compile(scenario, inheritedTags: tags, background: background)
            for pickle in context.pickles { body(pickle) }
            context.pickles.removeAll(keepingCapacity: true)
        }
        var backgroundSteps: [Step] = []
        for child in feature.children {
            switch child {
            case .background(let background):
                backgroundSteps += background.steps
            case .scenario(let scenario):
                compile(scenario, feature.tags, backgroundSteps)
            case .rule(let rule):
                var ruleBackground = backgroundSteps
                let tags = feature.tags + rule.tags
                for ruleChild in rule.children {
                    switch ruleChild {
                    case .background(let background): ruleBackground += background.steps
                    case .scenario(let scenario): compile(scenario, tags, ruleBackground)
                    }
                }
            }
        }
        ids = context.ids
    }

    /// One more than the highest numeric id in the document (0 if it has none).
    static func nextID(after document: GherkinDocument) -> Int {
        var highest = -1
        func see(_ id: String) { if let n = Int(id), n > highest { highest = n } }
        func see(_ tags: [Tag]) { tags.forEach { see($0.id) } }
        func see(_ steps: [Step]) {
            for step in steps {
                see(step.id)
                step.dataTable?.rows.forEach { see($0.id) }
            }
        }
        func see(_ scenario: Scenario) {
            see(scenario.id)
            see(scenario.tags)
            see(scenario.steps)
            for examples in scenario.examples {
                see(examples.id)
                see(examples.tags)
                if let header = examples.tableHeader { see(header.id) }
                examples.tableBody.forEach { see($0.id) }
            }
        }
        func see(_ background: Background) {
            see(background.id)
            see(background.steps)
        }
        if let feature = document.feature {
            see(feature.tags)
            for child in feature.children {
                switch child {
                case .background(let b): see(b)
                case .scenario(let s): see(s)
                case .rule(let r):
                    see(r.id)
                    see(r.tags)
                    for c in r.children {
                        switch c {
                        case .background(let b): see(b)
                        case .scenario(let s): see(s)
                        }
                    }
                }
            }
        }
        return highest + 1
    }

    /// The state of one compilation; its static helpers are shared with the NDJSON writer.
    struct Context {
        let uri: String
        let language: String
        var ids: IDGenerator
        var pickles: [Pickle] = []

        init(uri: String, language: String, ids: IDGenerator) {
            self.uri = uri
            self.language = language
            self.ids = ids
        }

        mutating func compile(_ scenario: Scenario, inheritedTags: [Tag], background: [Step]) {
            if scenario.examples.isEmpty {
                compilePlain(scenario, inheritedTags: inheritedTags, background: background)
            } else {
                compileOutline(scenario, inheritedTags: inheritedTags, background: background)
            }
        }

        private mutating func compilePlain(_ scenario: Scenario, inheritedTags: [Tag], background: [Step]) {
            var steps: [PickleStep] = []
            var lastType = PickleStepType.unknown
            if !scenario.steps.isEmpty {
                steps.reserveCapacity(background.count + scenario.steps.count)
                for step in background {
                    lastType = Self.type(of: step, after: lastType)
                    steps.append(pickleStep(step, type: lastType, placeholders: [], values: [], rowID: nil))
                }
                for step in scenario.steps {
                    lastType = Self.type(of: step, after: lastType)
                    steps.append(pickleStep(step, type: lastType, placeholders: [], values: [], rowID: nil))
                }
            }
            pickles.append(
                Pickle(
                    id: ids.make(), uri: uri, location: scenario.location, name: scenario.name, language: language,
                    steps: steps, tags: Self.pickleTags(inheritedTags, scenario.tags), astNodeIds: [scenario.id]))
        }

        private mutating func compileOutline(_ scenario: Scenario, inheritedTags: [Tag], background: [Step]) {
            for examples in scenario.examples {
                guard let header = examples.tableHeader else { continue }
                let placeholders = header.cells.map { "<" + $0.value + ">" }
                for row in examples.tableBody {
                    let values = row.cells.map(\.value)
                    var steps: [PickleStep] = []
                    var lastType = PickleStepType.unknown
                    if !scenario.steps.isEmpty {
                        steps.reserveCapacity(background.count + scenario.steps.count)
                        for step in background {
                            lastType = Self.type(of: step, after: lastType)
                            steps.append(pickleStep(step, type: lastType, placeholders: [], values: [], rowID: nil))
                        }
                        for step in scenario.steps {
                            lastType = Self.type(of: step, after: lastType)
                            steps.append(pickleStep(step, type: lastType, placeholders: placeholders, values: values, rowID: row.id))
                        }
                    }
                    pickles.append(
                        Pickle(
                            id: ids.make(), uri: uri, location: row.location,
                            name: Self.interpolate(scenario.name, placeholders, values), language: language, steps: steps,
                            tags: Self.pickleTags(inheritedTags, scenario.tags, examples.tags),
                            astNodeIds: [scenario.id, row.id]))
                }
            }
        }

        private mutating func pickleStep(
            _ step: Step, type: PickleStepType, placeholders: [String], values: [String], rowID: String?
        ) -> PickleStep {
            var argument: PickleStepArgument?
            if step.docString != nil || step.dataTable != nil {
                var docIndex: Int?
                var tableIndex: Int?
                if let doc = step.docString, let table = step.dataTable {
                    let tableFirst = doc.location.line > table.location.line
                    tableIndex = tableFirst ? 1 : 2
                    docIndex = tableFirst ? 2 : 1
                }
                var docString: PickleDocString?
                if let doc = step.docString {
                    var mediaType: String?
                    if let type = doc.mediaType { mediaType = Self.interpolate(type, placeholders, values) }
                    docString = PickleDocString(
                        mediaType: mediaType, content: Self.interpolate(doc.content, placeholders, values),
                        argumentIndex: docIndex)
                }
                var dataTable: PickleTable?
                if let table = step.dataTable {
                    var rows: [PickleTableRow] = []
                    rows.reserveCapacity(table.rows.count)
                    for row in table.rows {
                        var cells: [PickleTableCell] = []
                        cells.reserveCapacity(row.cells.count)
                        for cell in row.cells { cells.append(PickleTableCell(value: Self.interpolate(cell.value, placeholders, values))) }
                        rows.append(PickleTableRow(cells: cells))
                    }
                    dataTable = PickleTable(rows: rows, argumentIndex: tableIndex)
                }
                argument = PickleStepArgument(docString: docString, dataTable: dataTable)
            }
            let astNodeIds: [String]
            if let rowID { astNodeIds = [step.id, rowID] } else { astNodeIds = [step.id] }
            return PickleStep(
                id: ids.make(), text: Self.interpolate(step.text, placeholders, values), type: type, argument: argument,
                astNodeIds: astNodeIds)
        }

        static func type(of step: Step, after previous: PickleStepType) -> PickleStepType {
            switch step.keywordType {
            case .context: .context
            case .action: .action
            case .outcome: .outcome
            case .conjunction: previous
            case .unknown: .unknown
            }
        }

        /// Replaces each placeholder (`<name>`, as written in `placeholders`) with its value,
        /// placeholder by placeholder in header order, so a value holding a later placeholder is
        /// replaced too, as the reference does.
        static func interpolate(_ text: String, _ placeholders: [String], _ values: [String]) -> String {
            guard !placeholders.isEmpty, text.utf8.contains(UInt8(ascii: "<")) else { return text }
            var result = text
            for (index, placeholder) in placeholders.enumerated() where index < values.count {
                result = result.replacingAll(placeholder, with: values[index])
            }
            return result
        }

        static func pickleTags(_ lists: [Tag]...) -> [PickleTag] {
            var tags: [PickleTag] = []
            tags.reserveCapacity(lists.reduce(0) { $0 + $1.count })
            for list in lists {
                for tag in list { tags.append(PickleTag(name: tag.name, astNodeId: tag.id)) }
            }
            return tags
        }
    }
}
