import Foundation
import ConformanceTestSupport
import Testing

/// The sample reports committed in `Reports/sample` must be what the harness produces now; they are
/// re-recorded only on request, with `Scripts/record-sample-reports.sh`.
@Suite("Sample reports", binaryBuilt)
struct SampleReportsTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The samples and the `run` arguments that made them (as in the recording script).
    static let samples: [(name: String, arguments: [String])] = [
        ("reference-rp", []),
        ("mutant-upgrade-before-second-factor", ["--mutant", "upgrade-before-second-factor", "--criterion", "N2.6-AC01"]),
        ("mutant-send-partial-list", ["--mutant", "send-partial-list", "--criterion", "N3.2-AC04"]),
    ]

    @Test("Committed sample reports are up to date", arguments: samples.map(\.name))
    func upToDate(name: String) async throws {
        let arguments = try #require(Self.samples.first { $0.name == name }).arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("samples-\(name)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        // As the recording script runs it: the built binary in the package root, reading ./Criteria
        // without --criteria (a --criteria would be repeated, machine path and all, in every re-run command).
        let binary = try #require(Binary.url, "the passkey-conformance binary is not built")
        let result = try await ProcessRunner.run(
            binary,
            [
                "run", "--seed", "1", "--timestamp", "2026-01-01T00:00:00Z", "--no-timings", "--no-build-info", "--quiet",
                "--out", output.path,
            ] + arguments, in: Self.packageRoot)
        #expect(result.status == (name == "reference-rp" ? 0 : 1), "\(result)")
        for file in ["report.json", "report.md", "report.junit.xml"] {
            let committed = try String(contentsOf: Self.packageRoot.appendingPathComponent("Reports/sample/\(name)/\(file)"), encoding: .utf8)
            let produced = try String(contentsOf: output.appendingPathComponent(file), encoding: .utf8)
            if committed != produced {
                let committedLines = committed.split(separator: "\n", omittingEmptySubsequences: false)
                let producedLines = produced.split(separator: "\n", omittingEmptySubsequences: false)
                let first = zip(committedLines, producedLines).enumerated().first { $0.element.0 != $0.element.1 }
                Issue.record(
                    "Reports/sample/\(name)/\(file) is out of date (first difference at line \((first?.offset ?? min(committedLines.count, producedLines.count)) + 1)); re-record with Scripts/record-sample-reports.sh"
                )
            }
        }
    }
}
