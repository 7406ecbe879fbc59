import Synchronization

/// The writing end of a connection: never blocks the caller and never holds a lock across a write.
///
/// The descriptor is non-blocking. A message is written at once by the caller when nothing is
/// queued (the common case, no thread hop); what does not fit into the pipe is queued, and the
/// connection's thread writes the queue whenever the descriptor has room again (it asks
/// `hasBacklog` before it waits in `poll` and calls `flush()` when the descriptor is writable). So
/// a task on the cooperative pool never blocks on a peer that does not read, and two processes
/// writing to each other can never deadlock. One writer at a time holds the right to write (a flag
/// under the lock, not the lock itself): a message sent meanwhile queues behind, in order.
package final class Outbox: Sendable {
    private struct State {
        var queue: [UInt8] = []
        /// Somebody is writing to the descriptor right now: others queue behind.
        var writing = false
        var closed = false
        /// The descriptor has been closed (by `close()`, or by the writer that was busy meanwhile).
        var descriptorClosed = false
        var failed = false
        var onBacklog: (@Sendable () -> Void)?
    }

    package let fd: Int32
    private let state = Mutex(State())
    private let onFailure: @Sendable (Int32) -> Void

    /// Takes ownership of `fd` (made non-blocking; closed by `close()`); `onFailure` is called once,
    /// with `errno`, if writing fails (the peer closed its input or exited).
    package init(fd: Int32, onFailure: @escaping @Sendable (Int32) -> Void) {
        self.fd = fd
        self.onFailure = onFailure
        Platform.setNonBlocking(fd)
    }

    deinit {
        if !state.withLock({ $0.descriptorClosed }) { Platform.close(fd) }
    }

    /// Sets how the thread that writes the queue is told that bytes wait for room.
    package func onBacklog(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onBacklog = handler }
    }

    /// Whether bytes wait for room in the descriptor.
    package var hasBacklog: Bool { state.withLock { !$0.closed && !$0.queue.isEmpty } }

    /// Sends one message (a complete line); `false` once the outbox is closed or writing failed
    /// (then the message is dropped).
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        let writeNow = state.withLock { state -> Bool? in
            guard !state.closed else { return nil }
            if state.writing || !state.queue.isEmpty {
                state.queue.append(contentsOf: bytes)
                return false
            }
            state.writing = true
            return true
        }
        guard let writeNow else { return false }
        return writeNow ? write(bytes[...]) : true
    }

    /// Writes as much of the queue as the descriptor takes now (on the connection's thread, when
    /// `poll` says it has room).
    package func flush() {
        let chunk = state.withLock { state -> [UInt8]? in
            guard !state.closed, !state.writing, !state.queue.isEmpty else { return nil }
            state.writing = true
            defer { state.queue = [] }
            return state.queue
        }
        if let chunk { _ = write(chunk[...]) }
    }

    /// Stops writing: queued bytes are dropped and the descriptor is closed (a socket's sending side
    /// shut down first, since the reader holds a duplicate), so the peer reads end-of-file. Idempotent.
    package func close() {
        let closeNow = state.withLock { state -> Bool in
            state.closed = true
            state.queue = []
            guard !state.writing, !state.descriptorClosed else { return false }
            state.descriptorClosed = true
            return true
        }
        if closeNow { Platform.endWriting(fd) }
    }

    /// Writes `bytes` without blocking, holding the right to write; what the descriptor does not take
    /// goes to the front of the queue (before what others queued meanwhile). `false` if writing failed.
    private func write(_ bytes: ArraySlice<UInt8>) -> Bool {
        var offset = bytes.startIndex
        var failure: Int32?
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = Platform.write(fd, UnsafeRawBufferPointer(rebasing: buffer[written...]))
                if count > 0 {
                    written += count
                } else {
                    if !Platform.wouldBlock { failure = Platform.lastError }
                    break
                }
            }
            offset += written
        }
        let (closeNow, wake, report) = state.withLock { state -> (Bool, (@Sendable () -> Void)?, Bool) in
            state.writing = false
            var report = false
            if failure != nil, !state.failed {
                state.failed = true
                state.closed = true
                report = true
            }
            if state.closed {
                state.queue = []
                let closeNow = !state.descriptorClosed
                state.descriptorClosed = true
                return (closeNow, nil, report)
            }
            if offset < bytes.endIndex { state.queue.insert(contentsOf: bytes[offset...], at: 0) }
            return (false, state.queue.isEmpty ? nil : state.onBacklog, report)
        }
        if closeNow { Platform.endWriting(fd) }
        wake?()
        if report, let failure { onFailure(failure) }
        return failure == nil
    }
}
