import ConformanceEvidence
import ConformanceKit
@testable import ConformanceEvidence
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

@Suite("Report writer")
struct ReportWriterTests {
    func contents(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("writes each format under its name, byte for byte what the reporter renders, and leaves no temporary file")
    func writesAll() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = ReportFixtures.run
        let waivers = ReportFixtures.waivers
        let written = try ReportWriter.write(run, waivers: waivers, formats: [.json, .markdown, .junit], to: directory.path)
        #expect(written == ["report.json", "report.md", "report.details.md", "report.junit.xml"].map { directory.path + "/" + $0 })
        #expect(try contents(directory) == ["report.details.md", "report.json", "report.junit.xml", "report.md"])
        #expect(try [UInt8](Data(contentsOf: directory.appendingPathComponent("report.json"))) == JSONReporter.render(run, waivers: waivers))
        #expect(try String(contentsOf: directory.appendingPathComponent("report.md"), encoding: .utf8) == MarkdownReporter.summary(run, waivers: waivers))
        #expect(
            try String(contentsOf: directory.appendingPathComponent("report.details.md"), encoding: .utf8) == MarkdownReporter.render(run, waivers: waivers))
        #expect(try String(contentsOf: directory.appendingPathComponent("report.junit.xml"), encoding: .utf8) == JUnitReporter.render(run, waivers: waivers))
    }

    @Test("replaces earlier reports whole, writes a format given twice once, and creates missing directories")
    func replaces() throws {
        let base = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let directory = base.appendingPathComponent("a/b/reports")
        try ReportWriter.write(ReportFixtures.run, formats: [.markdown], to: directory.path)
        let longer = try String(contentsOf: directory.appendingPathComponent("report.details.md"), encoding: .utf8)
        let small = ReportFixtures.makeRun(criteria: [ReportFixtures.x01], cases: Array(ReportFixtures.cases[9...10]))
        let written = try ReportWriter.write(small, formats: [.markdown, .markdown], to: directory.path + "/")
        #expect(written == [directory.path + "/report.md", directory.path + "/report.details.md"])
        let shorter = try String(contentsOf: directory.appendingPathComponent("report.details.md"), encoding: .utf8)
        #expect(shorter == MarkdownReporter.render(small))
        #expect(shorter.count < longer.count)
        #expect(try contents(directory) == ["report.details.md", "report.md"])
        #expect(ReportFormat.allCases.map(\.fileName) == ["report.json", "report.md", "report.junit.xml", "report.html"])
    }

    @Test("a directory below a regular file is an error naming the path and the reason")
    func parentIsAFile() throws {
        let base = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let file = base.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: file)
        let target = file.path + "/reports"
        let error = try #require(throws: ReportWriter.WriteError.self) {
            try ReportWriter.write(ReportFixtures.run, formats: [.json], to: target)
        }
        #expect(error == ReportWriter.WriteError(path: target, operation: .createDirectory, reason: "Not a directory"))
        #expect(error.description == "cannot use the report directory \(target): Not a directory")

        let onFile = try #require(throws: ReportWriter.WriteError.self) {
            try ReportWriter.write(ReportFixtures.run, formats: [.json], to: file.path)
        }
        #expect(onFile.operation == .createDirectory)
        #expect(onFile.path == file.path)
        #expect(try contents(base) == ["file.txt"])
    }

    @Test(
        "a report directory whose parent takes no new entry is an error before anything is written",
        .enabled(if: getuid() != 0, "root may write anywhere; the permission check cannot fail as root"))
    func unwritable() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            try? FileManager.default.removeItem(at: directory)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        let error = try #require(throws: ReportWriter.WriteError.self) {
            try ReportWriter.write(ReportFixtures.run, formats: ReportFormat.allCases, to: directory.appendingPathComponent("reports").path)
        }
        #expect(error.operation == .createDirectory)
        #expect(error.reason == "Permission denied")
        #expect(try contents(directory) == [])
    }

    #if os(Linux)
        @Test(
            "a place no one may create a directory in (sysfs, even for root) is an error naming the path",
            .enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel"), "no sysfs mounted at /sys"))
        func systemDirectory() throws {
            let error = try #require(throws: ReportWriter.WriteError.self) {
                try ReportWriter.write(ReportFixtures.run, formats: ReportFormat.allCases, to: "/sys/kernel/reports")
            }
            #expect(error.operation == .createDirectory)
            #expect(error.path == "/sys/kernel/reports")
            #expect(["Permission denied", "Read-only file system", "Operation not permitted"].contains(error.reason), "\(error.reason)")
            #expect(error.description == "cannot use the report directory /sys/kernel/reports: \(error.reason)")
        }
    #endif

    @Test("the new set replaces the old directory whole: a format left out is gone, and nothing is left beside it")
    func replacesTheSetWhole() throws {
        let base = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let directory = base.appendingPathComponent("reports")
        try ReportWriter.write(ReportFixtures.run, formats: ReportFormat.allCases, to: directory.path)
        #expect(try contents(directory) == ReportFormat.allCases.flatMap(\.fileNames).sorted())
        try ReportWriter.write(ReportFixtures.run, formats: [.junit], to: directory.path)
        #expect(try contents(directory) == ["report.junit.xml"])
        #expect(try contents(base) == ["reports"])
    }

    @Test("an old set a killed run renamed aside is put back when the directory is missing, and staging leftovers are removed")
    func crashedRunRepaired() throws {
        let base = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let dead = finished.processIdentifier
        let previous = base.appendingPathComponent(".reports.previous.\(dead).ab")
        try FileManager.default.createDirectory(at: previous, withIntermediateDirectories: true)
        try Data("old set\n".utf8).write(to: previous.appendingPathComponent("report.json"))
        let staged = base.appendingPathComponent(".reports.staged.\(dead).cd")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: staged.appendingPathComponent("report.md"))

        _ = try ReportDirectory(base.appendingPathComponent("reports").path)
        #expect(try contents(base) == ["reports"])
        #expect(try String(contentsOf: base.appendingPathComponent("reports/report.json"), encoding: .utf8) == "old set\n")
    }

    @Test("a symbolic link as the report directory is refused, and the directory it points to is left alone")
    func symbolicLinkRefused() throws {
        let base = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let target = base.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: base.appendingPathComponent("reports"), withDestinationURL: target)
        let error = try #require(throws: ReportWriter.WriteError.self) {
            try ReportWriter.write(ReportFixtures.run, formats: ReportFormat.allCases, to: base.appendingPathComponent("reports").path)
        }
        #expect(error.reason.hasPrefix("is a symbolic link"))
        #expect(try contents(target) == [])
    }
}
