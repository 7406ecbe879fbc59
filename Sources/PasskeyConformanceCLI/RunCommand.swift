import ConformanceKit
import ConformanceReports
import Foundation
import Synchronization
import ReferenceRP

/// `run`: the suite against an adapter, with reports and a gating exit status.
enum RunCommand {
    static let spec = CommandSpec(
        name: "run", summary: "Run the criteria against a relying party and write reports.",
        usage:
            "run [--adapter-command <command>] [--criterion <id>] [--target <id>] [--tags <expr>] [--out <dir>] [--format json,md,junit,html] [--gate core|quality|all] [--evidence failures|all] [--seed <n>] [--jobs <n>] [--shard <i/n>] [--bundle <dir> [--sign-key <pem>]]",
        options: [
            Common.criteriaOption, Common.criterionOption, Common.targetOption, Common.tagsOption, Common.scenarioOption, Common.levelOption,
            .init(
                name: "adapter-command", value: "command",
                help: "Run against an adapter process speaking JSON-RPC over stdio (default: the embedded reference RP)."),
            .init(name: "mutant", value: "id", help: "Run against a faulty variant of the reference RP (see 'selftest --list-mutants')."),
            .init(name: "seed", value: "n", help: "Seed for every random choice (default 1); the same seed reproduces the run."),
            .init(name: "out", value: "dir", help: "Report directory (default: conformance-report)."),
            .init(
                name: "format", value: "formats",
                help: "Report formats: json, md (report.md, a summary, and report.details.md), junit, html (default: all).", repeatable: true),
            .init(
                name: "gate", value: "core|quality|all",
                help:
                    "Criteria whose failures and gaps fail the run: core (Core-level source and derived), quality (source and derived), all (default); the others are warnings."
            ),
            .init(
                name: "evidence", value: "failures|all",
                help: "Whole transcripts for test cases that did not pass (failures, the default) or for every test case (all)."),
            .init(name: "waivers", value: "file", help: "Waiver file of expected failures (JSON)."),
            .init(name: "today", value: "YYYY-MM-DD", help: "The date waivers expire against (default: today, UTC)."),
            .init(name: "call-timeout", value: "seconds", help: "Time-out of one adapter call (default 5)."),
            .init(name: "launch-timeout", value: "seconds", help: "Time the adapter has from its start to answer adapter.hello (default 10)."),
            .init(name: "test-case-timeout", value: "seconds", help: "Time-out of one test case over an adapter, from session.open (default 60)."),
            .init(
                name: "jobs", value: "n",
                help:
                    "Test cases run at once, each in its own session (default: the CPU count in-process, 1 with --adapter-command: raise it for adapters whose sessions are isolated)."
            ),
            .init(name: "timestamp", value: "ISO 8601", help: "Record this start time instead of the clock's (reproducible reports)."),
            .init(
                name: "shard", value: "i/n",
                help: "Run shard i of n: every n-th test case from the i-th (merge the shards' reports with 'merge')."),
            .init(
                name: "bundle", value: "dir",
                help: "Also write an evidence bundle: the reports, every test case's transcript, the criterion files, a manifest of SHA-256 digests."),
            .init(name: "sign-key", value: "pem", help: "Sign the bundle's manifest with this ECDSA P-256 or Ed25519 private key (PEM)."),
        ],
        flags: [
            ("quiet", "No progress and no summary on the terminal."), ("no-reports", "Write no report files."),
            (
                "allow-not-verified",
                "Exit 0 even when verify items were left unverified, as long as a test case passed (gradual adoption); recorded in the report."
            ),
            ("no-timings", "Record zero wall-clock durations (reproducible reports; virtual time is kept)."),
            ("no-build-info", "Record no harness commit, binary digest or host (reports equal across builds and machines)."),
        ],
        positionals: (0, 0, "")
    )

    /// `--jobs`: 1 to 256. By default the CPU count against the embedded reference RP (its sessions
    /// share nothing) and 1 against an adapter process, whose sessions may share a server: several
    /// test cases at once are safe only when each session has accounts and state of its own.
    static func jobs(_ parsed: ParsedArguments, command: String = spec.name) throws -> Int {
        guard let text = parsed.value("jobs") else {
            return parsed.value("adapter-command") == nil ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1
        }
        guard let jobs = Int(text), (1...256).contains(jobs) else {
            throw UsageError("--jobs must be a whole number from 1 to 256, found '\(text)'", command: command)
        }
        return jobs
    }

    /// `--timestamp`, or the clock.
    static func startTime(_ parsed: ParsedArguments) throws -> Date {
        guard let text = parsed.value("timestamp") else { return Date() }
        guard let date = ISO8601DateFormatter().date(from: text) else {
            throw UsageError("--timestamp must be an ISO 8601 time such as 2026-11-29T12:00:00Z, found '\(text)'", command: spec.name)
        }
        return date
    }

    /// The waiver file, checked against the loaded criteria and the target catalogue.
    static func loadWaivers(_ parsed: ParsedArguments, criterionIDs: Set<String>) throws -> WaiverFile? {
        guard let path = parsed.value("waivers") else { return nil }
        do {
            let file = try WaiverFile.load(path)
            let problems = file.unknownIDs(criteria: criterionIDs, targets: Set(TargetCatalog.all.map(\.id)))
            guard problems.isEmpty else {
                throw UsageError(
                    "the waiver file cannot be used:\n" + problems.map { "  \(Output.visible(path)): \(Output.visible($0))" }.joined(separator: "\n"),
                    command: spec.name)
            }
            return file
        } catch let error as WaiverFile.LoadError {
            throw UsageError(
                "the waiver file cannot be used:\n"
                    + error.problems.map { "  \(Output.visible(error.path)): \(Output.visible($0.description))" }.joined(separator: "\n"),
                command: spec.name)
        }
    }

    static func reportFormats(_ parsed: ParsedArguments) throws -> [ReportFormat] {
        let names = parsed.list("format")
        if names.isEmpty { return [.json, .markdown, .junit, .html] }
        return try names.map { name throws(UsageError) -> ReportFormat in
            switch name {
            case "json": return .json
            case "md", "markdown": return .markdown
            case "junit", "xml": return .junit
            case "html": return .html
            default: throw UsageError("unknown report format '\(name)'; use json, md, junit or html", command: spec.name)
            }
        }
    }

    /// `--gate`: `core`, `quality` or `all` (the default).
    static func gate(_ parsed: ParsedArguments) throws -> Gate {
        guard let text = parsed.value("gate") else { return .all }
        guard let gate = Gate(rawValue: text) else {
            throw UsageError("--gate must be core, quality or all, found '\(text)'", command: spec.name)
        }
        return gate
    }

    /// `--evidence`: whether passes keep their whole transcript (`all`) or not (`failures`, the default).
    static func transcriptsForPasses(_ parsed: ParsedArguments) throws -> Bool {
        switch parsed.value("evidence") {
        case nil, "failures": return false
        case "all": return true
        case let text?: throw UsageError("--evidence must be failures or all, found '\(text)'", command: spec.name)
        }
    }

    static func date(_ parsed: ParsedArguments) throws -> CalendarDate {
        guard let text = parsed.value("today") else { return CalendarDate(utcDayOf: Date()) }
        guard let date = CalendarDate(text) else { throw UsageError("--today must be a date YYYY-MM-DD, found '\(text)'", command: spec.name) }
        return date
    }
}

/// Progress on the terminal: test cases done / total and failures so far, on one line.
final class Progress: Sendable {
    let enabled: Bool
    init(enabled: Bool) { self.enabled = enabled }

    var handle: @Sendable (Runner.Event) -> Void {
        let enabled = self.enabled
        let failures = Counter()
        return { event in
            guard enabled else { return }
            switch event {
            case .started(let total):
                Output.write(Array("running \(total) test cases…\r".utf8), to: 2)
            case .finished(let result, let index, let total):
                if result.verdict != .passed && result.verdict != .notVerified { failures.increment() }
                if index == total || index % 25 == 0 {
                    Output.write(Array("\u{1B}[2K[\(index)/\(total)] failures so far: \(failures.value)\r".utf8), to: 2)
                }
            }
        }
    }

    func finish() {
        if enabled { Output.write(Array("\u{1B}[2K".utf8), to: 2) }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let storage = Mutex(0)
    func increment() { storage.withLock { $0 += 1 } }
    var value: Int { storage.withLock { $0 } }
}
