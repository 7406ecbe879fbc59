import Foundation
import Synchronization

/// The one thread of a connection: it reads newline-framed messages from a descriptor and hands each
/// line to its owner, writes what the connection's `Outbox` could not write at once, expires the
/// deadlines of the calls in flight, and runs the jobs of tasks that prefer it as their executor.
///
/// The thread blocks in `poll` (on the input, on a wake pipe, on the output while bytes wait for
/// room, at most until the earliest deadline), and nowhere else: no spinning, no timer, no queue.
/// `stop()` wakes it for good. The loop owns the input descriptor and closes it when it ends;
/// `onEnd` is called exactly once, on the loop's thread, after the last line.
package final class ConnectionLoop: TaskExecutor, Sendable {
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
        /// The thread never started: no wake pipe could be made (`errno`).
        case couldNotStart(Int32)
    }

    /// What the owner's line handler asks the reader to do next.
    package enum Next: Sendable {
        case goOn
        case stop
    }

    private let fd: Int32
    private let outbox: Outbox
    private let deadlines: DeadlineWatch
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopRequested = Atomic<Bool>(false)
    /// Jobs of tasks that prefer this reader as their executor, and whether the reader waits in
    /// `poll` (then an enqueue from another thread wakes it) or has stopped (then jobs run at once
    /// on the thread that enqueues them).
    private let jobs = Mutex<(queue: [UnownedJob], waiting: Bool, stopped: Bool)>(([], false, false))
    /// The unfinished line after the last read (kept only while one is unfinished): for excerpts.
    private let unfinished = Mutex<[UInt8]>([])

    /// Starts reading `fd` at once, writing the backlog of `outbox` and expiring the deadlines of
    /// `deadlines`; `nil` if no wake pipe could be made (then `fd` is closed).
    package init?(
        fd: Int32, maximumLineBytes: Int, outbox: Outbox, deadlines: DeadlineWatch,
        onLine: @escaping @Sendable (ArraySlice<UInt8>) -> Next, onEnd: @escaping @Sendable (End) -> Void
    ) {
        guard let pipe = Platform.makePipe() else {
            Platform.close(fd)
            return nil
        }
        self.fd = fd
        self.outbox = outbox
        self.deadlines = deadlines
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
        // The wakes are in place before the thread runs, so nothing queued can go unnoticed.
        outbox.onBacklog { [weak self] in self?.wakeIfWaiting() }
        deadlines.onEarlier { [weak self] in self?.wakeIfWaiting() }
        thread.name = "passkey-conformance connection"
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

    /// Makes the thread look again at the outbox's backlog and the earliest deadline, if it waits
    /// in `poll` (a busy thread looks at both before it waits again; a call made on the thread
    /// itself costs no wake-up).
    package func wakeIfWaiting() {
        let waiting = jobs.withLock { jobs in
            defer { jobs.waiting = false }
            return jobs.waiting
        }
        if waiting { wake() }
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
            var timeout: Int32 = -1
            let now = ContinuousClock.now
            if let earliest = deadlines.expire(now: now) { timeout = Self.millis(from: now, to: earliest) }
            if stopRequested.load(ordering: .acquiring) { return .stopped }
            let output = outbox.hasBacklog ? outbox.fd : nil
            let ready = Platform.poll(readable: fd, wake: wakeRead, writable: output, timeoutMillis: timeout)
            jobs.withLock { $0.waiting = false }
            if ready.wake {
                while drain.withUnsafeMutableBytes({ Platform.read(wakeRead, into: $0) }) > 0 {}
            }
            if ready.writable { outbox.flush() }
            if stopRequested.load(ordering: .acquiring) { return .stopped }
            guard ready.readable else { continue }
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

    /// Milliseconds from `now` until `deadline`, rounded up (so that the wait never ends early), for `poll`.
    private static func millis(from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant) -> Int32 {
        guard deadline > now else { return 0 }
        let (seconds, attoseconds) = (deadline - now).components
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }
}
