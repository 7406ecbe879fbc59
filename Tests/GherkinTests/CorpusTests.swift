import Foundation
import Testing
import TestSupportCore

@testable import Gherkin

/// The comparison the corpus tests rely on tells values apart and ignores key order.
@Test("JSON values compare by value")
func jsonComparison() throws {
    #expect(try JSONValue.lines(#"{"a":1,"b":["x"]}"#) == JSONValue.lines(#"{"b":["x"],"a":1.0}"#))
    #expect(try JSONValue.lines(#"{"a":1}"#) != JSONValue.lines(#"{"a":2}"#))
    #expect(try JSONValue.lines(#"{"id":"1"}"#) != JSONValue.lines(#"{"id":1}"#))
    #expect(try JSONValue.lines(#"{"a":true}"#) != JSONValue.lines(#"{"a":1}"#))
    #expect(try JSONValue.lines(#"{"a":{}}"#) != JSONValue.lines(#"{"a":{"b":null}}"#))
    #expect(try JSONValue.lines("{}\n{}").count == 2)
}

/// Every file of the official corpus: tokens, AST and pickles of `good/`, errors of `bad/`.
@Suite(
    "Gherkin corpus",
    .enabled(
        if: Corpus.isAvailable,
        "The official Gherkin corpus (the testdata folder of github.com/cucumber/gherkin) is not at \(Corpus.root.path); set GHERKIN_TESTDATA to its location to run these tests"
    ),
    .heavy)
struct CorpusTests {
    @Test("The corpus holds the files this suite expects")
    func corpusIsComplete() {
        #expect(Corpus.sources(in: "good").count >= 50)
        #expect(Corpus.sources(in: "bad").count >= 10)
    }

    @Test("Good file: tokens, AST and pickles equal the golden files", arguments: Corpus.sources(in: "good"))
    func good(_ name: String) throws {
        let source = try Corpus.text("good", name)
        let uri = Corpus.uri("good", name)

        let expectedTokens = try Corpus.text("good", name + ".tokens")
        #expect(GherkinNDJSON.tokens(source: source, uri: uri) == expectedTokens)

        let result = GherkinParser().parse(source, uri: uri)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let expectedAST = try JSONValue.lines(Corpus.text("good", name + ".ast.ndjson"))
        let actualAST = try JSONValue.lines(GherkinNDJSON.ast(source: source, uri: uri))
        #expect(actualAST == expectedAST)

        let expectedPickles = try JSONValue.lines(Corpus.text("good", name + ".pickles.ndjson"))
        let actualPickles = try JSONValue.lines(GherkinNDJSON.pickles(source: source, uri: uri))
        #expect(actualPickles == expectedPickles)

        // The `.crlf` sources keep CRLF endings in a git checkout but may have LF in an archive or a
        // copy, while their golden `source` line always keeps CRLF: both sides are compared with
        // line endings normalised the same way, so the test holds for either kind of copy.
        let expectedSource = try Corpus.text("good", name + ".source.ndjson")
        let actualSource = GherkinNDJSON.source(source, uri: uri)
        #expect(try JSONValue.lines(Corpus.normalisingLineEndings(actualSource)) == JSONValue.lines(Corpus.normalisingLineEndings(expectedSource)))

        // The typed API agrees with the NDJSON rendering: pickle ids continue the document's.
        let document = try result.get()
        #expect(
            PickleCompiler().compile(document, uri: uri).map(\.id)
                == expectedPickles.compactMap { line in
                    if case .object(let o) = line, case .object(let p)? = o["pickle"], case .string(let id)? = p["id"] { id } else { nil }
                })
    }

    @Test("The source comparison treats CRLF and LF copies alike, and still tells texts apart")
    func sourceComparisonIsConsistent() throws {
        let lf = GherkinNDJSON.source("Feature: A\n  Scenario: B\n", uri: "x.feature")
        let crlf = GherkinNDJSON.source("Feature: A\r\n  Scenario: B\r\n", uri: "x.feature")
        let other = GherkinNDJSON.source("Feature: A\n  Scenario: C\n", uri: "x.feature")
        #expect(lf != crlf)
        #expect(try JSONValue.lines(Corpus.normalisingLineEndings(lf)) == JSONValue.lines(Corpus.normalisingLineEndings(crlf)))
        #expect(try JSONValue.lines(Corpus.normalisingLineEndings(lf)) != JSONValue.lines(Corpus.normalisingLineEndings(other)))
    }

    @Test(
        "Good file with CRLF line endings: the same tokens, AST and pickles",
        arguments: Corpus.sources(in: "good").filter { !$0.contains(".crlf.") })
    func goodWithCRLF(_ name: String) throws {
        let source = try Corpus.text("good", name)
        let crlf = source.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(crlf != source || !source.contains("\n"))
        let uri = Corpus.uri("good", name)
        #expect(GherkinNDJSON.tokens(source: crlf, uri: uri) == (try Corpus.text("good", name + ".tokens")))
        #expect(try JSONValue.lines(GherkinNDJSON.ast(source: crlf, uri: uri)) == JSONValue.lines(Corpus.text("good", name + ".ast.ndjson")))
        #expect(
            try JSONValue.lines(GherkinNDJSON.pickles(source: crlf, uri: uri))
                == JSONValue.lines(Corpus.text("good", name + ".pickles.ndjson")))
    }

    @Test("Bad file: exactly the golden errors", arguments: Corpus.sources(in: "bad"))
    func bad(_ name: String) throws {
        let source = try Corpus.text("bad", name)
        let uri = Corpus.uri("bad", name)
        let expected = try JSONValue.lines(Corpus.text("bad", name + ".errors.ndjson"))
        let actual = try JSONValue.lines(GherkinNDJSON.errors(source: source, uri: uri))
        #expect(!actual.isEmpty)
        #expect(actual == expected)
        let result = GherkinParser().parse(source, uri: uri)
        #expect(result.document == nil)
        #expect(throws: GherkinErrors.self) { try result.get() }
    }
}
