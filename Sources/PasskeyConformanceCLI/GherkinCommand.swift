import Foundation
import Gherkin

/// `gherkin`: a Gherkin file as tokens, AST, pickles or errors in the official corpus's NDJSON.
struct GherkinCommand: CLICommand {
    static let spec = CommandSpec(
        name: "gherkin", summary: "Print a Gherkin file's tokens, AST, pickles or errors as the official corpus does.",
        usage: "gherkin tokens|ast|pickles|errors|messages <file>", options: [], positionals: .init(min: 2, max: 2, name: "what to print and a file"))

    /// What to print, and the file.
    var output: GherkinNDJSON.Output
    var path: String

    init(_ parsed: ParsedArguments) throws {
        let what = parsed.positionals[0]
        guard let output = GherkinNDJSON.Output(rawValue: what) else {
            throw parsed.usageError("unknown output '\(what)'; use tokens, ast, pickles, errors or messages")
        }
        self.output = output
        path = parsed.positionals[1]
    }

    func run() throws -> Int32 {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read \(Output.inline(path))", command: Self.spec.name)
        }
        let source = String(decoding: bytes, as: UTF8.self)
        // One parse; the text goes out in chunks of about 1 MiB as it is written. The token format
        // is plain text for people: a control or bidirectional character of the file is shown
        // escaped there (each chunk ends at a line end, so no character is split). The JSON outputs
        // escape control characters as JSON does and stay byte for byte the reference's.
        let errors = GherkinNDJSON.write(output, source: source, uri: path) { chunk in
            if output == .tokens {
                Output.write(Array(Output.visible(String(decoding: chunk, as: UTF8.self)).utf8), to: 1)
            } else {
                Output.write(Array(chunk), to: 1)
            }
        }
        return errors.isEmpty ? CLI.Status.ok : CLI.Status.nonConformant
    }
}
