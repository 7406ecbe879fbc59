import Dispatch
import Foundation
import Synchronization

/// A task executor with one thread of its own, for tests that keep a CPU busy for a long time
/// (whole suites, self-tests, explorations): run under its preference, their work leaves the small
/// cooperative pool (two threads on a 2-core machine) to the tests that need it promptly, such as
/// the in-process JSON-RPC tests with their time-outs.
package final class DedicatedExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    /// Starts the executor's thread; it lives as long as the test process.
    package init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// One executor shared by the heavy tests: they queue behind each other instead of crowding the pool.
    package static let heavy = DedicatedExecutor(name: "heavy tests")

    /// Queues a job for the executor's thread.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    private func run() {
        while true {
            ready.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
