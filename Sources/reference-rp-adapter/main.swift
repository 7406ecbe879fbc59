// The reference relying party as a stand-alone adapter: JSON-RPC 2.0 over stdin/stdout.
// `reference-rp-adapter [--mutant <id>]`; see Documentation/adapter-protocol.md.
import ConformanceJSONRPC
import Foundation
import ReferenceRP

var mutation: Mutation?
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 2, arguments[0] == "--mutant" {
    guard let chosen = Mutation(rawValue: arguments[1]) else {
        FileHandle.standardError.write(Data("reference-rp-adapter: unknown mutant '\(arguments[1])'\n".utf8))
        exit(64)
    }
    mutation = chosen
} else if !arguments.isEmpty {
    FileHandle.standardError.write(Data("usage: reference-rp-adapter [--mutant <id>]\n".utf8))
    exit(64)
}
await JSONRPCAdapterServer(adapter: ReferenceRP(mutation: mutation)).run()
