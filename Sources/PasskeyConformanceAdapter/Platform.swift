#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX calls the transport makes, in one place: file descriptors, pipes, polling and signals.
///
/// Every descriptor the module creates is close-on-exec, so that a child process started by another
/// part of the harness never inherits an end of an adapter's pipes (which would keep it from ever
/// seeing end-of-file).
package enum Platform {
    /// The last error of the calling thread.
    package static var lastError: Int32 { errno }

    /// Reads up to `buffer.count` bytes; retries on `EINTR`. Returns 0 at end of file, -1 on error.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = systemRead(fd, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Writes some of `bytes`; retries on `EINTR`. Returns the count written, or -1 (see `lastError`).
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        while true {
            let count = systemWrite(fd, bytes.baseAddress, bytes.count)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Writes all of `bytes` to a blocking descriptor. Returns `false` if the descriptor failed.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    /// Whether the write would block (`EAGAIN`/`EWOULDBLOCK`).
    package static var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

    /// How a poll ended.
    package enum PollResult {
        /// The descriptor is ready (or has hung up, or failed: the next read or write says which).
        case ready
        case timedOut
    }

    /// Waits until `fd` can be read (or written, with `forWriting`) or `timeoutMillis` have passed.
    package static func poll(_ fd: Int32, forWriting: Bool = false, timeoutMillis: Int32) -> PollResult {
        var entry = pollfd(fd: fd, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0)
        while true {
            let result = systemPoll(&entry, 1, timeoutMillis)
            if result < 0 && errno == EINTR { continue }
            return result == 0 ? .timedOut : .ready
        }
    }

    /// Waits until `input` or `wake` can be read, or `output` (when given) can be written, or
    /// `timeoutMillis` have passed (-1: no limit). Returns which are ready (hang-up and errors count
    /// as ready: the next read or write says which).
    package static func poll(
        readable input: Int32, wake: Int32, writable output: Int32?, timeoutMillis: Int32
    ) -> (readable: Bool, wake: Bool, writable: Bool) {
        withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 3) { entries in
            let count = output == nil ? 2 : 3
            while true {
                entries[0] = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                entries[1] = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
                entries[2] = pollfd(fd: output ?? -1, events: Int16(POLLOUT), revents: 0)
                let result = systemPoll(entries.baseAddress!, .init(count), timeoutMillis)
                if result < 0 && errno == EINTR { continue }
                if result <= 0 { return (false, false, false) }
                return (entries[0].revents != 0, entries[1].revents != 0, count == 3 && entries[2].revents != 0)
            }
        }
    }

    /// A pipe whose two ends are close-on-exec.
    package static func makePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        guard systemPipe(&ends) == 0 else { return nil }
        for end in ends { setCloseOnExec(end) }
        return (ends[0], ends[1])
    }

    /// A close-on-exec duplicate of `fd`, or -1.
    package static func duplicate(_ fd: Int32) -> Int32 {
        fcntl(fd, F_DUPFD_CLOEXEC, 0)
    }

    /// Points `target` at the same file as `source` (`dup2`).
    package static func redirect(_ source: Int32, to target: Int32) {
        _ = dup2(source, target)
    }

    package static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }

    package static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    package static func close(_ fd: Int32) {
        _ = systemClose(fd)
    }

    /// Ends writing on `fd` and closes it: a stream socket's sending side is shut down first, so the
    /// peer reads end-of-file although a duplicate of the socket stays open for reading (a pipe's
    /// descriptor is only closed).
    package static func endWriting(_ fd: Int32) {
        #if canImport(Glibc)
            _ = shutdown(fd, Int32(SHUT_WR))
        #else
            _ = shutdown(fd, SHUT_WR)
        #endif
        _ = systemClose(fd)
    }

    /// Sends `signal` to a process group, or to the single process when it leads no group of its own.
    package static func send(_ signal: Int32, toGroupOf pid: Int32, isGroupLeader: Bool) {
        _ = kill(isGroupLeader ? -pid : pid, signal)
    }

    /// Whether a process group (or, for a process that leads none, the process) led by `pid` still exists.
    package static func processGroupExists(_ pid: Int32) -> Bool { kill(-pid, 0) == 0 || kill(pid, 0) == 0 }

    /// The process group of `pid`, or -1.
    package static func processGroup(of pid: Int32) -> Int32 { getpgid(pid) }

    package static let terminateSignal = SIGTERM
    package static let killSignal = SIGKILL

    /// Ignores `SIGPIPE` for the whole process, so that writing to an adapter that has exited fails
    /// with `EPIPE` instead of killing the harness. Idempotent.
    package static func ignoreBrokenPipeSignal() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// Runs `handler` when the process exits normally.
    package static func atExit(_ handler: @convention(c) () -> Void) {
        _ = atexit(handler)
    }
}

// The C functions under other names, so that `Platform`'s own methods can share their names.
private let systemRead: @Sendable (Int32, UnsafeMutableRawPointer?, Int) -> Int = { read($0, $1, $2) }
private let systemWrite: @Sendable (Int32, UnsafeRawPointer?, Int) -> Int = { write($0, $1, $2) }
private let systemClose: @Sendable (Int32) -> Int32 = { close($0) }
private let systemPipe: @Sendable (UnsafeMutablePointer<Int32>) -> Int32 = { pipe($0) }
#if canImport(Darwin)
    private let systemPoll: @Sendable (UnsafeMutablePointer<pollfd>, UInt32, Int32) -> Int32 = { poll($0, $1, $2) }
#else
    private let systemPoll: @Sendable (UnsafeMutablePointer<pollfd>, UInt, Int32) -> Int32 = { poll($0, $1, $2) }
#endif
