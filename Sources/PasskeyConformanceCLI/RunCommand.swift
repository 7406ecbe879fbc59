import ConformanceKit
import ConformanceEvidence
import ConformanceReports
import Foundation
import Synchronization
import ReferenceRP
import WebAuthn

/// `run`: the suite against an adapter, with reports and a gating exit status.
struct RunCommand: CLICommand {
    static let reportsInterruptions = true
    static let spec = CommandSpec(
        name: "run", summary: "Run the criteria against a relying party and write reports.",
        usage:
            "run [--adapter-command <command> | --adapter-connect <address>] [--criterion <id>] [--target <id>] [--tags <expr>] [--out <dir>] [--format \(ReportFormat.usageList)] [--gate core|quality|all] [--evidence failures|all] [--seed <n>] [--jobs <n>] [--shard <i/n>] [--bundle <dir>]",
        options: [
            Common.criteriaOption, Common.criterionOption, Common.targetOption, Common.tagsOption, Common.scenarioOption, Common.levelOption,
        ] + AdapterChoice.options + [
            .init(
                name: "design", value: "id",
                help:
                    "Run against a conforming design of the reference RP: a fixed design's id, or knobs:name=value;… (see 'selftest --list-designs'); with --mutant, the mutant built on it."
            ),
            .init(name: "seed", value: "n", help: "Seed for every random choice (default 1); the same seed reproduces the run."),
            .init(name: "out", value: "dir", help: "Report directory (default: conformance-report)."),
            ReportDestination.formatOption,
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
            .init(
                name: "jobs", value: "n",
                help:
                    "Test cases run at once, each in its own session (default: the CPU count in-process, 1 over an adapter: raise it for adapters whose sessions are isolated)."
            ),
            .init(name: "timestamp", value: "ISO 8601", help: "Record this start time instead of the clock's (reproducible reports)."),
            .init(
                name: "shard", value: "i/n",
                help: "Run shard i of n: every n-th test case from the i-th (merge the shards' reports with 'merge')."),
            .init(
                name: "bundle", value: "dir",
                help: "Also write an evidence bundle: the reports, every test case's transcript, the criterion files, a manifest of SHA-256 digests."),
            .init(
                name: "sign-key", value: "pem",
                help: "Refused: a key given to run is within the relying party's reach; sign the bundle afterwards with 'sign <dir> --key <pem>'."),
            .flag("quiet", "No progress and no summary on the terminal."), .flag("no-reports", "Write no report files."),
            .flag(
                "allow-not-verified",
                "Exit 0 even when verify items were left unverified, as long as a test case passed (gradual adoption); recorded in the report."
            ),
            .flag("no-timings", "Record zero wall-clock durations (reproducible reports; virtual time is kept)."),
            .flag("no-build-info", "Record no harness commit, binary digest or host (reports equal across builds and machines)."),
        ]
    )

    /// Which criteria, scenarios and targets run.
    var selection: CriteriaSelection
    /// The relying party.
    var adapter: AdapterChoice
    /// Where the reports go and in which formats.
    var reports: ReportDestination
    /// The date waivers expire against (`--today`).
    var today: CalendarDate
    var seed: UInt64
    /// The start time the reports record (`--timestamp`, or the clock when the command was read).
    var startedAt: Date
    var quiet: Bool
    var allowNotVerified: Bool
    /// `--no-timings`: zero wall-clock durations in the reports.
    var withoutTimings: Bool
    /// Whether the harness commit, binary digest and host are recorded (not `--no-build-info`).
    var buildInfo: Bool
    var gate: Gate
    /// `--evidence all`: passes keep their whole transcript.
    var transcriptsForPasses: Bool
    /// `--shard i/n`.
    var shard: (index: Int, count: Int)?
    /// The evidence bundle's directory (`--bundle`), written unsigned (`sign` signs it afterwards).
    var bundle: String?
    /// Test cases run at once.
    var jobs: Int
    /// `--waivers`: read once the criteria are loaded, since they are checked against them.
    var waiversPath: String?

    /// Reads every option; everything that can reject the command line comes before the report
    /// directory is touched, so that a rejected command line (exit 64) leaves no report directory behind.
    init(_ parsed: ParsedArguments) throws {
        reports = try ReportDestination(parsed, defaultDirectory: "conformance-report")
        let design = try parsed.value("design").map { text throws(UsageError) in
            try DesignOption.design(text, parsed: parsed, hint: "; see 'passkey-conformance selftest --list-designs'")
        }
        adapter = try AdapterChoice(parsed, design: design)
        today = try Self.date(parsed)
        seed = try Common.seed(parsed)
        startedAt = try Self.startTime(parsed)
        quiet = parsed.flag("quiet")
        allowNotVerified = parsed.flag("allow-not-verified")
        withoutTimings = parsed.flag("no-timings")
        buildInfo = !parsed.flag("no-build-info")
        gate = try parsed.choice("gate", ["core": .core, "quality": .quality, "all": .all]) ?? .all
        transcriptsForPasses = try parsed.choice("evidence", ["failures": false, "all": true]) ?? false
        shard = try Self.shard(parsed)
        bundle = parsed.value("bundle")
        try Self.refuseSigningKey(parsed)
        jobs = try Self.jobs(parsed, overAdapter: adapter.isExternal)
        waiversPath = parsed.value("waivers")
        selection = try CriteriaSelection(parsed)
    }

    /// `--jobs`: 1 to 256. By default the CPU count against the embedded reference RP (its sessions
    /// share nothing) and 1 against an adapter process, whose sessions may share a server: several
    /// test cases at once are safe only when each session has accounts and state of its own.
    static func jobs(_ parsed: ParsedArguments, overAdapter: Bool) throws(UsageError) -> Int {
        try parsed.wholeNumber("jobs", in: 1...256, described: "a whole number from 1 to 256")
            ?? (overAdapter ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// `--timestamp`, or the clock.
    static func startTime(_ parsed: ParsedArguments) throws(UsageError) -> Date {
        try parsed.parsed("timestamp", described: "an ISO 8601 time such as 2026-11-29T12:00:00Z") { ISO8601DateFormatter().date(from: $0) } ?? Date()
    }

    /// The waiver file, checked against the loaded criteria and the target catalogue.
    static func loadWaivers(_ path: String?, criterionIDs: Set<CriterionID>, command: String = spec.name) throws -> WaiverFile? {
        guard let path else { return nil }
        do {
            let file = try WaiverFile.load(path)
            let problems = file.unknownIDs(criteria: criterionIDs, targets: Set(TargetCatalog.all.map(\.id.rawValue)))
            guard problems.isEmpty else {
                throw UsageError(
                    "--waivers: the waiver file cannot be used:\n"
                        + problems.map { "  \(Output.visible(path)): \(Output.visible($0))" }.joined(separator: "\n"),
                    command: command)
            }
            return file
        } catch let error as WaiverFile.LoadError {
            throw UsageError(
                "--waivers: the waiver file cannot be used:\n"
                    + error.problems.map { "  \(Output.visible(error.path)): \(Output.visible($0.description))" }.joined(separator: "\n"),
                command: command)
        }
    }

    /// `--today`, or today (UTC).
    static func date(_ parsed: ParsedArguments) throws(UsageError) -> CalendarDate {
        try parsed.parsed("today", described: "a date YYYY-MM-DD") { CalendarDate($0) } ?? CalendarDate(utcDayOf: Date())
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
