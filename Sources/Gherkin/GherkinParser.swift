// The parser: tokens in, AST out, every error collected.

/// Parses Gherkin source text into a ``GherkinDocument``.
///
/// The parser is the state machine of the reference grammar, compiled from the grammar itself, with
/// the reference error recovery: a line the grammar does not allow is reported and skipped, and
/// parsing goes on, so one parse reports every error (up to eleven, where the reference stops).
///
/// ```swift
/// let result = GherkinParser().parse(text, uri: "features/login.feature")
/// let document = try result.get()
/// ```
public struct GherkinParser: Sendable {
    /// Which flavour of Gherkin a source is written in.
    public enum Syntax: String, Sendable, Hashable, CaseIterable {
        /// Ordinary `.feature` files.
        case classic
        /// Markdown with Gherkin, `.feature.md` files.
        case markdown

        /// The syntax for a file name: `markdown` for names ending in `.md`, else `classic`.
        public static func forURI(_ uri: String) -> Syntax { uri.hasSuffix(".md") ? .markdown : .classic }

        /// The media type of a source written in this syntax, as in NDJSON `source` messages.
        public var mediaType: String {
            switch self {
            case .classic: "text/x.cucumber.gherkin+plain"
            case .markdown: "text/x.cucumber.gherkin+markdown"
            }
        }
    }

    /// The outcome of a parse: the document, or the errors.
    public struct Result: Sendable, Hashable {
        /// The document; `nil` when there are errors (the reference builds none then).
        public var document: GherkinDocument?
        /// Every error, in the order found.
        public var errors: [GherkinError]
        /// The id generator after the parse, for compiling pickles whose ids continue the document's.
        public var ids: IDGenerator

        /// The document, or the errors thrown as ``GherkinErrors``.
        public func get() throws(GherkinErrors) -> GherkinDocument {
            if let document, errors.isEmpty { return document }
            throw GherkinErrors(errors)
        }
    }

    /// The dialect code used until a `# language:` header says otherwise.
    public var defaultLanguage: String
    /// The syntax, or `nil` to choose it from the URI (``Syntax/forURI(_:)``).
    public var syntax: Syntax?

    /// Creates a parser.
    public init(defaultLanguage: String = "en", syntax: Syntax? = nil) {
        self.defaultLanguage = defaultLanguage
        self.syntax = syntax
    }

    /// Parses `source`; ids start at `"0"`.
    public func parse(_ source: String, uri: String) -> Result {
        var ids = IDGenerator()
        return parse(source, uri: uri, ids: &ids)
    }

    /// Parses `source`, taking ids from `ids`.
    public func parse(_ source: String, uri: String, ids: inout IDGenerator) -> Result {
        let run = run(source, uri: uri, ids: ids, recordTokens: false)
        ids = run.result.ids
        return run.result
    }

    /// Parses raw bytes. Invalid UTF-8 is decoded lossily (each bad sequence becomes U+FFFD), as the
    /// JavaScript reference reads files, so it never stops a parse; it shows up in names and text.
    public func parse(bytes: some Collection<UInt8>, uri: String) -> Result {
        parse(String(decoding: bytes, as: UTF8.self), uri: uri)
    }

    struct Run {
        var result: Result
        var tokens: [Token]
    }

    func run(_ source: String, uri: String, ids: IDGenerator, recordTokens: Bool) -> Run {
        let text = SourceText(source)
        switch syntax ?? Syntax.forURI(uri) {
        case .classic:
            var session = ParseSession(
                source: text, matcher: ClassicTokenMatcher(dialect: defaultLanguage), ids: ids, recordTokens: recordTokens)
            return session.run(uri: uri)
        case .markdown:
            var session = ParseSession(
                source: text, matcher: MarkdownTokenMatcher(dialect: defaultLanguage), ids: ids, recordTokens: recordTokens)
            return session.run(uri: uri)
        }
    }
}

/// Raised internally when the error limit is passed: the reference stops parsing there.
struct TooManyErrors: Error {}

/// One parse: the token stream, the state machine, the AST builder and the errors.
struct ParseSession<Matcher: TokenMatcher> {
    let source: SourceText
    var matcher: Matcher
    var builder: ASTBuilder
    let machine = ParserStateMachine.shared
    var nextLine = 0
    /// Tokens read ahead by a look-ahead, to be consumed before new lines.
    var queue: [Token] = []
    var queueHead = 0
    var errors: [GherkinError] = []
    var messages: Set<String> = []

    /// The reference stops after the eleventh distinct error.
    static var errorLimit: Int { 10 }

    init(source: SourceText, matcher: Matcher, ids: IDGenerator, recordTokens: Bool) {
        self.source = source
        self.matcher = matcher
        self.builder = ASTBuilder(ids: ids, recordsTokens: recordTokens)
    }

    mutating func run(uri: String) -> GherkinParser.Run {
        matcher.reset()
        builder.startRule(.gherkinDocument)
        do throws(TooManyErrors) {
            var state = machine.start
            while true {
                var token = readToken()
                state = try match(state, &token)
                if token.isEOF { break }
            }
            try ast { (b: inout ASTBuilder) throws(GherkinError) in try b.endRule() }
        } catch {
            // Parsing stopped at the error limit; the errors collected so far are the result.
        }
        var document = errors.isEmpty ? builder.document : nil
        document?.uri = uri
        return GherkinParser.Run(
            result: GherkinParser.Result(document: document, errors: errors, ids: builder.ids),
            tokens: builder.builtTokens)
    }

    // MARK: Tokens

    mutating func readToken() -> Token {
        if queueHead < queue.count {
            let token = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            return token
        }
        return scanToken()
    }

    mutating func scanToken() -> Token {
        if nextLine < source.lines.count {
            let line = source.lines[nextLine]
            nextLine += 1
            return Token(line: line)
        }
        nextLine += 1
        return Token(endOfFileAfter: source.lines.count)
    }

    /// Asks the matcher; an error it raises is recorded and counts as no match.
    mutating func tryMatch(_ type: TokenType, _ token: inout Token) throws(TooManyErrors) -> Bool {
        if token.isEOF && type != .eof { return false }
        do {
            return try matcher.match(type, &token, in: source)
        } catch {
            try add(error)
            return false
        }
    }

    // MARK: States

    mutating func match(_ state: Int, _ token: inout Token) throws(TooManyErrors) -> Int {
        for index in machine.states[state].transitions {
            let transition = machine.transitions[index]
            guard try tryMatch(transition.token, &token) else { continue }
            if let rule = transition.lookahead, try !lookahead(rule) { continue }
            for _ in 0..<transition.endCount {
                try ast { (b: inout ASTBuilder) throws(GherkinError) in try b.endRule() }
            }
            for rule in machine.startedRules[transition.starts] { builder.startRule(rule) }
            builder.build(token)
            return transition.target
        }
        let expected = machine.states[state].expected.map(\.expectedName).joined(separator: ", ")
        if let line = token.line(in: source) {
            let got = source.trimmedString(line.trimmedStart, line.end)
            try add(
                GherkinError(
                    message: "expected: \(expected), got '\(got)'",
                    location: Location(line: token.lineNumber, column: token.column ?? line.indent + 1),
                    kind: .unexpectedToken))
        } else {
            try add(
                GherkinError(
                    message: "unexpected end of file, expected: \(expected)", location: Location(line: token.lineNumber),
                    kind: .unexpectedEndOfFile))
        }
        return state
    }

    /// Looks past blank lines, comments and tags for the line type `rule` needs; reads ahead
    /// without consuming.
    mutating func lookahead(_ rule: RuleType) throws(TooManyErrors) -> Bool {
        guard let hint = Grammar.lookahead(of: rule) else { return true }
        var index = queueHead
        while true {
            if index == queue.count { queue.append(scanToken()) }
            var token = queue[index]
            let found = try tryMatch(hint.target, &token)
            var skipped = false
            if !found {
                for type in [TokenType.empty, .comment, .tagLine] where hint.skip.contains(type) {
                    if try tryMatch(type, &token) {
                        skipped = true
                        break
                    }
                }
            }
            queue[index] = token
            if found { return true }
            if !skipped { return false }
            index += 1
        }
    }

    // MARK: Errors

    mutating func ast(_ action: (inout ASTBuilder) throws(GherkinError) -> Void) throws(TooManyErrors) {
        do {
            try action(&builder)
        } catch {
            try add(error)
        }
    }

    mutating func add(_ error: GherkinError) throws(TooManyErrors) {
        let key = error.description
        guard !messages.contains(key) else { return }
        messages.insert(key)
        errors.append(error)
        if errors.count > Self.errorLimit { throw TooManyErrors() }
    }
}
