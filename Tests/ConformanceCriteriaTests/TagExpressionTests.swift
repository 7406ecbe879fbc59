import ConformanceCriteria
import ConformanceModel
import Testing

@Suite("Tag expressions")
struct TagExpressionTests {
    @Test(
        "precedence: or binds loosest, then and, then not; operators associate to the left",
        arguments: [
            ("@a or @b and @c", "( @a or ( @b and @c ) )"),
            ("@a and @b or @c", "( ( @a and @b ) or @c )"),
            ("not @a and @b", "( not ( @a ) and @b )"),
            ("not @a or @b", "( not ( @a ) or @b )"),
            ("@a and not @b or @c", "( ( @a and not ( @b ) ) or @c )"),
            ("@a or @b or @c", "( ( @a or @b ) or @c )"),
            ("@a and @b and @c", "( ( @a and @b ) and @c )"),
            ("not not @a", "not ( not ( @a ) )"),
            ("(@a or @b) and @c", "( ( @a or @b ) and @c )"),
            ("not (@a or @b)", "not ( ( @a or @b ) )"),
            ("@a and (@b or (@c and not @d))", "( @a and ( @b or ( @c and not ( @d ) ) ) )"),
            ("((@a))", "@a"),
            ("  @a\t and\n@b  ", "( @a and @b )"),
        ])
    func precedence(_ text: String, _ expected: String) throws {
        let expression = try TagExpression.parse(text)
        #expect(expression.description == expected)
    }

    @Test(
        "evaluation follows the precedence, not the reading order",
        arguments: [
            ("@a or @b and @c", ["@a"], true),
            ("@a or @b and @c", ["@b"], false),
            ("@a or @b and @c", ["@b", "@c"], true),
            ("(@a or @b) and @c", ["@a"], false),
            ("(@a or @b) and @c", ["@a", "@c"], true),
            ("not @a and @b", ["@b"], true),
            ("not @a and @b", ["@a", "@b"], false),
            ("not (@a and @b)", ["@a"], true),
            ("not (@a and @b)", ["@a", "@b"], false),
            ("@core and not @android", ["@core", "@apple"], true),
            ("@core and not @android", ["@core", "@android"], false),
        ])
    func evaluation(_ text: String, _ tags: [String], _ expected: Bool) throws {
        #expect(try TagExpression.parse(text).matches(Set(tags)) == expected)
    }

    @Test("an empty expression matches everything", arguments: ["", "   ", "\t\n"])
    func empty(_ text: String) throws {
        let expression = try TagExpression.parse(text)
        #expect(expression == .always)
        #expect(expression.matches([]))
        #expect(expression.matches(["@anything"]))
    }

    @Test(
        "a backslash escapes parentheses, backslashes and white space inside a tag",
        arguments: [
            (#"@a\ b"#, "@a b"),
            (#"@x\(y\)"#, "@x(y)"),
            (#"@a\\b"#, #"@a\b"#),
            (#"@a\)"#, "@a)"),
        ])
    func escapes(_ text: String, _ tag: String) throws {
        let expression = try TagExpression.parse(text)
        #expect(expression == .tag(tag))
        #expect(expression.matches([tag]))
    }

    @Test("an escaped parenthesis does not group")
    func escapedParenthesisDoesNotGroup() throws {
        #expect(try TagExpression.parse(#"@a\( or @b"#) == .or(.tag("@a("), .tag("@b")))
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        var kind: String
        var text: String
        var column: Int
        var message: String
        var testDescription: String { "\(kind): \(text)" }
    }

    static let malformed: [Malformed] = [
        .init(kind: "empty operand at the end", text: "@a and", column: 7, message: #"the expression ends where a tag or "(" is expected"#),
        .init(kind: "empty operand between operators", text: "@a and or @b", column: 8, message: #"expected a tag, "not" or "(" but found "or""#),
        .init(kind: "empty operand at the start", text: "and @a", column: 1, message: #"expected a tag, "not" or "(" but found "and""#),
        .init(kind: "empty parentheses", text: "@a and ()", column: 9, message: #"expected a tag, "not" or "(" but found ")""#),
        .init(kind: "unclosed parenthesis", text: "(@a or @b", column: 1, message: #"this "(" is never closed"#),
        .init(kind: "unclosed inner parenthesis", text: "@a and (@b or (@c)", column: 8, message: #"this "(" is never closed"#),
        .init(kind: "stray closing parenthesis", text: "@a)", column: 3, message: #"unexpected ")""#),
        .init(kind: "stray closing parenthesis after a group", text: "(@a or @b)) and @c", column: 11, message: #"unexpected ")""#),
        .init(
            kind: "word without @ at the start", text: "a and @b", column: 1,
            message: #"expected a tag starting with "@", an operator or a parenthesis, found "a""#),
        .init(
            kind: "word without @ later", text: "@a and wip", column: 8,
            message: #"expected a tag starting with "@", an operator or a parenthesis, found "wip""#),
        .init(kind: "a lone @", text: "@a or @", column: 7, message: #"expected a tag starting with "@", an operator or a parenthesis, found "@""#),
        .init(kind: "trailing or", text: "@a or", column: 6, message: #"the expression ends where a tag or "(" is expected"#),
        .init(kind: "trailing not", text: "@a and not", column: 11, message: #"the expression ends where a tag or "(" is expected"#),
        .init(kind: "only an operator", text: "not", column: 4, message: #"the expression ends where a tag or "(" is expected"#),
        .init(kind: "two tags without an operator", text: "@a @b", column: 4, message: "unexpected tag @b"),
        .init(kind: "escape of an ordinary character", text: #"@a\b"#, column: 3, message: #"only "(", ")", "\" and white space can be escaped"#),
        .init(kind: "backslash at the end", text: #"@a\"#, column: 3, message: "a backslash at the end escapes nothing"),
    ]

    @Test("syntax errors name the column of the problem", arguments: malformed)
    func syntaxErrors(_ input: Malformed) {
        do {
            let parsed = try TagExpression.parse(input.text)
            Issue.record("parsed as \(parsed)")
        } catch {
            #expect(error.column == input.column)
            #expect(error.message == input.message)
            #expect(error.expression == input.text)
        }
    }

    @Test("a syntax error's description quotes the expression and names the column")
    func syntaxErrorDescription() {
        do {
            _ = try TagExpression.parse("@a and")
            Issue.record("a trailing operator parsed")
        } catch {
            #expect(error.description == #"tag expression "@a and", column 7: the expression ends where a tag or "(" is expected"#)
        }
    }

    @Test("expressions are bounded: too long or too deep is a clear syntax error, never a crash")
    func bounds() throws {
        let nested = String(repeating: "(", count: 20_000) + "@a" + String(repeating: ")", count: 20_000)
        #expect(throws: TagExpression.SyntaxError.self) { try TagExpression.parse(nested) }
        do {
            _ = try TagExpression.parse(nested)
        } catch {
            #expect(error.message == "the expression has 40002 characters; at most 4096 are accepted")
        }
        let deep = String(repeating: "(", count: 65) + "@a" + String(repeating: ")", count: 65)
        do {
            _ = try TagExpression.parse(deep)
            Issue.record("65 levels parsed")
        } catch {
            #expect(error.column == 65)
            #expect(error.message == #"nested deeper than 64 levels of parentheses and "not""#)
        }
        #expect(throws: TagExpression.SyntaxError.self) { try TagExpression.parse(String(repeating: "not ", count: 65) + "@a") }
        // The deepest accepted nesting and the longest accepted chain parse and match.
        let deepest = try TagExpression.parse(String(repeating: "(", count: 64) + "@a" + String(repeating: ")", count: 64))
        #expect(deepest.matches(["@a"]))
        let chain = Array(repeating: "@a", count: 500).joined(separator: " and ")
        #expect(chain.count <= TagExpression.maximumLength)
        #expect(try TagExpression.parse(chain).matches(["@a"]))
    }
}
