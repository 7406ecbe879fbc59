import Synchronization

/// The deadlines of the calls a connection has in flight, watched by the connection's own thread.
///
/// No timer and no sleeping task: the connection's thread waits in `poll` at most until the
/// earliest deadline (`earliest`), then hands the expired ids to `expire(now:)`. Adding a deadline
/// earlier than every other wakes that thread (`onEarlier`), so that it shortens its wait; with
/// calls made one after another that is rare (each new deadline lies after the others). Removing a
/// deadline when its answer arrives only touches a dictionary under a lock: nothing is left to
/// fire. Before, one dispatch timer per connection (with its queue) watched the deadlines, and
/// before that a sleeping task per call.
package final class DeadlineWatch: Sendable {
    private struct State {
        var deadlines: [Int: ContinuousClock.Instant] = [:]
        /// The earliest deadline, while it is known (`nil` also when it must be searched again).
        var earliest: ContinuousClock.Instant?
        var stopped = false
        var onExpire: (@Sendable (Int) -> Void)?
        var onEarlier: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    package init() {}

    /// Sets what happens to an expired id: `handler` is called on the connection's thread, once per
    /// expired id, after the id was removed.
    package func onExpire(_ handler: @escaping @Sendable (Int) -> Void) {
        state.withLock { $0.onExpire = handler }
    }

    /// Sets how the watching thread is told of a deadline earlier than all the others.
    package func onEarlier(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onEarlier = handler }
    }

    /// Watches `id` until `deadline` (replacing an earlier deadline of the same id).
    package func add(_ id: Int, deadline: ContinuousClock.Instant) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.stopped else { return nil }
            let earliest = state.earliest ?? state.deadlines.values.min()
            state.deadlines[id] = deadline
            if let earliest, earliest <= deadline {
                state.earliest = earliest
                return nil
            }
            state.earliest = deadline
            return state.onEarlier
        }
        wake?()
    }

    /// Stops watching `id` (its answer came, or its caller gave up): nothing of it is left to expire.
    package func remove(_ id: Int) {
        state.withLock { state in
            guard let removed = state.deadlines.removeValue(forKey: id) else { return }
            if removed == state.earliest { state.earliest = nil }
        }
    }

    /// How many deadlines are watched.
    package var count: Int { state.withLock { $0.deadlines.count } }

    /// The earliest deadline watched, if any.
    package var earliest: ContinuousClock.Instant? {
        state.withLock { state in
            if state.earliest == nil { state.earliest = state.deadlines.values.min() }
            return state.earliest
        }
    }

    /// Stops watching everything for good.
    package func stop() {
        state.withLock { state in
            state.stopped = true
            state.deadlines = [:]
            state.earliest = nil
        }
    }

    /// Removes the ids whose deadline is at or before `now` and hands each to the expiry handler;
    /// returns the earliest deadline left, if any.
    @discardableResult
    package func expire(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let (expired, handler, next) = state.withLock { state -> ([Int], (@Sendable (Int) -> Void)?, ContinuousClock.Instant?) in
            if state.earliest == nil { state.earliest = state.deadlines.values.min() }
            guard let earliest = state.earliest, earliest <= now else { return ([], nil, state.earliest) }
            let expired = state.deadlines.filter { $0.value <= now }.map(\.key).sorted()
            for id in expired { state.deadlines.removeValue(forKey: id) }
            state.earliest = state.deadlines.values.min()
            return (expired, state.onExpire, state.earliest)
        }
        for id in expired { handler?(id) }
        return expired.isEmpty ? next : self.earliest
    }
}
