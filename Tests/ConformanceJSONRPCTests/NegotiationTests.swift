import ConformanceJSONRPC
import ConformanceKit
import Foundation
import Testing

/// `adapter.hello` over a real process: the harness says its version (1.2), and reads answers of other minors as
/// the protocol's versioning rules say.
@Suite("Version negotiation over JSON-RPC")
struct NegotiationTests {
    /// A shell adapter that writes the line it read to `echo`, answers `adapter.hello` with `result`,
    /// then reads until its input ends.
    static func adapter(result: String, echo: String) -> JSONRPCAdapter {
        let answer = #"{"id":1,"jsonrpc":"2.0","result":"# + result + "}"
        return JSONRPCAdapter(
            commandLine: "IFS= read -r hello; printf '%s\\n' \"$hello\" > '\(echo)'; printf '%s\\n' '\(answer)'; while read -r _; do :; done",
            configuration: .patient(terminationGrace: .milliseconds(500)))
    }

    static func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("hello-\(UUID().uuidString)").path
    }

    @Test("an unknown capability is ignored, not a protocol violation; hello carries the harness's version")
    func unknownCapability() async throws {
        let echo = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: echo) }
        let adapter = Self.adapter(
            result:
                #"{"capabilities":["signals","teleport"],"name":"future","protocolVersion":"1.4","relyingPartyIDs":["example.com"],"targets":["apple-18","apple-99"],"version":"9"}"#,
            echo: echo)
        let description = try await adapter.describe()
        await adapter.shutdown()
        #expect(description.capabilities == [.signals])
        #expect(description.ignoredCapabilities == ["teleport"])
        #expect(description.protocolVersion == "1.4")
        #expect(Suite.unknownTargets(of: description) == ["apple-99"])
        let hello = try String(contentsOfFile: echo, encoding: .utf8)
        #expect(hello.contains(#""protocolVersion":"\#(adapterProtocolVersion)""#), "\(hello)")
    }

    @Test("an answer without protocolVersion is read as an adapter of 1.0")
    func noVersion() async throws {
        let echo = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: echo) }
        let adapter = Self.adapter(
            result: #"{"capabilities":[],"name":"old","relyingPartyIDs":["example.com"],"targets":["apple-18"],"version":"1"}"#, echo: echo)
        let description = try await adapter.describe()
        await adapter.shutdown()
        #expect(description.protocolVersion == "1.0")
        #expect(!description.implements(.osFamily))
    }

    @Test("an invalid enum value in an answer is a protocol violation whose message lists the valid values")
    func invalidStatus() async throws {
        let script = """
            IFS= read -r l; printf '%s\\n' '{"id":1,"jsonrpc":"2.0","result":{"capabilities":[],"name":"x","protocolVersion":"1.1","relyingPartyIDs":["example.com"],"targets":["apple-18"],"version":"1"}}'
            IFS= read -r l; printf '%s\\n' '{"id":2,"jsonrpc":"2.0","result":{"session":"s1"}}'
            IFS= read -r l; printf '%s\\n' '{"id":3,"jsonrpc":"2.0","result":{"status":"signed_in"}}'
            while read -r _; do :; done
            """
        let adapter = JSONRPCAdapter(commandLine: script, configuration: .patient(terminationGrace: .milliseconds(500)))
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        await #expect {
            _ = try await session.perform(.signOut)
        } throws: { error in
            let text = "\(error)"
            return (error as? AdapterFault)?.kind == .protocolViolation && text.contains(#""signed_in" is not a valid value"#)
                && text.contains("the valid values are signed-in, second-factor-required") && text.contains("at status")
        }
        await adapter.shutdown()
    }
}
