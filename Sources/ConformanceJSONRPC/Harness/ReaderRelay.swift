import PasskeyConformanceAdapter
import Synchronization

/// The task executor a `JSONRPCAdapter` offers the runner: the reader thread of the live adapter
/// connection, or the cooperative pool while there is none (before the launch, between a failed
/// process and the next).
///
/// A test case on the reader thread resumes there when its answer is read, instead of waking a
/// pool thread: the harness's side of a call costs one wake-up (the reader's) instead of two.
/// Measured on the project's 2-vCPU machine, the whole suite through `reference-rp-adapter`
/// (`Scripts/bench-transport.sh`): about 30,000 voluntary context switches
/// and 6.2 s of processor time with test cases on the pool, about 20,000 and 4.2 s with them here.
final class ReaderRelay: TaskExecutor, Sendable {
    private let reader = Mutex<ConnectionLoop?>(nil)

    /// Makes `running` the executor jobs go to.
    func attach(_ running: ConnectionLoop) {
        reader.withLock { $0 = running }
    }

    /// Sends jobs back to the pool, if `stopped` is the reader they go to now.
    func detach(_ stopped: ConnectionLoop) {
        reader.withLock { if $0 === stopped { $0 = nil } }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        if let running = reader.withLock({ $0 }) {
            running.enqueue(job)
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }
}
