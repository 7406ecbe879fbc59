import ConformanceKit
import ConformanceReports
import Foundation
import WebAuthn

extension RunCommand {
    /// The command line's choices that every ending of a run needs to write its reports.
    struct Setting {
        var parsed: ParsedArguments
        var formats: [ReportFormat]
        var today: CalendarDate
        var seed: UInt64
        var startedAt: Date
        var transport: String
        var command: String?
        var directory: String
        var writesReports: Bool
        var quiet: Bool
        var allowNotVerified: Bool
        var bundledDigest: String?
        var gate: Gate
        var transcriptsForPasses: Bool
        /// Whether the harness commit, binary digest and host are recorded (not `--no-build-info`).
        var buildInfo = true
        /// The part of the plan this run covers (`--shard`).
        var shard: RunMetadata.Shard?
        /// The evidence bundle's directory (`--bundle`) and the key that signs it (`--sign-key`).
        var bundle: String?
        var signingKey: PEMSigningKey?
        /// The criteria root the run loads (for the bundle's criterion files).
        var criteriaRoot = ""

        /// The run's metadata once the criteria (digest) and the adapter (description) are known.
        func metadata(
            plan: TestPlan, description: AdapterDescription?, digest: String, interruption: RunMetadata.Interruption?, fault: RunFault? = nil
        ) -> RunMetadata {
            let unnamed = command == nil ? "reference-rp" : "unknown (it did not describe itself)"
            var metadata = Suite.metadata(
                plan: plan, description: description, adapterName: unnamed, digest: digest,
                transport: transport, command: command, filterText: Common.filterText(parsed), seed: seed,
                startedAt: startedAt, allowNotVerified: allowNotVerified, fault: fault)
            metadata.interruption = interruption
            metadata.criteriaRoot = parsed.value("criteria")
            metadata.harnessCommand = HarnessExecutable.rerunCommand
            metadata.criteriaSource = .init(digest: digest, bundledDigest: bundledDigest)
            metadata.gate = gate
            if transcriptsForPasses { metadata.transcriptsForPasses = true }
            metadata.shard = shard
            HarnessProvenance.stamp(&metadata, recorded: buildInfo)
            return metadata
        }
    }

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        // First thing: from here on a signal ends the command with a report, not by its default action.
        let interruptions = InterruptionMonitor()
        defer { interruptions.finish() }
        // Everything that can reject the command line comes before the report directory is touched:
        // a rejected command line (exit 64) leaves no report directory behind.
        let formats = try reportFormats(parsed)
        let (adapter, transport, command) = try Adapters.make(parsed, command: spec.name)
        var setting = Setting(
            parsed: parsed, formats: formats, today: try date(parsed), seed: try Common.seed(parsed, command: spec.name),
            startedAt: try startTime(parsed), transport: transport, command: command, directory: parsed.value("out") ?? "conformance-report",
            writesReports: !parsed.flags.contains("no-reports"), quiet: parsed.flags.contains("quiet"),
            allowNotVerified: parsed.flags.contains("allow-not-verified"), bundledDigest: CriteriaLocation.bundledDigest(),
            gate: try gate(parsed), transcriptsForPasses: try transcriptsForPasses(parsed))
        setting.buildInfo = !parsed.flags.contains("no-build-info")
        let shard = try Self.shard(parsed)
        setting.bundle = parsed.value("bundle")
        setting.signingKey = try signingKey(parsed)
        setting.criteriaRoot = (try? parsed.value("criteria") ?? CriteriaLocation.defaultRoot()) ?? ""
        let jobs = try Self.jobs(parsed)

        let loaded: CriteriaLoader.Result
        switch Common.attemptLoadingCriteria(parsed) {
        case .success(let result):
            loaded = result
        case .failure(let issue):
            // Broken, missing or unreadable criterion files, or no bundle: nothing can run, and the
            // reports say why (exit 2).
            Output.error("error: \(issue)")
            let plan = TestPlan.make([])
            let fault = RunFault(kind: .criteria, message: issue.message, method: nil, excerpt: parsed.value("criteria") ?? "the bundled suite")
            let metadata = setting.metadata(plan: plan, description: nil, digest: "", interruption: interruptions.signal)
            let run = RunResult.unstarted(plan: plan, metadata: metadata, fault: fault)
            return finish(run, waivers: nil, setting: setting, directory: try? openDirectory(setting))
        }
        if let notice = Common.criteriaNotice(digest: loaded.digest, bundled: setting.bundledDigest) { Output.error(notice) }
        let waivers = try loadWaivers(parsed, criterionIDs: Set(loaded.criteria.map(\.info.id)))
        let filter = try Common.filter(parsed, criteria: loaded.criteria, command: spec.name)
        var plan = TestPlan.make(loaded.criteria, filter: filter)
        if let shard {
            setting.shard = .init(index: shard.index, count: shard.count, plannedTestCases: plan.cases.count)
            plan = plan.shard(shard.index, of: shard.count)
        }
        // Fail before the run, not after it, when the reports cannot be written.
        var directory: ReportDirectory?
        if setting.writesReports {
            do {
                directory = try ReportDirectory(setting.directory)
            } catch {
                Output.error("error: \(Output.inline(error.description))")
                return CLI.Status.systemError
            }
        }
        if let signal = interruptions.signal {
            // The signal came while the criteria loaded: no adapter was started.
            let metadata = setting.metadata(plan: plan, description: nil, digest: loaded.digest, interruption: signal)
            let run = RunResult.assemble(plan: plan, results: [], metadata: metadata, wallSeconds: 0)
            return finish(run, waivers: waivers, setting: setting, directory: directory, planned: plan.cases.count)
        }

        let progress = Progress(enabled: !setting.quiet && Output.errorIsTerminal)
        let execution = Execution(
            plan: plan, adapter: adapter, seed: setting.seed, jobs: jobs, keepsTranscriptsOfPasses: setting.transcriptsForPasses, onEvent: progress.handle)
        let outcome = await interruptions.guarding(execution)
        await adapter.shutdown()
        progress.finish()

        func metadata(_ description: AdapterDescription?) -> RunMetadata {
            setting.metadata(plan: plan, description: description, digest: loaded.digest, interruption: interruptions.signal)
        }
        let run: RunResult
        switch outcome {
        case .finished(let description, let results, let wallSeconds):
            run = RunResult.assemble(plan: plan, results: results, metadata: metadata(description), wallSeconds: wallSeconds)
        case .unstarted(let fault):
            Output.error("error: the adapter failed before the run: \(Output.inline(fault.description))")
            run = RunResult.unstarted(plan: plan, metadata: metadata(nil), fault: fault)
        case .abandoned(let description, let results, let wallSeconds):
            Output.error(
                "error: the run did not stop within \(InterruptionMonitor.grace) of \(interruptions.signal?.rawValue ?? "the signal"); writing what it finished"
            )
            run =
                description.map { RunResult.assemble(plan: plan, results: results, metadata: metadata($0), wallSeconds: wallSeconds) }
                ?? RunResult.assemble(plan: plan, results: [], metadata: metadata(nil), wallSeconds: wallSeconds)
        }
        return finish(run, waivers: waivers, setting: setting, directory: directory, planned: plan.cases.count)
    }

    /// Opens the report directory for a run that ended before it started; `nil` (after saying why)
    /// when reports are not wanted or cannot be written there.
    static func openDirectory(_ setting: Setting) throws -> ReportDirectory? {
        guard setting.writesReports else { return nil }
        do {
            return try ReportDirectory(setting.directory)
        } catch {
            Output.error("error: \(Output.inline(error.description))")
            throw error
        }
    }

    /// Prints the summary, writes the reports and returns the exit status.
    static func finish(_ run: RunResult, waivers: WaiverFile?, setting: Setting, directory: ReportDirectory?, planned: Int = 0) -> Int32 {
        var run = run
        if let signal = run.metadata.interruption {
            Output.error("warning: interrupted by \(signal.rawValue): the report is partial (\(run.testCases.count) of \(planned) test cases)")
        }
        if !run.metadata.adapter.unknownTargets.isEmpty {
            Output.error(
                "warning: the adapter declares unknown target(s), ignored: " + run.metadata.adapter.unknownTargets.map(Output.inline).joined(separator: ", "))
        }
        if setting.parsed.flags.contains("no-timings") { run = run.withoutWallTimes() }
        let evaluation = waivers.map { $0.evaluate(against: run, today: setting.today, clockDay: CalendarDate(utcDayOf: Date())) } ?? .none
        if let notice = Summary.waiverDateNotice(evaluation) { Output.error("warning: " + notice) }
        if !setting.quiet { Output.out(Summary.text(run, waivers: evaluation)) }
        let status = ExitStatus.for(run, evaluation).rawValue
        if setting.writesReports {
            guard let directory else { return CLI.Status.systemError }
            do {
                let written = try ReportWriter.write(run, waivers: evaluation, formats: setting.formats, to: directory)
                if !setting.quiet { Output.out("Reports: " + written.map(Output.inline).joined(separator: ", ")) }
            } catch {
                Output.error("error: \(Output.inline(error.description))")
                return run.metadata.interruption == nil ? CLI.Status.systemError : status
            }
        }
        if setting.bundle != nil, !writeBundle(run, waivers: evaluation, setting: setting) {
            return run.metadata.interruption == nil ? CLI.Status.systemError : status
        }
        if run.testCases.isEmpty && run.metadata.fault == nil && run.metadata.shard == nil {
            Output.error("warning: the filters selected no test case")
        }
        return status
    }
}
