import ConformanceJSONRPC
import ConformanceKit
import Dispatch
import Foundation
import Synchronization

/// One run of a plan against an adapter, whose finished test cases stay readable while it runs, so
/// that an interrupted run can still report what it finished.
final class Execution: Sendable {
    /// How the run ended.
    enum Outcome: Sendable {
        /// Every planned test case ran (or the run stopped early after a signal, between cases).
        case finished(AdapterDescription, [TestCaseResult], wallSeconds: Double)
        /// The adapter failed at launch or during `adapter.hello`: no test case ran.
        case unstarted(RunFault)
        /// A signal came and the run did not stop within the grace period: what it had finished.
        case abandoned(AdapterDescription?, [TestCaseResult], wallSeconds: Double)
    }

    let plan: TestPlan
    let adapter: any RelyingPartyAdapter
    let seed: UInt64
    /// How many test cases run at once.
    let jobs: Int
    let onEvent: @Sendable (Runner.Event) -> Void
    /// Whether passes keep their whole transcript (`--evidence all`).
    let keepsTranscriptsOfPasses: Bool
    private let progress = Mutex<(description: AdapterDescription?, results: [TestCaseResult])>((nil, []))
    private let started = ContinuousClock.now

    init(
        plan: TestPlan, adapter: any RelyingPartyAdapter, seed: UInt64, jobs: Int = 1, keepsTranscriptsOfPasses: Bool = false,
        onEvent: @escaping @Sendable (Runner.Event) -> Void
    ) {
        self.keepsTranscriptsOfPasses = keepsTranscriptsOfPasses
        self.plan = plan
        self.adapter = adapter
        self.seed = seed
        self.jobs = jobs
        self.onEvent = onEvent
    }

    /// Describes the adapter and runs the plan; stops between test cases when cancelled.
    func run() async -> Outcome {
        let description: AdapterDescription
        do {
            description = try await Suite.describe(adapter)
        } catch let fault as AdapterFault {
            return .unstarted(fault.runFault)
        } catch {
            return .unstarted(RunFault(kind: .protocolViolation, message: "\(error)", method: "adapter.hello"))
        }
        progress.withLock { $0.description = description }
        var runner = Runner(adapter: adapter, seed: seed, keepsTranscriptsOfPasses: keepsTranscriptsOfPasses)
        runner.platforms = CLI.platforms
        let results = await runner.run(plan, description: description, jobs: jobs) { event in
            if case .finished(let result, _, _) = event { progress.withLock { $0.results.append(result) } }
            onEvent(event)
        }
        // The browser of the web targets, if the run started one, ends with the run.
        await CLI.browser.shutdown()
        return .finished(description, results, wallSeconds: (ContinuousClock.now - started).inSeconds)
    }

    /// What the run has finished so far.
    var abandoned: Outcome {
        let (description, results) = progress.withLock { $0 }
        return .abandoned(description, results, wallSeconds: (ContinuousClock.now - started).inSeconds)
    }
}

/// Turns `SIGINT`, `SIGTERM` and `SIGHUP` into an orderly end: the adapter's process groups are
/// stopped at once, the work is cancelled (a run stops between test cases; an adapter call in
/// flight fails because its process is gone), and the caller writes the partial report marked
/// *interrupted*.
///
/// The handlers are installed when the monitor is made, which a command does first thing: a signal
/// that comes while the criteria load, before any adapter runs, is recorded and ends the command
/// with a report all the same. A second signal while the first is handled changes nothing; work
/// that does not stop within `grace` is abandoned with what it had finished.
final class InterruptionMonitor: Sendable {
    /// How long cancelled work may take to stop before its finished part is reported without it.
    static let grace: Duration = .seconds(3)

    /// The signals handled, with what each records.
    static let handled: [(number: Int32, interruption: RunMetadata.Interruption)] = [(SIGINT, .sigint), (SIGTERM, .sigterm), (SIGHUP, .sighup)]

    /// What the handlers share with the monitor.
    private final class State: Sendable {
        let received = Mutex<RunMetadata.Interruption?>(nil)
        /// What to do when the first signal comes (set by `guarding`), run at once if it came before.
        let reaction = Mutex<(@Sendable () -> Void)?>(nil)

        func handle(_ interruption: RunMetadata.Interruption) {
            let first = received.withLock { state -> Bool in
                guard state == nil else { return false }
                state = interruption
                return true
            }
            guard first else { return }
            AdapterProcesses.stopAll()
            reaction.withLock { $0 }?()
        }
    }

    private let state = State()
    private let sources: Mutex<[any DispatchSourceSignal]>

    /// The first signal received, if any.
    var signal: RunMetadata.Interruption? { state.received.withLock { $0 } }

    /// Installs the handlers: from now on the signals are recorded instead of ending the process.
    init() {
        var made: [any DispatchSourceSignal] = []
        for (number, interruption) in Self.handled {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [state] in state.handle(interruption) }
            source.resume()
            made.append(source)
        }
        sources = Mutex(made)
        // A signal that came before the monitor existed, since main's first statement.
        let early = EarlySignals.take()
        if let interruption = Self.handled.first(where: { $0.number == early })?.interruption { state.handle(interruption) }
    }

    /// Stops listening and gives the signals their default meaning back; the caller does this once
    /// its reports are written, so that a second Ctrl-C cannot cut the writing short.
    func finish() {
        sources.withLock { for source in $0 { source.cancel() } }
        for (number, _) in Self.handled { Foundation.signal(number, SIG_DFL) }
    }

    private enum Event<Value: Sendable>: Sendable {
        case finished(Value)
        case signal
        case graceExpired
    }

    /// Runs `work` until it ends or a signal comes; after a signal, waits `grace` for it to stop and
    /// otherwise returns `abandoned()`, what it had finished.
    func guarding<Value: Sendable>(_ work: @escaping @Sendable () async -> Value, abandoned: @escaping @Sendable () -> Value) async -> Value {
        let (events, continuation) = AsyncStream.makeStream(of: Event<Value>.self)
        let task = Task { continuation.yield(.finished(await work())) }
        let react: @Sendable () -> Void = {
            task.cancel()
            continuation.yield(.signal)
            Task {
                try? await Task.sleep(for: Self.grace)
                continuation.yield(.graceExpired)
            }
        }
        let already = state.received.withLock { received in
            state.reaction.withLock { $0 = react }
            return received != nil
        }
        if already { react() }
        defer {
            state.reaction.withLock { $0 = nil }
            continuation.finish()
        }
        for await event in events {
            switch event {
            case .finished(let value): return value
            case .signal: continue
            case .graceExpired: return abandoned()
            }
        }
        return abandoned()
    }
}
