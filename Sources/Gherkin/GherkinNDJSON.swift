// The reference's NDJSON message shapes and its token format.

import Foundation

/// Renders sources, documents, pickles and errors in the Cucumber message shapes the reference
/// Gherkin implementations print, one JSON object per line (keys sorted), and the token format of
/// their `.tokens` test files.
public enum GherkinNDJSON {
    /// The `.tokens` format: one line per token, `(line:column)Type:(keywordType)keyword/text/items`,
    /// ending with `EOF`. If the source has errors, their reference messages are returned instead.
    public static func tokens(source: String, uri: String = "", syntax: GherkinParser.Syntax? = nil) -> String {
        let run = GherkinParser(syntax: syntax).run(source, uri: uri, ids: IDGenerator(), recordTokens: true)
        if !run.result.errors.isEmpty {
            return run.result.errors.map { $0.description + "\n" }.joined()
        }
        return run.tokens.map(format).joined(separator: "\n") + "\n"
    }

    /// `{"source":{...}}`: the source text with its URI and media type.
    public static func source(_ source: String, uri: String, syntax: GherkinParser.Syntax? = nil) -> String {
        let mediaType = (syntax ?? .forURI(uri)).mediaType
        return line(["source": SourceMessage(data: source, mediaType: mediaType, uri: uri)])
    }

    /// `{"gherkinDocument":{...}}` for a parsed source, or its `parseError` lines.
    public static func ast(source: String, uri: String) -> String {
        let result = GherkinParser().parse(source, uri: uri)
        guard let document = result.document else { return errors(result.errors, uri: uri) }
        return ast(document)
    }

    /// `{"pickle":{...}}` lines for a parsed source (ids continue the document's), or its `parseError` lines.
    public static func pickles(source: String, uri: String) -> String {
        var ids = IDGenerator()
        let result = GherkinParser().parse(source, uri: uri, ids: &ids)
        guard let document = result.document else { return errors(result.errors, uri: uri) }
        return pickles(PickleCompiler().compile(document, uri: uri, ids: &ids))
    }

    /// The `parseError` lines of a source (empty if it parses).
    public static func errors(source: String, uri: String) -> String {
        errors(GherkinParser().parse(source, uri: uri).errors, uri: uri)
    }

    /// The whole stream the reference prints for one source: `source`, then `gherkinDocument`
    /// and `pickle` lines, or `parseError` lines if it does not parse.
    public static func messages(source: String, uri: String) -> String {
        var ids = IDGenerator()
        let result = GherkinParser().parse(source, uri: uri, ids: &ids)
        var out = self.source(source, uri: uri)
        if let document = result.document {
            out += ast(document)
            out += pickles(PickleCompiler().compile(document, uri: uri, ids: &ids))
        } else {
            out += errors(result.errors, uri: uri)
        }
        return out
    }

    /// `{"gherkinDocument":{...}}` for a document.
    public static func ast(_ document: GherkinDocument) -> String { line(["gherkinDocument": document]) }

    /// One `{"pickle":{...}}` line per pickle.
    public static func pickles(_ pickles: [Pickle]) -> String { pickles.map { line(["pickle": $0]) }.joined() }

    /// One `{"parseError":{...}}` line per error.
    public static func errors(_ errors: [GherkinError], uri: String) -> String {
        errors.map { error in
            line([
                "parseError": ParseErrorMessage(
                    message: error.description, source: .init(location: error.location, uri: uri))
            ])
        }.joined()
    }

    // MARK: Details

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

    private static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func format(_ token: Token) -> String {
        if token.isEOF { return "EOF" }
        var out = "(\(token.lineNumber):\(token.column ?? 0))\(token.type.name):"
        if let keyword = token.keyword, !keyword.isEmpty {
            out += "(\(token.keywordType?.rawValue ?? ""))\(keyword)"
        }
        out += "/\(token.text ?? "")/"
        out += token.items.map { "\($0.location.column ?? 0):\($0.value)" }.joined(separator: ",")
        return out
    }
}
