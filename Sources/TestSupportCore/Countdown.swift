import Synchronization

/// A gate that opens once a number of arrivals have happened: tasks that wait on it suspend until
/// then, so that a test orders its tasks by events instead of by sleeping.
package final class Countdown: Sendable {
    private let state: Mutex<(remaining: Int, waiters: [CheckedContinuation<Void, Never>])>

    /// A gate that opens after `arrivals` calls of `arrive()` (at once when it is zero or less).
    package init(_ arrivals: Int) {
        state = Mutex((remaining: arrivals, waiters: []))
    }

    /// Counts one arrival; the last one needed opens the gate and resumes every waiter.
    package func arrive() {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.remaining -= 1
            guard state.remaining <= 0 else { return [] }
            let waiters = state.waiters
            state.waiters = []
            return waiters
        }
        for waiter in released { waiter.resume() }
    }

    /// Returns once the gate is open.
    package func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state -> Bool in
                if state.remaining <= 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }
}
