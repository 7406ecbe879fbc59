import ConformanceModel
/// A Cucumber tag expression such as `@core and not (@android or @wip)`.
///
/// Grammar: `or` binds loosest, then `and`, then `not`; parentheses group; a tag is `@` followed by
/// characters other than white space and parentheses (a backslash escapes `(`, `)`, `\` and space).
public indirect enum TagExpression: Sendable, Hashable, CustomStringConvertible {
    /// Matches when the set contains this tag (written with its `@`).
    case tag(String)
    /// Matches when the inner expression does not.
    case not(TagExpression)
    /// Matches when both sides match.
    case and(TagExpression, TagExpression)
    /// Matches when either side matches.
    case or(TagExpression, TagExpression)
    /// The empty expression: matches everything.
    case always

    /// A syntax error with the 1-based column where it was found.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The whole expression as given.
        public var expression: String
        /// The 1-based column of the problem within `expression`.
        public var column: Int
        /// What is wrong at that column.
        public var message: String
        /// The expression, the column and the message, for a usage error.
        public var description: String { "tag expression \"\(expression)\", column \(column): \(message)" }
    }

    /// The longest expression accepted, in characters: far more than any real filter, and short
    /// enough that the chain of `and`/`or` it can hold stays a shallow tree.
    public static let maximumLength = 4096
    /// The deepest nesting of parentheses and `not` accepted.
    public static let maximumDepth = 64

    /// Parses an expression; throws `SyntaxError` with the column of the first problem.
    ///
    /// An expression longer than `maximumLength` characters or nested deeper than `maximumDepth`
    /// is a syntax error too, so that no input can exhaust the stack of the parser or the matcher.
    public static func parse(_ text: String) throws(SyntaxError) -> TagExpression {
        let length = text.count
        guard length <= maximumLength else {
            throw SyntaxError(
                expression: String(text.prefix(60)) + "…", column: maximumLength + 1,
                message: "the expression has \(length) characters; at most \(maximumLength) are accepted")
        }
        var parser = Parser(text: text)
        return try parser.parseAll()
    }

    /// Whether a set of tags (with their `@`) satisfies the expression.
    public func matches(_ tags: Set<String>) -> Bool {
        switch self {
        case .always: true
        case .tag(let name): tags.contains(name)
        case .not(let inner): !inner.matches(tags)
        case .and(let lhs, let rhs): lhs.matches(tags) && rhs.matches(tags)
        case .or(let lhs, let rhs): lhs.matches(tags) || rhs.matches(tags)
        }
    }

    /// The expression fully parenthesized, for logs and error messages (`always` reads `true`).
    public var description: String {
        switch self {
        case .always: "true"
        case .tag(let name): name
        case .not(let inner): "not ( \(inner) )"
        case .and(let lhs, let rhs): "( \(lhs) and \(rhs) )"
        case .or(let lhs, let rhs): "( \(lhs) or \(rhs) )"
        }
    }

    private struct Parser {
        enum Token: Equatable {
            case open, close, and, or, not
            case tag(String)
        }

        let text: String
        var tokens: [(token: Token, column: Int)] = []
        var index = 0
        var depth = 0

        init(text: String) { self.text = text }

        mutating func parseAll() throws(SyntaxError) -> TagExpression {
            try tokenize()
            if tokens.isEmpty { return .always }
            let expression = try parseOr()
            if index < tokens.count {
                throw error(at: tokens[index].column, "unexpected \(describe(tokens[index].token))")
            }
            return expression
        }

        func error(at column: Int, _ message: String) -> SyntaxError {
            SyntaxError(expression: text, column: column, message: message)
        }

        func describe(_ token: Token) -> String {
            switch token {
            case .open: "\"(\""
            case .close: "\")\""
            case .and: "\"and\""
            case .or: "\"or\""
            case .not: "\"not\""
            case .tag(let name): "tag \(name)"
            }
        }

        mutating func tokenize() throws(SyntaxError) {
            let characters = Array(text)
            var position = 0
            while position < characters.count {
                let character = characters[position]
                if character.isWhitespace {
                    position += 1
                    continue
                }
                if character == "(" {
                    tokens.append((.open, position + 1))
                    position += 1
                    continue
                }
                if character == ")" {
                    tokens.append((.close, position + 1))
                    position += 1
                    continue
                }
                let start = position
                var word = ""
                while position < characters.count {
                    let current = characters[position]
                    if current == "\\" {
                        guard position + 1 < characters.count else {
                            throw error(at: position + 1, "a backslash at the end escapes nothing")
                        }
                        let next = characters[position + 1]
                        guard next == "(" || next == ")" || next == "\\" || next.isWhitespace else {
                            throw error(at: position + 1, "only \"(\", \")\", \"\\\" and white space can be escaped")
                        }
                        word.append(next)
                        position += 2
                        continue
                    }
                    if current.isWhitespace || current == "(" || current == ")" { break }
                    word.append(current)
                    position += 1
                }
                switch word {
                case "and": tokens.append((.and, start + 1))
                case "or": tokens.append((.or, start + 1))
                case "not": tokens.append((.not, start + 1))
                default:
                    guard word.hasPrefix("@"), word.count > 1 else {
                        throw error(at: start + 1, "expected a tag starting with \"@\", an operator or a parenthesis, found \"\(word)\"")
                    }
                    tokens.append((.tag(word), start + 1))
                }
            }
        }

        mutating func parseOr() throws(SyntaxError) -> TagExpression {
            var lhs = try parseAnd()
            while index < tokens.count, tokens[index].token == .or {
                index += 1
                lhs = .or(lhs, try parseAnd())
            }
            return lhs
        }

        mutating func parseAnd() throws(SyntaxError) -> TagExpression {
            var lhs = try parseNot()
            while index < tokens.count, tokens[index].token == .and {
                index += 1
                lhs = .and(lhs, try parseNot())
            }
            return lhs
        }

        mutating func parseNot() throws(SyntaxError) -> TagExpression {
            guard index < tokens.count else {
                throw error(at: text.count + 1, "the expression ends where a tag or \"(\" is expected")
            }
            let (token, column) = tokens[index]
            if token == .not || token == .open {
                guard depth < TagExpression.maximumDepth else {
                    throw error(at: column, "nested deeper than \(TagExpression.maximumDepth) levels of parentheses and \"not\"")
                }
                depth += 1
            }
            defer { if token == .not || token == .open { depth -= 1 } }
            switch token {
            case .not:
                index += 1
                return .not(try parseNot())
            case .open:
                index += 1
                let inner = try parseOr()
                guard index < tokens.count, tokens[index].token == .close else {
                    throw error(at: column, "this \"(\" is never closed")
                }
                index += 1
                return inner
            case .tag(let name):
                index += 1
                return .tag(name)
            case .close, .and, .or:
                throw error(at: column, "expected a tag, \"not\" or \"(\" but found \(describe(token))")
            }
        }
    }
}
