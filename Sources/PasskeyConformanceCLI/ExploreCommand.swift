import ConformanceKit
import ConformanceReports
import Foundation
import ReferenceRP

/// `explore`: random histories against the criteria's invariants; the first violation is shrunk
/// and written as a regression scenario and as a failed test case in the reports.
enum ExploreCommand {
    static let spec = CommandSpec(
        name: "explore", summary: "Run random histories against the criteria's invariants and shrink a violation to a scenario.",
        usage: "explore [--budget <n> | --seconds <s>] [--seed <n>] [--jobs <n>] [--mutant <id> | --adapter-command <command>] [--target <id>] [--out <dir>]",
        options: [
            Common.criteriaOption, Common.targetOption,
            .init(name: "criterion", value: "id", help: "Only the invariants of these criteria or groups (N2.6-AC06, N3.2).", repeatable: true),
            .init(name: "budget", value: "n", help: "Histories to run (default 1000)."),
            .init(name: "seconds", value: "s", help: "Stop after this many seconds of wall time instead (the budget still caps the histories)."),
            .init(
                name: "adapter-command", value: "command", help: "Explore an adapter process speaking JSON-RPC over stdio (default: the embedded reference RP)."
            ),
            .init(name: "mutant", value: "id", help: "Explore a faulty variant of the reference RP (see 'selftest --list-mutants')."),
            .init(
                name: "design", value: "id",
                help: "Explore a conforming design of the reference RP (see 'selftest --list-designs'); with --mutant, the mutant built on it."),
            .init(name: "seed", value: "n", help: "Seed of the histories (default 1); the same seed finds and shrinks the same history."),
            .init(
                name: "jobs", value: "n",
                help:
                    "Histories run at once, each in its own session (default: the CPU count in-process, 1 with --adapter-command); the findings are those of --jobs 1."
            ),
            .init(name: "out", value: "dir", help: "Report directory (default: explore-report); the regression scenario goes to <dir>/criteria."),
            .init(name: "format", value: "formats", help: "Report formats: json, md, junit (default: all).", repeatable: true),
            .init(name: "call-timeout", value: "seconds", help: "Time-out of one adapter call (default 5)."),
            .init(name: "launch-timeout", value: "seconds", help: "Time the adapter has from its start to answer adapter.hello (default 10)."),
            .init(name: "test-case-timeout", value: "seconds", help: "Time-out of one test case over an adapter, from session.open (default 60)."),
        ],
        flags: [("quiet", "No progress and no summary on the terminal."), ("no-reports", "Write no report or scenario files.")],
        positionals: (0, 0, "")
    )

    /// How the exploration ended.
    enum End: Sendable {
        /// It ran its budget or found a violation (shrunk into `scenario`); the adapter described itself.
        case finished(Explorer.Report, ExploreScenario?, AdapterDescription?)
        /// The adapter (or the harness) failed.
        case fault(RunFault)
        /// A signal came and the exploration did not stop within the grace period.
        case abandoned
    }

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        // First thing: from here on a signal ends the command with a report, not by its default action.
        let interruptions = InterruptionMonitor()
        defer { interruptions.finish() }
        let formats = try RunCommand.reportFormats(parsed)
        let seed = try Common.seed(parsed, command: spec.name)
        var budget = 1000
        if let text = parsed.value("budget") {
            guard let value = Int(text), value > 0 else { throw UsageError("--budget must be a positive whole number, found '\(text)'", command: spec.name) }
            budget = value
        }
        var seconds: Double?
        if let text = parsed.value("seconds") {
            guard let value = Double(text), value > 0 else { throw UsageError("--seconds must be a positive number, found '\(text)'", command: spec.name) }
            seconds = value
            if parsed.value("budget") == nil { budget = Int.max }
        }
        let knownTargets = TargetCatalog.all.map(\.id)
        for target in parsed.list("target") where !knownTargets.contains(target) {
            throw UsageError("unknown target '\(target)'; known targets: \(knownTargets.joined(separator: ", "))", command: spec.name)
        }
        let groups = Set(ExploreInvariant.all.map { String($0.criterion.split(separator: "-").first ?? "") })
        for criterion in parsed.list("criterion") where !ExploreInvariant.all.contains(where: { $0.criterion == criterion }) && !groups.contains(criterion) {
            throw UsageError("no invariant checks '\(criterion)'; see Criteria/invariants.md", command: spec.name)
        }
        var (chosen, transport, command) = try Adapters.make(parsed, command: spec.name)
        var designNote: String?
        if let id = parsed.value("design") {
            guard let design = ReferenceDesign.all.first(where: { $0.id == id }) else {
                throw UsageError("unknown design '\(id)'; see 'passkey-conformance selftest --list-designs'", command: spec.name)
            }
            if parsed.value("adapter-command") != nil { throw UsageError("--design and --adapter-command exclude each other", command: spec.name) }
            chosen = ReferenceRP(mutation: parsed.value("mutant").flatMap(Mutation.init(rawValue:)), design: design)
            (transport, command) = ("in-process", nil)
            designNote = "--design \(id)"
        }
        let adapter = chosen
        // Criteria that do not load stop the exploration before it starts, with a report that says why (exit 2).
        var criteriaFault: RunFault?
        var criteria: [Criterion] = []
        var digest = ""
        switch Common.attemptLoadingCriteria(parsed) {
        case .success(let result): (criteria, digest) = (result.criteria, result.digest)
        case .failure(let issue):
            Output.error("error: \(issue)")
            criteriaFault = RunFault(kind: "criteria", message: issue.message, method: nil, excerpt: parsed.value("criteria") ?? "the bundled suite")
        }
        let directory = parsed.value("out") ?? "explore-report"
        var reportDirectory: ReportDirectory?
        if !parsed.flags.contains("no-reports") {
            do {
                reportDirectory = try ReportDirectory(directory)
            } catch {
                Output.error("error: \(Output.inline(error.description))")
                return CLI.Status.systemError
            }
        }
        let quiet = parsed.flags.contains("quiet")
        let showProgress = !quiet && Output.errorIsTerminal
        var explorer = Explorer(adapter: adapter, seed: seed)
        explorer.criteria = parsed.list("criterion")
        explorer.jobs = try RunCommand.jobs(parsed, command: spec.name)
        var subject: [String] = []
        if let mutant = parsed.value("mutant") { subject.append("--mutant \(mutant)") }
        if let designNote { subject.append(designNote) }
        if let line = parsed.value("adapter-command") { subject.append("--adapter-command '\(line)'") }
        let filters = parsed.list("target").map { "--target \($0)" } + parsed.list("criterion").map { "--criterion \($0)" }

        let exploring = explorer
        let targets = parsed.list("target")
        let work: @Sendable () async -> End = { [budget, seconds, subject, criteria] in
            do {
                let report = try await exploring.explore(budget: budget, seconds: seconds, targets: targets) { done, total in
                    guard showProgress else { return }
                    let of = total == Int.max ? "" : "/\(total)"
                    Output.write(Array("\u{1B}[2K[\(done)\(of)] histories, no violation so far\r".utf8), to: 2)
                }
                let limit = seconds != nil && parsed.value("budget") == nil ? "--budget \(report.histories)" : "--budget \(budget)"
                let rerun = (["passkey-conformance explore --seed \(seed)", limit] + subject + filters).joined(separator: " ")
                var scenario: ExploreScenario?
                if let finding = report.finding {
                    scenario = try await exploring.scenario(for: finding, criteria: criteria, oracle: ReferenceRP(), rerun: rerun)
                }
                // Read while the adapter still runs: never a second launch just for its name.
                return .finished(report, scenario, try? await adapter.describe())
            } catch let fault as any ReportableFault {
                return .fault(fault.runFault)
            } catch {
                return .fault(RunFault(kind: "harness", message: "\(error)"))
            }
        }
        let end = if let criteriaFault { End.fault(criteriaFault) } else { await interruptions.guarding(work, abandoned: { End.abandoned }) }
        await adapter.shutdown()
        if showProgress { Output.write(Array("\u{1B}[2K".utf8), to: 2) }

        var report: Explorer.Report?
        var scenario: ExploreScenario?
        var description: AdapterDescription?
        var fault: RunFault?
        switch end {
        case .finished(let finished, let shrunk, let described): (report, scenario, description) = (finished, shrunk, described)
        case .fault(let failure): fault = failure
        case .abandoned: break
        }
        var metadata = RunMetadata(
            harnessVersion: Suite.harnessVersion, criteriaDigest: digest,
            adapter: .init(
                name: description?.name ?? "?", version: description?.version ?? "?", transport: transport, command: command,
                declaredTargets: description?.targets, capabilities: description?.capabilities.map(\.rawValue)),
            targets: Explorer.targets(
                parsed.list("target"),
                description: description ?? AdapterDescription(name: "?", version: "?", targets: [], capabilities: [], relyingPartyIDs: [])
            ).map(\.id),
            seed: seed, startedAt: Suite.iso8601(Date()), filters: ["explore": "\(report?.histories ?? 0) histories"],
            interruption: interruptions.signal, fault: fault, criteriaRoot: parsed.value("criteria"))
        metadata.criteriaSource = .init(digest: digest, bundledDigest: CriteriaLocation.bundledDigest())
        let run = Explorer.runResult(scenario, criteria: criteria, metadata: metadata, wallSeconds: report?.wallSeconds ?? 0)
        var lines: [String] = []
        if let notice = Summary.criteriaNotice(metadata) { lines.append(notice) }
        if let report {
            let rate = Double(report.histories) / max(report.wallSeconds, 1e-9)
            lines.append(
                String(
                    format: "explore: %d histories, %d steps in %.2f s (%.0f histories/s), seed %llu", report.histories, report.steps, report.wallSeconds,
                    rate, seed))
        }
        if let fault { lines.append("error: the exploration stopped: \(Output.inline(fault.description))") }
        if let signal = interruptions.signal { lines.append("warning: interrupted by \(signal.rawValue); the report is partial") }
        if let finding = report?.finding, let scenario {
            lines.append("Violation: \(finding.violation.invariant.id) (\(finding.violation.item)): \(Output.inline(finding.violation.message))")
            lines.append(
                "Found in history \(finding.index + 1); shrunk from \(finding.original.steps.count) to \(finding.shrunk.steps.count) steps in \(finding.replays) replays."
            )
            if scenario.check == nil {
                lines.append("No step of the library states this check for the history; the scenario below reproduces it without a Then step.")
            }
            lines += ["", scenario.text]
        } else if report != nil {
            lines.append("No invariant broken.")
        }
        if let reportDirectory {
            do {
                let extra = scenario.map { [(path: "criteria/" + $0.fileName, bytes: Array($0.text.utf8))] } ?? []
                let written = try ReportWriter.write(run, formats: formats, extraFiles: extra, to: reportDirectory)
                if let scenario {
                    let folder = (directory as NSString).appendingPathComponent("criteria")
                    lines.append(
                        "Run it: passkey-conformance run --criteria \(folder) --target \(scenario.result.target)"
                            + (subject.isEmpty ? "" : " " + subject.joined(separator: " ")))
                }
                lines.append("Reports: " + written.joined(separator: ", "))
            } catch {
                Output.error("error: \(Output.inline(error.description))")
                return CLI.Status.systemError
            }
        }
        if !quiet || fault != nil || interruptions.signal != nil { Output.out(lines.joined(separator: "\n")) }
        // The process's status is the report's, so that the two never disagree.
        return ExitStatus.for(run).rawValue
    }
}
