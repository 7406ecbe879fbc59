import ConformanceReports
import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// `run --jobs`: test cases at once, in-process and over one adapter process, with the reports of a
/// sequential run.
@Suite("run --jobs", .heavy, .loadsMachine)
struct JobsTests {
    /// Every report file of a run, by name.
    static func reports(_ extra: [String], criterion: String, status: Int32 = 0) async throws -> [String: Data] {
        let out = try PackagePaths.temporaryDirectory("jobs")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await Binary.run(
            [
                "run", "--quiet", "--no-timings", "--timestamp", "2026-12-01T00:00:00Z", "--out", out.path,
                "--criterion", criterion,
            ] + Binary.criteria + extra)
        #expect(result.status == status, "\(result)")
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            files[name] = try Data(contentsOf: out.appendingPathComponent(name))
        }
        return files
    }

    @Test("in-process, --jobs 4 writes the same reports as --jobs 1, byte for byte")
    func inProcess() async throws {
        let sequential = try await Self.reports(["--jobs", "1"], criterion: "N3.2")
        let parallel = try await Self.reports(["--jobs", "4"], criterion: "N3.2")
        #expect(sequential.keys.sorted() == ReportFormat.allCases.flatMap(\.fileNames).sorted())
        for (name, bytes) in sequential { #expect(parallel[name] == bytes, "\(name) differs between --jobs 1 and --jobs 4") }
    }

    static let adapter = PackagePaths.root.appendingPathComponent(".build/debug/reference-rp-adapter").path

    @Test(
        "over one adapter process, --jobs 8 writes the same reports as --jobs 1, byte for byte",
        .enabled(if: FileManager.default.isExecutableFile(atPath: adapter), "needs the built reference-rp-adapter (swift build)"))
    func overAdapter() async throws {
        let sequential = try await Self.reports(["--adapter-command", Self.adapter, "--jobs", "1"], criterion: "N2.6-AC06")
        let parallel = try await Self.reports(["--adapter-command", Self.adapter, "--jobs", "8"], criterion: "N2.6-AC06")
        for (name, bytes) in sequential { #expect(parallel[name] == bytes, "\(name) differs between --jobs 1 and --jobs 8") }
    }

    @Test(
        "a test case that kills the adapter process errs alone: --jobs 8 writes the reports of --jobs 1, byte for byte",
        .enabled(if: FileManager.default.isExecutableFile(atPath: adapter), "needs the built reference-rp-adapter (swift build)"))
    func crashBesideOthers() async throws {
        // The adapter exits while opening this one test case; with --latency-ms the other sessions
        // of --jobs 8 have calls in flight on the same process when it dies.
        let crashing = "\(Self.adapter) --latency-ms 5 --crash-on 'after an account switch changes nothing@android-15-gpm'"
        let sequential = try await Self.reports(["--adapter-command", crashing, "--jobs", "1"], criterion: "N2.6-AC06", status: 2)
        let parallel = try await Self.reports(["--adapter-command", crashing, "--jobs", "8"], criterion: "N2.6-AC06", status: 2)
        let json = try #require(sequential["report.json"])
        let errors = try JSONDecoder().decode(JSONValue.self, from: json)["testCases"]?.arrayValue?.filter { $0["verdict"]?.stringValue == "error" } ?? []
        #expect(errors.count == 1, "only the crashing test case is an error: \(errors.count)")
        for (name, bytes) in sequential { #expect(parallel[name] == bytes, "\(name) differs between --jobs 1 and --jobs 8") }
    }

    @Test("--jobs outside 1...256 is a usage error", arguments: ["0", "257", "many", "-1"])
    func invalid(_ value: String) async throws {
        let result = try await Binary.run(["run", "--jobs", value, "--no-reports"] + Binary.criteria)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--jobs must be a whole number from 1 to 256"), "\(result)")
    }
}
