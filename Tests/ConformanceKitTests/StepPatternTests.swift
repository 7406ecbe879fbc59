import ConformanceKit
import ConformanceTestSupport
import Testing

@Suite("Step patterns")
struct StepPatternTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var pattern: String
        var text: String
        /// The arguments, or `nil` for no match.
        var arguments: [String]?
        var testDescription: String { "\(pattern) ~ \(text)" }
        init(_ pattern: String, _ text: String, _ arguments: [String]?) {
            self.pattern = pattern
            self.text = text
            self.arguments = arguments
        }
    }

    @Test(
        "{string} takes the text between double quotes",
        arguments: [
            Case(#"the user signs in as {string}"#, #"the user signs in as "alice""#, ["alice"]),
            Case(#"the user signs in as {string}"#, #"the user signs in as "alice smith""#, ["alice smith"]),
            Case(#"the user signs in as {string}"#, #"the user signs in as """#, [""]),
            Case(#"{string} is signed in"#, #""bob" is signed in"#, ["bob"]),
            Case(#"from {string} to {string}"#, #"from "a" to "b""#, ["a", "b"]),
            Case(#"the user signs in as {string}"#, "the user signs in as alice", nil),
            Case(#"the user signs in as {string}"#, #"the user signs in as "alice"#, nil),
            Case(#"say {string} now"#, #"say "a" b" now"#, nil),
        ])
    func string(_ test: Case) {
        #expect(StepPattern(test.pattern).match(test.text) == test.arguments)
    }

    @Test(
        "{int} takes an optionally negative whole number",
        arguments: [
            Case("{int} seconds pass", "30 seconds pass", ["30"]),
            Case("{int} seconds pass", "-5 seconds pass", ["-5"]),
            Case("{int} seconds pass", "007 seconds pass", ["007"]),
            Case("the server holds {int} passkeys", "the server holds 12 passkeys", ["12"]),
            Case("{int} seconds pass", "3.5 seconds pass", nil),
            Case("{int} seconds pass", "three seconds pass", nil),
            Case("{int} seconds pass", "- seconds pass", nil),
            Case("{int} seconds pass", "+3 seconds pass", nil),
            Case("{int} seconds pass", "٣ seconds pass", nil),
            Case("{int} seconds pass", " seconds pass", nil),
        ])
    func int(_ test: Case) {
        #expect(StepPattern(test.pattern).match(test.text) == test.arguments)
    }

    @Test(
        "{word} takes a run of characters without white space",
        arguments: [
            Case("exactly {int} request(s) {word} been issued", "exactly 1 request has been issued", ["1", "has"]),
            Case("exactly {int} request(s) {word} been issued", "exactly 2 requests have been issued", ["2", "have"]),
            Case("the target is {word}", "the target is android-15-gpm", ["android-15-gpm"]),
            Case("the target is {word}", "the target is two words", nil),
            Case("the target is {word}", "the target is ", nil),
        ])
    func word(_ test: Case) {
        #expect(StepPattern(test.pattern).match(test.text) == test.arguments)
    }

    @Test(
        "(s) makes a plural s optional, and only that",
        arguments: [
            Case("{int} second(s) pass", "1 second pass", ["1"]),
            Case("{int} second(s) pass", "2 seconds pass", ["2"]),
            Case("{int} second(s) pass", "2 secondss pass", nil),
            Case("{int} second(s) pass", "2 secondz pass", nil),
            Case("the app (beta) starts", "the app (beta) starts", []),
            Case("the app (beta) starts", "the app starts", nil),
        ])
    func optionalPlural(_ test: Case) {
        #expect(StepPattern(test.pattern).match(test.text) == test.arguments)
    }

    @Test(
        "a pattern matches the whole text, never a part of it",
        arguments: [
            Case("the user signs out", "the user signs out", []),
            Case("the user signs out", "the user signs out now", nil),
            Case("the user signs out", "and the user signs out", nil),
            Case("the user signs out", "the user signs", nil),
            Case("the user signs out", "the user signs out ", nil),
            Case("the user signs out", "", nil),
            Case("{word}", "", nil),
            Case("{string} is signed in", #""bob" is signed in twice"#, nil),
            Case("{int} seconds pass", "10 seconds pass by", nil),
        ])
    func wholeText(_ test: Case) {
        #expect(StepPattern(test.pattern).match(test.text) == test.arguments)
    }

    @Test(
        "backtracking tries shorter words and skipping an optional s, and drops the arguments of dead ends",
        arguments: [
            // The longest word would eat the literal after it.
            Case("{word}s are here", "cats are here", ["cat"]),
            Case("{word}-{word}", "a-b-c", ["a-b", "c"]),
            Case("{word}.{word}.{word}", "N2.6.AC01.V1", ["N2.6", "AC01", "V1"]),
            // Taking the optional s first fails; the match succeeds without it.
            Case("item(s)s", "items", []),
            Case("{int} item(s)s left", "3 items left", ["3"]),
            // A dead end after a {string} or {word} must not leave its argument behind.
            Case("{word} {string} end", #"x "y" end"#, ["x", "y"]),
            Case("{word}x{int}", "axbx5", ["axb", "5"]),
        ])
    func backtracking(_ test: Case) {
        #expect(StepPattern(test.pattern).match(test.text) == test.arguments)
    }

    @Test("a pattern keeps its source as its description")
    func description() {
        let source = "exactly {int} conditional registration request(s) {word} been issued for {string}"
        #expect(StepPattern(source).description == source)
        #expect(StepPattern(source).match(#"exactly 1 conditional registration request has been issued for "alice""#) == ["1", "has", "alice"])
    }

    @Test("the standard library matches each step of the package's criteria with exactly one definition")
    func standardLibraryIsUnambiguous() throws {
        let loaded = CriterionText.packageCriteria()
        let steps = Set(loaded.criteria.flatMap { $0.scenarios.flatMap { $0.steps.map(\.text) } })
        try #require(!steps.isEmpty)
        for step in steps {
            switch StepLibrary.standard.match(step) {
            case .found: break
            case .undefined: Issue.record("undefined: \(step)")
            case .ambiguous(let patterns): Issue.record("ambiguous: \(step) ~ \(patterns)")
            }
        }
    }
}
