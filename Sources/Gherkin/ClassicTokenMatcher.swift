// The token matcher for ordinary `.feature` files.

/// Recognises the lines of a classic Gherkin file.
struct ClassicTokenMatcher: TokenMatcher {
    let defaultDialect: String
    private(set) var dialect: CompiledDialect
    /// The delimiter of the open doc string, if one is open.
    var openDelimiter: DocStringDelimiter?
    /// The indentation removed from doc string lines (that of the opening delimiter).
    var indentToRemove = 0
    private let delimiters = DocStringDelimiter.classic

    init(dialect code: String = "en") {
        defaultDialect = code
        dialect = CompiledDialect.named(code) ?? CompiledDialect.named("en") ?? CompiledDialect(Dialect.builtInEnglish)
    }

    mutating func reset() {
        if dialect.code != defaultDialect, let d = CompiledDialect.named(defaultDialect) { dialect = d }
        openDelimiter = nil
        indentToRemove = 0
    }

    mutating func match(_ type: TokenType, _ token: inout Token, in source: SourceText) throws(GherkinError) -> Bool {
        guard let line = token.line(in: source) else {
            if type == .eof {
                token.matched(.eof)
                return true
            }
            return false
        }
        switch type {
        case .eof, .none: return false
        case .empty:
            guard line.isEmpty else { return false }
            token.matched(.empty, indent: 0)
            return true
        case .comment:
            guard source.hasPrefix(Self.hash, at: line.trimmedStart, end: line.end) else { return false }
            token.matched(.comment, text: source.string(line.start, line.end), indent: 0)
            return true
        case .tagLine:
            guard source.hasPrefix(Self.at, at: line.trimmedStart, end: line.end) else { return false }
            let tags = try LineScanner.tags(of: line, in: source)
            token.matched(.tagLine, items: tags)
            return true
        case .featureLine: return matchTitle(.featureLine, dialect.feature, &token, line, source)
        case .ruleLine: return matchTitle(.ruleLine, dialect.rule, &token, line, source)
        case .backgroundLine: return matchTitle(.backgroundLine, dialect.background, &token, line, source)
        case .examplesLine: return matchTitle(.examplesLine, dialect.examples, &token, line, source)
        case .scenarioLine:
            return matchTitle(.scenarioLine, dialect.scenario, &token, line, source)
                || matchTitle(.scenarioLine, dialect.scenarioOutline, &token, line, source)
        case .stepLine:
            var length = 0
            guard let index = dialect.steps.match(source, at: line.trimmedStart, end: line.end, colon: false, length: &length)
            else { return false }
            let text = source.trimmedString(line.trimmedStart + length, line.end)
            token.matched(
                .stepLine, text: text, keyword: dialect.steps.texts[index], keywordType: dialect.steps.types[index])
            return true
        case .docStringSeparator:
            return matchDocStringSeparator(&token, line, source, candidates: delimiters)
        case .tableRow:
            guard source.hasPrefix(Self.pipe, at: line.trimmedStart, end: line.end) else { return false }
            token.matched(.tableRow, items: LineScanner.cells(of: line, in: source))
            return true
        case .language:
            guard let name = LineScanner.languageHeader(of: line, in: source) else { return false }
            token.matched(.language, text: name)
            guard let newDialect = CompiledDialect.named(name) else {
                throw GherkinError(
                    message: "Language not supported: \(name)", location: token.location, kind: .unknownLanguage)
            }
            dialect = newDialect
            return true
        case .other:
            token.matched(.other, text: otherText(line, source), indent: 0)
            return true
        }
    }

    /// The text of a line inside a doc string or description: de-indented and unescaped.
    func otherText(_ line: SourceLine, _ source: SourceText) -> String {
        let text: String
        if indentToRemove > line.indent {
            text = source.string(line.trimmedStart, line.end)
        } else {
            text = source.string(source.offset(line.start, scalars: indentToRemove, end: line.end), line.end)
        }
        guard let delimiter = openDelimiter, let escaped = delimiter.escaped, line.end - line.trimmedStart >= 6,
            source.bytes[line.trimmedStart..<line.end].contains(UInt8(ascii: "\\"))
        else { return text }
        return text.replacingAll(escaped, with: delimiter.text)
    }

    mutating func matchDocStringSeparator(
        _ token: inout Token, _ line: SourceLine, _ source: SourceText, candidates: [DocStringDelimiter]
    ) -> Bool {
        if let open = openDelimiter {
            guard source.hasPrefix(open.bytes, at: line.trimmedStart, end: line.end) else { return false }
            openDelimiter = nil
            indentToRemove = 0
            token.matched(.docStringSeparator, keyword: open.text)
            return true
        }
        for candidate in candidates where source.hasPrefix(candidate.bytes, at: line.trimmedStart, end: line.end) {
            let mediaType = source.trimmedString(line.trimmedStart + candidate.bytes.count, line.end)
            openDelimiter = candidate
            indentToRemove = line.indent
            token.matched(.docStringSeparator, text: mediaType, keyword: candidate.text)
            return true
        }
        return false
    }

    private func matchTitle(
        _ type: TokenType, _ keywords: KeywordList, _ token: inout Token, _ line: SourceLine, _ source: SourceText
    ) -> Bool {
        var length = 0
        guard let index = keywords.match(source, at: line.trimmedStart, end: line.end, colon: true, length: &length) else {
            return false
        }
        let title = source.trimmedString(line.trimmedStart + length, line.end)
        token.matched(type, text: title, keyword: keywords.texts[index])
        if type == .featureLine { token.dialect = dialect.code }
        return true
    }

    static let hash: [UInt8] = [UInt8(ascii: "#")]
    static let at: [UInt8] = [UInt8(ascii: "@")]
    static let pipe: [UInt8] = [UInt8(ascii: "|")]
}
