import ConformanceKit
import ReferenceRP

/// Chooses the relying party a command runs against.
enum Adapters {
    static func make(_ parsed: ParsedArguments, command: String) throws -> (adapter: any RelyingPartyAdapter, transport: String, command: String?) {
        if let id = parsed.value("mutant") {
            guard let mutation = Mutation(rawValue: id) else {
                throw UsageError("unknown mutant '\(id)'; see 'passkey-conformance selftest --list-mutants'", command: command)
            }
            if parsed.value("adapter-command") != nil { throw UsageError("--mutant and --adapter-command exclude each other", command: command) }
            return (ReferenceRP(mutation: mutation), "in-process", nil)
        }
        if let line = parsed.value("adapter-command") {
            return try external(line, parsed: parsed, command: command)
        }
        return (ReferenceRP(), "in-process", nil)
    }
}
