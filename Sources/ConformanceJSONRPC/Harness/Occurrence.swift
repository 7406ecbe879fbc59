import Synchronization

/// Something that happens once (a process exited, a stream ended), which tasks can wait for with a
/// time limit, suspended, without holding a thread.
final class Occurrence: Sendable {
    private struct State {
        var fired = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Marks it as happened and resumes every waiter with `true`. Idempotent.
    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Waits until it happens (`true`) or `timeout` passes (`false`).
    @discardableResult
    func wait(within timeout: Duration) async -> Bool {
        let (token, fired) = state.withLock { state -> (Int, Bool) in
            defer { state.nextWaiter += 1 }
            return (state.nextWaiter, state.fired)
        }
        if fired { return true }
        return await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            let registered = state.withLock { state -> Bool in
                guard !state.fired else { return false }
                state.waiters[token] = waiter
                return true
            }
            guard registered else {
                waiter.resume(returning: true)
                return
            }
            Task { [self] in
                try? await Task.sleep(for: timeout)
                if let waiter = state.withLock({ $0.waiters.removeValue(forKey: token) }) { waiter.resume(returning: false) }
            }
        }
    }
}
