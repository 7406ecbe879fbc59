import ConformanceTestSupport
import Foundation
import Testing

/// Runs the built `passkey-conformance` binary against `Examples/python-webauthn/adapter.py`, whose
/// server verifies with the real `webauthn` (py_webauthn) and `fido2` packages from PyPI, in its
/// three configurations, and judges the verdicts from `report.json` (not from the exit status alone).
enum PythonWebAuthnExample {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let adapter = packageRoot.appendingPathComponent("Examples/python-webauthn/adapter.py")
    static let harness = packageRoot.appendingPathComponent(".build/debug/passkey-conformance")

    /// The adapter's configurations: the name used in the tests and the adapter's arguments.
    static let configurations: [(name: String, arguments: String)] = [
        ("careful", ""),
        ("library-defaults", "--library-defaults"),
        ("fido2", "--verifier fido2"),
    ]

    /// How long one whole run may take before it is stopped as hung (never a bound on speed).
    static let timeout = Waiting.hangGuard

    static let isAvailable: Bool = FileManager.default.isExecutableFile(atPath: harness.path) && librariesAreInstalled
    static let skipNote: Comment = """
        needs the built harness (.build/debug/passkey-conformance: run swift build) and python3 with the PyPI packages \
        webauthn and fido2 (python3 -m pip install webauthn fido2; .ci/run installs them)
        """

    /// Checked once, when the suite is planned (not on the cooperative pool of a running test).
    static let librariesAreInstalled: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // find_spec locates the packages without importing them (importing takes a second or more).
        process.arguments = [
            "python3", "-c",
            "import sys, importlib.util as u; "
                + "sys.exit(sys.version_info < (3, 9) or not (u.find_spec('webauthn') and u.find_spec('fido2')))",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// The members of `report.json` the tests read.
    struct Report: Decodable {
        struct Criterion: Decodable {
            var id: String
            var verdict: String
        }
        struct TestCase: Decodable {
            var id: String
            var criterionID: String
            var verdict: String
            var message: String?
        }
        var criteria: [Criterion]
        var testCases: [TestCase]

        func verdict(of criterion: String) -> String? { criteria.first { $0.id == criterion }?.verdict }
    }

    /// The outcome of one configuration's run.
    typealias Outcome = (status: Int32, report: Report, output: String)

    /// Where each configuration's report.json is kept (as `<name>.json`) for the README check, so
    /// that the suite runs once per configuration, not once for the tests and again for the table.
    static let reports = FileManager.default.temporaryDirectory.appendingPathComponent("passkey-conformance-python-webauthn-\(UUID().uuidString)")

    /// Each configuration's whole-suite run, started once when first asked for and shared by the tests.
    static let runs: [String: Task<Outcome, any Error>] = Dictionary(
        uniqueKeysWithValues: configurations.map { configuration in
            (configuration.name, Task { try await run(configuration.arguments, keepingAs: configuration.name) })
        })

    /// The shared run of the configuration `name`.
    static func outcome(_ name: String) async throws -> Outcome {
        try await #require(runs[name], "no configuration \(name)").value
    }

    /// Runs the whole suite against one configuration; returns the exit status, the report and the
    /// terminal output (for failure messages), and keeps report.json in `reports`. Waits without
    /// blocking a thread of the cooperative pool, which other tests need.
    static func run(_ arguments: String, keepingAs name: String) async throws -> Outcome {
        let directory = try PackagePaths.temporaryDirectory("python-webauthn")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await ProcessRunner.run(
            harness,
            Binary.patient([
                "run", "--adapter-command", "python3 '\(adapter.path)' \(arguments)",
                "--criteria", packageRoot.appendingPathComponent("Criteria").path,
                "--out", directory.appendingPathComponent("report").path, "--format", "json", "--quiet",
            ]), in: packageRoot)
        #expect(!result.timedOut, "the run did not finish within \(timeout) and was stopped")
        let data = try Data(contentsOf: directory.appendingPathComponent("report/report.json"))
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try data.write(to: reports.appendingPathComponent("\(name).json"))
        return (result.status, try JSONDecoder().decode(Report.self, from: data), result.stdout + result.stderr)
    }

    static func list(_ cases: [Report.TestCase]) -> String {
        cases.prefix(8).map { "\($0.verdict) \($0.id): \($0.message ?? "")" }.joined(separator: "; ")
    }
}

@Suite("The python-webauthn example: real WebAuthn libraries against the suite", .serialized, .heavy, .loadsMachine)
struct PythonWebAuthnExampleTests {
    /// The careful configuration passes every criterion it declares: no test case fails, errs or is
    /// undefined, and nothing is left unverified (it declares every capability the criteria use).
    @Test(.enabled(if: PythonWebAuthnExample.isAvailable, PythonWebAuthnExample.skipNote))
    func carefulConfigurationConforms() async throws {
        let (status, report, output) = try await PythonWebAuthnExample.outcome("careful")
        #expect(!report.testCases.isEmpty)
        let broken = report.testCases.filter { ["failed", "error", "undefined"].contains($0.verdict) }
        #expect(broken.isEmpty, "\(broken.count) test case(s) did not pass: \(PythonWebAuthnExample.list(broken))")
        let notVerified = report.testCases.filter { $0.verdict == "notVerified" }
        #expect(notVerified.isEmpty, "\(notVerified.count) test case(s) not verified: \(PythonWebAuthnExample.list(notVerified))")
        let failedCriteria = report.criteria.filter { $0.verdict == "failed" }.map(\.id)
        #expect(failedCriteria.isEmpty, "failed criteria: \(failedCriteria)")
        #expect(status == 0, "the harness exited with \(status): \(output.suffix(2000))")
    }

    /// py_webauthn's defaults and python-fido2 reject the UP=0 registration of an automatic upgrade:
    /// N2.6-X01 fails on every test case, with evidence that names the user-presence flag; every
    /// other failure is a consequence of the same rejection.
    @Test(.enabled(if: PythonWebAuthnExample.isAvailable, PythonWebAuthnExample.skipNote), arguments: ["library-defaults", "fido2"])
    func strictVerifiersFailTheUpgrade(configuration: String) async throws {
        let (status, report, _) = try await PythonWebAuthnExample.outcome(configuration)
        #expect(status != 0, "a run with failures must not exit 0")
        #expect(report.verdict(of: "N2.6-X01") == "failed")

        let failed = report.testCases.filter { $0.verdict == "failed" }
        let x01 = failed.filter { $0.criterionID == "N2.6-X01" }
        #expect(!x01.isEmpty)
        #expect(
            x01.count == report.testCases.filter { $0.criterionID == "N2.6-X01" && $0.verdict != "notVerified" }.count,
            "every verified N2.6-X01 test case fails")
        let unnamed = x01.filter { !($0.message ?? "").contains("rejectedFlags=UP") || !($0.message ?? "").contains("UP=0") }
        #expect(unnamed.isEmpty, "evidence without the rejected flag: \(PythonWebAuthnExample.list(unnamed))")

        // Nothing else breaks: every failure is a rejected UP=0 registration, and no test case errs.
        let otherCauses = failed.filter { !($0.message ?? "").contains("rejectedFlags=UP") }
        #expect(otherCauses.isEmpty, "failures for another reason: \(PythonWebAuthnExample.list(otherCauses))")
        let errors = report.testCases.filter { ["error", "undefined"].contains($0.verdict) }
        #expect(errors.isEmpty, "\(PythonWebAuthnExample.list(errors))")
    }

    /// The README's section "What it finds in real libraries" shows what the three runs give now
    /// (`Scripts/real-library-verdicts.py --check`, on the reports of the runs above; library
    /// versions may differ, verdicts may not).
    @Test(.enabled(if: PythonWebAuthnExample.isAvailable, PythonWebAuthnExample.skipNote))
    func readmeTableIsCurrent() async throws {
        for configuration in PythonWebAuthnExample.configurations { _ = try await PythonWebAuthnExample.outcome(configuration.name) }
        let script = PythonWebAuthnExample.packageRoot.appendingPathComponent("Scripts/real-library-verdicts.py")
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "--check", "--from", PythonWebAuthnExample.reports.path],
            in: PythonWebAuthnExample.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
