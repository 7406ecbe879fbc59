import Foundation
import Testing

@testable import Gherkin

@Suite("Parser")
struct GherkinParserTests {
    @Test("An English feature: header, description, background, steps and arguments")
    func englishFeature() throws {
        let document = try GherkinParser().parse(Samples.login.text, uri: Samples.login.uri).get()
        #expect(document.uri == Samples.login.uri)
        #expect(document.comments.map(\.text) == ["# A comment before the feature"])
        let feature = try #require(document.feature)
        #expect(feature.keyword == "Feature")
        #expect(feature.name == "Passkey sign-in")
        #expect(feature.language == "en")
        #expect(feature.location == Location(line: 3, column: 1))
        #expect(feature.tags.map(\.name) == ["@auth", "@smoke"])
        #expect(feature.tags.map(\.location) == [Location(line: 2, column: 1), Location(line: 2, column: 7)])
        #expect(feature.description == "  The relying party lets users sign in\n  with a passkey.")
        #expect(feature.children.count == 4)

        guard case .background(let background) = feature.children[0] else {
            Issue.record("first child is not the background")
            return
        }
        #expect(background.steps.map(\.text) == ["a registered passkey"])

        guard case .scenario(let scenario) = feature.children[1] else {
            Issue.record("second child is not a scenario")
            return
        }
        #expect(scenario.name == "Sign in")
        #expect(scenario.tags.map(\.name) == ["@happy"])
        #expect(scenario.steps.map(\.keyword) == ["When ", "And ", "Then ", "But "])
        #expect(scenario.steps.map(\.keywordType) == [.action, .conjunction, .outcome, .conjunction])
        let docString = try #require(scenario.steps[1].docString)
        #expect(docString.mediaType == "json")
        #expect(docString.delimiter == "\"\"\"")
        #expect(docString.content == #"{"type": "webauthn.get"}"#)

        guard case .scenario(let outline) = feature.children[2] else {
            Issue.record("third child is not the outline")
            return
        }
        #expect(outline.examples.count == 2)
        #expect(outline.examples[0].name == "accepted")
        #expect(outline.examples[0].tableHeader?.cells.map(\.value) == ["user", "result"])
        #expect(outline.examples[0].tableBody.count == 2)
        let table = try #require(outline.steps[1].dataTable)
        #expect(table.rows[2].cells.map(\.value) == ["pipe", "a | b"])

        guard case .rule(let rule) = feature.children[3] else {
            Issue.record("fourth child is not the rule")
            return
        }
        #expect(rule.name == "Conditional mediation")
        #expect(rule.children.count == 2)
        #expect(feature.allScenarios.map(\.name) == ["Sign in", "Sign in as <user>", "Autofill"])
    }

    @Test("Ids are unique and deterministic")
    func ids() throws {
        let first = GherkinParser().parse(Samples.login.text, uri: "a")
        let second = GherkinParser().parse(Samples.login.text, uri: "a")
        #expect(first == second)
        let document = try first.get()
        let pickles = PickleCompiler().compile(document, uri: "a")
        var all = pickles.map(\.id) + pickles.flatMap { $0.steps.map(\.id) }
        all += document.feature!.tags.map(\.id)
        #expect(Set(all).count == all.count)
        // Pickle ids continue where the document's stop.
        #expect(Int(pickles.first!.steps.first!.id) == first.ids.next)
    }

    @Test("A `# language:` header switches the dialect")
    func french() throws {
        let feature = try #require(try GherkinParser().parse(Samples.french.text, uri: Samples.french.uri).get().feature)
        #expect(feature.language == "fr")
        #expect(feature.keyword == "Fonctionnalité")
        let scenario = try #require(feature.allScenarios.first)
        #expect(scenario.keyword == "Scénario")
        #expect(scenario.steps.map(\.keyword) == ["Soit ", "Quand ", "Alors "])
        #expect(scenario.steps.map(\.keywordType) == [.context, .action, .outcome])
    }

    @Test("Dialects are looked up by language code")
    func dialects() throws {
        #expect(Dialect.all.count == 80)
        let french = try #require(Dialect.named("fr"))
        #expect(french.feature.contains("Fonctionnalité"))
        #expect(Dialect.named("no-such") == nil)
        #expect(Dialect.english.given.contains("Given "))
        #expect(Dialect.english.stepKeywordTypes["* "] == .unknown)
        #expect(Dialect.english.stepKeywordTypes["When "] == .action)
        // Every dialect parses a minimal feature written in its own first keywords.
        for dialect in Dialect.all.values {
            let text = "# language: \(dialect.code)\n\(dialect.feature[0]): f\n  \(dialect.scenario[0]): s\n    \(dialect.given.last!)x\n"
            let document = try GherkinParser().parse(text, uri: "x").get()
            #expect(document.feature?.allScenarios.first?.steps.count == 1, "\(dialect.code)")
        }
    }

    @Test("Markdown with Gherkin: headings, bullets, tables, prose ignored")
    func markdown() throws {
        let feature = try #require(try GherkinParser().parse(Samples.markdown.text, uri: Samples.markdown.uri).get().feature)
        #expect(feature.name == "Markdown criteria")
        let scenario = try #require(feature.allScenarios.first)
        #expect(scenario.steps.map(\.text) == ["a bullet step", "it is a step"])
        #expect(scenario.steps[0].dataTable?.rows.map { $0.cells.map(\.value) } == [["a", "b"], ["1", "2"]])
        // The syntax follows the URI unless it is given.
        #expect(GherkinParser(syntax: .classic).parse(Samples.markdown.text, uri: Samples.markdown.uri).document == nil)
    }

    @Test("One parse reports every error, each with its position")
    func errors() throws {
        let result = GherkinParser().parse(Samples.broken.text, uri: Samples.broken.uri)
        #expect(result.document == nil)
        // Messages, order and positions are those of the reference (checked against gherkin-official 42).
        #expect(
            result.errors.map(\.description) == [
                "(7:5): expected: #EOF, #TableRow, #DocStringSeparator, #StepLine, #TagLine, #ExamplesLine, #ScenarioLine, #RuleLine, #Comment, #Empty, got 'this line is not allowed'",
                "(8:3): A tag may not contain whitespace",
                "(8:3): expected: #EOF, #TableRow, #DocStringSeparator, #StepLine, #TagLine, #ExamplesLine, #ScenarioLine, #RuleLine, #Comment, #Empty, got '@bad tag'",
                "(6:7): inconsistent cell count within the table",
                "(12:1): expected: #EOF, #TableRow, #DocStringSeparator, #StepLine, #TagLine, #ExamplesLine, #ScenarioLine, #RuleLine, #Comment, #Empty, got 'garbage at the end'",
            ])
        #expect(result.errors.map(\.kind) == [.unexpectedToken, .invalidTag, .unexpectedToken, .inconsistentCellCount, .unexpectedToken])
        #expect(throws: GherkinErrors.self) { try result.get() }
    }

    @Test("Parsing stops after the eleventh error, as the reference does")
    func errorLimit() {
        let text = "Feature: f\n  Scenario: s\n    Given x\n" + (1...30).map { "    not a step \($0)\n" }.joined()
        let result = GherkinParser().parse(text, uri: "x")
        #expect(result.errors.count == 11)
        #expect(result.errors.last?.location == Location(line: 14, column: 5))
    }

    @Test("The end of file is reported without a column")
    func endOfFile() {
        let result = GherkinParser().parse("Feature: f\n  Scenario: s\n    Given x\n      \"\"\"\n      open", uri: "x")
        #expect(result.errors.map(\.description) == ["(6:0): unexpected end of file, expected: #DocStringSeparator, #Other"])
        #expect(result.errors.first?.location == Location(line: 6))
    }

    @Test("Invalid UTF-8 is decoded lossily; NUL bytes are ordinary text")
    func badBytes() throws {
        var bytes = Array("Feature: caf".utf8) + [0xC3] + Array("\n  Scenario: a".utf8) + [0x00, 0xFF] + Array("b\n    Given x\n".utf8)
        var document = try GherkinParser().parse(bytes: bytes, uri: "x").get()
        #expect(document.feature?.name == "caf\u{FFFD}")
        #expect(document.feature?.allScenarios.first?.name == "a\u{0}\u{FFFD}b")
        bytes = [0xFF, 0xFE, 0x00]
        let result = GherkinParser().parse(bytes: bytes, uri: "x")
        #expect(result.errors.first?.location == Location(line: 1, column: 1))
        document = try GherkinParser().parse(bytes: [], uri: "x").get()
        #expect(document.feature == nil)
    }

    @Test("CRLF line endings read like LF; a byte order mark is skipped")
    func lineEndings() throws {
        let lf = try GherkinParser().parse(Samples.login.text, uri: "x").get()
        let crlf = try GherkinParser().parse(Samples.login.text.replacingOccurrences(of: "\n", with: "\r\n"), uri: "x").get()
        #expect(lf == crlf)
        let bom = try GherkinParser().parse("\u{FEFF}" + Samples.login.text, uri: "x").get()
        #expect(bom == lf)
    }

    @Test("A very long file parses in one go")
    func veryLong() throws {
        var text = "Feature: long\n"
        for i in 0..<5_000 {
            text += "  Scenario: s\(i)\n    Given step \(i)\n      | a | b |\n      | \(i) | x |\n"
        }
        let document = try GherkinParser().parse(text, uri: "long.feature").get()
        let pickles = PickleCompiler().compile(document, uri: "long.feature")
        #expect(pickles.count == 5_000)
        #expect(pickles.last?.steps.first?.argument?.dataTable?.rows.last?.cells.first?.value == "4999")
    }

    @Test("The AST round-trips through JSON")
    func codable() throws {
        let document = try GherkinParser().parse(Samples.login.text, uri: "x").get()
        let data = try JSONEncoder().encode(document)
        #expect(try JSONDecoder().decode(GherkinDocument.self, from: data) == document)
        let pickles = PickleCompiler().compile(document, uri: "x")
        #expect(try JSONDecoder().decode([Pickle].self, from: JSONEncoder().encode(pickles)) == pickles)
    }
}
