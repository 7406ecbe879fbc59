import Synchronization

/// The task executor of the adapter's reader thread: harness requests are handled on the thread that
/// read them, between reads, without waking a thread of the cooperative pool.
///
/// Jobs enqueued from the reader thread itself are run at its next turn; a job enqueued from another
/// thread (a handler resuming after an `await` elsewhere) wakes the reader through a pipe if it
/// sleeps. After the reader has stopped, jobs run at once on the thread that enqueues them.
final class ReaderExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        /// The reader is (about to be) blocked in `poll` and must be woken for new jobs.
        var sleeping = false
        /// The reader has stopped running jobs.
        var stopped = false
    }

    private let state = Mutex(State())
    /// Read end: polled by the reader beside its input; write end: one byte wakes it.
    let wakeRead: Int32
    private let wakeWrite: Int32

    init?() {
        guard let pipe = Platform.makePipe() else { return nil }
        wakeRead = pipe.read
        wakeWrite = pipe.write
        Platform.setNonBlocking(wakeRead)
        Platform.setNonBlocking(wakeWrite)
    }

    deinit {
        Platform.close(wakeRead)
        Platform.close(wakeWrite)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (wake, stopped) = state.withLock { state -> (Bool, Bool) in
            if state.stopped { return (false, true) }
            state.jobs.append(job)
            defer { state.sleeping = false }
            return (state.sleeping, false)
        }
        if stopped {
            job.runSynchronously(on: asUnownedTaskExecutor())
        } else if wake {
            var byte: UInt8 = 1
            _ = withUnsafeBytes(of: &byte) { Platform.write(wakeWrite, $0) }
        }
    }

    /// Runs the queued jobs on the calling thread until none are left.
    func runJobs() {
        while true {
            let jobs = state.withLock { state in
                defer { state.jobs = [] }
                return state.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// Declares that the reader is going to sleep; `false` if jobs are waiting (then it must not).
    func prepareToSleep() -> Bool {
        state.withLock { state in
            guard state.jobs.isEmpty else { return false }
            state.sleeping = true
            return true
        }
    }

    /// Declares that the reader is awake; empties the wake pipe if it was written to.
    func awake(woken: Bool) {
        state.withLock { $0.sleeping = false }
        guard woken else { return }
        var bytes = (UInt64(0), UInt64(0))
        _ = withUnsafeMutableBytes(of: &bytes) { Platform.read(wakeRead, into: $0) }
    }

    /// Stops: jobs left are run now, later ones run where they are enqueued.
    func stop() {
        state.withLock { $0.stopped = true }
        runJobs()
    }
}
