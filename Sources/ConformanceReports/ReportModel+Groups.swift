import ConformanceModel

extension ReportModel {
    /// Test cases that did not pass for one cause: the same criterion, outcome and verify items, and
    /// the same message once what varies between targets and scenarios is taken out (see
    /// `normalised(_:targets:)`). A report shows each group once, with one transcript (its first
    /// test case's) and the list of its test cases.
    struct FailureGroup {
        /// `cause-1`, `cause-2`, … in report order: the anchor in every format.
        var id: String
        var criterion: CriterionID
        var outcome: ReportOutcome
        var verifyItems: [VerifyItemID]
        /// The normalised message every test case of the group shares.
        var cause: String
        /// In run order; never empty.
        var cases: [Case]

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
                        cause: normalised(first.result.message ?? "", targets: targets), cases: cases))
            }
        }
        return groups
    }

    /// A message with what varies between test cases of one cause taken out: target ids become
    /// `<target>`, runs of digits `N`, and long opaque tokens (ids, base64url, hex of 16 characters
    /// or more) `…`; runs of spaces become one.
    static func normalised(_ message: String, targets: [String]) -> String {
        var text = message
        for target in targets.sorted(by: { $0.count > $1.count }) where !target.isEmpty {
            text = text.replacing(target, with: "<target>")
        }
        var result = ""
        var token = ""
        func flush() {
            guard !token.isEmpty else { return }
            let letters = token.contains { $0.isLetter }
            let digits = token.contains { $0.isNumber }
            if token.count >= 16 && letters && digits {
                result += "…"
            } else {
                var previousDigit = false
                for character in token {
                    if character.isASCII && character.isNumber {
                        if !previousDigit { result.append("N") }
                        previousDigit = true
                    } else {
                        result.append(character)
                        previousDigit = false
                    }
                }
            }
            token = ""
        }
        var previousSpace = false
        for character in text {
            if character.isLetter || character.isNumber || character == "_" || character == "-" {
                token.append(character)
                previousSpace = false
            } else {
                flush()
                if character == " " {
                    if !previousSpace { result.append(" ") }
                    previousSpace = true
                } else {
                    result.append(character)
                    previousSpace = false
                }
            }
        }
        flush()
        return result
    }
}
