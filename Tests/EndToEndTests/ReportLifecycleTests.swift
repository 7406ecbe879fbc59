import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every accepted command line gets its three reports, written as one set.
@Suite("The gate: report sets", binaryBuilt)
struct ReportLifecycleTests {
    @Test(
        "broken or missing criterion files still get all three reports saying why nothing ran (exit 2)",
        arguments: ["broken", "missing"])
    func criteriaThatDoNotLoad(kind: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-lifecycle")
        defer { try? FileManager.default.removeItem(at: directory) }
        let criteria = directory.appendingPathComponent("criteria")
        if kind == "broken" {
            try FileManager.default.createDirectory(at: criteria, withIntermediateDirectories: true)
            try Data("Feature: no tags, no scenario\n".utf8).write(to: criteria.appendingPathComponent("N9.9-AC01.feature"))
        }
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(["run", "--criteria", criteria.path, "--out", out.path])
        #expect(result.status == 2, "\(result)")
        let json = try ReportSet.json(out)
        #expect(json["summary"]?["status"]?.stringValue == "harnessError")
        #expect(json["metadata"]?["fault"]?["kind"]?.stringValue == "criteria")
        #expect(json["bundledSuite"]?["used"] == .bool(false))
        #expect(try ReportSet.text(out, "report.junit.xml").contains("the criteria did not load"))
        #expect(try ReportSet.text(out, "report.md").contains("Run fault"))
    }

    @Test("a binary without its resource bundle writes the three reports and says what to copy (exit 2)")
    func missingBundle() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-lifecycle")
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("passkey-conformance")
        try await Binary.copyExecutable(try #require(Binary.url), to: binary)
        let out = directory.appendingPathComponent("reports")
        let launched = try LaunchedBinary(["run", "--out", out.path], in: directory, executable: binary)
        let result = await launched.wait()
        #expect(result.status == 2 && result.byExit, "\(result)")
        #expect(result.stderr.contains("resources is not beside the executable"), "\(result.stderr)")
        let json = try ReportSet.json(out)
        #expect(json["metadata"]?["fault"]?["kind"]?.stringValue == "criteria")
    }

    @Test("a Criteria folder in the working directory is not used: the bundled suite runs")
    func plantedCriteriaIgnored() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-lifecycle")
        defer { try? FileManager.default.removeItem(at: directory) }
        let planted = directory.appendingPathComponent("Criteria")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
        let original = try String(contentsOf: PackagePaths.criteria.appendingPathComponent("N2.6-automatic-upgrade/N2.6-X02.feature"), encoding: .utf8)
        try Data(original.replacing("Feature: N2.6-X02", with: "Feature: N2.6-X02 PLANTED").utf8).write(to: planted.appendingPathComponent("N2.6-X02.feature"))
        let result = try await Binary.run(["run", "--criterion", "N2.6-X02", "--out", "reports", "--quiet"], in: directory)
        let json = try ReportSet.json(directory.appendingPathComponent("reports"))
        #expect(json["bundledSuite"]?["used"] == .bool(true), "\(result)")
        #expect(json["metadata"]?["criteria"] == .null)
        #expect(!(try ReportSet.text(directory.appendingPathComponent("reports"), "report.md")).contains("PLANTED"))

        // Named explicitly, other criteria run, and every output says so first, with both digests.
        let explicit = try await Binary.run(["run", "--criteria", "Criteria", "--criterion", "N2.6-X02", "--out", "other"], in: directory)
        let out = directory.appendingPathComponent("other")
        let other = try ReportSet.json(out)
        #expect(other["bundledSuite"]?["used"] == .bool(false))
        let digest = try #require(other["metadata"]?["criteriaDigest"]?.stringValue)
        let bundled = try #require(other["bundledSuite"]?["bundledDigest"]?.stringValue)
        #expect(digest != bundled)
        let markdownHead = try ReportSet.text(out, "report.md").split(separator: "\n").prefix(3).joined(separator: "\n")
        #expect(markdownHead.contains("Criteria not the bundled suite") && markdownHead.contains(digest) && markdownHead.contains(bundled), "\(markdownHead)")
        let junitHead = try ReportSet.text(out, "report.junit.xml").split(separator: "\n")[1]
        #expect(junitHead.contains("NOT the suite shipped") && junitHead.contains(digest) && junitHead.contains(bundled))
        #expect(explicit.stderr.hasPrefix("warning: the criteria are NOT the suite shipped"), "\(explicit)")
        #expect(explicit.stdout.hasPrefix("NOTE: the run used criteria from Criteria that are NOT the suite shipped"), "\(explicit)")
    }

    /// The id of a process that has exited (so that its leftovers count as a crashed run's).
    static func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test("what a run killed mid-write left beside the report directory is removed, and the new set replaces the old one whole")
    func crashLeftovers() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-lifecycle")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let first = try await Binary.run(["run"] + Binary.criteria + ["--criterion", "N2.6-X02", "--out", out.path, "--quiet"])
        #expect(first.status == 0, "\(first)")
        let pid = try Self.deadProcessID()
        for role in ["staged", "previous"] {
            let leftover = directory.appendingPathComponent(".reports.\(role).\(pid).1a2b")
            try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: true)
            try Data("{\"half".utf8).write(to: leftover.appendingPathComponent("report.json"))
        }
        // A subset of formats: the other formats of the earlier run must not stay beside it.
        let second = try await Binary.run(["run"] + Binary.criteria + ["--criterion", "N2.6-X02", "--out", out.path, "--format", "json", "--quiet"])
        #expect(second.status == 0, "\(second)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["reports"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["report.json"])
    }

    @Test("a symbolic link as --out, or a directory holding other files, is refused before the run (exit 2)", arguments: ["link", "foreign"])
    func refusedOut(kind: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-lifecycle")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let out = directory.appendingPathComponent("reports")
        if kind == "link" {
            try FileManager.default.createSymbolicLink(at: out, withDestinationURL: target)
        } else {
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        }
        let result = try await Binary.run(["run"] + Binary.criteria + ["--criterion", "N2.6-X02", "--out", out.path, "--quiet"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(kind == "link" ? "is a symbolic link" : "holds notes.txt, which are not reports"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
    }

    @Test("a reader that closes standard output early stops the printing, not the run: reports written, the run's status")
    func closedStandardOutput() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-lifecycle")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let binary: URL = try #require(Binary.url, "the passkey-conformance binary is not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run"] + Binary.criteria + ["--criterion", "N2.6-X02", "--out", directory.appendingPathComponent("reports").path]
        process.standardOutput = pipe.fileHandleForWriting
        process.standardError = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        #expect(process.terminationReason == .exit && status == 0, "status \(status), reason \(process.terminationReason.rawValue)")
        _ = try ReportSet.json(directory.appendingPathComponent("reports"))
    }
}
