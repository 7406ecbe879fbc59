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
            "run [--adapter-command <command>] [--criterion <id>] [--target <id>] [--tags <expr>] [--out <dir>] [--format json,md,junit] [--seed <n>] [--jobs <n>]",
        options: [
            Common.criteriaOption, Common.criterionOption, Common.targetOption, Common.tagsOption, Common.scenarioOption, Common.levelOption,
            .init(
                name: "adapter-command", value: "command",
                help: "Run against an adapter process speaking JSON-RPC over stdio (default: the embedded reference RP)."),
            .init(name: "mutant", value: "id", help: "Run against a faulty variant of the reference RP (see 'selftest --list-mutants')."),
            .init(name: "seed", value: "n", help: "Seed for every random choice (default 1); the same seed reproduces the run."),
            .init(name: "out", value: "dir", help: "Report directory (default: conformance-report)."),
            .init(name: "format", value: "formats", help: "Report formats: json, md, junit (default: all).", repeatable: true),
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
        ],
        flags: [
            ("quiet", "No progress and no summary on the terminal."), ("no-reports", "Write no report files."),
            ("allow-not-verified", "Exit 0 even when criteria were left unverified (gradual adoption); recorded in the report."),
            ("no-timings", "Record zero wall-clock durations (reproducible reports; virtual time is kept)."),
        ],
        positionals: (0, 0, "")
    )

    /// `--jobs`: 1 to 256. By default the CPU count against the embedded reference RP (its sessions
    /// share nothing) and 1 against an adapter process, whose sessions may share a server: several
    /// test cases at once are safe only when each session has accounts and state of its own.
    static func jobs(_ parsed: ParsedArguments) throws -> Int {
        guard let text = parsed.value("jobs") else {
            return parsed.value("adapter-command") == nil ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1
        }
        guard let jobs = Int(text), (1...256).contains(jobs) else {
            throw UsageError("--jobs must be a whole number from 1 to 256, found '\(text)'", command: spec.name)
        }
        return jobs
    }

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        // Everything that can reject the command line comes first: a rejected command line
        // (exit 64) leaves no report directory behind.
        let formats = try reportFormats(parsed)
        let today = try date(parsed)
        let loaded = try Common.loadCriteria(parsed)
        let waivers = try loadWaivers(parsed, criteria: loaded.criteria)
        let filter = try Common.filter(parsed, criteria: loaded.criteria, command: spec.name)
        let seed = try Common.seed(parsed, command: spec.name)
        let jobs = try Self.jobs(parsed)
        var startedAt = Date()
        if let text = parsed.value("timestamp") {
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw UsageError("--timestamp must be an ISO 8601 time such as 2026-11-29T12:00:00Z, found '\(text)'", command: spec.name)
            }
            startedAt = date
        }
        let (adapter, transport, command) = try Adapters.make(parsed, command: spec.name)
        // Fail before the run, not after it, when the reports cannot be written.
        let directory = parsed.value("out") ?? "conformance-report"
        let writesReports = !parsed.flags.contains("no-reports")
        if writesReports {
            do {
                try ReportWriter.prepare(directory: directory)
            } catch {
                Output.error("error: \(error)")
                return CLI.Status.systemError
            }
            guard FileManager.default.isWritableFile(atPath: directory) else {
                Output.error("error: the report directory \(Output.visible(directory)) is not writable")
                return CLI.Status.systemError
            }
        }
        let quiet = parsed.flags.contains("quiet")
        let allowNotVerified = parsed.flags.contains("allow-not-verified")
        let progress = Progress(enabled: !quiet && Output.errorIsTerminal)
        let plan = TestPlan.make(loaded.criteria, filter: filter)
        let execution = Execution(plan: plan, adapter: adapter, seed: seed, jobs: jobs, onEvent: progress.handle)
        let interruptions = InterruptionMonitor()
        let outcome = await interruptions.guarding(execution)
        defer { InterruptionMonitor.restoreDefaultHandlers() }
        await adapter.shutdown()
        progress.finish()

        func metadata(_ description: AdapterDescription?, fault: RunFault? = nil) -> RunMetadata {
            let unnamed = command == nil ? "reference-rp" : "unknown (it did not describe itself)"
            var metadata = Suite.metadata(
                plan: plan, description: description, adapterName: unnamed, digest: loaded.digest,
                transport: transport, command: command, filterText: Common.filterText(parsed), seed: seed,
                startedAt: startedAt, allowNotVerified: allowNotVerified, fault: fault)
            metadata.interruption = interruptions.signal
            metadata.criteriaRoot = parsed.value("criteria")
            metadata.harnessCommand = HarnessExecutable.rerunCommand
            return metadata
        }
        var run: RunResult
        switch outcome {
        case .finished(let description, let results, let wallSeconds):
            run = RunResult.assemble(plan: plan, results: results, metadata: metadata(description), wallSeconds: wallSeconds)
        case .unstarted(let fault):
            Output.error("error: the adapter failed before the run: \(Output.visible(fault.description))")
            run = RunResult.unstarted(plan: plan, metadata: metadata(nil), fault: fault)
        case .abandoned(let description, let results, let wallSeconds):
            Output.error(
                "error: the run did not stop within \(InterruptionMonitor.grace) of \(interruptions.signal?.rawValue ?? "the signal"); writing what it finished"
            )
            run =
                description.map { RunResult.assemble(plan: plan, results: results, metadata: metadata($0), wallSeconds: wallSeconds) }
                ?? RunResult.unstarted(
                    plan: plan, metadata: metadata(nil),
                    fault: RunFault(kind: "interrupted", message: "interrupted before the adapter described itself"))
        }
        if let signal = run.metadata.interruption {
            Output.error("warning: interrupted by \(signal.rawValue): the report is partial (\(run.testCases.count) of \(plan.cases.count) test cases)")
        }
        if !run.metadata.adapter.unknownTargets.isEmpty {
            Output.error(
                "warning: the adapter declares unknown target(s), ignored: "
                    + run.metadata.adapter.unknownTargets.map(Output.visible).joined(separator: ", "))
        }
        if parsed.flags.contains("no-timings") { run = run.withoutWallTimes() }
        let evaluation = waivers.map { $0.evaluate(against: run, today: today) } ?? .none
        if !quiet { Output.out(Summary.text(run, waivers: evaluation)) }
        if writesReports {
            do {
                let written = try ReportWriter.write(run, waivers: evaluation, formats: formats, to: directory)
                if !quiet { Output.out("Reports: " + written.map(Output.visible).joined(separator: ", ")) }
            } catch {
                Output.error("error: \(error)")
                return run.metadata.interruption == nil ? CLI.Status.systemError : ExitStatus.for(run, evaluation).rawValue
            }
        }
        if run.testCases.isEmpty {
            Output.error("warning: the filters selected no test case")
        }
        return ExitStatus.for(run, evaluation).rawValue
    }

    /// The waiver file, checked against the loaded criteria and the target catalogue.
    static func loadWaivers(_ parsed: ParsedArguments, criteria: [Criterion]) throws -> WaiverFile? {
        guard let path = parsed.value("waivers") else { return nil }
        do {
            let file = try WaiverFile.load(path)
            let problems = file.unknownIDs(criteria: Set(criteria.map(\.info.id)), targets: Set(TargetCatalog.all.map(\.id)))
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
        if names.isEmpty { return [.json, .markdown, .junit] }
        return try names.map { name throws(UsageError) -> ReportFormat in
            switch name {
            case "json": return .json
            case "md", "markdown": return .markdown
            case "junit", "xml": return .junit
            default: throw UsageError("unknown report format '\(name)'; use json, md or junit", command: spec.name)
            }
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
                FileHandle.standardError.write(Data("running \(total) test cases…\r".utf8))
            case .finished(let result, let index, let total):
                if result.verdict != .passed && result.verdict != .notVerified { failures.increment() }
                if index == total || index % 25 == 0 {
                    FileHandle.standardError.write(Data("\u{1B}[2K[\(index)/\(total)] failures so far: \(failures.value)\r".utf8))
                }
            }
        }
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\u{1B}[2K".utf8)) }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let storage = Mutex(0)
    func increment() { storage.withLock { $0 += 1 } }
    var value: Int { storage.withLock { $0 } }
}
