import Foundation
import Testing

@testable import Gherkin

/// The NDJSON text as `JSONEncoder` renders it (sorted keys, slashes unescaped, one encoder per
/// line): the rendering the hand-written writer replaced, kept here to check that the two agree
/// byte for byte.
enum EncoderNDJSON {
    private struct SourceMessage: Encodable {
        let data: String
        let mediaType: String
        let uri: String
    }

    private struct ParseErrorMessage: Encodable {
        struct Reference: Encodable {
            let location: Location
            let uri: String
        }
        let message: String
        let source: Reference
    }

    static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "<unencodable>\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func source(_ source: String, uri: String) -> String {
        line(["source": SourceMessage(data: source, mediaType: GherkinParser.Syntax.forURI(uri).mediaType, uri: uri)])
    }

    static func errors(_ errors: [GherkinError], uri: String) -> String {
        errors.map { error in
            line(["parseError": ParseErrorMessage(message: error.description, source: .init(location: error.location, uri: uri))])
        }.joined()
    }

    static func pickles(_ pickles: [Pickle]) -> String { pickles.map { line(["pickle": $0]) }.joined() }

    /// `source`, `gherkinDocument` and `pickle` lines, or `source` and `parseError` lines.
    static func messages(source: String, uri: String) -> String {
        var ids = IDGenerator()
        let result = GherkinParser().parse(source, uri: uri, ids: &ids)
        var out = self.source(source, uri: uri)
        if let document = result.document {
            out += line(["gherkinDocument": document])
            out += pickles(PickleCompiler().compile(document, uri: uri, ids: &ids))
        } else {
            out += errors(result.errors, uri: uri)
        }
        return out
    }
}

/// Every character the escaping distinguishes: all of ASCII, and non-ASCII of every UTF-8 length.
private let awkward: String = {
    var text = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init)))
    text += "é€日本語🙂\u{2028}\u{2029}\u{FEFF}\u{7F}\u{85}\u{A0}/\\\"" + "\r\n"
    return text
}()

@Suite("NDJSON writer")
struct NDJSONWriterTests {
    @Test("Every character is escaped exactly as JSONEncoder escapes it")
    func escaping() {
        #expect(GherkinNDJSON.source(awkward, uri: "a/b.feature") == EncoderNDJSON.source(awkward, uri: "a/b.feature"))
        for scalar in awkward.unicodeScalars {
            let text = "x\(scalar)y"
            #expect(GherkinNDJSON.source(text, uri: "") == EncoderNDJSON.source(text, uri: ""), "U+\(String(scalar.value, radix: 16))")
        }
        #expect(GherkinNDJSON.source("", uri: "") == EncoderNDJSON.source("", uri: ""))
    }

    @Test("Every field, optional or not, and extreme numbers match JSONEncoder")
    func everyField() {
        let full = Pickle(
            id: awkward, uri: "dir/a.feature", location: Location(line: Int.max, column: Int.min), name: awkward,
            language: "en",
            steps: [
                PickleStep(
                    id: "1", text: awkward, type: .context,
                    argument: PickleStepArgument(
                        docString: PickleDocString(mediaType: "json", content: awkward, argumentIndex: 2),
                        dataTable: PickleTable(rows: [PickleTableRow(cells: [PickleTableCell(value: awkward), PickleTableCell(value: "")])], argumentIndex: 1)),
                    astNodeIds: ["2", "3"]),
                PickleStep(id: "4", text: "", type: .unknown, argument: PickleStepArgument(), astNodeIds: []),
                PickleStep(
                    id: "5", text: "t", type: .outcome, argument: PickleStepArgument(docString: PickleDocString(content: "c")),
                    astNodeIds: ["6"]),
                PickleStep(
                    id: "7", text: "t", type: .action, argument: PickleStepArgument(dataTable: PickleTable(rows: [])),
                    astNodeIds: ["8"]),
            ],
            tags: [PickleTag(name: "@a", astNodeId: "9"), PickleTag(name: awkward, astNodeId: "10")], astNodeIds: ["11"])
        let bare = Pickle(id: "0", uri: "", location: Location(line: 0), name: "", language: "", steps: [], tags: [], astNodeIds: [])
        let negative = Pickle(id: "-", uri: "", location: Location(line: -1, column: 10), name: "", language: "", steps: [], tags: [], astNodeIds: [])
        #expect(GherkinNDJSON.pickles([full, bare, negative]) == EncoderNDJSON.pickles([full, bare, negative]))

        let errors = [
            GherkinError(message: awkward, location: Location(line: 3, column: 1), kind: .invalidTag),
            GherkinError(message: "end", location: Location(line: 12), kind: .unexpectedEndOfFile),
        ]
        #expect(GherkinNDJSON.errors(errors, uri: awkward) == EncoderNDJSON.errors(errors, uri: awkward))

        let markdown = GherkinDocument(uri: nil, feature: Feature(location: Location(line: 1, column: 1), keyword: "", name: awkward))
        #expect(GherkinNDJSON.ast(markdown) == EncoderNDJSON.line(["gherkinDocument": markdown]))
        #expect(GherkinNDJSON.ast(GherkinDocument()) == EncoderNDJSON.line(["gherkinDocument": GherkinDocument()]))
    }

    @Test("A document with every kind of node and awkward text matches JSONEncoder")
    func awkwardDocument() {
        let cell = awkward.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "\r", with: "")
        let line = cell.replacingOccurrences(of: "\\|", with: "|")
        let source = """
            # \(line)
            @t1 @t2
            Feature: \(line)
              \(line)

              Background: b
                Given \(line)
                  \"\"\"json
                  \(line)
                  \"\"\"

              Rule: r
                @r
                Scenario Outline: o <a>
                  When <a> and \(line)
                    | <a> | \(cell) |
                  Examples: e
                    | a |
                    | \(cell) |
                  Examples: empty
            """
        let result = GherkinParser().parse(source, uri: "x.feature")
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.document?.feature?.children.count == 2)
        #expect(GherkinNDJSON.messages(source: source, uri: "x.feature") == EncoderNDJSON.messages(source: source, uri: "x.feature"))
    }

    @Test("Chunks end at line ends and add up to the whole text")
    func chunks() throws {
        let source = try Corpus.isAvailable ? Corpus.text("good", "rule.feature") : "Feature: F\n  Scenario: S\n    Given x\n"
        let whole = GherkinNDJSON.render(.messages, source: source, uri: "rule.feature")
        for size in [1, 100, 1 << 20, Int.max] {
            var pieces: [[UInt8]] = []
            let errors = GherkinNDJSON.write(.messages, source: source, uri: "rule.feature", chunkSize: size) { pieces.append(Array($0)) }
            #expect(errors.isEmpty)
            #expect(pieces.joined().elementsEqual(whole))
            #expect(pieces.allSatisfy { $0.last == UInt8(ascii: "\n") })
            #expect(size > whole.count ? pieces.count == 1 : pieces.count > 1)
        }
        let bad = "Feature: F\n  Scenario: S\n    Given x\n      | a |\n      | b | c |\n"
        var text: [UInt8] = []
        let errors = GherkinNDJSON.write(.errors, source: bad, uri: "bad.feature") { text.append(contentsOf: $0) }
        #expect(!errors.isEmpty)
        #expect(String(decoding: text, as: UTF8.self) == EncoderNDJSON.errors(errors, uri: "bad.feature"))
    }
}

@Suite(
    "NDJSON writer over the corpus",
    .enabled(if: Corpus.isAvailable, "The official Gherkin corpus is not at \(Corpus.root.path); set GHERKIN_TESTDATA"))
struct NDJSONWriterCorpusTests {
    @Test("Good file, as written and with CRLF: the same bytes as JSONEncoder", arguments: Corpus.sources(in: "good"))
    func good(_ name: String) throws {
        let uri = Corpus.uri("good", name)
        let source = try Corpus.text("good", name)
        for text in [source, source.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")] {
            let messages = GherkinNDJSON.messages(source: text, uri: uri)
            #expect(messages == EncoderNDJSON.messages(source: text, uri: uri))
            var ids = IDGenerator()
            let document = try GherkinParser().parse(text, uri: uri, ids: &ids).get()
            let pickles = PickleCompiler().compile(document, uri: uri, ids: &ids)
            #expect(GherkinNDJSON.ast(source: text, uri: uri) == EncoderNDJSON.line(["gherkinDocument": document]))
            #expect(GherkinNDJSON.pickles(source: text, uri: uri) == EncoderNDJSON.pickles(pickles))
            #expect(GherkinNDJSON.errors(source: text, uri: uri) == "")
        }
    }

    @Test("Bad file: the same bytes as JSONEncoder", arguments: Corpus.sources(in: "bad"))
    func bad(_ name: String) throws {
        let uri = Corpus.uri("bad", name)
        let source = try Corpus.text("bad", name)
        let errors = GherkinParser().parse(source, uri: uri).errors
        #expect(!errors.isEmpty)
        #expect(GherkinNDJSON.errors(source: source, uri: uri) == EncoderNDJSON.errors(errors, uri: uri))
        #expect(GherkinNDJSON.pickles(source: source, uri: uri) == EncoderNDJSON.errors(errors, uri: uri))
        #expect(GherkinNDJSON.messages(source: source, uri: uri) == EncoderNDJSON.messages(source: source, uri: uri))
    }
}
