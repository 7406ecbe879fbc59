import Foundation

/// How tests wait for something that must happen: until it happens, with one generous guard that
/// only turns a hang into a failure.
///
/// A CI runner is shared: another job may take both cores while the tests run, and anything a test
/// waits for may take many times longer than on an idle machine. So no test bounds how fast a thing
/// happens; it waits for the thing itself (an event, a file, a process's exit), and the guard below
/// is long enough that only a real hang reaches it.
package enum Waiting {
    /// The longest a test waits for something that must happen: 10 minutes, far beyond what any
    /// step of the suite takes on a machine with both cores taken by other work.
    package static let hangGuard: Duration = .seconds(600)

    /// Checks `condition` every `interval` until it holds (`true`) or `limit` has passed (`false`).
    ///
    /// For conditions that have no event to wait on (a process's exit seen from outside, a file
    /// another process writes); the interval sets only how soon the test notices.
    package static func until(
        within limit: Duration = hangGuard, every interval: Duration = .milliseconds(20), _ condition: () throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + limit
        while try !condition() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: interval)
        }
        return true
    }
}
