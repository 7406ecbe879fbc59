// Pickle lines written straight from the AST, without building Pickle values.
//
// The same rules as PickleCompiler, in the same order, so the ids and text agree byte for byte
// with compiling and writing each pickle (the tests compare both over the corpus); this path only
// saves the allocation and release of every pickle, step, tag list and argument.

extension JSONBytes {
    /// Writes one `{"pickle":{…}}` line per pickle of `document`, taking ids from `ids`.
    func pickleLines(of document: GherkinDocument, uri: String, ids: inout IDGenerator) {
        guard let feature = document.feature else { return }
        var next = ids.next
        var background: [Step] = []
        for child in feature.children {
            switch child {
            case .background(let steps):
                background += steps.steps
            case .scenario(let scenario):
                pickleLines(of: scenario, inherited: feature.tags, [], background, feature.language, uri, &next)
            case .rule(let rule):
                var ruleBackground = background
                for ruleChild in rule.children {
                    switch ruleChild {
                    case .background(let steps): ruleBackground += steps.steps
                    case .scenario(let scenario):
                        pickleLines(of: scenario, inherited: feature.tags, rule.tags, ruleBackground, feature.language, uri, &next)
                    }
                }
            }
        }
        ids = IDGenerator(startingAt: next)
    }

    private func pickleLines(
        of scenario: Scenario, inherited featureTags: [Tag], _ ruleTags: [Tag], _ background: [Step], _ language: String,
        _ uri: String, _ next: inout Int
    ) {
        // Step ids are handed out before the pickle's own id, as the compiler does.
        let stepCount = scenario.steps.isEmpty ? 0 : background.count + scenario.steps.count
        if scenario.examples.isEmpty {
            raw(#"{"pickle":{"astNodeIds":["#)
            string(scenario.id)
            raw(#"],"id":"#)
            id(next + stepCount)
            pickleHeader(language, scenario.location, scenario.name)
            if stepCount > 0 {
                var type = PickleStepType.unknown
                for (index, step) in background.enumerated() { pickleStep(step, first: index == 0, &type, &next, [], [], nil) }
                for (index, step) in scenario.steps.enumerated() {
                    pickleStep(step, first: index == 0 && background.isEmpty, &type, &next, [], [], nil)
                }
            }
            pickleTrailer(featureTags, ruleTags, scenario.tags, [], uri)
            next += 1
            return
        }
        for examples in scenario.examples {
            guard let header = examples.tableHeader else { continue }
            let placeholders = header.cells.map { "<" + $0.value + ">" }
            for row in examples.tableBody {
                let values = row.cells.map(\.value)
                raw(#"{"pickle":{"astNodeIds":["#)
                string(scenario.id)
                byte(UInt8(ascii: ","))
                string(row.id)
                raw(#"],"id":"#)
                id(next + stepCount)
                pickleHeader(language, row.location, PickleCompiler.Context.interpolate(scenario.name, placeholders, values))
                if stepCount > 0 {
                    var type = PickleStepType.unknown
                    for (index, step) in background.enumerated() { pickleStep(step, first: index == 0, &type, &next, [], [], nil) }
                    for (index, step) in scenario.steps.enumerated() {
                        pickleStep(step, first: index == 0 && background.isEmpty, &type, &next, placeholders, values, row.id)
                    }
                }
                pickleTrailer(featureTags, ruleTags, scenario.tags, examples.tags, uri)
                next += 1
            }
        }
    }

    /// `,"language":…,"location":…,"name":…,"steps":[`
    private func pickleHeader(_ language: String, _ location: Location, _ name: String) {
        raw(#","language":"#)
        string(language)
        raw(#","location":"#)
        self.location(location)
        raw(#","name":"#)
        string(name)
        raw(#","steps":["#)
    }

    /// `],"tags":[…],"uri":…}}` and the line end.
    private func pickleTrailer(_ feature: [Tag], _ rule: [Tag], _ scenario: [Tag], _ examples: [Tag], _ uri: String) {
        raw(#"],"tags":["#)
        var first = true
        for list in [feature, rule, scenario, examples] {
            for tag in list {
                if !first { byte(UInt8(ascii: ",")) }
                first = false
                raw(#"{"astNodeId":"#)
                string(tag.id)
                raw(#","name":"#)
                string(tag.name)
                byte(UInt8(ascii: "}"))
            }
        }
        raw(#"],"uri":"#)
        string(uri)
        raw("}}")
        endLine()
    }

    private func pickleStep(
        _ step: Step, first: Bool, _ type: inout PickleStepType, _ next: inout Int, _ placeholders: [String],
        _ values: [String], _ rowID: String?
    ) {
        type = PickleCompiler.Context.type(of: step, after: type)
        if !first { byte(UInt8(ascii: ",")) }
        byte(UInt8(ascii: "{"))
        if step.docString != nil || step.dataTable != nil {
            var docIndex: Int?
            var tableIndex: Int?
            if let doc = step.docString, let table = step.dataTable {
                let tableFirst = doc.location.line > table.location.line
                tableIndex = tableFirst ? 1 : 2
                docIndex = tableFirst ? 2 : 1
            }
            raw(#""argument":{"#)
            if let table = step.dataTable {
                raw(#""dataTable":{"#)
                if let tableIndex {
                    raw(#""argumentIndex":"#)
                    int(tableIndex)
                    byte(UInt8(ascii: ","))
                }
                raw(#""rows":["#)
                for (rowIndex, row) in table.rows.enumerated() {
                    if rowIndex > 0 { byte(UInt8(ascii: ",")) }
                    raw(#"{"cells":["#)
                    for (cellIndex, cell) in row.cells.enumerated() {
                        if cellIndex > 0 { byte(UInt8(ascii: ",")) }
                        raw(#"{"value":"#)
                        string(PickleCompiler.Context.interpolate(cell.value, placeholders, values))
                        byte(UInt8(ascii: "}"))
                    }
                    raw("]}")
                }
                raw("]}")
            }
            if let doc = step.docString {
                if step.dataTable != nil { byte(UInt8(ascii: ",")) }
                raw(#""docString":{"#)
                if let docIndex {
                    raw(#""argumentIndex":"#)
                    int(docIndex)
                    byte(UInt8(ascii: ","))
                }
                raw(#""content":"#)
                string(PickleCompiler.Context.interpolate(doc.content, placeholders, values))
                if let mediaType = doc.mediaType {
                    raw(#","mediaType":"#)
                    string(PickleCompiler.Context.interpolate(mediaType, placeholders, values))
                }
                byte(UInt8(ascii: "}"))
            }
            raw("},")
        }
        raw(#""astNodeIds":["#)
        string(step.id)
        if let rowID {
            byte(UInt8(ascii: ","))
            string(rowID)
        }
        raw(#"],"id":"#)
        id(next)
        next += 1
        raw(#","text":"#)
        string(PickleCompiler.Context.interpolate(step.text, placeholders, values))
        raw(#","type":"#)
        string(type.rawValue)
        byte(UInt8(ascii: "}"))
    }

    /// An id as its JSON string (`"42"`), as ``IDGenerator`` spells it.
    private func id(_ value: Int) {
        byte(UInt8(ascii: "\""))
        int(value)
        byte(UInt8(ascii: "\""))
    }
}
