import Foundation
import WebAuthn

/// How the checks of a scenario observe the relying party: to quiescence, from the trigger, and
/// against the same scenario without its trigger.
///
/// A criterion says what must and must not happen, never when the RP reconciles or how long it
/// coalesces, so a check that something did not happen (or happened exactly N times) first lets
/// virtual time run through every timer the RP scheduled, and counts only what followed the
/// scenario's first `When` step.
extension World {
    /// The most timers one wait for quiescence fires before it stops, the transcript naming the
    /// timers still scheduled: a bound on a runaway, not a horizon (virtual time is free, so a wait
    /// follows the app's own schedule however far out it reaches; see `quiesce`).
    public static let quiescenceTimerLimit = 10_000

    /// What one wait for quiescence found.
    public struct Quiescence: Sendable, Hashable {
        /// Timers that fired while waiting.
        public var timersFired: Int
        /// Virtual time that passed while waiting, in milliseconds.
        public var elapsedMillis: Int64
        /// Labels of the timers still scheduled when the wait stopped (empty: the app is quiescent).
        public var pendingTimers: [String]
    }

    /// Lets virtual time run through every timer the app has scheduled, in due order, until none is
    /// left or only recurring timers are left.
    ///
    /// There is no horizon of the harness's own: the wait follows the RP's own scheduled work, so a
    /// timer 48 hours out fires as one 48 seconds out does. Only a runaway stops it: the test case's
    /// budget of virtual time (`VirtualClock.budgetMillis`; a timer due later never fires) or
    /// `quiescenceTimerLimit` timers in one wait, whichever comes first; the transcript then says
    /// which bound stopped the wait and names the timers still scheduled.
    ///
    /// A recurring timer (one that each firing re-arms under the same label with the same delay, at
    /// least twice in this wait) is the app's schedule, not pending work: once every timer left is
    /// such a timer, waiting longer shows only more of the same, so the wait stops there. A
    /// recurring timer whose firings did nothing but re-arm it (a heartbeat) is let fire late, after
    /// the other timers, so that it never costs one firing per period of a long wait. Counts stay
    /// fair because they are taken by difference with the same run without its trigger, over the
    /// same span of time.
    ///
    /// A wait that finds nothing new to do records nothing, so several checks in a row cost one entry.
    @discardableResult
    public func quiesce() async throws -> Quiescence {
        let start = host.now()
        try await settle()
        var recurrence = TimerRecurrence()
        let fired = try await runTimers(until: VirtualClock.budgetMillis, recurrence: &recurrence, stopWhenOnlyRecurring: true)
        let all = host.snapshot.pendingTimers.sorted { ($0.dueMillis, $0.id) < ($1.dueMillis, $1.id) }
        let pending = all.filter { !recurrence.isRecurring($0) }
        let recurring = all.filter(recurrence.isRecurring)
        let result = Quiescence(
            timersFired: fired, elapsedMillis: host.now() - start, pendingTimers: pending.map { "\($0.id): \($0.label) (due at \($0.dueMillis) ms)" })
        if pending.isEmpty {
            await watch?.settled(self)
            if fired > 0 || lastQuiescenceSequence != host.transcriptCount {
                let schedule = recurring.isEmpty ? "" : "; left recurring: " + recurring.map { "\($0.id): \($0.label)" }.joined(separator: "; ")
                lastQuiescenceSequence = host.record(
                    .step, "clock.quiescent",
                    "the app has nothing left scheduled (\(fired) timer(s) fired, \(result.elapsedMillis / 1000) s of virtual time)" + schedule)
            }
        } else {
            let bound =
                fired >= Self.quiescenceTimerLimit
                ? "the limit of \(Self.quiescenceTimerLimit) timers in one wait is reached (an app that keeps scheduling new work runs away)"
                : "the rest is due after the test case's budget of virtual time (\(VirtualClock.budgetMillis / 86_400_000) days)"
            lastQuiescenceSequence = host.record(
                .step, "clock.horizon",
                "stopped waiting after \(fired) timer(s) and \(result.elapsedMillis / 1000) s of virtual time, since \(bound), with \(pending.count) timer(s) still scheduled: "
                    + result.pendingTimers.prefix(5).joined(separator: "; "))
        }
        return result
    }

    /// Fires the app's timers due up to `limit`, heartbeats late (see `quiesce`); with
    /// `stopWhenOnlyRecurring`, stops once every pending timer recurs; with `stopWhenOnlyHeartbeats`,
    /// once every pending timer is a heartbeat (it fires late, at the next wait). Returns how many fired.
    func runTimers(until limit: Int64, recurrence: inout TimerRecurrence, stopWhenOnlyRecurring: Bool, stopWhenOnlyHeartbeats: Bool = false)
        async throws -> Int
    {
        var fired = 0
        while fired < Self.quiescenceTimerLimit {
            let pending = host.snapshot.pendingTimers
            if stopWhenOnlyRecurring, !pending.isEmpty, pending.allSatisfy(recurrence.isRecurring) { break }
            if stopWhenOnlyHeartbeats, !pending.isEmpty, pending.allSatisfy(recurrence.isIdle) { break }
            let heartbeats = recurrence
            guard let timer = host.popDueTimer(notAfter: limit, deferring: heartbeats.isIdle) else { break }
            let firedAt = host.now()
            let first = host.record(.harnessToRP, "session.timerFired", "\(timer.id): \(timer.label)")
            let acting = watch?.timer()
            defer { watch?.resume(acting) }
            try await session.timerFired(timer.id)
            await watch?.look(self)
            try await settle()
            let caused = host.snapshot.transcript.filter { $0.sequence > first }
            let idle = caused.count == 1 && caused[0].name == "clock.schedule"
            recurrence.fired(timer, at: firedAt, before: Set(pending.map(\.id)), pending: host.snapshot.pendingTimers, idle: idle)
            fired += 1
        }
        return fired
    }

    /// Lets the replay's timers run to `millis`, as `quiesce` runs them, and moves its clock there. A
    /// heartbeat left alone (every pending timer one whose firings did nothing but re-arm it) fires
    /// late, as in `quiesce`, rather than once per period of a long span: a replay that must reach
    /// 48 hours beside a 10-second heartbeat costs a few firings, not 17,000.
    func catchUp(to millis: Int64) async throws {
        guard host.now() < millis else { return }
        var recurrence = TimerRecurrence()
        _ = try await runTimers(until: millis, recurrence: &recurrence, stopWhenOnlyRecurring: false, stopWhenOnlyHeartbeats: true)
        host.moveClock(to: millis)
    }

    /// Platform operations that followed the trigger (the scenario's first `When` step), or all of
    /// them when the scenario has no `When` step.
    public var operationsSinceTrigger: [PlatformOperation] {
        let from = triggerSequence ?? 0
        return host.snapshot.operations.filter { $0.sequence > from }
    }

    /// Runs the scenario's `Given` steps again in a fresh session, without its `When` steps, lets it
    /// reach quiescence, and returns that world; the runner provides it.
    public func withoutTrigger() async throws -> World {
        guard let counterfactual else { throw SystemIssue("this runner cannot replay a scenario without its When steps") }
        return try await counterfactual()
    }
}

/// Which of the app's timers recur: a label that each firing re-armed with the same delay, twice
/// in a row; and which of those are heartbeats, whose firings did nothing but re-arm them.
struct TimerRecurrence {
    private var lastDelay: [String: Int64] = [:]
    private var streak: [String: Int] = [:]
    private var idleStreak: [String: Int] = [:]

    /// Notes what the firing of `timer` at `time` re-armed: `before` are the ids pending before it
    /// fired; `idle` says it caused nothing but its re-arming.
    mutating func fired(_ timer: VirtualClock.Timer, at time: Int64, before: Set<TimerID>, pending: [VirtualClock.Timer], idle: Bool) {
        let rearmed = pending.filter { $0.label == timer.label && !before.contains($0.id) }
        guard rearmed.count == 1 else {
            streak[timer.label] = 0
            idleStreak[timer.label] = 0
            lastDelay[timer.label] = nil
            return
        }
        let delay = rearmed[0].dueMillis - time
        streak[timer.label] = lastDelay[timer.label] == delay ? streak[timer.label, default: 0] + 1 : 1
        idleStreak[timer.label] = idle ? idleStreak[timer.label, default: 0] + 1 : 0
        lastDelay[timer.label] = delay
    }

    /// Whether a pending timer belongs to a schedule that has recurred twice with the same period.
    func isRecurring(_ timer: VirtualClock.Timer) -> Bool { streak[timer.label, default: 0] >= 2 }

    /// Whether a pending timer is a heartbeat: recurring, and its last two firings did nothing else.
    func isIdle(_ timer: VirtualClock.Timer) -> Bool { isRecurring(timer) && idleStreak[timer.label, default: 0] >= 2 }
}

/// A signal call with every value the relying party chose replaced by what it stands for (the
/// account alias for a user handle, `alias#n` for a credential id), so that two runs of the same
/// scenario compare equal when they signal the same things, even if the RP's ids are random.
struct SignalDigest: Hashable, CustomStringConvertible {
    var text: String
    var description: String { text }

    /// The names each world gives its accounts' user handles and credential ids.
    struct Names {
        var handles: [Data: String] = [:]
        var credentials: [Data: String] = [:]

        init(_ world: World) async throws {
            for alias in world.accounts.keys.sorted() {
                let account = try await world.inspect(alias)
                handles[account.userHandle] = alias
                for (index, credential) in account.credentials.enumerated() { credentials[credential.credentialID] = "\(alias)#\(index + 1)" }
            }
            var unknown = 0
            for passkey in world.host.snapshot.provider.passkeys where credentials[passkey.credentialID] == nil {
                unknown += 1
                credentials[passkey.credentialID] = "provider-only#\(unknown)"
            }
        }

        func handle(_ data: Data?) -> String { data.map { handles[$0] ?? "unknown-handle(\($0.count) bytes)" } ?? "-" }
        func credential(_ data: Data) -> String { credentials[data] ?? "unknown-id(\(data.count) bytes)" }
    }

    init(_ call: SignalCall, names: Names) {
        var parts = ["\(call.kind?.rawValue ?? "unreadable") via \(call.interface)", "rp \(call.rpID ?? "-")"]
        if let signal = call.operation.signal {
            parts.append("user \(names.handle(signal.userHandle))")
            if let id = signal.credentialID { parts.append("credential \(names.credential(id))") }
            if let ids = signal.acceptedCredentialIDs { parts.append("accepted [" + ids.map(names.credential).sorted().joined(separator: ", ") + "]") }
            if let name = signal.name { parts.append("name \"\(name)\"") }
            if let displayName = signal.displayName { parts.append("display name \"\(displayName)\"") }
        }
        if call.operation.outcome.error != nil { parts.append("refused by the platform") }
        text = parts.joined(separator: ", ")
    }
}
