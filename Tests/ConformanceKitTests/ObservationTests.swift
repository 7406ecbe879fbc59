@testable import ConformanceKit
import ConformanceTestSupport
import Foundation
import Synchronization
import Testing

/// How checks observe the relying party: to quiescence, from the trigger, and against the same
/// scenario without its trigger.
@Suite("Observation: settle, from the trigger, differential")
struct ObservationTests {
    /// An app whose every refresh schedules one signal `delayMillis` later, plus one more timer
    /// per refresh at `straggler` if given (to test how far a wait reaches), and with `backOff` a
    /// chain of timers each twice as far out as the one before (work that never ends).
    struct TimerApp: RelyingPartyAdapter {
        var delayMillis: Int64
        var stragglerMillis: Int64?
        var runaway = false
        var backOff = false
        /// A recurring timer of this period, armed at the first refresh, whose firings only re-arm it.
        var heartbeatMillis: Int64?
        /// The straggler only from the second refresh on (the trigger's), not the Given steps'.
        var stragglerOnlyAfterFirstRefresh = false
        let log = FakeAdapter.CallLog()

        func describe() async throws -> AdapterDescription {
            AdapterDescription(
                name: "timer-app", version: "1", targets: ["android-15-gpm"], capabilities: Capability.allCases, relyingPartyIDs: ["fake.example.com"])
        }
        func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
            log.append("open")
            return Session(app: self, host: host)
        }
        func shutdown() async {}

        final class Session: RelyingPartySession {
            let app: TimerApp
            let host: any PlatformHost
            let timers = Mutex<Set<TimerID>>([])
            let backOffs = Mutex<[TimerID: Int64]>([:])
            let heartbeat = Mutex<TimerID?>(nil)
            let refreshes = Mutex(0)
            init(app: TimerApp, host: any PlatformHost) {
                self.app = app
                self.host = host
            }
            func setUp(accounts: [AccountFixture]) async throws {}
            func addCredential(_ credential: CredentialFixture) async throws {}
            func perform(_ action: UserAction) async throws -> ActionOutcome {
                let timer = await host.scheduleTimer(afterMillis: app.delayMillis, label: "send a signal")
                timers.withLock { _ = $0.insert(timer) }
                let refresh = refreshes.withLock { count in
                    count += 1
                    return count
                }
                if let period = app.heartbeatMillis, heartbeat.withLock({ $0 == nil }) {
                    let timer = await host.scheduleTimer(afterMillis: period, label: "heartbeat")
                    heartbeat.withLock { $0 = timer }
                }
                if let straggler = app.stragglerMillis, !app.stragglerOnlyAfterFirstRefresh || refresh > 1 {
                    _ = await host.scheduleTimer(afterMillis: straggler, label: "straggler")
                }
                if app.backOff {
                    let next = await host.scheduleTimer(afterMillis: 1_000, label: "back-off")
                    backOffs.withLock { $0[next] = 1_000 }
                }
                return ActionOutcome(.done)
            }
            func inspectAccount(username: String) async throws -> AccountSnapshot {
                AccountSnapshot(
                    username: username, accountID: "a", userHandle: Data(username.utf8), rpID: "fake.example.com", name: username, displayName: username,
                    credentials: [])
            }
            func inspectSession() async throws -> SessionSnapshot { SessionSnapshot(stage: .signedOut) }
            func injectFault(_ fault: Fault) async throws {}
            func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {}
            func timerFired(_ timer: TimerID) async throws {
                if let period = app.heartbeatMillis, heartbeat.withLock({ $0 == timer }) {
                    let next = await host.scheduleTimer(afterMillis: period, label: "heartbeat")
                    heartbeat.withLock { $0 = next }
                    return
                }
                if let delay = backOffs.withLock({ $0.removeValue(forKey: timer) }) {
                    let next = await host.scheduleTimer(afterMillis: 2 * delay, label: "back-off")
                    backOffs.withLock { $0[next] = 2 * delay }
                    return
                }
                guard timers.withLock({ $0.remove(timer) }) != nil else { return }
                let json = #"{"rpId":"fake.example.com","credentialId":"AAAA"}"#
                _ = await host.signal(SignalRequest.android(AndroidSignalRequest(type: AndroidSignalRequest.unknownCredentialType, requestJson: json)))
                if app.runaway {
                    for _ in 0...World.deliveryLimit {
                        _ = await host.signal(SignalRequest.android(AndroidSignalRequest(type: AndroidSignalRequest.unknownCredentialType, requestJson: json)))
                    }
                }
            }
            func close() async {}
        }
    }

    static let counting: [StepDefinition] = [
        StepDefinition("the app refreshes") { world, _ in
            try await world.perform(UserAction.refresh)
            return .passed
        },
        StepDefinition("the app has nothing left scheduled") { world, _ in
            try await world.quiesce()
            return .passed
        },
        StepDefinition("{int} signal(s) followed the trigger") { world, arguments in
            let count = world.operationsSinceTrigger.filter { $0.kind == .signal }.count
            return count == Int(arguments[0]) ? .passed : .failed("\(count) signal(s) followed the trigger")
        },
        StepDefinition("without the When steps, caught up to this run's time, the replay fired at most {int} heartbeat(s)") { world, arguments in
            let replay = try await world.withoutTrigger()
            try await replay.catchUp(to: world.host.now())
            let fired = replay.host.snapshot.transcript.filter { $0.name == "session.timerFired" && $0.summary.hasSuffix("heartbeat") }.count
            let reached = replay.host.now()
            await replay.session.close()
            guard reached == world.host.now() else { return .failed("the replay reached \(reached) ms, not \(world.host.now()) ms") }
            return fired <= Int(arguments[0]) ?? 0 ? .passed : .failed("the replay fired its heartbeat \(fired) times")
        },
        StepDefinition("without the When steps {int} signal(s) follow(s)") { world, arguments in
            let replay = try await world.withoutTrigger()
            let count = replay.operationsSinceTrigger.filter { $0.kind == .signal }.count
            await replay.session.close()
            return count == Int(arguments[0]) ? .passed : .failed("without the When steps \(count) signal(s) followed")
        },
    ]

    static func run(_ steps: [String], app: TimerApp, keepingTranscript: Bool = false) async throws -> TestCaseResult {
        let library = StepLibrary(counting)
        let text = CriterionText.criterion(scenarios: [.init("Observed", steps: steps)])
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)], library: library)
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let plan = TestPlan.make(loaded.criteria, filter: .init(targets: ["android-15-gpm"]))
        let results = await Runner(adapter: app, library: library, keepsTranscriptsOfPasses: keepingTranscript).run(plan, description: try await app.describe())
        return try #require(results.first)
    }

    @Test(
        "waiting for quiescence fires every timer, however late, and the trigger excludes what the Given steps caused",
        arguments: [0, 30_000, 90_000, 5 * 3_600_000, 48 * 3_600_000] as [Int64])
    func quiescenceAndTrigger(delay: Int64) async throws {
        let result = try await Self.run(
            [
                "Given the app refreshes", "And the app has nothing left scheduled", "When the app refreshes",
                "And the app has nothing left scheduled", "Then 1 signal followed the trigger",
            ], app: TimerApp(delayMillis: delay))
        #expect(result.verdict == .passed, "\(result.message ?? "")")
        #expect(result.virtualMillis == 2 * delay)
    }

    @Test("the wait follows the app's own schedule: work 48 hours out fires, and the app is quiescent after it")
    func noHorizon() async throws {
        let result = try await Self.run(
            ["When the app refreshes", "And the app has nothing left scheduled", "Then 1 signal followed the trigger"],
            app: TimerApp(delayMillis: 1_000, stragglerMillis: 48 * 3_600_000), keepingTranscript: true)
        #expect(result.verdict == .passed, "\(result.message ?? "")")
        #expect(result.virtualMillis == 48 * 3_600_000)
        #expect(result.evidence.contains { $0.name == "session.timerFired" && $0.summary.contains("straggler") })
        #expect(result.evidence.contains { $0.name == "clock.quiescent" } && !result.evidence.contains { $0.name == "clock.horizon" })
    }

    @Test("a timer due after the test case's budget of virtual time stays pending; the transcript names it and the budget")
    func beyondBudget() async throws {
        let result = try await Self.run(
            ["When the app refreshes", "And the app has nothing left scheduled", "Then 1 signal followed the trigger"],
            app: TimerApp(delayMillis: 1_000, stragglerMillis: VirtualClock.budgetMillis + 1), keepingTranscript: true)
        #expect(result.verdict == .passed, "\(result.message ?? "")")
        #expect(result.virtualMillis == 1_000)
        let stop = try #require(result.evidence.first { $0.name == "clock.horizon" })
        #expect(stop.summary.contains("straggler") && stop.summary.contains("budget of virtual time (30 days)"), "\(stop.summary)")
    }

    @Test("an app whose work never ends (a back-off that doubles forever) is stopped by the budget of virtual time, with a clear message")
    func runawayScheduleStops() async throws {
        let result = try await Self.run(
            ["When the app refreshes", "And the app has nothing left scheduled", "Then 1 signal followed the trigger"],
            app: TimerApp(delayMillis: 1_000, backOff: true), keepingTranscript: true)
        #expect(result.verdict == .passed, "\(result.message ?? "")")
        #expect(result.virtualMillis <= VirtualClock.budgetMillis && result.virtualMillis > VirtualClock.budgetMillis / 2)
        let stop = try #require(result.evidence.first { $0.name == "clock.horizon" })
        #expect(stop.summary.contains("back-off") && stop.summary.contains("budget of virtual time"), "\(stop.summary)")
        #expect(result.evidence.filter { $0.name == "session.timerFired" && $0.summary.contains("back-off") }.count < 40)
    }

    @Test("a replay that catches up with a long run beside a lone heartbeat lets it fire late, not once per period")
    func replayLetsHeartbeatFireLate() async throws {
        let result = try await Self.run(
            [
                "Given the app refreshes", "When the app refreshes", "And the app has nothing left scheduled",
                "Then without the When steps, caught up to this run's time, the replay fired at most 10 heartbeats",
            ], app: TimerApp(delayMillis: 1_000, stragglerMillis: 48 * 3_600_000, heartbeatMillis: 10_000, stragglerOnlyAfterFirstRefresh: true))
        #expect(result.verdict == .passed, "\(result.message ?? "")")
        #expect(result.virtualMillis >= 48 * 3_600_000)
    }

    @Test("the differential replay runs only the Given steps, in a fresh session, to quiescence")
    func differential() async throws {
        let app = TimerApp(delayMillis: 60_000)
        let result = try await Self.run(
            [
                "Given the app refreshes", "When the app refreshes", "And the app has nothing left scheduled", "Then 2 signals followed the trigger",
                "And without the When steps 1 signal follows",
            ], app: app)
        #expect(result.verdict == .passed, "\(result.message ?? "")")
        #expect(app.log.all == ["open", "open"])
        let failing = try await Self.run(
            ["Given the app refreshes", "When the app refreshes", "Then without the When steps 2 signals follow"], app: TimerApp(delayMillis: 0))
        #expect(failing.verdict == .failed)
    }

    @Test("a relying party that runs away fails its test case with the evidence; it is not a harness error")
    func runawayIsFailed() async throws {
        let result = try await Self.run(
            ["When the app refreshes", "Then the app has nothing left scheduled"], app: TimerApp(delayMillis: 1_000, runaway: true))
        #expect(result.verdict == .failed)
        #expect(result.message?.contains("more than \(World.deliveryLimit) platform operations") == true, "\(result.message ?? "")")
        #expect(!result.evidence.isEmpty)
    }
}
