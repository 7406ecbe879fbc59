import ConformanceKit
import ConformanceEvidence
import ConformanceReports
import Foundation
import WebAuthn

extension RunCommand {
    /// The run's metadata once the criteria (digest) and the adapter (description) are known.
    func metadata(
        plan: TestPlan, description: AdapterDescription?, digest: String, pipeline: RunPipeline, shard: RunMetadata.Shard? = nil, fault: RunFault? = nil
    ) -> RunMetadata {
        let unnamed = adapter.isExternal ? "unknown (it did not describe itself)" : "reference-rp"
        var metadata = Suite.metadata(
            plan: plan, description: description, adapterName: unnamed, digest: digest,
            transport: adapter.transport, subject: adapter.runSubject, filterText: selection.filterText, seed: seed,
            startedAt: startedAt, allowNotVerified: allowNotVerified, fault: fault)
        pipeline.stamp(&metadata, criteriaPath: selection.criteriaPath, digest: digest)
        metadata.harnessCommand = HarnessExecutable.rerunCommand
        metadata.gate = gate
        if transcriptsForPasses { metadata.transcriptsForPasses = true }
        metadata.shard = shard
        HarnessProvenance.stamp(&metadata, recorded: buildInfo)
        return metadata
    }

    func run() async throws -> Int32 {
        // First thing: from here on a signal ends the command with a report, not by its default action.
        let pipeline = RunPipeline()
        defer { pipeline.finish() }
        let interruptions = pipeline.interruptions
        let criteriaRoot = (try? selection.criteriaPath ?? CriteriaLocation.defaultRoot()) ?? ""

        let loaded: CriteriaLoader.Result
        switch RunPipeline.loadCriteria(path: selection.criteriaPath) {
        case .loaded(let result):
            loaded = result
        case .fault(let fault):
            let plan = TestPlan.make([])
            let run = RunResult.unstarted(
                plan: plan, metadata: metadata(plan: plan, description: nil, digest: "", pipeline: pipeline), fault: fault)
            return finish(run, waivers: nil, directory: try? RunPipeline.openReports(reports), criteriaRoot: criteriaRoot)
        }
        if let notice = Common.criteriaNotice(digest: loaded.digest, bundled: pipeline.bundledDigest) { Output.error(notice) }
        let waivers = try Self.loadWaivers(waiversPath, criterionIDs: Set(loaded.criteria.map(\.info.id)))
        var plan = TestPlan.make(loaded.criteria, filter: try selection.filter(criteria: loaded.criteria))
        var shardMetadata: RunMetadata.Shard?
        if let shard {
            shardMetadata = .init(index: shard.index, count: shard.count, plannedTestCases: plan.cases.count)
            plan = plan.shard(shard.index, of: shard.count)
        }
        // Fail before the run, not after it, when the reports cannot be written.
        let directory: ReportDirectory?
        do { directory = try RunPipeline.openReports(reports) } catch { return CLI.Status.systemError }
        func runMetadata(_ description: AdapterDescription?) -> RunMetadata {
            metadata(plan: plan, description: description, digest: loaded.digest, pipeline: pipeline, shard: shardMetadata)
        }
        if interruptions.signal != nil {
            // The signal came while the criteria loaded: no adapter was started.
            let run = RunResult.assemble(plan: plan, results: [], metadata: runMetadata(nil), wallSeconds: 0)
            return finish(run, waivers: waivers, directory: directory, criteriaRoot: criteriaRoot, planned: plan.cases.count)
        }

        let adapter = self.adapter.make()
        let progress = Progress(enabled: !quiet && Output.errorIsTerminal)
        let execution = Execution(
            plan: plan, adapter: adapter, seed: seed, jobs: jobs, keepsTranscriptsOfPasses: transcriptsForPasses, onEvent: progress.handle)
        let outcome = await pipeline.drive(adapter, { await execution.run() }, abandoned: { execution.abandoned })
        progress.finish()

        let run: RunResult
        switch outcome {
        case .finished(let description, let results, let wallSeconds):
            run = RunResult.assemble(plan: plan, results: results, metadata: runMetadata(description), wallSeconds: wallSeconds)
        case .unstarted(let fault):
            run = RunResult.unstarted(plan: plan, metadata: runMetadata(nil), fault: fault)
            // Told once, here; the summary and the test cases refer to it.
            let lines = Summary.faultLines(run.metadata)
            Output.error((["error: " + lines[0]] + lines.dropFirst()).joined(separator: "\n"))
        case .abandoned(let description, let results, let wallSeconds):
            Output.error(
                "error: the run did not stop within \(InterruptionMonitor.grace) of \(interruptions.signal?.rawValue ?? "the signal"); writing what it finished"
            )
            run =
                description.map { RunResult.assemble(plan: plan, results: results, metadata: runMetadata($0), wallSeconds: wallSeconds) }
                ?? RunResult.assemble(plan: plan, results: [], metadata: runMetadata(nil), wallSeconds: wallSeconds)
        }
        return finish(run, waivers: waivers, directory: directory, criteriaRoot: criteriaRoot, planned: plan.cases.count)
    }

    /// Prints the summary, writes the reports and returns the exit status.
    func finish(_ run: RunResult, waivers: WaiverFile?, directory: ReportDirectory?, criteriaRoot: String, planned: Int = 0) -> Int32 {
        var run = run
        if let signal = run.metadata.interruption {
            Output.error("warning: interrupted by \(signal.rawValue): the report is partial (\(run.testCases.count) of \(planned) test cases)")
        }
        if !run.metadata.adapter.unknownTargets.isEmpty {
            Output.error(
                "warning: the adapter declares unknown target(s), ignored: " + run.metadata.adapter.unknownTargets.map(Output.inline).joined(separator: ", "))
        }
        if withoutTimings { run = run.withoutWallTimes() }
        let evaluation = waivers.map { $0.evaluate(against: run, today: today, clockDay: CalendarDate(utcDayOf: Date())) } ?? .none
        if let notice = Summary.waiverDateNotice(evaluation) { Output.error("warning: " + notice) }
        // A fault the adapter caused was printed when it happened (the criteria's defects by the loader).
        if !quiet { Output.out(Summary.text(run, waivers: evaluation, faultShown: run.metadata.fault.map { $0.kind != .criteria } ?? false)) }
        let status = ExitStatus.for(run, evaluation).rawValue
        if reports.writesReports {
            guard let directory else { return CLI.Status.systemError }
            guard let written = RunPipeline.writeReports(run, waivers: evaluation, formats: reports.formats, to: directory) else {
                return run.metadata.interruption == nil ? CLI.Status.systemError : status
            }
            if !quiet { Output.out("Reports: " + written.map(Output.inline).joined(separator: ", ")) }
        }
        if bundle != nil, !writeBundle(run, waivers: evaluation, criteriaRoot: criteriaRoot) {
            return run.metadata.interruption == nil ? CLI.Status.systemError : status
        }
        if run.testCases.isEmpty && run.metadata.fault == nil && run.metadata.shard == nil {
            Output.error("warning: the filters selected no test case")
        }
        return status
    }
}
