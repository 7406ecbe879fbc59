import PasskeyConformanceProtocol
import Dispatch
import Synchronization

/// The deadlines of the calls a connection has in flight, watched by one dispatch timer.
///
/// A task per call that sleeps until its deadline and is cancelled by the answer costs two jobs on
/// the cooperative pool per call (start, and the cancelled sleep's resumption), each a wake-up of
/// a pool thread, and a dispatch timer left behind until the deadline. Here adding and removing a
/// deadline only touches a dictionary under a lock; the timer is re-armed only when a deadline
/// earlier than the armed one arrives, which with calls made one after another is rare (each new
/// deadline lies after the armed one). When it fires, the expired calls are handed to `onExpire`
/// and the timer is armed for the earliest one left. Measured on the project's 2-vCPU machine, the
/// whole suite through `reference-rp-adapter` (`Scripts/bench-transport.sh`): with a timer task per
/// call in harness and adapter, about 59,000 voluntary context switches and 7.8 s of processor
/// time; with this watch, about 30,000 and 6.2 s.
package final class DeadlineWatch<ID: Hashable & Sendable>: Sendable {
    private struct State {
        var deadlines: [ID: ContinuousClock.Instant] = [:]
        /// The deadline the timer is armed for, if it is armed.
        var armed: ContinuousClock.Instant?
        var stopped = false
        var onExpire: (@Sendable (ID) -> Void)?
        let timer: any DispatchSourceTimer
    }

    private let state: Mutex<State>

    package init() {
        state = Mutex(State(timer: DispatchSource.makeTimerSource(queue: DispatchQueue(label: "passkey-conformance.deadlines"))))
        state.withLock { state in
            state.timer.setEventHandler { [weak self] in self?.fire() }
            state.timer.activate()
        }
    }

    deinit {
        state.withLock { $0.timer.cancel() }
    }

    /// Sets what happens to an expired id: `handler` is called on a private queue, once per expired
    /// id, after the id was removed.
    package func onExpire(_ handler: @escaping @Sendable (ID) -> Void) {
        state.withLock { $0.onExpire = handler }
    }

    /// Watches `id` until `deadline` (replacing an earlier deadline of the same id).
    package func add(_ id: ID, deadline: ContinuousClock.Instant) {
        state.withLock { state in
            guard !state.stopped else { return }
            state.deadlines[id] = deadline
            if let armed = state.armed, armed <= deadline { return }
            state.armed = deadline
            Self.arm(state.timer, for: deadline, now: .now)
        }
    }

    /// Stops watching `id`. The timer stays armed: when it fires with nothing expired it re-arms
    /// for the earliest deadline left, or rests.
    package func remove(_ id: ID) {
        _ = state.withLock { $0.deadlines.removeValue(forKey: id) }
    }

    /// Stops watching everything for good.
    package func stop() {
        state.withLock { state in
            state.stopped = true
            state.deadlines = [:]
            state.armed = nil
            state.timer.cancel()
        }
    }

    private func fire() {
        let now = ContinuousClock.now
        let (expired, handler) = state.withLock { state -> ([ID], (@Sendable (ID) -> Void)?) in
            let expired = state.deadlines.filter { $0.value <= now }.map(\.key)
            for id in expired { state.deadlines.removeValue(forKey: id) }
            state.armed = state.stopped ? nil : state.deadlines.values.min()
            if let next = state.armed { Self.arm(state.timer, for: next, now: now) }
            return (expired, state.onExpire)
        }
        for id in expired { handler?(id) }
    }

    private static func arm(_ timer: any DispatchSourceTimer, for deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        timer.schedule(deadline: .now() + (deadline - now).dispatchInterval, leeway: .milliseconds(1))
    }
}
