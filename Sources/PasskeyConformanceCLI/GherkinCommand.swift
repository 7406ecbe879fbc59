import Foundation
import Gherkin

/// `gherkin`: a Gherkin file as tokens, AST, pickles or errors in the official corpus's NDJSON.
enum GherkinCommand {
    static let spec = CommandSpec(
        name: "gherkin", summary: "Print a Gherkin file's tokens, AST, pickles or errors as the official corpus does.",
        usage: "gherkin tokens|ast|pickles|errors|messages <file>", options: [], flags: [], positionals: (2, 2, "what to print and a file"))

    static func run(_ parsed: ParsedArguments) throws -> Int32 {
        let what = parsed.positionals[0]
        let path = parsed.positionals[1]
        guard let output = GherkinNDJSON.Output(rawValue: what) else {
            throw UsageError("unknown output '\(what)'; use tokens, ast, pickles, errors or messages", command: spec.name)
        }
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read \(Output.inline(path))", command: spec.name)
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
