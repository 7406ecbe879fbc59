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
    private let progress = Mutex<(description: AdapterDescription?, results: [TestCaseResult])>((nil, []))
    private let started = ContinuousClock.now

    init(plan: TestPlan, adapter: any RelyingPartyAdapter, seed: UInt64, jobs: Int = 1, onEvent: @escaping @Sendable (Runner.Event) -> Void) {
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
            return .unstarted(RunFault(kind: "protocol-violation", message: "\(error)", method: "adapter.hello"))
        }
        progress.withLock { $0.description = description }
        let results = await Runner(adapter: adapter, seed: seed).run(plan, description: description, jobs: jobs) { event in
            if case .finished(let result, _, _) = event { progress.withLock { $0.results.append(result) } }
            onEvent(event)
        }
        return .finished(description, results, wallSeconds: (ContinuousClock.now - started).inSeconds)
    }

    /// What the run has finished so far.
    var abandoned: Outcome {
        let (description, results) = progress.withLock { $0 }
        return .abandoned(description, results, wallSeconds: (ContinuousClock.now - started).inSeconds)
    }
}

/// Turns `SIGINT` and `SIGTERM` into an orderly end: the adapter's process groups are stopped at
/// once, the run is cancelled (it stops between test cases; an adapter call in flight fails because
/// its process is gone), and the caller writes the partial report marked *interrupted*.
///
/// A second signal while the first is handled changes nothing; a run that does not stop within
/// `grace` is abandoned with what it had finished.
final class InterruptionMonitor: Sendable {
    /// How long a cancelled run may take to stop before its finished test cases are reported without it.
    static let grace: Duration = .seconds(3)

    private let received = Mutex<RunMetadata.Interruption?>(nil)

    /// The first signal received, if any.
    var signal: RunMetadata.Interruption? { received.withLock { $0 } }

    private enum Event: Sendable {
        case finished(Execution.Outcome)
        case signal
        case graceExpired
    }

    /// Gives `SIGINT` and `SIGTERM` their default meaning back. `guarding(_:)` leaves them ignored
    /// when it returns, so that a second Ctrl-C cannot cut the report writing short; the caller
    /// restores them once the reports are written.
    static func restoreDefaultHandlers() {
        Foundation.signal(SIGINT, SIG_DFL)
        Foundation.signal(SIGTERM, SIG_DFL)
    }

    /// Runs `execution` with `SIGINT` and `SIGTERM` handled, and returns how it ended.
    func guarding(_ execution: Execution) async -> Execution.Outcome {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let task = Task { continuation.yield(.finished(await execution.run())) }
        let sources = [(SIGINT, RunMetadata.Interruption.sigint), (SIGTERM, .sigterm)].map { number, interruption in
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                let first = received.withLock { state -> Bool in
                    guard state == nil else { return false }
                    state = interruption
                    return true
                }
                guard first else { return }
                AdapterProcesses.stopAll()
                task.cancel()
                continuation.yield(.signal)
                Task {
                    try? await Task.sleep(for: Self.grace)
                    continuation.yield(.graceExpired)
                }
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            continuation.finish()
        }
        for await event in events {
            switch event {
            case .finished(let outcome): return outcome
            case .signal: continue
            case .graceExpired: return execution.abandoned
            }
        }
        return execution.abandoned
    }
}
