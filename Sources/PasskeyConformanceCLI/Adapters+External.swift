import ConformanceJSONRPC
import ConformanceKit
import Foundation

/// `--call-timeout`, `--launch-timeout` and `--test-case-timeout`: how long an adapter process has.
struct ExternalAdapterConfiguration: Sendable {
    var configuration = JSONRPCAdapter.Configuration()

    init(_ parsed: ParsedArguments) throws(UsageError) {
        func seconds(_ name: String, upTo limit: Int) throws(UsageError) -> Duration? {
            try parsed.parsed(name, described: "a number of seconds between 0 and \(limit)") { text in
                Double(text).flatMap { $0 > 0 && $0 <= Double(limit) ? Duration.milliseconds(Int64($0 * 1000)) : nil }
            }
        }
        if let timeout = try seconds("call-timeout", upTo: 3600) { configuration.callTimeout = timeout }
        if let timeout = try seconds("launch-timeout", upTo: 3600) { configuration.launchTimeout = timeout }
        if let timeout = try seconds("test-case-timeout", upTo: 86_400) { configuration.testCaseTimeout = timeout }
    }

    /// The adapter process's adapter.
    func adapter(commandLine: String) -> any RelyingPartyAdapter { JSONRPCAdapter(commandLine: commandLine, configuration: configuration) }
}
