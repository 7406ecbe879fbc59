import ConformanceKit
@testable import ConformanceReports
import Foundation
import Testing

/// The examples in `Documentation/report-format.md` are real output and real input, so they cannot
/// drift from the code.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    static let path = Fixtures.packageRoot.appendingPathComponent("Documentation/report-format.md").path

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
        var metadata = Fixtures.metadata
        metadata.harnessVersion = "0.9.0"
        metadata.targets = ["apple-17.4", "apple-18"]
        metadata.seed = 42
        metadata.filters = ["criteria": "N2.6-AC04"]
        var run = Fixtures.makeRun(criteria: [Fixtures.ac04], cases: [Fixtures.cases[6], Fixtures.cases[7]], metadata: metadata)
        run.criteria[0].targets["android-15-gpm"] = nil
        return run
    }

    static var waivers: WaiverEvaluation {
        WaiverFile(path: "ci/waivers.json", waivers: [Fixtures.waiver("N2.6-AC04", "apple-17.4")]).evaluate(against: run, today: Fixtures.today)
    }

    @Test("the JSON example is what the reporter writes for the example run")
    func jsonExample() throws {
        let documented = try JSONDecoder().decode(JSONValue.self, from: Data(try Self.example("run-report").utf8))
        let produced = try JSONDecoder().decode(JSONValue.self, from: Data(try JSONReporter.render(Self.run, waivers: Self.waivers)))
        #expect(documented == produced)
    }

    @Test("the JUnit example is what the reporter writes for the example run")
    func junitExample() throws {
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
        let directory = try Fixtures.temporaryDirectory()
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
