// Tokens: one per source line, classified by a token matcher.

/// What a line was recognised as.
enum TokenType: Int, CaseIterable, Sendable {
    case none, eof, empty, comment, tagLine, featureLine, ruleLine, backgroundLine, scenarioLine
    case examplesLine, stepLine, docStringSeparator, tableRow, language, other

    /// The name in the token format (`FeatureLine`).
    var name: String {
        switch self {
        case .none: "None"
        case .eof: "EOF"
        case .empty: "Empty"
        case .comment: "Comment"
        case .tagLine: "TagLine"
        case .featureLine: "FeatureLine"
        case .ruleLine: "RuleLine"
        case .backgroundLine: "BackgroundLine"
        case .scenarioLine: "ScenarioLine"
        case .examplesLine: "ExamplesLine"
        case .stepLine: "StepLine"
        case .docStringSeparator: "DocStringSeparator"
        case .tableRow: "TableRow"
        case .language: "Language"
        case .other: "Other"
        }
    }

    /// The name in error messages (`#FeatureLine`).
    var expectedName: String { "#" + name }
}

/// A line (or the end of the file) and what the matcher made of it.
///
/// A token is matched several times while the parser tries its alternatives; every successful
/// match overwrites all the `matched…` fields.
///
/// Tokens are copied into the parser's queue and the AST builder, so they are kept small: the
/// line is an index into ``SourceText/lines``.
struct Token: Sendable {
    /// The index of the line in ``SourceText/lines``, or -1 at the end of the file.
    let lineIndex: Int
    /// The line number (for the end of file, one past the last line).
    let lineNumber: Int
    /// The indentation of the line.
    let lineIndent: Int
    var type: TokenType = .none
    var keywordType: StepKeywordType?
    var keyword: String?
    var text: String?
    /// Tags or table cells, with their positions.
    var items: [TableCell] = []
    var indent: Int = 0
    /// Set by each successful match to `indent + 1`; 0 until then.
    private var matchedColumn = 0
    /// The dialect in force; recorded for feature lines only, the one place it is used.
    var dialect: String = "en"

    init(line: SourceLine) {
        lineIndex = line.number - 1
        lineNumber = line.number
        lineIndent = line.indent
    }

    init(endOfFileAfter lineCount: Int) {
        lineIndex = -1
        lineNumber = lineCount + 1
        lineIndent = 0
    }

    var isEOF: Bool { lineIndex < 0 }

    /// The line, or `nil` at the end of the file.
    @inline(__always)
    func line(in source: SourceText) -> SourceLine? { lineIndex < 0 ? nil : source.lines[lineIndex] }

    /// The column of the last successful match, if any.
    var column: Int? { matchedColumn == 0 ? nil : matchedColumn }

    var location: Location { Location(line: lineNumber, column: column) }

    /// Records a successful match.
    @inline(__always)
    mutating func matched(
        _ type: TokenType, text: String? = nil, keyword: String? = nil, keywordType: StepKeywordType? = nil,
        indent: Int? = nil, items: [TableCell] = []
    ) {
        self.type = type
        self.text = text
        self.keyword = keyword
        self.keywordType = keywordType
        self.indent = indent ?? (lineIndex < 0 ? 0 : lineIndent)
        self.items = items
        self.matchedColumn = self.indent + 1
    }
}

/// Classifies lines; the parser asks it, one token type at a time, whether a line is of that type.
///
/// Matchers are stateful: a `# language:` header switches the dialect, and an opening doc string
/// delimiter changes how the following lines are read.
protocol TokenMatcher {
    /// Asks whether `token` is of `type`; on success fills the token's fields.
    mutating func match(_ type: TokenType, _ token: inout Token, in source: SourceText) throws(GherkinError) -> Bool
    /// Returns to the initial state (default dialect, no open doc string).
    mutating func reset()
}
