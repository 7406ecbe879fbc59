import ConformanceReports
import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small adapter for the gate's tests, written to a temporary directory at run time: it answers
/// `adapter.hello` with the targets given as its first argument (JSON), and in mode `hang` writes
/// its process group to `$GATE_PGID_FILE`, starts a `sleep` helper and never answers `session.open`.
enum GateAdapter {
    static let script = #"""
        import json, os, subprocess, sys, time
        targets = json.loads(sys.argv[1])
        mode = sys.argv[2] if len(sys.argv) > 2 else "ok"
        if mode == "hang":
            subprocess.Popen(["sleep", "300"])
            with open(os.environ["GATE_PGID_FILE"] + ".tmp", "w") as f:
                f.write(str(os.getpgrp()))
            os.rename(os.environ["GATE_PGID_FILE"] + ".tmp", os.environ["GATE_PGID_FILE"])
        def send(m):
            sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
        for line in sys.stdin:
            m = json.loads(line)
            method, i = m.get("method"), m.get("id")
            if method == "adapter.hello":
                send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": "1.0", "name": "gate-adapter\u001b[31m\u0007", "version": "1\r",
                      "targets": targets, "capabilities": ["conditional-create"], "relyingPartyIDs": ["example.com"]}})
            elif method == "session.open" and mode == "hang":
                time.sleep(3600)
            elif method == "adapter.shutdown":
                send({"jsonrpc": "2.0", "id": i, "result": {}}); break
            elif i is not None:
                send({"jsonrpc": "2.0", "id": i, "result": {}})
        """#

    static var hasPython: Bool {
        ["/usr/bin", "/usr/local/bin", "/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }
    }

    /// Writes the script into `directory` and returns the `--adapter-command` for it.
    static func command(in directory: URL, targets: String, mode: String = "ok") throws -> String {
        let url = directory.appendingPathComponent("gate_adapter.py")
        try Data(script.utf8).write(to: url)
        return "exec python3 -u '\(url.path)' '\(targets)' \(mode)"
    }
}

/// Reads a report directory: every file of the set must be there.
enum ReportSet {
    static func json(_ out: URL) throws -> JSONValue {
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(
            files == ReportFormat.allCases.flatMap(\.fileNames).sorted(), "the whole report set, no temporary file")
        return try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
    }

    static func text(_ out: URL, _ name: String) throws -> String {
        try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
    }
}

@Suite("The gate: green only when something was verified", binaryBuilt)
struct GateTests {
    @Test("selecting no test case is incomplete (exit 3) with a full report set; --allow-not-verified does not make a run that verified nothing exit 0")
    func noTestCaseIsIncomplete() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-gate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(["run"] + Binary.criteria + ["--scenario", "no such scenario, a typo", "--out", out.path])
        #expect(result.status == 3, "\(result)")
        #expect(result.stdout.contains("Result: incomplete"), "\(result)")
        let json = try ReportSet.json(out)
        #expect(json["summary"]?["status"]?.stringValue == "incomplete")
        #expect(json["summary"]?["exitStatus"]?.numberValue == 3)
        #expect(json["summary"]?["gaps"]?.arrayValue?.first?["kind"]?.stringValue == "noTestCase")
        #expect(
            try ReportSet.text(out, "report.junit.xml").contains(
                #"<failure message="incomplete: 1 gap(s)" type="incomplete">"#))

        let allowed = try await Binary.run(
            ["run"] + Binary.criteria + [
                "--scenario", "no such scenario, a typo", "--out", out.path,
                "--allow-not-verified",
            ])
        #expect(allowed.status == 3, "\(allowed)")
        let relaxed = try ReportSet.json(out)
        #expect(relaxed["metadata"]?["allowNotVerified"] == .bool(true))
        #expect(try ReportSet.text(out, "report.md").contains("--allow-not-verified"))
    }

    @Test(
        "a gate that covers none of the selected criteria is incomplete (exit 3), with failures below it too; --allow-not-verified does not accept it",
        arguments: [[String](), ["--mutant", "rename-empties-list-later"], ["--allow-not-verified"]])
    func nothingGated(extra: [String]) async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-gate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(["run"] + Binary.criteria + ["--gate", "core", "--criterion", "N3.2-AC10", "--out", out.path] + extra)
        #expect(result.status == 3, "\(result)")
        let json = try ReportSet.json(out)
        let kinds = json["summary"]?["gaps"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? []
        #expect(kinds == ["nothingGated"], "\(kinds)")
        #expect(result.stdout.contains("covers none of the selected criteria (N3.2-AC10)"), "\(result)")
        if extra.contains("--mutant") {
            #expect((json["summary"]?["warnings"]?["testCases"]?.arrayValue?.count ?? 0) > 0, "the mutant's failures are warnings below the gate")
        }
    }

    @Test(
        "an adapter that declares no target, or only unknown ones, is incomplete (exit 3); unknown ids are warned about and listed",
        .enabled(if: GateAdapter.hasPython, "needs python3"), arguments: ["[]", #"["windows-11"]"#])
    func noKnownTarget(targets: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-gate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let command = try GateAdapter.command(in: directory, targets: targets)
        let result = try await Binary.run(["run"] + Binary.criteria + ["--criterion", "N2.6-AC01", "--adapter-command", command, "--out", out.path])
        #expect(result.status == 3, "\(result)")
        // The adapter's name and version carry ESC, BEL and CR: shown escaped, never raw.
        let printed: String = result.stdout + result.stderr
        let raw: Set<Unicode.Scalar> = ["\u{1B}", "\u{07}", "\r"]
        #expect(!printed.unicodeScalars.contains(where: raw.contains))
        #expect(result.stdout.contains(#"gate-adapter\u{1B}[31m\u{7} 1\u{D}"#), "\(result)")
        let json = try ReportSet.json(out)
        let kinds = json["summary"]?["gaps"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? []
        #expect(kinds.contains("noKnownTarget"), "\(kinds)")
        #expect(json["metadata"]?["adapter"]?["declaredTargets"] == (try JSONDecoder().decode(JSONValue.self, from: Data(targets.utf8))))
        #expect(json["metadata"]?["adapter"]?["capabilities"] == .array([.string("conditional-create")]))
        if targets.contains("windows-11") {
            #expect(result.stderr.contains("warning: the adapter declares unknown target(s), ignored: windows-11"), "\(result)")
            #expect(json["metadata"]?["adapter"]?["unknownTargets"] == .array([.string("windows-11")]))
        }
    }

    @Test("an adapter that fails at launch still gets all three reports, with the fault as fields; exit 2")
    func adapterFailsAtLaunch() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-gate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(
            ["run"] + Binary.criteria + [
                "--criterion", "N2.6-AC01", "--adapter-command", "echo 'adapter v2 starting'; exit 3",
                "--out", out.path,
            ])
        #expect(result.status == 2, "\(result)")
        let json = try ReportSet.json(out)
        #expect(json["summary"]?["status"]?.stringValue == "harnessError")
        let fault = try #require(json["metadata"]?["fault"])
        #expect(["malformed-message", "process-exited"].contains(fault["kind"]?.stringValue ?? ""), "\(fault)")
        #expect(fault["method"]?.stringValue == "adapter.hello", "\(fault)")
        let cases = try #require(json["testCases"]?.arrayValue)
        #expect(!cases.isEmpty && cases.allSatisfy { $0["verdict"]?.stringValue == "error" })
        #expect(cases.allSatisfy { $0["fault"] == fault }, "each test case carries the run's fault as fields")
        let junit = try ReportSet.text(out, "report.junit.xml")
        #expect(junit.contains(#"errors="\#(cases.count)""#))
        #expect(junit.contains(#"type="fault">"#), "the run suite says the adapter failed before the run")
        #expect(try ReportSet.text(out, "report.md").contains("Run fault"))
    }

    @Test(
        "a waiver naming an unknown criterion or target, or giving a member twice, is refused before anything is written (exit 64)",
        arguments: [
            (#"{"version":1,"waivers":[{"criterion":"N2.6-AC1","target":"*","reason":"r","owner":"o","expires":"2099-01-01"}]}"#, "no criterion N2.6-AC1"),
            (
                #"{"version":1,"waivers":[{"criterion":"N2.6-AC01","target":"windows-11","reason":"r","owner":"o","expires":"2099-01-01"}]}"#,
                "no target windows-11"
            ),
            (
                "{\"version\":1,\"waivers\":[{\"criterion\":\"N2.6-AC01\",\"target\":\"*\",\"reason\":\"r\",\"owner\":\"o\",\n \"expires\":\"2099-01-01\",\"expires\":\"2020-01-01\"}]}",
                "duplicate member name \"expires\" in one object (line 2, column 25)"
            ),
        ])
    func badWaivers(text: String, message: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-gate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let waivers = directory.appendingPathComponent("waivers.json")
        try Data(text.utf8).write(to: waivers)
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(["run"] + Binary.criteria + ["--criterion", "N2.6-AC01", "--waivers", waivers.path, "--out", out.path])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "a rejected command line creates no report directory")
    }
}

@Suite("The gate: bounded input", binaryBuilt)
struct BoundedInputTests {
    @Test("--tags with 20,000 nested parentheses is a usage error (exit 64), not a crash")
    func deepTags() async throws {
        let tags = String(repeating: "(", count: 20_000) + "@core" + String(repeating: ")", count: 20_000)
        let result = try await Binary.run(["run"] + Binary.criteria + ["--tags", tags, "--no-reports"])
        #expect(result.status == 64, "\(result.status) \(result.stderr.prefix(300))")
        #expect(result.stderr.contains("at most 4096 are accepted"))
    }
}

@Suite("The gate: interrupted runs", binaryBuilt, .enabled(if: GateAdapter.hasPython, "needs python3"))
struct InterruptionTests {
    /// The processes of group `pgid` that are still alive (zombies excluded), from `/proc`.
    static func liveMembers(of pgid: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && Int32(fields[2]) == pgid
        }
    }

    @Test(
        "SIGINT or SIGTERM stops the adapter's whole process group and writes the partial report marked interrupted (130 / 143)",
        arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func interrupted(signal number: Int32, status: Int32, name: String) async throws {
        #if os(Linux)
            let binary = try #require(Binary.url)
            let directory = try PackagePaths.temporaryDirectory("e2e-interrupt")
            defer { try? FileManager.default.removeItem(at: directory) }
            let out = directory.appendingPathComponent("reports")
            let pgidFile = directory.appendingPathComponent("pgid")
            let command = try GateAdapter.command(in: directory, targets: #"["apple-18"]"#, mode: "hang")
            let process = Process()
            process.executableURL = binary
            process.arguments = Binary.patient(["run"] + Binary.criteria + ["--criterion", "N2.6-AC01", "--adapter-command", command, "--out", out.path])
            process.environment = ProcessInfo.processInfo.environment.merging(["GATE_PGID_FILE": pgidFile.path]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

            // Wait until the adapter runs (and hangs in session.open), then interrupt the harness only.
            // Every wait below is for an event; the guard only turns a hang into a failure.
            _ = await Waiting.until { FileManager.default.fileExists(atPath: pgidFile.path) }
            let pgid = try #require(Int32(try String(contentsOf: pgidFile, encoding: .utf8)), "the adapter never started")
            _ = await Waiting.until { !Self.liveMembers(of: pgid).isEmpty }
            #expect(!Self.liveMembers(of: pgid).isEmpty, "the adapter and its helper run before the signal")
            kill(process.processIdentifier, number)

            let stopped = await Waiting.until { !process.isRunning }
            #expect(stopped, "the harness did not stop after \(name)")
            guard stopped else { return }
            #expect(process.terminationReason == .exit && process.terminationStatus == status)

            var survivors: [Int32] = []
            _ = await Waiting.until {
                survivors = Self.liveMembers(of: pgid)
                return survivors.isEmpty
            }
            #expect(survivors.isEmpty, "processes of the adapter's group \(pgid) outlived the harness: \(survivors)")

            let json = try ReportSet.json(out)
            #expect(json["metadata"]?["interruption"]?.stringValue == name)
            #expect(json["summary"]?["exitStatus"]?.numberValue == Double(status))
            #expect(try ReportSet.text(out, "report.md").contains("Interrupted"))
            #expect(try ReportSet.text(out, "report.junit.xml").contains(#"type="\#(number == SIGINT ? "interrupted" : "terminated")">"#))
        #endif
    }
}
