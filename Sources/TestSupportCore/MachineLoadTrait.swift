import Synchronization
import Testing

/// Keeps the tests that time a real browser apart from the tests that load both processors with
/// child processes (whole suites through an adapter, `--jobs` runs).
///
/// A test that loads the machine (`.loadsMachine`) shares it with the others of its kind; a test
/// that needs it quiet (`.needsQuietMachine`, the web front end in real Chromium) waits until none
/// of them runs, and none starts while it runs. Both wait on events (continuations), never on the
/// clock. A web run beside two whole suites on a 2-core machine gave verdicts that depend on timing
/// the harness does not control yet on web targets (a page's server requests that overlap the
/// harness's reads: a registration request judged against a passkey stored while it was being
/// built, a rename read before the page saved it); until the web backend orders those, its tests
/// run on a quiet machine, and the dependence is an open defect, not a property of the test.
package struct MachineLoadTrait: TestTrait, SuiteTrait, TestScoping {
    /// What the test does to the machine.
    package enum Use: Sendable { case loads, needsQuiet }
    let use: Use

    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    package func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await MachineLoad.shared.acquire(use)
        do {
            try await function()
        } catch {
            MachineLoad.shared.release(use)
            throw error
        }
        MachineLoad.shared.release(use)
    }
}

/// A readers-writer gate: many `loads` at once, or one `needsQuiet`; a waiting `needsQuiet` keeps
/// new `loads` from starting, so it cannot starve.
final class MachineLoad: Sendable {
    static let shared = MachineLoad()

    private struct State {
        var loading = 0
        var quiet = false
        var waitingQuiet: [CheckedContinuation<Void, Never>] = []
        var waitingLoads: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    func acquire(_ use: MachineLoadTrait.Use) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                switch use {
                case .loads:
                    if !state.quiet && state.waitingQuiet.isEmpty {
                        state.loading += 1
                        return true
                    }
                    state.waitingLoads.append(continuation)
                    return false
                case .needsQuiet:
                    if !state.quiet && state.loading == 0 {
                        state.quiet = true
                        return true
                    }
                    state.waitingQuiet.append(continuation)
                    return false
                }
            }
            if now { continuation.resume() }
        }
    }

    func release(_ use: MachineLoadTrait.Use) {
        let resume = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            switch use {
            case .loads: state.loading -= 1
            case .needsQuiet: state.quiet = false
            }
            guard !state.quiet else { return [] }
            if !state.waitingQuiet.isEmpty {
                guard state.loading == 0 else { return [] }
                state.quiet = true
                return [state.waitingQuiet.removeFirst()]
            }
            state.loading += state.waitingLoads.count
            defer { state.waitingLoads = [] }
            return state.waitingLoads
        }
        for continuation in resume { continuation.resume() }
    }
}

extension Trait where Self == MachineLoadTrait {
    /// The test loads both processors with child processes; it runs beside others of its kind.
    package static var loadsMachine: Self { MachineLoadTrait(use: .loads) }
    /// The test times a real browser; it runs while no `loadsMachine` test does.
    package static var needsQuietMachine: Self { MachineLoadTrait(use: .needsQuiet) }
}
