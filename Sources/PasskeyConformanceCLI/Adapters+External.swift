import ConformanceJSONRPC
import ConformanceKit
import Foundation

extension Adapters {
    /// An adapter process speaking JSON-RPC over stdio, started through `/bin/sh -c`.
    static func external(_ line: String, parsed: ParsedArguments, command: String) throws -> (
        adapter: any RelyingPartyAdapter, transport: String, command: String?
    ) {
        var configuration = JSONRPCAdapter.Configuration()
        if let text = parsed.value("call-timeout") {
            guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                throw UsageError("--call-timeout must be a number of seconds between 0 and 3600, found '\(text)'", command: command)
            }
            configuration.callTimeout = .milliseconds(Int64(seconds * 1000))
        }
        if let text = parsed.value("launch-timeout") {
            guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                throw UsageError("--launch-timeout must be a number of seconds between 0 and 3600, found '\(text)'", command: command)
            }
            configuration.launchTimeout = .milliseconds(Int64(seconds * 1000))
        }
        if let text = parsed.value("test-case-timeout") {
            guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                throw UsageError("--test-case-timeout must be a number of seconds between 0 and 86400, found '\(text)'", command: command)
            }
            configuration.testCaseTimeout = .milliseconds(Int64(seconds * 1000))
        }
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("--adapter-command is empty", command: command)
        }
        return (JSONRPCAdapter(commandLine: line, configuration: configuration), "json-rpc", line)
    }
}
