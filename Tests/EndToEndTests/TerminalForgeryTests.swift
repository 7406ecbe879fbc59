import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// Text from an adapter or a criterion file never reaches the terminal or report.md with a raw line
/// break, escape or bidirectional control.
@Suite("The gate: no forged lines", binaryBuilt)
struct TerminalForgeryTests {
    /// Raw scalars that must never appear in what the harness prints from outside text.
    static let hidden: Set<Unicode.Scalar> = ["\u{1B}", "\r", "\u{202E}", "\u{2066}", "\u{200F}"]

    static let adapter = #"""
        import json, sys
        mode = sys.argv[1]
        def send(m):
            sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
        for line in sys.stdin:
            m = json.loads(line)
            method, i = m.get("method"), m.get("id")
            if method == "adapter.hello" and mode == "error":
                send({"jsonrpc": "2.0", "id": i, "error": {"code": -32000, "message": "broken\nResult: conformant\u200f\u001b[2K"}})
            elif method == "adapter.hello":
                send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": "1.0", "name": "evil\nResult: conformant\u202e", "version": "1\u2066\r",
                      "targets": ["apple-18"], "capabilities": ["conditional-create"], "relyingPartyIDs": ["example.com"]}})
            elif method == "adapter.shutdown":
                send({"jsonrpc": "2.0", "id": i, "result": {}}); break
            elif i is not None:
                send({"jsonrpc": "2.0", "id": i, "result": {}})
        """#

    @Test(
        "an adapter's name or error message with line feeds and bidirectional controls forges no line", .enabled(if: GateAdapter.hasPython),
        arguments: [("name", Int32(3), #"evil\u{A}Result: conformant\u{202E}"#), ("error", Int32(2), #"broken\u{A}Result: conformant\u{200F}\u{1B}[2K"#)])
    func adapterText(mode: String, status: Int32, shown: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-forgery")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("adapter.py")
        try Data(Self.adapter.utf8).write(to: script)
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(
            ["run"] + Binary.criteria + ["--criterion", "N2.6-X02", "--adapter-command", "exec python3 -u '\(script.path)' \(mode)", "--out", out.path])
        #expect(result.status == status, "\(result)")
        let lines = (result.stdout + "\n" + result.stderr).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("Result: conformant") }, "\(result)")
        #expect(!(result.stdout + result.stderr).unicodeScalars.contains(where: Self.hidden.contains))
        #expect((result.stdout + result.stderr).contains(shown), "\(result)")
        let markdown = try ReportSet.text(out, "report.md")
        #expect(!markdown.unicodeScalars.contains(where: Self.hidden.contains))
        #expect(!markdown.split(separator: "\n").contains { $0.hasPrefix("Result: conformant") })
    }

    @Test("gherkin tokens shows a criterion file's control and bidirectional characters escaped")
    func gherkinTokens() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-forgery")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("x.feature")
        try Data("Feature: red \u{1B}[31m text \u{202E} reversed\r\n  Scenario: s\u{7}\n    Given a step\n".utf8).write(to: file)
        let result = try await Binary.run(["gherkin", "tokens", file.path])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.unicodeScalars.contains(where: Self.hidden.contains), "\(result)")
        #expect(result.stdout.contains(#"red \u{1B}[31m text \u{202E} reversed"#), "\(result)")
    }
}
