import ConformanceKit
@testable import ConformanceReports
import Foundation
import Testing

@Suite("Report writer")
struct ReportWriterTests {
    func contents(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("writes each format under its name, byte for byte what the reporter renders, and leaves no temporary file")
    func writesAll() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = Fixtures.run
        let waivers = Fixtures.waivers
        let written = try ReportWriter.write(run, waivers: waivers, formats: [.json, .markdown, .junit], to: directory.path)
        #expect(written == ["report.json", "report.md", "report.junit.xml"].map { directory.path + "/" + $0 })
        #expect(try contents(directory) == ["report.json", "report.junit.xml", "report.md"])
        #expect(try [UInt8](Data(contentsOf: directory.appendingPathComponent("report.json"))) == JSONReporter.render(run, waivers: waivers))
        #expect(try String(contentsOf: directory.appendingPathComponent("report.md"), encoding: .utf8) == MarkdownReporter.render(run, waivers: waivers))
        #expect(try String(contentsOf: directory.appendingPathComponent("report.junit.xml"), encoding: .utf8) == JUnitReporter.render(run, waivers: waivers))
    }

    @Test("replaces earlier reports whole, writes a format given twice once, and creates missing directories")
    func replaces() throws {
        let base = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let directory = base.appendingPathComponent("a/b/reports")
        try ReportWriter.write(Fixtures.run, formats: [.markdown], to: directory.path)
        let longer = try String(contentsOf: directory.appendingPathComponent("report.md"), encoding: .utf8)
        let small = Fixtures.makeRun(criteria: [Fixtures.x01], cases: Array(Fixtures.cases[9...10]))
        let written = try ReportWriter.write(small, formats: [.markdown, .markdown], to: directory.path + "/")
        #expect(written == [directory.path + "/report.md"])
        let shorter = try String(contentsOf: directory.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(shorter == MarkdownReporter.render(small))
        #expect(shorter.count < longer.count)
        #expect(try contents(directory) == ["report.md"])
        #expect(ReportFormat.allCases.map(\.fileName) == ["report.json", "report.md", "report.junit.xml"])
    }

    @Test("a directory below a regular file is an error naming the path and the reason")
    func parentIsAFile() throws {
        let base = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let file = base.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: file)
        let target = file.path + "/reports"
        let error = try #require(throws: ReportWriter.WriteError.self) {
            try ReportWriter.write(Fixtures.run, formats: [.json], to: target)
        }
        #expect(error == ReportWriter.WriteError(path: target, operation: .createDirectory, reason: "Not a directory"))
        #expect(error.description == "cannot create the report directory \(target): Not a directory")

        let onFile = try #require(throws: ReportWriter.WriteError.self) {
            try ReportWriter.write(Fixtures.run, formats: [.json], to: file.path)
        }
        #expect(onFile.operation == .createDirectory)
        #expect(onFile.path == file.path)
        #expect(try contents(base) == ["file.txt"])
    }

    @Test(
        "an unwritable directory is an error, and nothing is left behind",
        .enabled(if: getuid() != 0, "root may write anywhere; the permission check cannot fail as root"))
    func unwritable() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            try? FileManager.default.removeItem(at: directory)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        let error = try #require(throws: ReportWriter.WriteError.self) {
            try ReportWriter.write(Fixtures.run, formats: ReportFormat.allCases, to: directory.path)
        }
        #expect(error.operation == .writeFile)
        #expect(error.reason == "Permission denied")
        #expect(error.path.hasPrefix(directory.path + "/.report.json."))
        #expect(try contents(directory) == [])
    }

    #if os(Linux)
        @Test(
            "a directory no one may create files in (sysfs, even for root) is an error naming the temporary file",
            .enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel"), "no sysfs mounted at /sys"))
        func systemDirectory() throws {
            let error = try #require(throws: ReportWriter.WriteError.self) {
                try ReportWriter.write(Fixtures.run, formats: ReportFormat.allCases, to: "/sys")
            }
            #expect(error.operation == .writeFile)
            #expect(error.path.hasPrefix("/sys/.report.json."))
            #expect(error.path.hasSuffix(".tmp"))
            #expect(["Permission denied", "Read-only file system"].contains(error.reason))
            #expect(error.description == "cannot write the temporary file \(error.path): \(error.reason)")
        }
    #endif

    @Test("a report that cannot be renamed into place is an error; no temporary file remains")
    func renameFails() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A non-empty directory where report.md should go: rename(2) cannot replace it.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("report.md/keep"), withIntermediateDirectories: true)
        let error = try #require(throws: ReportWriter.WriteError.self) {
            try ReportWriter.write(Fixtures.run, formats: [.json, .markdown, .junit], to: directory.path)
        }
        #expect(error.operation == .rename)
        #expect(error.path == directory.path + "/report.md")
        #expect(error.reason == "Is a directory")
        #expect(try contents(directory) == ["report.md"], "report.json rolled back (it did not exist), report.md untouched, no temporary files")
        #expect(try contents(directory.appendingPathComponent("report.md")) == ["keep"])
    }

    @Test("all three reports are committed together or not at all: a failed rename restores the earlier set")
    func renameFailureRestoresEarlierReports() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let earlier = ["report.json": "old json\n", "report.md": "old markdown\n"]
        for (name, text) in earlier { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        // JSON and Markdown are renamed first; the JUnit rename then fails on a non-empty directory.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("report.junit.xml/keep"), withIntermediateDirectories: true)
        let error = try #require(throws: ReportWriter.WriteError.self) {
            try ReportWriter.write(Fixtures.run, formats: [.json, .markdown, .junit], to: directory.path)
        }
        #expect(error.operation == .rename)
        #expect(error.path == directory.path + "/report.junit.xml")
        #expect(try contents(directory) == ["report.json", "report.junit.xml", "report.md"], "no temporary or backup file remains")
        for (name, text) in earlier {
            #expect(try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) == text, "\(name) has its earlier content")
        }
        // Once the obstacle is gone, the whole new set goes in.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("report.junit.xml"))
        try ReportWriter.write(Fixtures.run, formats: [.json, .markdown, .junit], to: directory.path)
        #expect(try [UInt8](Data(contentsOf: directory.appendingPathComponent("report.json"))) == JSONReporter.render(Fixtures.run))
        #expect(try contents(directory) == ["report.json", "report.junit.xml", "report.md"])
    }
}
