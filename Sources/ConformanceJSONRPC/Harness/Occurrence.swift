import Synchronization

/// Something that happens once (a process exited, a stream ended), which tasks can wait for with a
/// time limit, suspended, without holding a thread.
///
/// Each wait with a limit starts one sleeping task; it is cancelled the moment the wait ends, so a
/// wait that is answered early leaves nothing asleep behind it.
final class Occurrence: Sendable {
    /// What happened to a waiter's time-out task (for the tests, which observe it by these events).
    enum TimeoutEvent: Sendable, Equatable {
        case started
        /// The task ended: `cancelled` when the occurrence came first.
        case ended(cancelled: Bool)
    }

    private struct Waiter {
        var continuation: CheckedContinuation<Bool, Never>
        var timeout: Task<Void, Never>?
    }

    private struct State {
        var fired = false
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]
    }

    private let state = Mutex(State())
    private let observe: (@Sendable (TimeoutEvent) -> Void)?

    /// An occurrence that has not happened yet; `observe` hears of every time-out task.
    init(observe: (@Sendable (TimeoutEvent) -> Void)? = nil) {
        self.observe = observe
    }

    /// Marks it as happened, resumes every waiter with `true` and cancels their time-outs. Idempotent.
    func fire() {
        let waiters = state.withLock { state -> [Waiter] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.timeout?.cancel()
            waiter.continuation.resume(returning: true)
        }
    }

    /// Waits until it happens (`true`) or `timeout` passes (`false`).
    @discardableResult
    func wait(within timeout: Duration) async -> Bool {
        let (token, fired) = state.withLock { state -> (Int, Bool) in
            defer { state.nextWaiter += 1 }
            return (state.nextWaiter, state.fired)
        }
        if fired { return true }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let registered = state.withLock { state -> Bool in
                guard !state.fired else { return false }
                state.waiters[token] = Waiter(continuation: continuation)
                return true
            }
            guard registered else {
                continuation.resume(returning: true)
                return
            }
            let observe = self.observe
            observe?(.started)
            let task = Task { [self] in
                let cancelled = (try? await Task.sleep(for: timeout)) == nil
                observe?(.ended(cancelled: cancelled))
                if let waiter = state.withLock({ $0.waiters.removeValue(forKey: token) }) { waiter.continuation.resume(returning: false) }
            }
            // The occurrence may have come while the task was being made: then nobody else cancels it.
            let keep = state.withLock { state -> Bool in
                guard state.waiters[token] != nil else { return false }
                state.waiters[token]?.timeout = task
                return true
            }
            if !keep { task.cancel() }
        }
    }
}
