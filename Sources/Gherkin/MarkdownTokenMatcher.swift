// The token matcher for Markdown with Gherkin (`.feature.md`), after the reference implementations.

/// Recognises Gherkin inside a Markdown document.
///
/// Headings (`# Feature:`, `## Scenario:`, …) carry the title keywords, bullets (`* Given`, `- When`)
/// carry the steps, tables must be indented two to five spaces, GFM separator rows (`| --- |`) are
/// skipped, tags are written in backticks (`` `@tag` ``), and any other line is ignored. The first
/// line that is not a `# Feature:` heading still opens the feature, with that line as its name.
/// Markdown documents have no `# language:` header.
struct MarkdownTokenMatcher: TokenMatcher {
    var classic: ClassicTokenMatcher
    var matchedFeatureLine = false
    private let delimiters = DocStringDelimiter.markdown

    init(dialect code: String = "en") {
        classic = ClassicTokenMatcher(dialect: code)
    }

    var dialect: CompiledDialect { classic.dialect }

    mutating func reset() {
        classic.reset()
        matchedFeatureLine = false
    }

    mutating func match(_ type: TokenType, _ token: inout Token, in source: SourceText) throws(GherkinError) -> Bool {
        guard let line = token.line(in: source) else {
            return type == .eof ? try classic.match(.eof, &token, in: source) : false
        }
        let code = dialect.code
        switch type {
        case .eof, .none, .language: return false
        case .featureLine:
            if matchedFeatureLine { return false }
            if !matchTitle(.featureLine, heading: dialect.feature, &token, line, source) {
                token.matched(.featureLine, text: source.string(line.trimmedStart, line.end))
            }
            token.dialect = code
            matchedFeatureLine = true
            return true
        case .ruleLine: return matchTitle(.ruleLine, heading: dialect.rule, &token, line, source)
        case .backgroundLine: return matchTitle(.backgroundLine, heading: dialect.background, &token, line, source)
        case .examplesLine: return matchTitle(.examplesLine, heading: dialect.examples, &token, line, source)
        case .scenarioLine:
            return matchTitle(.scenarioLine, heading: dialect.scenario, &token, line, source)
                || matchTitle(.scenarioLine, heading: dialect.scenarioOutline, &token, line, source)
        case .stepLine: return matchStep(&token, line, source)
        case .tableRow:
            guard isIndentedTableRow(line, source) else { return false }
            let cells = LineScanner.cells(of: line, in: source)
            if Self.isSeparatorRow(cells) { return false }
            token.matched(.tableRow, keyword: "|", items: cells)
            return true
        case .comment:
            guard source.hasPrefix(ClassicTokenMatcher.pipe, at: line.trimmedStart, end: line.end),
                Self.isSeparatorRow(LineScanner.cells(of: line, in: source))
            else { return false }
            // A GFM separator row is consumed like a blank line.
            token.matched(.empty, indent: 0)
            return true
        case .tagLine:
            let tags = backtickTags(line, source)
            if tags.isEmpty { return false }
            token.matched(.tagLine, items: tags)
            return true
        case .docStringSeparator:
            return classic.matchDocStringSeparator(&token, line, source, candidates: delimiters)
        case .other:
            return try classic.match(.other, &token, in: source)
        case .empty:
            var result = line.isEmpty
            // Any line that is nothing else counts as blank. The probes run in the reference
            // order and keep their side effects (the first one opens the feature, a fence opens a
            // doc string).
            let probes: [TokenType] = [
                .tagLine, .featureLine, .scenarioLine, .backgroundLine, .examplesLine, .ruleLine, .tableRow,
                .comment, .language, .docStringSeparator, .eof, .stepLine,
            ]
            var isSomethingElse = false
            for probe in probes where try match(probe, &token, in: source) {
                isSomethingElse = true
                break
            }
            if !isSomethingElse { result = true }
            guard result else { return false }
            token.matched(.empty, indent: 0)
            return true
        }
    }

    /// `#{1,6}` and one whitespace, then a title keyword and a colon.
    private func matchTitle(
        _ type: TokenType, heading keywords: KeywordList, _ token: inout Token, _ line: SourceLine, _ source: SourceText
    ) -> Bool {
        let b = source.bytes
        var p = line.trimmedStart
        var hashes = 0
        while p < line.end, b[p] == UInt8(ascii: "#") {
            hashes += 1
            p += 1
        }
        guard (1...6).contains(hashes), p < line.end else { return false }
        let space = source.whitespaceLength(at: p, end: line.end)
        guard space > 0 else { return false }
        p += space
        var length = 0
        guard let index = keywords.match(source, at: p, end: line.end, colon: true, length: &length) else { return false }
        let title = source.trimmedString(p + length, line.end)
        token.matched(
            type, text: title, keyword: keywords.texts[index], indent: line.indent + hashes + 1)
        return true
    }

    /// A bullet (`*`, `+`, `-`), optional whitespace, then a step keyword.
    private func matchStep(_ token: inout Token, _ line: SourceLine, _ source: SourceText) -> Bool {
        let b = source.bytes
        var p = line.trimmedStart
        guard p < line.end, b[p] == UInt8(ascii: "*") || b[p] == UInt8(ascii: "+") || b[p] == UInt8(ascii: "-") else {
            return false
        }
        p += 1
        var prefix = 1
        while p < line.end {
            let space = source.whitespaceLength(at: p, end: line.end)
            if space == 0 { break }
            p += space
            prefix += 1
        }
        let steps = dialect.markdownSteps
        var length = 0
        guard let index = steps.match(source, at: p, end: line.end, colon: false, length: &length) else { return false }
        let text = source.trimmedString(p + length, line.end)
        token.matched(
            .stepLine, text: text, keyword: steps.texts[index], keywordType: steps.types[index], indent: line.indent + prefix)
        return true
    }

    /// Two to five whitespace characters, then a pipe.
    private func isIndentedTableRow(_ line: SourceLine, _ source: SourceText) -> Bool {
        (2...5).contains(line.indent) && line.trimmedStart < line.end && source.bytes[line.trimmedStart] == UInt8(ascii: "|")
    }

    /// Whether any cell looks like `---`, `:--`, `--:` or `:-:` (a GFM table separator).
    static func isSeparatorRow(_ cells: [TableCell]) -> Bool {
        cells.contains { cell in
            var scalars = Substring(cell.value).unicodeScalars[...]
            if scalars.first == ":" { scalars = scalars.dropFirst() }
            if scalars.last == ":" { scalars = scalars.dropLast() }
            return !scalars.isEmpty && scalars.allSatisfy { $0 == "-" }
        }
    }

    /// Tags written as `` `@tag` ``.
    private func backtickTags(_ line: SourceLine, _ source: SourceText) -> [TableCell] {
        let b = source.bytes
        let start = line.trimmedStart
        let end = line.end
        var tags: [TableCell] = []
        var p = start
        while p + 2 < end {
            guard b[p] == UInt8(ascii: "`"), b[p + 1] == UInt8(ascii: "@") else {
                p += 1
                continue
            }
            var q = p + 2
            while q < end, b[q] != UInt8(ascii: "`") { q += 1 }
            guard q < end, q > p + 2 else {
                p += 1
                continue
            }
            let column = line.indent + source.scalarCount(start, p) + 2
            tags.append(TableCell(location: Location(line: line.number, column: column), value: source.string(p + 1, q)))
            p = q + 1
        }
        return tags
    }
}
