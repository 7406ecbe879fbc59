import ConformanceKit
@testable import ConformanceReports
import Foundation
import Testing
import ConformanceTestSupport

/// Runs `Python/validate_report.py`, which checks the reports with `jsonschema` and `junitparser`,
/// code that shares nothing with the reporters.
enum PythonValidator {
    static let script = ReportFixtures.packageRoot.appendingPathComponent("Tests/ConformanceReportsTests/Python/validate_report.py").path

    /// `python3` on the `PATH`, if any.
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether python3 and both modules are there (otherwise the tests skip, saying so).
    static let isReady: Bool = {
        guard python != nil, let result = try? run(["-c", "import jsonschema, junitparser"]) else { return false }
        return result.status == 0
    }()

    static let missingNote: Comment = "needs python3 with jsonschema and junitparser (pip install jsonschema junitparser)"

    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(python))
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
            errors: String(decoding: errData, as: UTF8.self))
    }

    static func validate(json: String? = nil, junit: String? = nil, waivers: [String] = []) throws -> Result {
        var arguments = [script]
        if let json { arguments += ["--json", json] }
        if let junit { arguments += ["--junit", junit] }
        for path in waivers { arguments += ["--waivers", path] }
        return try run(arguments)
    }
}

@Suite("Independent validation (Python: jsonschema, junitparser)", .heavy, .enabled(if: PythonValidator.isReady, PythonValidator.missingNote))
struct IndependentValidationTests {
    static let runs: [(String, RunResult, WaiverEvaluation)] = [
        ("mixed, with waivers", ReportFixtures.run, ReportFixtures.waivers),
        ("mixed, no waivers", ReportFixtures.run, .none),
        ("conformant", ReportFixtures.run(replacing: [.failed: .passed, .error: .passed, .undefined: .passed]), .none),
        (
            "undescribed criterion",
            {
                var run = ReportFixtures.run
                run.criteria.removeLast()
                return run
            }(), .none
        ),
        (
            "expired waiver", ReportFixtures.run,
            WaiverFile(path: "w.json", waivers: [ReportFixtures.waiver("N2.6-AC04", "*", expires: "2025-01-01")])
                .evaluate(against: ReportFixtures.run, today: ReportFixtures.today)
        ),
        ("empty", ReportFixtures.makeRun(criteria: [], cases: []), .none),
        (
            "typed outcomes, a run fault",
            Self.typed(
                interruption: nil,
                fault: RunFault(
                    kind: .processExited, message: "exited with status 3",
                    method: "adapter.hello", excerpt: "stderr: boom")), .none
        ),
        ("typed outcomes, interrupted", Self.typed(interruption: .sigterm, fault: nil), .none),
        ("a Quality failure below --gate core: a warning", GateAndJUnitTests.qualityFailure(gate: .core), .none),
        ("a Quality gap below --gate core", GateAndJUnitTests.qualityFailure(gate: .core, verdict: .notVerified), .none),
        ("incomplete: a gap the gate covers", GateAndJUnitTests.qualityFailure(gate: .all, verdict: .notVerified), .none),
    ]

    /// The mixed run with typed faults and not-verified reasons, the adapter's declarations, and a
    /// run fault or an interruption: every member schema 1.1.0 added, with values.
    static func typed(interruption: RunMetadata.Interruption?, fault: RunFault?) -> RunResult {
        var run = ReportFixtures.run
        run.metadata.interruption = interruption
        run.metadata.fault = fault
        run.metadata.allowNotVerified = true
        run.metadata.criteriaRoot = "ci/criteria"
        run.metadata.adapter.declaredTargets = ["apple-18", "windows-11"]
        run.metadata.adapter.capabilities = ["conditional-create"]
        run.metadata.adapter.unknownTargets = ["windows-11"]
        for index in run.testCases.indices {
            switch run.testCases[index].outcome {
            case .error(let message, _):
                run.testCases[index].outcome = .error(
                    message: message, fault: RunFault(kind: .timeout, message: "no answer", method: "session.perform", excerpt: nil))
            case .notVerified(let message, _):
                run.testCases[index].outcome = .notVerified(message: message, reason: NotVerifiedReason(kind: .missingCapability, detail: "signals"))
            default: break
            }
        }
        return run
    }

    @Test("the JSON report is valid against the schema and the JUnit XML agrees with it", arguments: 0..<runs.count)
    func valid(index: Int) throws {
        let (name, run, waivers) = Self.runs[index]
        let directory = try ReportFixtures.temporaryDirectory("valid\(index)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try RenderedFiles.write(run, waivers: waivers, formats: [.json, .junit], to: directory.path)
        let result = try PythonValidator.validate(json: directory.path + "/report.json", junit: directory.path + "/report.junit.xml")
        #expect(result.status == 0, "\(name): \(result.errors)")
        #expect(result.output == "valid: JSON report, JUnit XML\n")
    }

    /// Mutations of a valid report, each with words the validator must report.
    static let mutations: [(String, @Sendable (inout [String: Any]) -> Void, String)] = [
        ("unknown verdict", { setCase(&$0, 0, "verdict", "pass") }, "/testCases/0/verdict: 'pass' is not one of"),
        ("waived outcome without a waiver", { setCase(&$0, 1, "outcome", "waived") }, "/testCases/1/waivedBy: None is not of type 'string'"),
        (
            "extra member",
            {
                var metadata = $0["metadata"] as! [String: Any]
                metadata["extra"] = 1
                $0["metadata"] = metadata
            },
            "Additional properties are not allowed ('extra' was unexpected)"
        ),
        ("missing member", { $0["waivers"] = nil }, "'waivers' is a required property"),
        (
            "seed as a number",
            {
                var metadata = $0["metadata"] as! [String: Any]
                metadata["seed"] = 42
                $0["metadata"] = metadata
            },
            "/metadata/seed: 42 is not of type 'string'"
        ),
        (
            "counts that do not add up",
            {
                var summary = $0["summary"] as! [String: Any]
                summary["exitStatus"] = 1
                summary["status"] = "nonConformant"
                summary["outcome"] = "failed"
                $0["summary"] = summary
            },
            "exitStatus 1, expected 2"
        ),
    ]

    static func setCase(_ document: inout [String: Any], _ index: Int, _ key: String, _ value: Any) {
        var cases = document["testCases"] as! [[String: Any]]
        cases[index][key] = value
        document["testCases"] = cases
    }

    @Test("a broken JSON report is rejected, with the reason", arguments: 0..<mutations.count)
    func rejectsJSON(index: Int) throws {
        let (name, mutate, expected) = Self.mutations[index]
        let directory = try ReportFixtures.temporaryDirectory("json\(index)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONReporter.render(ReportFixtures.run, waivers: ReportFixtures.waivers))) as? [String: Any])
        mutate(&document)
        let path = directory.path + "/report.json"
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        let result = try PythonValidator.validate(json: path)
        #expect(result.status == 1, "\(name)")
        #expect(result.errors.contains(expected), "\(name): \(result.errors)")
    }

    @Test("unsorted keys are rejected")
    func rejectsUnsortedKeys() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = String(decoding: try JSONReporter.render(ReportFixtures.run), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"$schema\" : \"urn:passkey-conformance:schema:run-report:v1\",", with: "")
        text = text.replacingOccurrences(of: "\"waivers\" : {", with: "\"$schema\" : \"urn:passkey-conformance:schema:run-report:v1\", \"waivers\" : {")
        let path = directory.path + "/report.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = try PythonValidator.validate(json: path)
        #expect(result.status == 1)
        #expect(result.errors.contains("object keys not sorted"), "\(result.errors)")
    }

    @Test(
        "a JUnit report whose counts or elements disagree is rejected",
        arguments: [
            ("tests=\"6\" failures=\"1\"", "tests=\"7\" failures=\"1\"", "suite N2.6-AC01: tests=7 but it holds 6"),
            ("type=\"failed\">", "type=\"assertion\">", "failure type 'assertion'"),
            ("<skipped message=\"waived: ", "<skipped message=\"", "skipped message"),
        ])
    func rejectsJUnit(original: String, replacement: String, expected: String) throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try RenderedFiles.write(ReportFixtures.run, waivers: ReportFixtures.waivers, formats: [.json, .junit], to: directory.path)
        let path = directory.path + "/report.junit.xml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try #require(text.contains(original))
        try Data(text.replacingOccurrences(of: original, with: replacement).utf8).write(to: URL(fileURLWithPath: path))
        let result = try PythonValidator.validate(json: directory.path + "/report.json", junit: path)
        #expect(result.status == 1)
        #expect(result.errors.contains(expected), "\(result.errors)")
    }

    @Test(
        "the waiver schema and the Swift loader agree on valid and malformed files",
        arguments: [
            (ReportFixtures.validWaiverFile, true),
            (#"{"version": 1, "waivers": []}"#, true),
            (#"{"version": 1, "waivers": [{"criterion": "N2.6-AC04", "target": "*", "reason": "r", "owner": "o", "expires": "2026-1-01"}]}"#, false),
            (
                #"{"version": 1, "waivers": [{"criterion": "N2.6-AC04", "target": "*", "reason": "r", "owner": "o", "expires": "2026-01-01", "note": "x"}]}"#,
                false
            ),
            (#"{"version": 1, "waivers": [{"criterion": "N2.6 AC04", "target": "*", "reason": "r", "owner": "o", "expires": "2026-01-01"}]}"#, false),
            (#"{"version": 2, "waivers": []}"#, false),
            (#"{"waivers": []}"#, false),
        ])
    func waiverFiles(text: String, valid: Bool) throws {
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path + "/waivers.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = try PythonValidator.validate(waivers: [path])
        #expect((result.status == 0) == valid, "\(result.errors)")
        #expect(((try? WaiverFile.parse(Array(text.utf8), path: path)) != nil) == valid)
    }
}
