import ConformanceModel

extension ReportModel {
    /// Test cases that did not pass for one cause: the same criterion, outcome and verify items, and
    /// the same message once what varies between targets and scenarios is taken out (see
    /// `normalised(_:targets:)`). A report shows each group once, with the values its test cases
    /// observed (`observed`), one transcript (its first test case's) and the list of its test cases.
    struct FailureGroup {
        /// `cause-1`, `cause-2`, … in report order: the anchor in every format.
        var id: String
        var criterion: CriterionID
        package var outcome: ReportOutcome
        var verifyItems: [VerifyItemID]
        /// The normalised message every test case of the group shares: the grouping key.
        var cause: String
        /// The shared message with the values its test cases observed (see `observed(_:targets:)`):
        /// what a report shows for the cause.
        var observed: String
        /// In run order; never empty.
        package var cases: [Case]

        /// The test case whose transcript stands for the group.
        var representative: Case { cases[0] }
        /// The targets the group's test cases ran on, each once, in run order.
        var targets: [String] {
            var seen: Set<String> = []
            return cases.map(\.result.target).filter { seen.insert($0).inserted }
        }
        /// A failure below the gate.
        var isWarning: Bool { representative.isWarning }
    }

    /// Every test case that did not pass, grouped by cause, criteria in run order and groups in
    /// order of their first test case.
    static func groups(_ sections: [Section], targets: [String]) -> [FailureGroup] {
        var groups: [FailureGroup] = []
        for section in sections {
            var order: [String] = []
            var members: [String: [Case]] = [:]
            for item in section.cases where item.outcome != .passed {
                let cause = normalised(item.result.message ?? "", targets: targets)
                let key = "\(item.outcome.rawValue)\u{0}\(item.result.verifyItems.joined(separator: ","))\u{0}\(cause)"
                if members[key] == nil { order.append(key) }
                members[key, default: []].append(item)
            }
            for key in order {
                let cases = members[key]!
                let first = cases[0]
                groups.append(
                    FailureGroup(
                        id: "cause-\(groups.count + 1)", criterion: section.id, outcome: first.outcome, verifyItems: first.result.verifyItems,
                        cause: normalised(first.result.message ?? "", targets: targets),
                        observed: observed(cases.map { $0.result.message ?? "" }, targets: targets), cases: cases))
            }
        }
        return groups
    }

    /// A message with what varies between test cases of one cause taken out: target ids become
    /// `<target>`, runs of digits `N`, and long opaque tokens (ids, base64url, hex of 16 characters
    /// or more) `…`; runs of spaces become one.
    static func normalised(_ message: String, targets: [String]) -> String {
        Template(message, targets: targets).key
    }

    /// What the test cases of a cause observed: their shared message with each value that varies
    /// shown as it was, once when every test case saw the same, else `a or b` or the range
    /// `min–max` for a number, `<target>` for target ids (the group lists its targets) and `…` for
    /// opaque tokens. The normalised message when the messages do not line up value by value.
    static func observed(_ messages: [String], targets: [String]) -> String {
        let templates = messages.map { Template($0, targets: targets) }
        guard let first = templates.first else { return "" }
        guard templates.allSatisfy({ $0.shape == first.shape }) else { return first.key }
        var text = ""
        for (index, piece) in first.pieces.enumerated() {
            switch piece {
            case .text(let literal):
                text += literal
            case .value(let kind, _):
                let values = templates.map { template -> String in
                    guard case .value(_, let value) = template.pieces[index] else { return "" }
                    return value
                }
                text += merged(values, kind: kind)
            }
        }
        return text
    }

    /// One value as a cause shows it: the value itself when all agree; else see `observed(_:targets:)`.
    static func merged(_ values: [String], kind: Template.Kind) -> String {
        var seen: Set<String> = []
        let distinct = values.filter { seen.insert($0).inserted }
        guard distinct.count > 1 else { return distinct.first ?? "" }
        switch kind {
        case .target: return "<target>"
        case .token: return "…"
        case .number:
            let numbers = distinct.map { (text: $0, value: Int($0)) }
            guard numbers.allSatisfy({ $0.value != nil }) else { return "N" }
            let sorted = numbers.sorted { ($0.value!, $0.text) < ($1.value!, $1.text) }
            return sorted.count == 2 ? "\(sorted[0].text) or \(sorted[1].text)" : "\(sorted[0].text)–\(sorted[sorted.count - 1].text)"
        }
    }

    /// A message cut into what a cause's test cases share (text) and what may vary (values), so
    /// that grouping can ignore the values and a report can still show them.
    struct Template: Equatable {
        /// What a value is.
        enum Kind: Equatable {
            /// A target id of the run, `<target>` in the key.
            case target
            /// A run of ASCII digits, `N` in the key.
            case number
            /// An opaque token of 16 characters or more with letters and digits, `…` in the key.
            case token
        }

        enum Piece: Equatable {
            case text(String)
            case value(Kind, String)
        }

        var pieces: [Piece] = []

        /// The grouping key: every value replaced by its kind's placeholder.
        var key: String {
            pieces.map { piece in
                switch piece {
                case .text(let text): text
                case .value(.target, _): "<target>"
                case .value(.number, _): "N"
                case .value(.token, _): "…"
                }
            }.joined()
        }

        /// The pieces with the values left out: two messages of the same shape line up value by value.
        var shape: [Piece] {
            pieces.map { piece in
                if case .value(let kind, _) = piece { return .value(kind, "") }
                return piece
            }
        }

        init(_ message: String, targets: [String]) {
            let targets = targets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
            let initials = Set(targets.compactMap(\.first))
            var token = ""
            var previousSpace = false
            var rest = Substring(message)
            while let character = rest.first {
                // Target ids first, the longest that matches (`apple-18-third-party` before `apple-18`).
                if initials.contains(character), let target = targets.first(where: { rest.hasPrefix($0) }) {
                    flush(&token)
                    pieces.append(.value(.target, target))
                    previousSpace = false
                    rest = rest.dropFirst(target.count)
                    continue
                }
                rest = rest.dropFirst()
                if character.isLetter || character.isNumber || character == "_" || character == "-" {
                    token.append(character)
                    previousSpace = false
                } else {
                    flush(&token)
                    if character == " " {
                        if !previousSpace { append(" ") }
                        previousSpace = true
                    } else {
                        append(String(character))
                        previousSpace = false
                    }
                }
            }
            flush(&token)
        }

        private mutating func append(_ text: String) {
            if case .text(let before) = pieces.last {
                pieces[pieces.count - 1] = .text(before + text)
            } else {
                pieces.append(.text(text))
            }
        }

        /// A finished token: an opaque one as one value, else its runs of ASCII digits as values.
        private mutating func flush(_ token: inout String) {
            guard !token.isEmpty else { return }
            defer { token = "" }
            if token.count >= 16 && token.contains(where: \.isLetter) && token.contains(where: \.isNumber) {
                pieces.append(.value(.token, token))
                return
            }
            var digits = ""
            for character in token {
                if character.isASCII && character.isNumber {
                    digits.append(character)
                } else {
                    if !digits.isEmpty { pieces.append(.value(.number, digits)) }
                    digits = ""
                    append(String(character))
                }
            }
            if !digits.isEmpty { pieces.append(.value(.number, digits)) }
        }
    }
}
