import Foundation
import Synchronization

/// Reads newline-framed messages from a descriptor on a thread of its own, the one reader of a
/// connection, and hands each line to its owner on that thread.
///
/// The thread blocks in `poll` on the descriptor and on a wake pipe, and nowhere else: no spinning,
/// no timed polling. `stop()` wakes it for good. The reader owns the descriptor and closes it when
/// it ends; `onEnd` is called exactly once, on the reader thread, after the last line.
package final class LineReader: TaskExecutor, Sendable {
    /// Why reading ended.
    package enum End: Sendable {
        /// The peer closed its end; `truncated` holds the start of an unfinished last line, if any.
        case endOfInput(truncated: [UInt8]?)
        /// A line grew past the limit: its first bytes and its length so far.
        case lineTooLong(prefix: [UInt8], length: Int)
        /// `read` failed with this `errno`.
        case readFailed(Int32)
        /// `stop()` was called, or the owner's line handler asked to stop.
        case stopped
    }

    /// What the owner's line handler asks the reader to do next.
    package enum Next: Sendable {
        case goOn
        case stop
    }

    private let fd: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopRequested = Atomic<Bool>(false)
    /// Jobs of tasks that prefer this reader as their executor, and whether the reader waits in
    /// `poll` (then an enqueue from another thread wakes it) or has stopped (then jobs run at once
    /// on the thread that enqueues them).
    private let jobs = Mutex<(queue: [UnownedJob], waiting: Bool, stopped: Bool)>(([], false, false))
    /// The unfinished line after the last read (kept only while one is unfinished): for excerpts.
    private let unfinished = Mutex<[UInt8]>([])

    /// Starts reading `fd` at once; `nil` if no wake pipe could be made (then `fd` is closed).
    package init?(
        fd: Int32, maximumLineBytes: Int, onLine: @escaping @Sendable (ArraySlice<UInt8>) -> Next,
        onEnd: @escaping @Sendable (End) -> Void
    ) {
        guard let pipe = Platform.makePipe() else {
            Platform.close(fd)
            return nil
        }
        self.fd = fd
        wakeRead = pipe.read
        wakeWrite = pipe.write
        Platform.setNonBlocking(wakeRead)
        let thread = Thread { [self] in
            let end = run(maximumLineBytes: maximumLineBytes, onLine: onLine)
            Platform.close(fd)
            onEnd(end)
            // Tasks still preferring this executor go on, on the threads that resume them.
            let left = jobs.withLock { jobs in
                jobs.stopped = true
                defer { jobs.queue = [] }
                return jobs.queue
            }
            for job in left { job.runSynchronously(on: asUnownedTaskExecutor()) }
            Platform.close(wakeRead)
        }
        thread.name = "passkey-conformance line reader"
        thread.start()
    }

    deinit {
        Platform.close(wakeWrite)
    }

    /// Makes the reader end at its next wake (at once if it is waiting). Idempotent.
    package func stop() {
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = withUnsafeBytes(of: &byte) { Platform.write(wakeWrite, $0) }
    }

    /// Queues a job to run on the reader thread between reads. A task that prefers this executor
    /// (`Task(executorPreference:)`) runs on the thread that reads its answers: resuming it after a
    /// read costs no wake-up of another thread. Measured with `conformance-bench` on the project's
    /// 2-vCPU machine: a JSON-RPC round trip to the reference adapter cost 159 µs with request
    /// handlers on the cooperative pool and about half that with handlers here.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (wakeReader, runNow) = jobs.withLock { jobs -> (Bool, Bool) in
            if jobs.stopped { return (false, true) }
            jobs.queue.append(job)
            defer { jobs.waiting = false }
            return (jobs.waiting, false)
        }
        if runNow {
            job.runSynchronously(on: asUnownedTaskExecutor())
        } else if wakeReader {
            wake()
        }
    }

    /// Runs the queued jobs until none is left; then, with none left, marks the reader as waiting.
    private func runJobs() {
        while true {
            let batch = jobs.withLock { jobs -> [UnownedJob] in
                if jobs.queue.isEmpty {
                    jobs.waiting = true
                    return []
                }
                defer { jobs.queue = [] }
                return jobs.queue
            }
            if batch.isEmpty { return }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// The start of the line received so far and not finished (empty when none is).
    package var partialLine: [UInt8] { unfinished.withLock { $0 } }

    private func run(maximumLineBytes: Int, onLine: @Sendable (ArraySlice<UInt8>) -> Next) -> End {
        var framer = LineFramer(maximumLineBytes: maximumLineBytes)
        var buffer = [UInt8](repeating: 0, count: 65536)
        var hadPartial = false
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            runJobs()
            if stopRequested.load(ordering: .acquiring) { return .stopped }
            let (readable, woken) = Platform.poll(readable: fd, or: wakeRead, timeoutMillis: -1)
            jobs.withLock { $0.waiting = false }
            if woken {
                while drain.withUnsafeMutableBytes({ Platform.read(wakeRead, into: $0) }) > 0 {}
            }
            if stopRequested.load(ordering: .acquiring) { return .stopped }
            guard readable else { continue }
            let count = buffer.withUnsafeMutableBytes { Platform.read(fd, into: $0) }
            if count == 0 {
                do {
                    try framer.finish()
                    return .endOfInput(truncated: nil)
                } catch {
                    if case .truncated(let partial) = error as? LineFramer.Failure { return .endOfInput(truncated: partial) }
                    return .endOfInput(truncated: nil)
                }
            }
            if count < 0 {
                if Platform.wouldBlock { continue }
                return .readFailed(Platform.lastError)
            }
            var next = Next.goOn
            do {
                try buffer.withUnsafeBytes { bytes in
                    try framer.append(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { line in
                        if case .goOn = next { next = onLine(line) }
                    }
                }
            } catch {
                if case .lineTooLong(let prefix, let length) = error as? LineFramer.Failure { return .lineTooLong(prefix: prefix, length: length) }
                return .stopped
            }
            if case .stop = next { return .stopped }
            let partial = framer.partialLine
            if !partial.isEmpty || hadPartial {
                hadPartial = !partial.isEmpty
                unfinished.withLock { $0 = Array(partial.prefix(256)) }
            }
        }
    }
}
