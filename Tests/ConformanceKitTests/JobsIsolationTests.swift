import ConformanceKit
import ConformanceTestSupport
import Foundation
import Synchronization
import Testing

/// `Runner.run(jobs:)` when one test case stops the process that the test cases in flight share.
@Suite("Runner: a crash beside other test cases")
struct JobsIsolationTests {
    /// An adapter whose sessions share one "process": the test case `crash` stops it while the
    /// others wait for their first action, and every session opened on a stopped process fails.
    /// The first time round, `crash` waits until all four test cases have opened and the others wait
    /// for the crash, so the crash always strikes test cases in flight (synchronised on events).
    final class SharedProcessAdapter: RelyingPartyAdapter {
        struct State {
            var generation = 0
            var opened = 0
            var crashed = false
            var waitingForOpens: [CheckedContinuation<Void, Never>] = []
            var waitingForCrash: [CheckedContinuation<Void, Never>] = []
        }
        let state = Mutex(State())
        let log = FakeAdapter.CallLog()
        let fan: Int

        init(fan: Int) { self.fan = fan }

        func describe() async throws -> AdapterDescription {
            AdapterDescription(name: "shared", version: "1", targets: ["apple-18"], capabilities: Capability.allCases, relyingPartyIDs: ["example.com"])
        }

        func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
            log.append("open \(context.testCase)")
            let (generation, ready) = state.withLock { state -> (Int, [CheckedContinuation<Void, Never>]) in
                state.opened += 1
                let ready = state.opened >= fan ? state.waitingForOpens : []
                if state.opened >= fan { state.waitingForOpens = [] }
                return (state.generation, ready)
            }
            ready.forEach { $0.resume() }
            return Session(adapter: self, testCase: context.testCase, generation: generation)
        }

        func shutdown() async {}

        struct Stopped: Error, CustomStringConvertible {
            var description: String
        }

        struct Session: RelyingPartySession {
            let adapter: SharedProcessAdapter
            let testCase: String
            let generation: Int

            func perform(_ action: UserAction) async throws -> ActionOutcome {
                if testCase.lowercased().contains("crash") {
                    let firstTime = adapter.state.withLock { !$0.crashed }
                    if firstTime {
                        await withCheckedContinuation { continuation in
                            let now = adapter.state.withLock { state -> Bool in
                                if state.opened >= adapter.fan { return true }
                                state.waitingForOpens.append(continuation)
                                return false
                            }
                            if now { continuation.resume() }
                        }
                    }
                    let waiting = adapter.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                        state.crashed = true
                        state.generation += 1
                        defer { state.waitingForCrash = [] }
                        return state.waitingForCrash
                    }
                    waiting.forEach { $0.resume() }
                    throw Stopped(description: "the adapter process exited with status 70")
                }
                await withCheckedContinuation { continuation in
                    let now = adapter.state.withLock { state -> Bool in
                        if state.crashed { return true }
                        state.waitingForCrash.append(continuation)
                        return false
                    }
                    if now { continuation.resume() }
                }
                if adapter.state.withLock({ $0.generation }) != generation {
                    throw Stopped(description: "the adapter process was stopped because another call failed")
                }
                return ActionOutcome(.signedInLimited)
            }
            func setUp(accounts: [AccountFixture]) async throws {}
            func addCredential(_ credential: CredentialFixture) async throws {}
            func inspectAccount(username: String) async throws -> AccountSnapshot { throw Stopped(description: "unused") }
            func inspectSession() async throws -> SessionSnapshot { SessionSnapshot(stage: .signedOut) }
            func injectFault(_ fault: Fault) async throws {}
            func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {}
            func timerFired(_ timer: TimerID) async throws {}
            func close() async {}
        }
    }

    @Test("the test cases a crash stopped run again alone: only the crashing one is an error, as in a sequential run")
    func crashedNeighboursRunAgain() async throws {
        let steps = ["When the user refreshes as alice", "Then the step passes"]
        let text = CriterionText.criterion(scenarios: [
            .init("Crash", steps: steps), .init("Alpha", steps: steps), .init("Beta", steps: steps), .init("Gamma", steps: steps),
        ])
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)], library: TestSteps.library)
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let plan = TestPlan.make(loaded.criteria, filter: .init(targets: ["apple-18"]))
        let adapter = SharedProcessAdapter(fan: 4)
        let runner = Runner(adapter: adapter, library: TestSteps.library)
        let results = await runner.run(plan, description: try await adapter.describe(), jobs: 4)
        #expect(results.map(\.scenario) == ["Crash", "Alpha", "Beta", "Gamma"])
        #expect(results.map(\.verdict) == [.error, .passed, .passed, .passed], "\(results.map { "\($0.scenario): \($0.message ?? "")" })")
        #expect(results[0].message?.contains("exited with status 70") == true)
        let opens = adapter.log.all
        #expect(opens.count == 8, "each of the four ran twice, the second time alone: \(opens)")
        #expect(Set(opens.suffix(4)) == Set(results.map { "open \($0.id)" }))
    }
}
