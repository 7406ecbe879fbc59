import ConformanceReports
import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// The built `passkey-conformance` binary, run as a CI job would run it.
enum Binary {
    static let url = BuiltProducts.executable("passkey-conformance")

    /// Runs the binary in a fresh temporary directory (or `directory`), guarded against hangs only.
    static func run(_ arguments: [String], in directory: URL? = nil) async throws -> ProcessRunner.Result {
        let url = try #require(url, "the passkey-conformance binary is not built")
        return try await ProcessRunner.run(url, patient(arguments), in: directory)
    }

    /// The adapter's time-outs a test does not set itself, raised to an hour: the defaults (10 s to
    /// launch, 5 s a call, 60 s a test case) suit an idle machine, and a busy one must not end a
    /// case a test expects to finish. Tests of the time-outs give theirs.
    static func patient(_ arguments: [String]) -> [String] {
        guard arguments.contains("--adapter-command") else { return arguments }
        let missing = ["--launch-timeout", "--call-timeout", "--test-case-timeout"].filter { !arguments.contains($0) }
        return arguments + missing.flatMap { [$0, "3600"] }
    }

    /// Copies an executable with `cp`, so the test process never holds the copy open for writing:
    /// a process another test forks at that moment would inherit the descriptor, and executing the
    /// copy would then fail with "Text file busy".
    static func copyExecutable(_ source: URL, to destination: URL) async throws {
        let copied = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/cp"), [source.path, destination.path])
        try #require(copied.status == 0, "cp \(source.path) \(destination.path): \(copied.stderr)")
    }

    /// `--criteria <the package's Criteria>`, so that runs do not depend on the working directory.
    static let criteria = ["--criteria", PackagePaths.criteria.path]
    static let broken = PackagePaths.fixtures("ConformanceCriteriaTests").appendingPathComponent("broken").path
}

/// Skips the suites below with a note when the binary has not been built: tests never build it.
let binaryBuilt = ConditionTrait.enabled(
    if: Binary.url != nil,
    "the passkey-conformance binary is not in the build products directory; run 'swift build' first")

@Suite("passkey-conformance run", binaryBuilt)
struct RunCommandTests {
    @Test("a conformant run exits 0 and writes the JSON, Markdown and JUnit reports")
    func conformant() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(["run"] + Binary.criteria + ["--criterion", "N2.6-AC01", "--out", out.path])
        #expect(result.status == 0, "\(result)")
        #expect(!result.timedOut)
        #expect(result.stdout.contains("Result: conformant"), "\(result)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files == ReportFormat.allCases.flatMap(\.fileNames).sorted(), "no temporary file may be left behind")

        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        #expect(json["summary"]?["status"]?.stringValue == "conformant")
        #expect(json["summary"]?["exitStatus"]?.numberValue == 0)
        #expect(json["criteria"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["N2.6-AC01"])
        let cases = try #require(json["testCases"]?.arrayValue)
        #expect(!cases.isEmpty && cases.allSatisfy { $0["outcome"]?.stringValue == "passed" })
        #expect(json["metadata"]?["seed"]?.stringValue == "1")

        let junit = try String(contentsOf: out.appendingPathComponent("report.junit.xml"), encoding: .utf8)
        #expect(junit.hasPrefix("<?xml"))
        #expect(junit.contains(#"failures="0" errors="0""#))
        #expect(junit.contains(#"tests="\#(cases.count)""#))
        let markdown = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("N2.6-AC01"))
    }

    @Test(
        "re-run lines name what was run: the design, the mutant on it, a knobs specification; each re-runs to the same verdict",
        arguments: [
            ["--design", "debounce-5s"], ["--design", "knobs:coalesce-ms=900;rate-limited=drop"],
            ["--design", "debounce-5s", "--mutant", "send-partial-list"],
        ])
    func rerunNamesTheSubject(subject: [String]) async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-rerun")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(
            ["run", "--quiet"] + Binary.criteria + ["--criterion", "N3.2-AC04", "--target", "apple-26.2", "--out", out.path] + subject)
        #expect(result.status == (subject.contains("--mutant") ? 1 : 0), "\(result)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        let rerun = try #require(json["testCases"]?.arrayValue?.first?["rerun"]?.stringValue)
        let recorded = try #require(json["metadata"]?["subject"]?["design"]?.stringValue)
        if subject[1].hasPrefix("knobs:") {
            // The whole specification, every knob: what re-runs the same design whatever the defaults become.
            #expect(recorded.hasPrefix("knobs:") && recorded.contains("coalesce-ms=900") && recorded.contains("rate-limited=drop"), "\(recorded)")
            #expect(rerun.contains("--design \"\(recorded)\""), "\(rerun)")
        } else {
            #expect(recorded == subject[1])
            #expect(rerun.contains("--design \(recorded)"), "\(rerun)")
        }
        #expect(rerun.contains("--mutant send-partial-list") == subject.contains("--mutant"), "\(rerun)")
        #expect(!rerun.contains("--mutant") || subject.contains("--mutant"), "a design run's re-run line never says --mutant: \(rerun)")
    }

    @Test("a run against a mutant exits 1 and names the failing test cases")
    func mutant() async throws {
        let result = try await Binary.run(["run"] + Binary.criteria + ["--criterion", "N2.6-AC01", "--mutant", "upgrade-before-second-factor", "--no-reports"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("Result: not conformant"), "\(result)")
        #expect(result.stdout.contains("FAIL N2.6-AC01/A password alone does not complete a two-factor policy@"), "\(result)")
    }

    @Test("the console counts failed and waived test cases as report.json does, and names a waived criterion so")
    func consoleCountsWaived() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-console-waived")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let waivers = directory.appendingPathComponent("waivers.json")
        try Data(
            #"{"version": 1, "waivers": [{"criterion": "N2.6-AC01", "target": "apple-18", "reason": "fix in 4.2", "owner": "ios", "expires": "2099-12-31"}]}"#
                .utf8
        ).write(to: waivers)
        let arguments = ["run"] + Binary.criteria + ["--criterion", "N2.6-AC01", "--mutant", "upgrade-before-second-factor", "--out", out.path]
        let result = try await Binary.run(arguments + ["--waivers", waivers.path])
        #expect(result.status == 1, "\(result)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        let counts = try #require(json["summary"]?["testCases"])
        func count(_ name: String) -> Int { Int(counts[name]?.numberValue ?? -1) }
        #expect(count("waived") > 0 && count("failed") > 0, "\(counts)")
        let line =
            "\(count("total")) test cases: \(count("passed")) passed, \(count("failed")) failed, \(count("waived")) waived, \(count("error")) error, "
            + "\(count("notVerified")) not verified, \(count("undefined")) undefined;"
        #expect(result.stdout.contains(line), "the console must count as the report does: \(line)\n\(result)")

        // Every failure waived: the criterion's line says waived, as the reports' 🟡 does; the stale-free run is conformant but for the gaps.
        let all = directory.appendingPathComponent("all.json")
        try Data(
            #"{"version": 1, "waivers": [{"criterion": "N2.6-AC01", "target": "*", "reason": "fix in 4.2", "owner": "ios", "expires": "2099-12-31"}]}"#.utf8
        ).write(to: all)
        let waived = try await Binary.run(arguments + ["--waivers", all.path])
        #expect(waived.stdout.contains("  N2.6-AC01  waived "), "\(waived)")
        #expect(!waived.stdout.contains(" 0 waived,"), "\(waived)")
    }

    @Test("an adapter that fails to start is reported once: its standard error line by line, the last lines whole, a hint; exit 2")
    func adapterThatDoesNotStart() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-adapter-start")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        // A traceback longer than the standard error tail the harness keeps (a deep chain of calls
        // before the failing import), so that its start is cut and its end must not be.
        let chain = (0..<20).map { "def step_\($0)_of_a_long_chain_of_calls():\n    step_\($0 + 1)_of_a_long_chain_of_calls()\n" }.joined()
        try Data("\(chain)def step_20_of_a_long_chain_of_calls():\n    import passkey_missing_module_x9\nstep_0_of_a_long_chain_of_calls()\n".utf8)
            .write(to: directory.appendingPathComponent("missing.py"))
        let command = "cd '\(directory.path)' && python3 missing.py"
        let result = try await Binary.run(["run"] + Binary.criteria + ["--criterion", "N2.6-AC01", "--adapter-command", command, "--out", out.path])
        #expect(result.status == 2, "a harness/adapter fault, as before: \(result)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        let cases = try #require(json["testCases"]?.arrayValue)
        #expect(cases.allSatisfy { $0["message"]?.stringValue == "not run: the adapter did not start, see the run fault (process-exited in adapter.hello)" })
        #expect(cases.allSatisfy { $0["fault"] == json["metadata"]?["fault"] }, "each test case still carries the run's fault as fields")

        let console = result.stdout + result.stderr
        let exception = "ModuleNotFoundError: No module named 'passkey_missing_module_x9'"
        // Once, each line of the standard error on a line of its own behind the marker that keeps
        // adapter text from passing for the harness's, the last one whole.
        #expect(console.components(separatedBy: "ModuleNotFoundError").count == 2, "told once: \(result)")
        #expect(result.stderr.contains("\n  | \(exception)\n"), "the last line whole, on its own line: \(result)")
        #expect(result.stderr.contains("\n  |     import passkey_missing_module_x9\n"), "\(result)")
        #expect(result.stderr.contains("\n  | …"), "the start of the traceback is what is cut: \(result)")
        #expect(!console.contains(#"\u{A}"#), "no line feed shown escaped: \(result)")
        #expect(
            result.stderr.contains("first thing to check: run the adapter command by hand: `\(command)`; it must speak JSON-RPC on stdin/stdout"), "\(result)")
        #expect(result.stdout.contains("ERROR \(cases.count) test case(s) not run: the adapter did not start, see the run fault above"), "\(result)")
        #expect(!result.stdout.contains("  ERROR N2.6-AC01/"), "no line per test case: \(result)")

        for file in ["report.md", "report.details.md", "report.junit.xml", "report.html"] {
            let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
            #expect(text.components(separatedBy: "ModuleNotFoundError").count == 2, "\(file) tells the standard error once")
        }
        let summary = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(summary.contains("\n\(exception)\n```\n"), "the lines kept as lines, the last whole: \(summary)")
        #expect(summary.contains("**First thing to check:** run the adapter command by hand:"))
    }

    @Test("without --criteria, a run outside the checkout finds the package's criteria")
    func defaultCriteriaOutsideCheckout() async throws {
        let result = try await Binary.run(["run", "--criterion", "N2.6-X02", "--no-reports", "--quiet"])
        #expect(result.status == 0, "\(result)")
    }

    struct Usage: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        /// Text the error message must contain.
        var message: [String]
        var testDescription: String { name }
    }

    static let usageErrors: [Usage] = [
        .init(name: "unknown command", arguments: ["frobnicate"], message: ["error: unknown command 'frobnicate'", "USAGE: passkey-conformance <command>"]),
        .init(name: "no command", arguments: [], message: ["USAGE: passkey-conformance <command>"]),
        .init(name: "unknown flag", arguments: ["run", "--frobnicate"], message: ["error: unknown option '--frobnicate'", "passkey-conformance run --help"]),
        .init(name: "unknown short flag", arguments: ["list", "-x"], message: ["error: unknown option '-x'"]),
        .init(name: "missing option value", arguments: ["run", "--out"], message: ["error: --out needs a value <dir>"]),
        .init(name: "option given twice", arguments: ["run", "--seed", "1", "--seed", "2"], message: ["--seed is given more than once"]),
        .init(name: "value for a flag", arguments: ["run", "--quiet=yes"], message: ["--quiet takes no value"]),
        .init(name: "unexpected argument", arguments: ["run", "extra"], message: ["unexpected argument 'extra'"]),
        .init(
            name: "bad --tags", arguments: ["run"] + Binary.criteria + ["--tags", "@core and"],
            message: [#"bad --tags: tag expression "@core and", column 10: the expression ends where a tag or "(" is expected"#]),
        .init(name: "bad --tags in list", arguments: ["list"] + Binary.criteria + ["--tags", "@core )"], message: ["column 7"]),
        .init(
            name: "unknown --target", arguments: ["run"] + Binary.criteria + ["--target", "windows-11"],
            message: ["unknown target 'windows-11'", "apple-18"]),
        .init(
            name: "unknown --criterion", arguments: ["run"] + Binary.criteria + ["--criterion", "N9.9-AC01"],
            message: ["unknown criterion 'N9.9-AC01'", "N2.6-AC01"]),
        .init(name: "bad --seed", arguments: ["run"] + Binary.criteria + ["--seed", "-1"], message: ["--seed must be a whole number", "'-1'"]),
        .init(name: "unknown --format", arguments: ["run"] + Binary.criteria + ["--format", "json,pdf"], message: ["unknown report format 'pdf'"]),
        .init(name: "unknown --mutant", arguments: ["run"] + Binary.criteria + ["--mutant", "not-a-mutant"], message: ["unknown mutant 'not-a-mutant'"]),
        .init(name: "bad --today", arguments: ["run"] + Binary.criteria + ["--today", "2026-13-01"], message: ["--today must be a date YYYY-MM-DD"]),
        .init(name: "gherkin without a file", arguments: ["gherkin", "pickles"], message: ["missing what to print and a file"]),
        .init(name: "gherkin unknown output", arguments: ["gherkin", "tokenz", "x.feature"], message: ["unknown output 'tokenz'"]),
    ]

    @Test("bad usage exits 64 with a message that says what is wrong", arguments: usageErrors)
    func usage(_ usage: Usage) async throws {
        let result = try await Binary.run(usage.arguments)
        #expect(result.status == 64, "\(result)")
        for text in usage.message { #expect(result.stderr.contains(text), "missing \(text)\n\(result)") }
        #expect(!result.stderr.contains("Fatal error"), "\(result)")
    }

    @Test("an unwritable --out exits 2 and names the path")
    func unwritableOut() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a-file")
        try Data("not a directory".utf8).write(to: file)
        let out = file.appendingPathComponent("reports").path
        let result = try await Binary.run(["run"] + Binary.criteria + ["--criterion", "N2.6-AC01", "--out", out, "--quiet"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(out), "\(result)")
        #expect(result.stderr.contains("Not a directory"), "\(result)")
    }

    @Test("criterion files with defects make run exit 2 after printing every diagnostic")
    func brokenCriteria() async throws {
        let result = try await Binary.run(["run", "--criteria", "\(Binary.broken)/missing-level", "--no-reports"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains("\(Binary.broken)/missing-level/N9.9-AC01.feature:3:1: error: the feature has no @level:core or @level:quality tag"),
            "\(result)")
        #expect(result.stderr.contains("the criterion files have 1 defect(s)"), "\(result)")
    }

    @Test("a malformed waiver file exits 64 and names the file, the entry and the member")
    func malformedWaivers() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-waivers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let waivers = directory.appendingPathComponent("waivers.json")
        try Data(
            #"{"version": 1, "waivers": [{"criterion": "N2.6-AC04", "target": "apple-17.4", "reason": "lands in 4.2", "owner": "ios", "expires": "2026-02-30"}]}"#
                .utf8
        ).write(to: waivers)
        let result = try await Binary.run(["run"] + Binary.criteria + ["--waivers", waivers.path, "--no-reports"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(#"\#(waivers.path): waivers[0].expires: "2026-02-30" is not a calendar date"#), "\(result)")
        #expect(!result.stderr.contains(": error: "), "the message says error once: \(result)")
    }

    @Test("a waiver file that does not exist exits 64 and names it")
    func missingWaivers() async throws {
        let result = try await Binary.run(["run"] + Binary.criteria + ["--waivers", "/nonexistent/waivers.json", "--no-reports"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("/nonexistent/waivers.json: cannot read the waiver file"), "\(result)")
    }
}

@Suite("passkey-conformance help", binaryBuilt)
struct HelpTests {
    /// Each command and options its help must mention.
    static let commands: [(String, [String])] = [
        (
            "run",
            [
                "--criteria", "--criterion", "--target", "--tags", "--scenario", "--adapter-command", "--mutant", "--seed", "--out",
                "--format", "--waivers", "--today", "--quiet", "--no-reports", "--help",
            ]
        ),
        ("list", ["--criteria", "--criterion", "--target", "--tags", "--scenario", "--targets", "--steps", "--markdown", "--help"]),
        ("validate", ["<path>"]),
        ("selftest", ["--criteria", "--mutant", "--seed", "--list-mutants", "--quiet", "--help"]),
        ("gherkin", ["tokens", "ast", "pickles", "errors", "<file>"]),
        ("init-adapter", ["python", "swift", "--out", "--package-path", "--force", "--help"]),
    ]

    @Test("--help for every command exits 0 and mentions its options", arguments: commands)
    func commandHelp(_ command: String, _ options: [String]) async throws {
        for flag in ["--help", "-h"] {
            let result = try await Binary.run([command, flag])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("USAGE: passkey-conformance \(command)"), "\(result)")
            for option in options { #expect(result.stdout.contains(option), "\(command) \(flag) does not mention \(option)") }
        }
    }

    @Test("the overview lists every command and the exit statuses", arguments: [["--help"], ["-h"], ["help"]])
    func overview(_ arguments: [String]) async throws {
        let result = try await Binary.run(arguments)
        #expect(result.status == 0, "\(result)")
        for command in Self.commands.map(\.0) { #expect(result.stdout.contains("  \(command) "), "\(command) is not listed") }
        #expect(result.stdout.contains("64 bad usage"))
    }

    @Test("--version names the harness version")
    func version() async throws {
        let result = try await Binary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "passkey-conformance \(Suite.harnessVersion)\n")
    }
}

@Suite("passkey-conformance run --gate and --evidence", binaryBuilt)
struct GateOptionTests {
    @Test("a Quality-level failure is a warning under --gate core (exit 0) and fails the default gate (exit 1)")
    // N3.2-AC01 is selected beside the Quality-level N3.2-AC10 so that the core gate covers something: a gate that covers
    // nothing exits 3 (GateTests.nothingGated).
    func qualityFailureWarns() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-gate-tier")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let arguments =
            ["run"] + Binary.criteria + [
                "--criterion", "N3.2-AC10,N3.2-AC01", "--target", "apple-26.2", "--mutant", "rename-signal-unconfirmed", "--out", out.path,
            ]
        let warned = try await Binary.run(arguments + ["--gate", "core", "--evidence", "all"])
        #expect(warned.status == 0, "\(warned)")
        #expect(warned.stdout.contains("WARN"), "\(warned)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        #expect(json["metadata"]?["gate"]?.stringValue == "core")
        #expect(json["metadata"]?["evidence"]?.stringValue == "all")
        #expect(json["summary"]?["warnings"]?["testCases"]?.arrayValue?.isEmpty == false)
        let cases = json["testCases"]?.arrayValue ?? []
        #expect(
            cases.contains { $0["verdict"]?.stringValue == "passed" && $0["evidence"]?.arrayValue?.isEmpty == false },
            "--evidence all: passes keep their transcript")
        let junit = try String(contentsOf: out.appendingPathComponent("report.junit.xml"), encoding: .utf8)
        #expect(junit.contains("<system-out>WARNING (below the gate"))

        let failed = try await Binary.run(arguments)
        #expect(failed.status == 1, "\(failed)")
        let rejected = try await Binary.run(arguments + ["--gate", "strict"])
        #expect(rejected.status == 64, "\(rejected)")
    }
}
