import Testing

@testable import Gherkin

@Suite("Pickle compiler")
struct PickleCompilerTests {
    let pickles: [Pickle]

    init() throws {
        let document = try GherkinParser().parse(Samples.login.text, uri: Samples.login.uri).get()
        pickles = PickleCompiler().compile(document, uri: Samples.login.uri)
    }

    @Test("One pickle per scenario and per example row")
    func count() {
        #expect(pickles.map(\.name) == ["Sign in", "Sign in as alice", "Sign in as bob", "Sign in as mallory", "Autofill"])
        #expect(pickles.allSatisfy { $0.uri == Samples.login.uri && $0.language == "en" })
    }

    @Test("Background steps come first; conjunctions take the previous type")
    func steps() {
        #expect(
            pickles[0].steps.map(\.text) == [
                "a registered passkey", "the user signs in", "the authenticator answers", "the session is created",
                "no password is asked",
            ])
        #expect(pickles[0].steps.map(\.type) == [.context, .action, .action, .outcome, .outcome])
        #expect(pickles[0].steps[2].argument?.docString?.mediaType == "json")
        // The rule's background follows the feature's.
        #expect(pickles[4].steps.map(\.text) == ["a registered passkey", "the autofill UI is shown", "the user picks the passkey"])
        #expect(pickles[4].steps.last?.type == .unknown)
    }

    @Test("Placeholders are replaced in names, texts and tables")
    func placeholders() throws {
        let alice = pickles[1]
        #expect(alice.steps.map(\.text) == ["a registered passkey", "the account alice", "the user signs in with:", "the result is ok"])
        let table = try #require(alice.steps[2].argument?.dataTable)
        #expect(table.rows.map { $0.cells.map(\.value) } == [["field", "value"], ["name", "alice"], ["pipe", "a | b"]])
        #expect(alice.location == Location(line: 31, column: 7))
        #expect(alice.astNodeIds.count == 2)
        #expect(alice.steps[1].astNodeIds.count == 2)
    }

    @Test("Tags are inherited from feature, scenario and examples")
    func tags() {
        #expect(pickles[0].tags.map(\.name) == ["@auth", "@smoke", "@happy"])
        #expect(pickles[1].tags.map(\.name) == ["@auth", "@smoke", "@ok"])
        #expect(pickles[3].tags.map(\.name) == ["@auth", "@smoke"])
    }

    @Test("Placeholders are replaced literally, one header cell after another")
    func literalReplacement() throws {
        let text = """
            Feature: f
              Scenario Outline: <a.b> and <c>
                Given x
                  \"\"\"<c>
                  <a.b>$1\\
                  \"\"\"

                Examples:
                  | a.b | c    |
                  | x$  | <a.b> |

            """
        let document = try GherkinParser().parse(text, uri: "x").get()
        let pickle = try #require(PickleCompiler().compile(document, uri: "x").first)
        // `<c>` becomes `<a.b>` after `<a.b>` was replaced, so it stays.
        #expect(pickle.name == "x$ and <a.b>")
        #expect(pickle.steps[0].argument?.docString?.mediaType == "<a.b>")
        #expect(pickle.steps[0].argument?.docString?.content == "x$$1\\")
    }

    @Test("No pickle for an outline without example rows; background only with steps")
    func emptyOutlines() throws {
        let text = """
            Feature: f
              Background:
                Given b
              Scenario Outline: no rows
                Given x
                Examples:
                  | a |
              Scenario: no steps

            """
        let document = try GherkinParser().parse(text, uri: "x").get()
        let pickles = PickleCompiler().compile(document, uri: "x")
        #expect(pickles.map(\.name) == ["no steps"])
        #expect(pickles[0].steps.isEmpty)
    }
}
