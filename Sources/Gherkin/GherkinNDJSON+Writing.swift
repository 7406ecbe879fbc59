// The NDJSON messages written field by field into a byte buffer.
//
// Keys are written in sorted order, optional fields are left out when absent, as the
// `JSONEncoder` rendering with `.sortedKeys` did; the tests compare both byte for byte.

extension JSONBytes {
    // MARK: Envelopes

    /// `{"source":{"data":…,"mediaType":…,"uri":…}}` and a newline.
    func sourceLine(data: String, mediaType: String, uri: String) {
        raw(#"{"source":{"data":"#)
        string(data)
        raw(#","mediaType":"#)
        string(mediaType)
        raw(#","uri":"#)
        string(uri)
        raw("}}")
        endLine()
    }

    /// `{"gherkinDocument":{…}}` and a newline.
    func documentLine(_ document: GherkinDocument) {
        raw(#"{"gherkinDocument":{"comments":["#)
        for (index, comment) in document.comments.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            raw(#"{"location":"#)
            location(comment.location)
            raw(#","text":"#)
            string(comment.text)
            byte(UInt8(ascii: "}"))
        }
        byte(UInt8(ascii: "]"))
        if let feature = document.feature {
            raw(#","feature":"#)
            self.feature(feature)
        }
        if let uri = document.uri {
            raw(#","uri":"#)
            string(uri)
        }
        raw("}}")
        endLine()
    }

    /// `{"pickle":{…}}` and a newline.
    func pickleLine(_ pickle: Pickle) {
        raw(#"{"pickle":{"astNodeIds":"#)
        strings(pickle.astNodeIds)
        raw(#","id":"#)
        string(pickle.id)
        raw(#","language":"#)
        string(pickle.language)
        raw(#","location":"#)
        location(pickle.location)
        raw(#","name":"#)
        string(pickle.name)
        raw(#","steps":["#)
        for (index, step) in pickle.steps.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            pickleStep(step)
        }
        raw(#"],"tags":["#)
        for (index, tag) in pickle.tags.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            raw(#"{"astNodeId":"#)
            string(tag.astNodeId)
            raw(#","name":"#)
            string(tag.name)
            byte(UInt8(ascii: "}"))
        }
        raw(#"],"uri":"#)
        string(pickle.uri)
        raw("}}")
        endLine()
    }

    /// `{"parseError":{"message":…,"source":{"location":…,"uri":…}}}` and a newline.
    func parseErrorLine(_ error: GherkinError, uri: String) {
        raw(#"{"parseError":{"message":"#)
        string(error.description)
        raw(#","source":{"location":"#)
        location(error.location)
        raw(#","uri":"#)
        string(uri)
        raw("}}}")
        endLine()
    }

    /// One line of the `.tokens` format (see ``GherkinNDJSON/tokens(source:uri:syntax:)``), without its newline.
    func tokenLine(_ token: Token) {
        if token.isEOF {
            raw("EOF")
            return
        }
        byte(UInt8(ascii: "("))
        int(token.lineNumber)
        byte(UInt8(ascii: ":"))
        int(token.column ?? 0)
        byte(UInt8(ascii: ")"))
        text(token.type.name)
        byte(UInt8(ascii: ":"))
        if let keyword = token.keyword, !keyword.isEmpty {
            byte(UInt8(ascii: "("))
            if let keywordType = token.keywordType { text(keywordType.rawValue) }
            byte(UInt8(ascii: ")"))
            text(keyword)
        }
        byte(UInt8(ascii: "/"))
        if let tokenText = token.text { text(tokenText) }
        byte(UInt8(ascii: "/"))
        for (index, item) in token.items.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            int(item.location.column ?? 0)
            byte(UInt8(ascii: ":"))
            text(item.value)
        }
    }

    // MARK: Shared pieces

    /// `{"column":…,"line":…}`, without `column` when it is unknown.
    func location(_ location: Location) {
        if let column = location.column {
            raw(#"{"column":"#)
            int(column)
            raw(#","line":"#)
        } else {
            raw(#"{"line":"#)
        }
        int(location.line)
        byte(UInt8(ascii: "}"))
    }

    private func strings(_ values: [String]) {
        byte(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            string(value)
        }
        byte(UInt8(ascii: "]"))
    }

    private func tags(_ tags: [Tag]) {
        byte(UInt8(ascii: "["))
        for (index, tag) in tags.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            raw(#"{"id":"#)
            string(tag.id)
            raw(#","location":"#)
            location(tag.location)
            raw(#","name":"#)
            string(tag.name)
            byte(UInt8(ascii: "}"))
        }
        byte(UInt8(ascii: "]"))
    }

    // MARK: Pickles

    private func pickleStep(_ step: PickleStep) {
        byte(UInt8(ascii: "{"))
        if let argument = step.argument {
            raw(#""argument":{"#)
            if let table = argument.dataTable {
                raw(#""dataTable":{"#)
                if let index = table.argumentIndex {
                    raw(#""argumentIndex":"#)
                    int(index)
                    byte(UInt8(ascii: ","))
                }
                raw(#""rows":["#)
                for (rowIndex, row) in table.rows.enumerated() {
                    if rowIndex > 0 { byte(UInt8(ascii: ",")) }
                    raw(#"{"cells":["#)
                    for (cellIndex, cell) in row.cells.enumerated() {
                        if cellIndex > 0 { byte(UInt8(ascii: ",")) }
                        raw(#"{"value":"#)
                        string(cell.value)
                        byte(UInt8(ascii: "}"))
                    }
                    raw("]}")
                }
                raw("]}")
            }
            if let docString = argument.docString {
                if argument.dataTable != nil { byte(UInt8(ascii: ",")) }
                raw(#""docString":{"#)
                if let index = docString.argumentIndex {
                    raw(#""argumentIndex":"#)
                    int(index)
                    byte(UInt8(ascii: ","))
                }
                raw(#""content":"#)
                string(docString.content)
                if let mediaType = docString.mediaType {
                    raw(#","mediaType":"#)
                    string(mediaType)
                }
                byte(UInt8(ascii: "}"))
            }
            raw("},")
        }
        raw(#""astNodeIds":"#)
        strings(step.astNodeIds)
        raw(#","id":"#)
        string(step.id)
        raw(#","text":"#)
        string(step.text)
        raw(#","type":"#)
        string(step.type.rawValue)
        byte(UInt8(ascii: "}"))
    }

    // MARK: The document

    private func feature(_ feature: Feature) {
        raw(#"{"children":["#)
        for (index, child) in feature.children.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            switch child {
            case .background(let background):
                raw(#"{"background":"#)
                self.background(background)
            case .scenario(let scenario):
                raw(#"{"scenario":"#)
                self.scenario(scenario)
            case .rule(let rule):
                raw(#"{"rule":"#)
                self.rule(rule)
            }
            byte(UInt8(ascii: "}"))
        }
        raw(#"],"description":"#)
        string(feature.description)
        if !feature.keyword.isEmpty {
            raw(#","keyword":"#)
            string(feature.keyword)
        }
        raw(#","language":"#)
        string(feature.language)
        raw(#","location":"#)
        location(feature.location)
        raw(#","name":"#)
        string(feature.name)
        raw(#","tags":"#)
        tags(feature.tags)
        byte(UInt8(ascii: "}"))
    }

    private func rule(_ rule: Rule) {
        raw(#"{"children":["#)
        for (index, child) in rule.children.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            switch child {
            case .background(let background):
                raw(#"{"background":"#)
                self.background(background)
            case .scenario(let scenario):
                raw(#"{"scenario":"#)
                self.scenario(scenario)
            }
            byte(UInt8(ascii: "}"))
        }
        raw(#"],"description":"#)
        string(rule.description)
        raw(#","id":"#)
        string(rule.id)
        raw(#","keyword":"#)
        string(rule.keyword)
        raw(#","location":"#)
        location(rule.location)
        raw(#","name":"#)
        string(rule.name)
        raw(#","tags":"#)
        tags(rule.tags)
        byte(UInt8(ascii: "}"))
    }

    private func background(_ background: Background) {
        raw(#"{"description":"#)
        string(background.description)
        raw(#","id":"#)
        string(background.id)
        raw(#","keyword":"#)
        string(background.keyword)
        raw(#","location":"#)
        location(background.location)
        raw(#","name":"#)
        string(background.name)
        raw(#","steps":"#)
        steps(background.steps)
        byte(UInt8(ascii: "}"))
    }

    private func scenario(_ scenario: Scenario) {
        raw(#"{"description":"#)
        string(scenario.description)
        raw(#","examples":["#)
        for (index, examples) in scenario.examples.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            self.examples(examples)
        }
        raw(#"],"id":"#)
        string(scenario.id)
        raw(#","keyword":"#)
        string(scenario.keyword)
        raw(#","location":"#)
        location(scenario.location)
        raw(#","name":"#)
        string(scenario.name)
        raw(#","steps":"#)
        steps(scenario.steps)
        raw(#","tags":"#)
        tags(scenario.tags)
        byte(UInt8(ascii: "}"))
    }

    private func examples(_ examples: Examples) {
        raw(#"{"description":"#)
        string(examples.description)
        raw(#","id":"#)
        string(examples.id)
        raw(#","keyword":"#)
        string(examples.keyword)
        raw(#","location":"#)
        location(examples.location)
        raw(#","name":"#)
        string(examples.name)
        raw(#","tableBody":"#)
        rows(examples.tableBody)
        if let header = examples.tableHeader {
            raw(#","tableHeader":"#)
            row(header)
        }
        raw(#","tags":"#)
        tags(examples.tags)
        byte(UInt8(ascii: "}"))
    }

    private func steps(_ steps: [Step]) {
        byte(UInt8(ascii: "["))
        for (index, step) in steps.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            byte(UInt8(ascii: "{"))
            if let table = step.dataTable {
                raw(#""dataTable":{"location":"#)
                location(table.location)
                raw(#","rows":"#)
                rows(table.rows)
                raw("},")
            }
            if let docString = step.docString {
                raw(#""docString":{"content":"#)
                string(docString.content)
                raw(#","delimiter":"#)
                string(docString.delimiter)
                raw(#","location":"#)
                location(docString.location)
                if let mediaType = docString.mediaType {
                    raw(#","mediaType":"#)
                    string(mediaType)
                }
                raw("},")
            }
            raw(#""id":"#)
            string(step.id)
            raw(#","keyword":"#)
            string(step.keyword)
            raw(#","keywordType":"#)
            string(step.keywordType.rawValue)
            raw(#","location":"#)
            location(step.location)
            raw(#","text":"#)
            string(step.text)
            byte(UInt8(ascii: "}"))
        }
        byte(UInt8(ascii: "]"))
    }

    private func rows(_ rows: [TableRow]) {
        byte(UInt8(ascii: "["))
        for (index, row) in rows.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            self.row(row)
        }
        byte(UInt8(ascii: "]"))
    }

    private func row(_ row: TableRow) {
        raw(#"{"cells":["#)
        for (index, cell) in row.cells.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            raw(#"{"location":"#)
            location(cell.location)
            raw(#","value":"#)
            string(cell.value)
            byte(UInt8(ascii: "}"))
        }
        raw(#"],"id":"#)
        string(row.id)
        raw(#","location":"#)
        location(row.location)
        byte(UInt8(ascii: "}"))
    }
}
