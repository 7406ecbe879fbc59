// The reference's NDJSON message shapes and its token format.

/// Renders sources, documents, pickles and errors in the Cucumber message shapes the reference
/// Gherkin implementations print, one JSON object per line (keys sorted), and the token format of
/// their `.tokens` test files.
///
/// The text is written byte by byte into one growing UTF-8 buffer; ``write(_:source:uri:syntax:chunkSize:to:)``
/// hands it out in large chunks, for printing big files without holding all of their output.
public enum GherkinNDJSON {
    /// What to print for a source.
    public enum Output: String, Sendable, Hashable, CaseIterable {
        /// The `.tokens` format, or the errors' reference messages as plain lines.
        case tokens
        /// The `gherkinDocument` line, or `parseError` lines.
        case ast
        /// The `pickle` lines (ids continue the document's), or `parseError` lines.
        case pickles
        /// The `parseError` lines only (nothing for a source that parses).
        case errors
        /// The `source` line, then `gherkinDocument` and `pickle` lines, or `parseError` lines.
        case messages
    }

    /// Parses `source` once, writes `output` for it to `sink` in chunks of about `chunkSize` bytes,
    /// and returns the parse errors (empty if the source parses).
    ///
    /// `syntax` `nil` chooses it from the URI. Each chunk ends at a line end; the buffer passed to
    /// `sink` is valid only during the call.
    @discardableResult
    public static func write(
        _ output: Output, source: String, uri: String, syntax: GherkinParser.Syntax? = nil,
        chunkSize: Int = 1 << 20, to sink: (UnsafeRawBufferPointer) -> Void
    ) -> [GherkinError] {
        withoutActuallyEscaping(sink) { sink in
            let out = JSONBytes(flushThreshold: max(chunkSize, 1), sink: sink)
            let errors = write(output, source: source, uri: uri, syntax: syntax, into: out)
            out.flush()
            return errors
        }
    }

    /// The whole text of `output` for `source`, as UTF-8 bytes.
    public static func render(_ output: Output, source: String, uri: String, syntax: GherkinParser.Syntax? = nil) -> [UInt8] {
        let out = JSONBytes()
        write(output, source: source, uri: uri, syntax: syntax, into: out)
        return out.bytes
    }

    /// The `.tokens` format: one line per token, `(line:column)Type:(keywordType)keyword/text/items`,
    /// ending with `EOF`. If the source has errors, their reference messages are returned instead.
    public static func tokens(source: String, uri: String = "", syntax: GherkinParser.Syntax? = nil) -> String {
        string(render(.tokens, source: source, uri: uri, syntax: syntax))
    }

    /// `{"source":{...}}`: the source text with its URI and media type.
    public static func source(_ source: String, uri: String, syntax: GherkinParser.Syntax? = nil) -> String {
        let out = JSONBytes()
        out.sourceLine(data: source, mediaType: (syntax ?? .forURI(uri)).mediaType, uri: uri)
        return string(out.bytes)
    }

    /// `{"gherkinDocument":{...}}` for a parsed source, or its `parseError` lines.
    public static func ast(source: String, uri: String) -> String { string(render(.ast, source: source, uri: uri)) }

    /// `{"pickle":{...}}` lines for a parsed source (ids continue the document's), or its `parseError` lines.
    public static func pickles(source: String, uri: String) -> String { string(render(.pickles, source: source, uri: uri)) }

    /// The `parseError` lines of a source (empty if it parses).
    public static func errors(source: String, uri: String) -> String { string(render(.errors, source: source, uri: uri)) }

    /// The whole stream the reference prints for one source: `source`, then `gherkinDocument`
    /// and `pickle` lines, or `parseError` lines if it does not parse.
    public static func messages(source: String, uri: String) -> String { string(render(.messages, source: source, uri: uri)) }

    /// `{"gherkinDocument":{...}}` for a document.
    public static func ast(_ document: GherkinDocument) -> String {
        let out = JSONBytes()
        out.documentLine(document)
        return string(out.bytes)
    }

    /// One `{"pickle":{...}}` line per pickle.
    public static func pickles(_ pickles: [Pickle]) -> String {
        let out = JSONBytes()
        for pickle in pickles { out.pickleLine(pickle) }
        return string(out.bytes)
    }

    /// One `{"parseError":{...}}` line per error.
    public static func errors(_ errors: [GherkinError], uri: String) -> String {
        let out = JSONBytes()
        for error in errors { out.parseErrorLine(error, uri: uri) }
        return string(out.bytes)
    }

    // MARK: Details

    private static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @discardableResult
    private static func write(
        _ output: Output, source: String, uri: String, syntax: GherkinParser.Syntax?, into out: JSONBytes
    ) -> [GherkinError] {
        let parser = GherkinParser(syntax: syntax)
        if output == .tokens {
            let run = parser.run(source, uri: uri, ids: IDGenerator(), recordTokens: true)
            let errors = run.result.errors
            if errors.isEmpty {
                for token in run.tokens {
                    out.tokenLine(token)
                    out.endLine()
                }
            } else {
                for error in errors {
                    out.text(error.description)
                    out.endLine()
                }
            }
            return errors
        }
        var ids = IDGenerator()
        let result = parser.parse(source, uri: uri, ids: &ids)
        if output == .messages {
            out.sourceLine(data: source, mediaType: (syntax ?? .forURI(uri)).mediaType, uri: uri)
        }
        guard let document = result.document else {
            for error in result.errors { out.parseErrorLine(error, uri: uri) }
            return result.errors
        }
        if output == .ast || output == .messages {
            out.documentLine(document)
        }
        if output == .pickles || output == .messages {
            out.pickleLines(of: document, uri: uri, ids: &ids)
        }
        return result.errors
    }
}
