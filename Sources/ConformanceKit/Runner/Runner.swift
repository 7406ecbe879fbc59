import Foundation
import WebAuthn

/// Runs a test plan against a relying party, one fresh session and world per test case.
public struct Runner: Sendable {
    /// What the runner reports while it works, for progress displays and recorders.
    public enum Event: Sendable {
        /// The run began; `total` test cases will follow.
        case started(total: Int)
        /// One test case ended; `index` counts from 1 up to `total`.
        case finished(TestCaseResult, index: Int, total: Int)
    }

    /// The relying party under test.
    public let adapter: any RelyingPartyAdapter
    /// The step definitions the scenarios' steps are bound to.
    public let library: StepLibrary
    /// The run's seed; each test case gets its own seed derived from it.
    public let seed: UInt64
    /// Whether passes keep their whole transcript as evidence (`run --evidence all`); otherwise only
    /// test cases that did not pass do, and passes keep their observed record.
    public let keepsTranscriptsOfPasses: Bool
    /// Makes each test case's platform backend (the simulated families unless given).
    public var platforms: any PlatformBackendFactory = SimulatedPlatforms()

    /// Creates a runner for an adapter, with the standard steps and seed 1 unless given.
    public init(adapter: any RelyingPartyAdapter, library: StepLibrary = .standard, seed: UInt64 = 1, keepsTranscriptsOfPasses: Bool = false) {
        self.adapter = adapter
        self.library = library
        self.seed = seed
        self.keepsTranscriptsOfPasses = keepsTranscriptsOfPasses
    }

    /// Runs every case of the plan and returns their results in plan order; when the task is
    /// cancelled, starts no further test case and returns those that ran.
    ///
    /// With `jobs` above 1, up to `jobs` test cases run at once, each in its own session and world;
    /// results and `.finished` events still come in plan order, so the reports are those of a
    /// sequential run (wall times aside). Each test case's seed depends on its id alone, never on
    /// what ran before it. A test case that ends in `error` beside others (a fault of one test case
    /// can stop an adapter process that several share) is run again once the test cases in flight
    /// have finished, alone, and that verdict counts; then the run goes on in parallel.
    public func run(
        _ plan: TestPlan, description: AdapterDescription, jobs: Int = 1,
        onEvent: @Sendable (Event) -> Void = { _ in }
    ) async -> [TestCaseResult] {
        // Test cases run where the adapter answers them, when it names such a place (see
        // `RelyingPartyAdapter.preferredTaskExecutor`); child tasks inherit the preference.
        // Every monitor watches every test case; a breach fails its criterion's item wherever it is
        // seen, when the plan holds that criterion (see `RunResult.monitorCases`).
        let monitors = SafetyMonitor.all
        return await withTaskExecutorPreference(adapter.preferredTaskExecutor) {
            let total = plan.cases.count
            onEvent(.started(total: total))
            var slots = [TestCaseResult?](repeating: nil, count: total)
            var emitted = 0
            func record(_ result: TestCaseResult, at index: Int) {
                slots[index] = result
                while emitted < total, let next = slots[emitted] {
                    emitted += 1
                    onEvent(.finished(next, index: emitted, total: total))
                }
            }
            if jobs <= 1 {
                for (index, testCase) in plan.cases.enumerated() {
                    // Test cases run back to back without suspending; yield between them so that a long
                    // run does not starve other tasks of the (small) cooperative thread pool.
                    await Task.yield()
                    // A cancelled run (the harness was interrupted) stops between test cases.
                    if Task.isCancelled { break }
                    record(await run(testCase, description: description, monitors: monitors), at: index)
                }
            } else {
                await withTaskGroup(of: (Int, TestCaseResult).self) { group in
                    var next = 0
                    var inFlight = 0
                    // Test cases that ended in `error` while others ran beside them, to run again alone.
                    var isolate: [(index: Int, first: TestCaseResult)] = []
                    func startNext() {
                        guard isolate.isEmpty, next < total, !Task.isCancelled else { return }
                        let index = next
                        next += 1
                        inFlight += 1
                        group.addTask { (index, await run(plan.cases[index], description: description, monitors: monitors)) }
                    }
                    for _ in 0..<min(jobs, total) { startNext() }
                    while let (index, result) = await group.next() {
                        inFlight -= 1
                        if result.verdict == .error {
                            isolate.append((index, result))
                        } else {
                            record(result, at: index)
                        }
                        if !isolate.isEmpty && inFlight == 0 {
                            // A fault that stops the adapter process fails every test case in flight on
                            // it; each such test case runs again with nothing beside it, so its verdict
                            // is the one a sequential run gives.
                            for (index, first) in isolate.sorted(by: { $0.index < $1.index }) {
                                // An interrupted run keeps the first verdict instead of starting again.
                                record(Task.isCancelled ? first : await run(plan.cases[index], description: description, monitors: monitors), at: index)
                            }
                            isolate = []
                            for _ in 0..<min(jobs, total - next) { startNext() }
                        } else {
                            startNext()
                        }
                    }
                }
            }
            return slots.compactMap { $0 }
        }
    }

    /// The seed of one test case: the run seed mixed with the case id, so cases are independent.
    /// It has 53 bits, so that every JSON reader (JavaScript's numbers included) keeps it exact.
    public static func caseSeed(_ seed: UInt64, _ id: String) -> UInt64 {
        var input = Data(id.utf8)
        withUnsafeBytes(of: seed.bigEndian) { input.append(contentsOf: $0) }
        return SHA256.hash(input).prefix(8).reduce(0) { $0 << 8 | UInt64($1) } & ((1 << 53) - 1)
    }

    /// The typed form of an error a step, or the adapter, threw.
    static func fault(_ error: any Error, method: String?) -> RunFault {
        if let reportable = error as? any ReportableFault {
            var fault = reportable.runFault
            if fault.method == nil { fault.method = method }
            return fault
        }
        return RunFault(kind: error is SystemIssue ? .systemIssue : .adapterError, message: "\(error)", method: method)
    }

    /// A fault with its message and excerpt cut to the report's caps.
    static func capped(_ fault: RunFault) -> RunFault {
        var fault = fault
        fault.message = Caps.text(fault.message)
        fault.excerpt = fault.excerpt.map { Caps.text($0, limit: 1_000) }
        return fault
    }

    /// Runs one test case, watched by `monitors` (see `SafetyMonitor`).
    public func run(_ testCase: TestPlan.Case, description: AdapterDescription, monitors: [SafetyMonitor] = SafetyMonitor.all) async -> TestCaseResult {
        let clock = ContinuousClock()
        let started = clock.now
        let scenario = testCase.scenario
        var steps = scenario.steps.map { StepResult(keyword: $0.keyword, text: $0.text, line: $0.line, status: .skipped) }
        var fault: RunFault?
        var notVerifiedReason: NotVerifiedReason?
        var violations: [MonitorViolation] = []
        func finish(
            _ verdict: Verdict, _ message: String?, evidence: [TranscriptEntry] = [], virtualMillis: Int64 = 0, observed: [String] = []
        ) -> TestCaseResult {
            let seconds = (clock.now - started).inSeconds
            let cappedSteps = steps.map { step in
                var step = step
                step.message = step.message.map { Caps.text($0) }
                return step
            }
            return TestCaseResult(
                id: testCase.id, criterionID: testCase.criterion.id, scenario: scenario.name, file: scenario.file,
                line: scenario.line, verifyItems: scenario.verifyItems, tags: scenario.tags, target: testCase.target.id.rawValue,
                outcome: TestCaseOutcome(
                    verdict: verdict, message: message.map { Caps.text($0) }, fault: fault.map(Self.capped), notVerifiedReason: notVerifiedReason),
                steps: cappedSteps, evidence: Caps.evidence(evidence), virtualMillis: virtualMillis, wallSeconds: seconds, observed: observed,
                violations: violations.map { violation in
                    var violation = violation
                    violation.message = Caps.text(violation.message, limit: 1_000)
                    return violation
                })
        }
        // Bind every step first: an undefined or ambiguous step is an authoring defect, decided before running.
        var bound: [(StepDefinition, StepArguments)] = []
        for (index, step) in scenario.steps.enumerated() {
            switch library.match(step.text) {
            case .found(let definition, let arguments): bound.append((definition, definition.arguments(arguments)))
            case .undefined:
                steps[index].status = .undefined
                return finish(.undefined, "line \(step.line): no step definition matches \"\(step.text)\"")
            case .ambiguous(let patterns):
                steps[index].status = .undefined
                return finish(.undefined, "line \(step.line): \(patterns.count) step definitions match \"\(step.text)\"")
            }
        }
        guard description.targets.contains(testCase.target.id) else {
            notVerifiedReason = NotVerifiedReason(kind: .undeclaredTarget, detail: testCase.target.id.rawValue)
            return finish(.notVerified, "the adapter does not declare the target \(testCase.target.id)")
        }
        let needed = scenario.needs.union(bound.flatMap(\.0.needs))
        let missing = needed.subtracting(description.capabilities).map(\.rawValue).sorted()
        guard missing.isEmpty else {
            notVerifiedReason = NotVerifiedReason(kind: .missingCapability, detail: missing.joined(separator: ", "))
            return finish(.notVerified, "the adapter does not declare the capabilit\(missing.count == 1 ? "y" : "ies") " + missing.joined(separator: ", "))
        }
        // An adapter of an older protocol minor cannot read what the target needs (a macOS device
        // reads as iOS without `osFamily`): the test case is not verified, never failed.
        var features = bound.reduce(into: Set<ProtocolFeature>()) { $0.formUnion($1.0.protocolFeatures) }
        if testCase.target.osFamily != OSFamily.defaultFamily(of: testCase.target.platform) { features.insert(.osFamily) }
        let lacking = ProtocolFeature.allCases.filter { features.contains($0) && !description.implements($0) }
        if let first = lacking.first {
            notVerifiedReason = NotVerifiedReason(kind: .protocolVersion, detail: lacking.map(\.rawValue).joined(separator: ", "))
            return finish(.notVerified, first.notVerifiedMessage(adapterVersion: description.protocolVersion))
        }
        if let why = platforms.unavailability(of: testCase.target) {
            notVerifiedReason = NotVerifiedReason(kind: .platformUnavailable, detail: why)
            return finish(.notVerified, "the target's platform is not available here: \(why)")
        }
        let caseSeed = Self.caseSeed(seed, testCase.id)
        let world: World
        switch await openWorld(testCase, description: description, seed: caseSeed) {
        case .success(let opened): world = opened
        case .failure(let failure):
            fault = failure.fault
            return finish(.error, failure.message, evidence: failure.transcript)
        }
        let host = world.host
        let session = world.session
        let watch = MonitorWatch(monitors: monitors, target: testCase.target)
        world.watch = watch
        world.counterfactual = { [self] in
            try await replayContext(testCase, description: description, seed: caseSeed, bound: bound)
        }
        world.replayChanging = { [self] change in
            try await replay(testCase, description: description, seed: caseSeed, bound: bound, changing: change)
        }
        var verdict = Verdict.passed
        var message: String?
        for (index, (definition, arguments)) in bound.enumerated() {
            let step = scenario.steps[index]
            let sequence = host.record(.step, "step", "\(step.keyword)\(step.text) (line \(step.line))")
            if step.role == .action, world.triggerSequence == nil { world.triggerSequence = sequence }
            do {
                switch try await definition.body(world, arguments) {
                case .passed:
                    steps[index].status = .passed
                    continue
                case .failed(let why):
                    steps[index].status = .failed
                    steps[index].message = why
                    verdict = .failed
                    message = "line \(step.line): \(step.keyword)\(step.text): \(why)"
                case .notVerified(let why):
                    steps[index].status = .notVerified
                    steps[index].message = why
                    verdict = .notVerified
                    message = why
                    notVerifiedReason = NotVerifiedReason(kind: .step, detail: "line \(step.line): \(step.keyword)\(step.text): \(why)")
                }
            } catch let failure as RelyingPartyFailure {
                steps[index].status = .failed
                steps[index].message = failure.message
                verdict = .failed
                message = "line \(step.line): \(step.keyword)\(step.text): \(failure.message)"
            } catch {
                fault = Self.fault(error, method: nil)
                steps[index].status = .error
                steps[index].message = "\(error)"
                verdict = .error
                message = "line \(step.line): \(step.keyword)\(step.text): \(error)"
            }
            host.record(.step, "step.\(steps[index].status.rawValue)", steps[index].message ?? "")
            break
        }
        // The monitors of what the app showed judge the whole test case by cause, once its steps are over.
        if verdict != .error { await watch.finish(world) }
        // The in-process budget of interactions, as the JSON-RPC transport has its flood limit: a
        // relying party that floods the transcript ends the test case as `error`, not the harness.
        let interactions = host.snapshot.transcript.count
        if interactions > Caps.interactionBudget, verdict != .error {
            verdict = .error
            message = "the test case exceeded its budget of \(Caps.interactionBudget) interactions (\(interactions) recorded)"
            fault = RunFault(kind: .interactionBudget, message: message ?? "")
        }
        // A failed close is the adapter's fault, recorded against this test case.
        if let closeFault = await session.closeReportingFault() {
            host.record(.harnessToRP, "session.close", "failed: \(closeFault)")
            if verdict != .error {
                message = (message.map { $0 + "; then " } ?? "") + "session.close failed: \(closeFault)"
                verdict = .error
                fault = closeFault
            }
        }
        // A breach keeps the transcript of the test case that saw it: the report cites its entries.
        violations = watch.violations
        let snapshot = host.snapshot
        let keepsTranscript = verdict != .passed || keepsTranscriptsOfPasses || !violations.isEmpty
        return finish(
            verdict, message, evidence: keepsTranscript ? snapshot.transcript : [], virtualMillis: snapshot.nowMillis,
            observed: ObservedRecord.lines(snapshot.transcript, trigger: world.triggerSequence))
    }

    /// Why a test case's world could not be opened, with what was recorded until then.
    struct OpenFailure: Error {
        var message: String
        var transcript: [TranscriptEntry]
        var fault: RunFault
    }

    /// Starts the target's platform backend and opens a fresh relying-party session for a test case.
    func openWorld(_ testCase: TestPlan.Case, description: AdapterDescription, seed caseSeed: UInt64) async -> Result<World, OpenFailure> {
        let host: any PlatformBackend
        do {
            host = try platforms.makeBackend(for: testCase.target, associatedRPIDs: description.relyingPartyIDs, seed: caseSeed, keepsPayloads: true)
        } catch {
            let message = "the platform backend could not start: \(error)"
            return .failure(OpenFailure(message: message, transcript: [], fault: RunFault(kind: .harness, message: message)))
        }
        let context = SessionContext(testCase: testCase.id, target: testCase.target.id, device: testCase.target.device, seed: caseSeed)
        host.record(.harnessToRP, "session.open", "\(testCase.target.id): \(testCase.target.title)", payload: Wire.jsonValue(context))
        do {
            let session = try await host.openSession(on: adapter, context: context, description: description)
            return .success(World(target: testCase.target, adapter: description, host: host, session: session, seed: caseSeed))
        } catch {
            return .failure(
                OpenFailure(
                    message: "the adapter could not open a session: \(error)", transcript: host.snapshot.transcript,
                    fault: Self.fault(error, method: "session.open")))
        }
    }

    /// The same test case in a fresh session with only its `Given` steps, observed to quiescence:
    /// what the relying party does without the scenario's trigger. The caller closes its session.
    func replayContext(
        _ testCase: TestPlan.Case, description: AdapterDescription, seed caseSeed: UInt64,
        bound: [(StepDefinition, StepArguments)]
    ) async throws -> World {
        let world: World
        switch await openWorld(testCase, description: description, seed: caseSeed) {
        case .success(let opened): world = opened
        case .failure(let failure): throw SystemIssue("the replay without the When steps could not start: \(failure.message)")
        }
        for (index, (definition, arguments)) in bound.enumerated() where testCase.scenario.steps[index].role == .context {
            let step = testCase.scenario.steps[index]
            world.host.record(.step, "step", "\(step.keyword)\(step.text) (line \(step.line))")
            switch try await definition.body(world, arguments) {
            case .passed: continue
            case .failed(let why), .notVerified(let why):
                await world.session.close()
                throw RelyingPartyFailure("line \(step.line) did not pass when replayed without the When steps: \(why)")
            }
        }
        world.triggerSequence = world.host.record(.step, "trigger", "the When steps are left out here")
        try await world.quiesce()
        return world
    }
}
