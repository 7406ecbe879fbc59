import ConformanceKit
import ConformanceReports
import Foundation
import Synchronization
import ReferenceRP

/// `run`: the suite against an adapter, with reports and a gating exit status.
enum RunCommand {
    static let spec = CommandSpec(
        name: "run", summary: "Run the criteria against a relying party and write reports.",
        usage: "run [--adapter-command <command>] [--criterion <id>] [--target <id>] [--tags <expr>] [--out <dir>] [--format json,md,junit] [--seed <n>]",
        options: [
            Common.criteriaOption, Common.criterionOption, Common.targetOption, Common.tagsOption, Common.scenarioOption,
            .init(name: "adapter-command", value: "command", help: "Run against an adapter process speaking JSON-RPC over stdio (default: the embedded reference RP)."),
            .init(name: "mutant", value: "id", help: "Run against a faulty variant of the reference RP (see 'selftest --list-mutants')."),
            .init(name: "seed", value: "n", help: "Seed for every random choice (default 1); the same seed reproduces the run."),
            .init(name: "out", value: "dir", help: "Report directory (default: conformance-report)."),
            .init(name: "format", value: "formats", help: "Report formats: json, md, junit (default: all).", repeatable: true),
            .init(name: "waivers", value: "file", help: "Waiver file of expected failures (JSON)."),
            .init(name: "today", value: "YYYY-MM-DD", help: "The date waivers expire against (default: today, UTC)."),
            .init(name: "call-timeout", value: "seconds", help: "Time-out of one adapter call (default 5)."),
            .init(name: "timestamp", value: "ISO 8601", help: "Record this start time instead of the clock's (reproducible reports)."),
        ],
        flags: [("quiet", "No progress and no summary on the terminal."), ("no-reports", "Write no report files."),
                ("no-timings", "Record zero wall-clock durations (reproducible reports; virtual time is kept).")],
        positionals: (0, 0, "")
    )

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let formats = try reportFormats(parsed)
        let today = try date(parsed)
        let waivers: WaiverFile?
        if let path = parsed.value("waivers") {
            do {
                waivers = try WaiverFile.load(path)
            } catch {
                throw UsageError("the waiver file cannot be used:\n" + error.problems.map { "  \(error.path): \($0)" }.joined(separator: "\n"), command: spec.name)
            }
        } else {
            waivers = nil
        }
        // Fail before the run, not after it, when the reports cannot be written.
        let directory = parsed.value("out") ?? "conformance-report"
        if !parsed.flags.contains("no-reports") {
            do {
                try ReportWriter.prepare(directory: directory)
            } catch {
                Output.error("error: \(error)")
                return CLI.Status.systemError
            }
            guard FileManager.default.isWritableFile(atPath: directory) else {
                Output.error("error: the report directory \(directory) is not writable")
                return CLI.Status.systemError
            }
        }
        let loaded = try Common.loadCriteria(parsed)
        let filter = try Common.filter(parsed, criteria: loaded.criteria, command: spec.name)
        let seed = try Common.seed(parsed, command: spec.name)
        let (adapter, transport, command) = try Adapters.make(parsed, command: spec.name)
        defer { Task { await adapter.shutdown() } }
        let quiet = parsed.flags.contains("quiet")
        let progress = Progress(enabled: !quiet && Output.errorIsTerminal)
        var startedAt = Date()
        if let text = parsed.value("timestamp") {
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw UsageError("--timestamp must be an ISO 8601 time such as 2026-11-29T12:00:00Z, found '\(text)'", command: spec.name)
            }
            startedAt = date
        }
        var run = try await Suite.run(criteria: loaded.criteria, digest: loaded.digest, adapter: adapter, transport: transport, command: command,
                                      filter: filter, filterText: Common.filterText(parsed), seed: seed, startedAt: startedAt, onEvent: progress.handle)
        if parsed.flags.contains("no-timings") { run = run.withoutWallTimes() }
        await adapter.shutdown()
        progress.finish()
        let evaluation = waivers.map { $0.evaluate(against: run, today: today) } ?? .none
        if !quiet { Output.out(Summary.text(run, waivers: evaluation)) }
        if !parsed.flags.contains("no-reports") {
            do {
                let written = try ReportWriter.write(run, waivers: evaluation, formats: formats, to: directory)
                if !quiet { Output.out("Reports: " + written.joined(separator: ", ")) }
            } catch {
                Output.error("error: \(error)")
                return CLI.Status.systemError
            }
        }
        if run.testCases.isEmpty {
            Output.error("warning: the filters selected no test case")
        }
        return ExitStatus.for(run, evaluation).rawValue
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
