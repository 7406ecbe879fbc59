import ConformanceExplore
import ConformanceKit
import ConformanceEvidence
import ConformanceReports
import Foundation
import ReferenceRP

/// `explore`: random histories against the criteria's invariants; the first violation is shrunk
/// and written as a regression scenario and as a failed test case in the reports.
struct ExploreCommand: CLICommand {
    static let reportsInterruptions = true
    static let spec = CommandSpec(
        name: "explore", summary: "Run random histories against the criteria's invariants and shrink a violation to a scenario.",
        usage:
            "explore [--budget <n> | --seconds <s>] [--seed <n>] [--jobs <n>] [--mutant <id> | --adapter-command <command> | --adapter-connect <address>] [--target <id>] [--out <dir>]",
        options: [
            Common.criteriaOption, Common.targetOption,
            .init(name: "criterion", value: "id", help: "Only the invariants of these criteria or groups (N2.6-AC06, N3.2).", repeatable: true),
            .init(name: "budget", value: "n", help: "Histories to run (default 1000)."),
            .init(name: "seconds", value: "s", help: "Stop after this many seconds of wall time instead (the budget still caps the histories)."),
        ] + AdapterChoice.options + [
            .init(
                name: "design", value: "id",
                help:
                    "Explore a conforming design of the reference RP: a fixed design's id, or knobs:name=value;… (see 'selftest --list-designs'); with --mutant, the mutant built on it."
            ),
            .init(name: "seed", value: "n", help: "Seed of the histories (default 1); the same seed finds and shrinks the same history."),
            .init(
                name: "jobs", value: "n",
                help:
                    "Histories run at once, each in its own session (default: the CPU count in-process, 1 over an adapter); the findings are those of --jobs 1."
            ),
            .init(name: "out", value: "dir", help: "Report directory (default: explore-report); the regression scenario goes to <dir>/criteria."),
            ReportDestination.formatOption,
            .flag("quiet", "No progress and no summary on the terminal."), .flag("no-reports", "Write no report or scenario files."),
        ]
    )

    /// `--criteria` and `--target` (explore's `--criterion` names invariants, see `invariantCriteria`).
    var criteriaPath: String?
    var targets: [String]
    /// `--criterion`: only the invariants of these criteria or groups.
    var invariantCriteria: [String]
    /// The relying party (its `runSubject` names it in the re-run commands).
    var adapter: AdapterChoice
    var reports: ReportDestination
    var seed: UInt64
    /// Histories to run, and whether `--budget` gave the number.
    var budget: Int
    var budgetGiven: Bool
    /// `--seconds`: wall time after which the exploration stops.
    var seconds: Double?
    var quiet: Bool
    /// `--jobs`: histories run at once.
    var jobs: Int

    init(_ parsed: ParsedArguments) throws {
        reports = try ReportDestination(parsed, defaultDirectory: "explore-report")
        seed = try Common.seed(parsed)
        budgetGiven = parsed.value("budget") != nil
        budget = try parsed.wholeNumber("budget", in: 1...Int.max, described: "a positive whole number") ?? 1000
        seconds = try parsed.parsed("seconds", described: "a positive number") { Double($0).flatMap { $0 > 0 ? $0 : nil } }
        if seconds != nil, !budgetGiven { budget = Int.max }
        targets = try Common.targets(parsed)
        let groups = Set(ExploreInvariant.all.map { String($0.criterion.group) })
        invariantCriteria = parsed.list("criterion")
        for criterion in invariantCriteria where !ExploreInvariant.all.contains(where: { $0.criterion.rawValue == criterion }) && !groups.contains(criterion) {
            throw parsed.usageError(option: "criterion", "no invariant checks '\(criterion)'; see Criteria/invariants.md")
        }
        let designText = parsed.value("design")
        let design = try designText.map { text throws(UsageError) in
            try DesignOption.design(text, parsed: parsed, hint: "; see 'passkey-conformance selftest --list-designs'")
        }
        adapter = try AdapterChoice(parsed, design: design)
        criteriaPath = parsed.value("criteria")
        quiet = parsed.flag("quiet")
        jobs = try RunCommand.jobs(parsed, overAdapter: adapter.isExternal)
    }

    /// How the exploration ended.
    enum End: Sendable {
        /// It ran its budget or found a violation (shrunk into `scenario`); the adapter described itself.
        case finished(Explorer.Report, ExploreScenario?, AdapterDescription?)
        /// The adapter (or the harness) failed.
        case fault(RunFault)
        /// A signal came and the exploration did not stop within the grace period.
        case abandoned
    }

    func run() async throws -> Int32 {
        // First thing: from here on a signal ends the command with a report, not by its default action.
        let pipeline = RunPipeline()
        defer { pipeline.finish() }
        let interruptions = pipeline.interruptions
        // Criteria that do not load stop the exploration before it starts, with a report that says why (exit 2).
        var criteriaFault: RunFault?
        var criteria: [Criterion] = []
        var digest = ""
        switch RunPipeline.loadCriteria(path: criteriaPath) {
        case .loaded(let result): (criteria, digest) = (result.criteria, result.digest)
        case .fault(let fault): criteriaFault = fault
        }
        let reportDirectory: ReportDirectory?
        do { reportDirectory = try RunPipeline.openReports(reports) } catch { return CLI.Status.systemError }
        let showProgress = !quiet && Output.errorIsTerminal
        let adapter = self.adapter.make()
        var explorer = Explorer(adapter: adapter, seed: seed)
        explorer.platforms = CLI.platforms
        explorer.criteria = CriterionSelection(invariantCriteria.map { CriterionSelector($0) })
        explorer.jobs = jobs
        let filters = targets.map { "--target \($0)" } + invariantCriteria.map { "--criterion \($0)" }

        let exploring = explorer
        let subject = self.adapter.runSubject.shellWords
        let work: @Sendable () async -> End = { [budget, budgetGiven, seconds, seed, subject, targets, criteria] in
            do {
                let report = try await exploring.explore(budget: budget, seconds: seconds, targets: targets) { done, total in
                    guard showProgress else { return }
                    let of = total == Int.max ? "" : "/\(total)"
                    Output.write(Array("\u{1B}[2K[\(done)\(of)] histories, no violation so far\r".utf8), to: 2)
                }
                let limit = seconds != nil && !budgetGiven ? "--budget \(report.histories)" : "--budget \(budget)"
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
                return .fault(RunFault(kind: .harness, message: "\(error)"))
            }
        }
        let end: End
        if let criteriaFault {
            end = .fault(criteriaFault)
            await adapter.shutdown()
        } else {
            end = await pipeline.drive(adapter, work, abandoned: { .abandoned })
        }
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
                name: description?.name ?? "?", version: description?.version ?? "?", transport: self.adapter.transport,
                declaredTargets: description?.targets.map(\.rawValue), capabilities: description?.capabilities.map(\.rawValue)),
            targets: Explorer.targets(
                targets,
                description: description ?? AdapterDescription(name: "?", version: "?", targets: [], capabilities: [], relyingPartyIDs: [])
            ).map(\.id.rawValue),
            seed: seed, startedAt: Suite.iso8601(Date()), filters: ["explore": "\(report?.histories ?? 0) histories"],
            fault: fault)
        metadata.runSubject = self.adapter.runSubject
        pipeline.stamp(&metadata, criteriaPath: criteriaPath, digest: digest)
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
            let extra = scenario.map { [(path: "criteria/" + $0.fileName, bytes: Array($0.text.utf8))] } ?? []
            guard let written = RunPipeline.writeReports(run, formats: reports.formats, extraFiles: extra, to: reportDirectory) else {
                return CLI.Status.systemError
            }
            if let scenario {
                let folder = (reports.directory as NSString).appendingPathComponent("criteria")
                lines.append(
                    "Run it: passkey-conformance run --criteria \(folder) --target \(scenario.result.target)"
                        + self.adapter.runSubject.shellWords.map { " " + $0 }.joined())
            }
            lines.append("Reports: " + written.joined(separator: ", "))
        }
        if !quiet || fault != nil || interruptions.signal != nil { Output.out(lines.joined(separator: "\n")) }
        // The process's status is the report's, so that the two never disagree.
        return ExitStatus.for(run).rawValue
    }
}
