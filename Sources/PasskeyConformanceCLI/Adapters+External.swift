import ConformanceKit

extension Adapters {
    static func external(_ line: String, parsed: ParsedArguments, command: String) throws -> (adapter: any RelyingPartyAdapter, transport: String, command: String?) {
        throw UsageError("--adapter-command is not wired yet", command: command)
    }
}
