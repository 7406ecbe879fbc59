import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// `init-adapter`: each skeleton runs against the whole suite as written. It declares no
/// capability, so every test case must end *not verified*, and none `error` (the skeleton speaks the
/// protocol correctly) or `failed`.
@Suite("passkey-conformance init-adapter", binaryBuilt, .serialized)
struct InitAdapterTests {
    struct Report: Decodable {
        struct TestCase: Decodable {
            var id: String
            var verdict: String
            var message: String?
        }
        var testCases: [TestCase]
    }

    /// Runs the suite against an adapter command line; returns the report's test cases.
    static func runSuite(adapter: String) async throws -> [Report.TestCase] {
        let directory = try PackagePaths.temporaryDirectory("init-adapter-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Binary.run(["run", "--adapter-command", adapter, "--out", directory.path, "--format", "json", "--quiet"] + Binary.criteria)
        #expect(!result.timedOut, "\(result)")
        let data = try Data(contentsOf: directory.appendingPathComponent("report.json"))
        return try JSONDecoder().decode(Report.self, from: data).testCases
    }

    static func expectAllNotVerified(_ cases: [Report.TestCase]) {
        #expect(cases.count > 300, "only \(cases.count) test cases")
        let other = cases.filter { $0.verdict != "notVerified" }
        let list = other.prefix(5).map { "\($0.verdict) \($0.id): \($0.message ?? "")" }.joined(separator: "; ")
        #expect(other.isEmpty, "\(other.count) test case(s) not 'not verified': \(list)")
    }

    static var pythonAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3")
    }

    @Test("the Python skeleton runs against the suite: every test case not verified", .enabled(if: pythonAvailable, "needs python3"))
    func python() async throws {
        let directory = try PackagePaths.temporaryDirectory("init-adapter-python")
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try await Binary.run(["init-adapter", "python", "--out", directory.path])
        #expect(written.status == 0, "\(written)")
        #expect(FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("adapter.py").path))
        Self.expectAllNotVerified(try await Self.runSuite(adapter: "python3 '\(directory.path)/adapter.py'"))

        let again = try await Binary.run(["init-adapter", "python", "--out", directory.path])
        #expect(again.status == 1 && again.stderr.contains("--force"), "an existing skeleton is not overwritten without --force: \(again)")
    }

    @Test("the Python skeleton declares every target it says it declares, and protocol 1.1")
    func pythonDeclaresEveryTarget() async throws {
        let directory = try PackagePaths.temporaryDirectory("init-adapter-targets")
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try await Binary.run(["init-adapter", "python", "--out", directory.path])
        #expect(written.status == 0, "\(written)")
        let text = try String(contentsOf: directory.appendingPathComponent("adapter.py"), encoding: .utf8)
        #expect(text.contains("declares every target"))
        let list = try #require(
            text.range(of: "TARGETS = [").flatMap { start in text[start.upperBound...].range(of: "]").map { text[start.upperBound..<$0.lowerBound] } })
        let declared = list.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(declared == TargetCatalog.all.map(\.id.rawValue))
        #expect(text.contains(#"PROTOCOL_VERSION = "1.1""#))
    }

    /// The Swift skeleton is a package that depends on this one by path. Building it compiles the
    /// harness's libraries a second time (about 25 s on the project's 2-core machine, and again after
    /// every change to them), which starves the timing-sensitive tests running next to it, so
    /// `Scripts/build-swift-skeleton.sh` builds it once, before the tests (`.ci/run` does), into
    /// `.build/init-adapter-skeletons/swift`. This test checks that the built sources are what
    /// `init-adapter swift` writes now, then runs the built adapter against the suite.
    static let builtSkeleton = PackagePaths.root.appendingPathComponent(".build/init-adapter-skeletons/swift")
    static let builtAdapter = builtSkeleton.appendingPathComponent(".build/debug/MyRelyingPartyAdapter")

    @Test(
        "the Swift skeleton, built against this package, runs: every test case not verified",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: builtAdapter.path),
            "the Swift skeleton is not built; run Scripts/build-swift-skeleton.sh (.ci/run does)"))
    func swift() async throws {
        let directory = try PackagePaths.temporaryDirectory("init-adapter-swift")
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try await Binary.run(["init-adapter", "swift", "--out", directory.path, "--package-path", PackagePaths.root.path])
        #expect(written.status == 0, "\(written)")
        for file in ["Package.swift", "Sources/MyRelyingPartyAdapter/main.swift"] {
            let now = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let built = try String(contentsOf: Self.builtSkeleton.appendingPathComponent(file), encoding: .utf8)
            #expect(now == built, "the built skeleton's \(file) is not what init-adapter writes now; run Scripts/build-swift-skeleton.sh")
        }
        Self.expectAllNotVerified(try await Self.runSuite(adapter: "'\(Self.builtAdapter.path)'"))
    }

    @Test("an unknown language is a usage error")
    func unknownLanguage() async throws {
        let result = try await Binary.run(["init-adapter", "cobol", "--out", "unused"])
        #expect(result.status == 64 && result.stderr.contains("use python or swift"), "\(result)")
    }
}
