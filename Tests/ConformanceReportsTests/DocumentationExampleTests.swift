import ConformanceKit
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

/// The examples in `Documentation/report-format.md` are real output and real input, so they cannot
/// drift from the code.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    static let path = ReportFixtures.packageRoot.appendingPathComponent("Documentation/report-format.md").path

    /// The fenced block that follows `<!-- example: <name> … -->`.
    static func example(_ name: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- example: \(name) "), "no example \(name) in report-format.md")
        let afterMarker = text[marker.upperBound...]
        let fenceStart = try #require(afterMarker.range(of: "```"))
        let bodyStart = try #require(afterMarker[fenceStart.upperBound...].firstIndex(of: "\n"))
        let body = afterMarker[afterMarker.index(after: bodyStart)...]
        let fenceEnd = try #require(body.range(of: "\n```"))
        return String(body[..<fenceEnd.lowerBound]) + "\n"
    }

    /// The run the documentation's examples show: N2.6-AC04 on two targets, one failure waived.
    static var run: RunResult {
        var metadata = ReportFixtures.metadata
        metadata.harnessVersion = "0.9.0"
        metadata.targets = ["apple-17.4", "apple-18"]
        metadata.seed = 42
        metadata.filters = ["criteria": "N2.6-AC04"]
        var run = ReportFixtures.makeRun(criteria: [ReportFixtures.ac04], cases: [ReportFixtures.cases[6], ReportFixtures.cases[7]], metadata: metadata)
        run.criteria[0].targets["android-15-gpm"] = nil
        return run
    }

    static var waivers: WaiverEvaluation {
        WaiverFile(path: "ci/waivers.json", waivers: [ReportFixtures.waiver("N2.6-AC04", "apple-17.4")]).evaluate(against: run, today: ReportFixtures.today)
    }

    @Test("the JSON example is what the reporter writes for the example run")
    func jsonExample() throws {
        let documented = try JSONDecoder().decode(JSONValue.self, from: Data(try Self.example("run-report").utf8))
        let bytes = try JSONReporter.render(Self.run, waivers: Self.waivers)
        if let directory = ProcessInfo.processInfo.environment["RECORD_EXAMPLES"] {
            try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent("run-report.json"))
        }
        let produced = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        #expect(documented == produced)
    }

    @Test("the JUnit example is what the reporter writes for the example run")
    func junitExample() throws {
        if let directory = ProcessInfo.processInfo.environment["RECORD_EXAMPLES"] {
            try JUnitReporter.render(Self.run, waivers: Self.waivers).write(toFile: directory + "/junit.xml", atomically: true, encoding: .utf8)
        }
        #expect(try Self.example("junit") == JUnitReporter.render(Self.run, waivers: Self.waivers))
    }

    @Test("the waiver file example loads")
    func waiverExample() throws {
        let file = try WaiverFile.parse(Array(try Self.example("waivers").utf8), path: "report-format.md")
        #expect(file.waivers.map(\.id) == ["N2.6-AC04@apple-17.4", "N3.2-AC03@*"])
        #expect(file.waivers.map(\.expires.description) == ["2026-03-31", "2026-02-15"])
    }

    @Test("the examples are valid against the published schemas", .enabled(if: PythonValidator.isReady, PythonValidator.missingNote))
    func schemaValid() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json")
        let waivers = directory.appendingPathComponent("waivers.json")
        try Data(try Self.example("run-report").utf8).write(to: report)
        try Data(try Self.example("waivers").utf8).write(to: waivers)
        let result = try PythonValidator.validate(json: report.path, waivers: [waivers.path])
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test("the error messages the documentation quotes are the loader's")
    func quotedErrors() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        let file = #"""
            {"version": 1, "waivers": [
              {"criterion": "N2.6-AC04", "target": "apple-18", "reason": "r", "owner": "o", "expires": "2026-02-30"},
              {"criterion": "N2.6-AC05", "target": "*", "reason": "r", "owner": "o", "expires": "2026-01-01", "expiry": "2027-01-01"},
              {"criterion": "N2.6-AC04", "target": "apple-18", "reason": "r", "owner": "o", "expires": "2026-01-01"}
            ]}
            """#
        let error = try #require(throws: WaiverFile.LoadError.self) { try WaiverFile.parse(Array(file.utf8), path: "ci/waivers.json") }
        for line in error.description.split(separator: "\n") {
            #expect(text.contains(line), "report-format.md does not quote: \(line)")
        }
        let syntax = try #require(throws: WaiverFile.LoadError.self) {
            try WaiverFile.parse(Array("{\"version\": 1,\n \"waivers\": [}".utf8), path: "ci/waivers.json")
        }
        #expect(syntax.description.hasPrefix("ci/waivers.json: error: not valid JSON: "))
        #if os(Linux)
            // The wording of the syntax error is Foundation's; the documentation quotes the Linux one.
            #expect(text.contains(syntax.description), "\(syntax.description)")
        #endif
    }
}

/// README's exit-status table, report-format.md's and the schema say what the code does.
@Suite("Exit status documentation")
struct ExitStatusDocumentationTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: ReportFixtures.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The rows of the Markdown table that follows `heading`, as cells.
    static func table(in text: String, after heading: String) throws -> [[String]] {
        let start = try #require(text.range(of: heading), "no \(heading)")
        var rows: [[String]] = []
        var inTable = false
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("|") {
                inTable = true
                rows.append(line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) })
            } else if inTable {
                break
            }
        }
        return Array(rows.dropFirst(2))
    }

    @Test("report-format.md lists every exit status with its number and name, and undefined under 2")
    func reportFormat() throws {
        let rows = try Self.table(in: Self.text("Documentation/report-format.md"), after: "## Exit status\n")
        #expect(rows.map { $0[0] } == ExitStatus.allCases.map { String($0.rawValue) })
        #expect(rows.map { $0[1] } == ExitStatus.allCases.map { "`\($0.name)`" })
        #expect(rows.first { $0[0] == "2" }?[2].contains("undefined") == true)
        #expect(rows.first { $0[0] == "1" }?[2].contains("undefined") == false)
    }

    @Test("README's table lists every exit status of run (and 64), and undefined under 2")
    func readme() throws {
        let rows = try Self.table(in: Self.text("README.md"), after: "Exit status (`run`")
        let numbers = rows.map { $0[0].replacingOccurrences(of: "*", with: "") }
        #expect(numbers == ["0", "1", "2", "3", "64", "129 / 130 / 143"])
        #expect(rows.first { $0[0] == "**2**" }?[1].contains("`undefined`") == true)
        #expect(rows.first { $0[0] == "**1**" }?[1].contains("undefined") == false)
    }

    @Test("the schema's status and exitStatus enumerations are the code's")
    func schema() throws {
        let schema = try JSONDecoder().decode(JSONValue.self, from: Data(Self.text("Reports/schema/run-report.v1.schema.json").utf8))
        let summary = try #require(schema["$defs"]?["summary"]?["properties"])
        #expect(summary["status"]?["enum"] == .array(ExitStatus.allCases.map { .string($0.name) }))
        #expect(summary["exitStatus"]?["enum"] == .array(ExitStatus.allCases.map { .number(Double($0.rawValue)) }))
    }
}
