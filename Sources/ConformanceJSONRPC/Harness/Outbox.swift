import Foundation
import Synchronization

/// The harness's writing end of a pipe to an adapter: never blocks the caller.
///
/// A message is written at once with a non-blocking `write` when nothing is queued (the common case,
/// no thread hop). What does not fit into the pipe is queued and written by a writer thread of its
/// own. So the connection's reader thread can always answer the adapter's calls without waiting for
/// the adapter to read, and two processes writing to each other can never deadlock.
final class Outbox: Sendable {
    private struct State {
        var queue: [UInt8] = []
        /// The writer thread holds bytes taken from the queue: direct writes must wait behind them.
        var writerBusy = false
        var closed = false
    }

    private let fd: Int32
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let onFailure: @Sendable (Int32) -> Void

    /// Takes ownership of `fd` (it is closed by the writer thread at the end); `onFailure` is called
    /// once, with `errno`, if writing fails (the adapter closed its input or exited).
    init(fd: Int32, onFailure: @escaping @Sendable (Int32) -> Void) {
        self.fd = fd
        self.onFailure = onFailure
        Platform.setNonBlocking(fd)
        Thread.detachNewThread { [self] in writerLoop() }
    }

    /// Sends one message (a complete line); silently dropped once the outbox is closed.
    func send(_ bytes: [UInt8]) {
        var failure: Int32?
        let needsWriter = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            var offset = 0
            if state.queue.isEmpty && !state.writerBusy {
                bytes.withUnsafeBytes { buffer in
                    while offset < buffer.count {
                        let count = Platform.write(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                        if count > 0 {
                            offset += count
                        } else {
                            if !Platform.wouldBlock { failure = Platform.lastError }
                            return
                        }
                    }
                }
                if failure != nil { state.closed = true }
                if failure != nil || offset == bytes.count { return failure != nil }
            }
            state.queue.append(contentsOf: bytes[offset...])
            return true
        }
        if needsWriter { wake.signal() }
        if let failure { onFailure(failure) }
    }

    /// Stops writing: queued bytes are dropped and the descriptor is closed, so the adapter reads
    /// end-of-file. Idempotent.
    func close() {
        state.withLock { $0.closed = true }
        wake.signal()
    }

    private func writerLoop() {
        defer { Platform.close(fd) }
        while true {
            wake.wait()
            while true {
                let (chunk, closed) = state.withLock { state -> ([UInt8], Bool) in
                    if state.closed { return ([], true) }
                    let chunk = state.queue
                    state.queue = []
                    state.writerBusy = !chunk.isEmpty
                    return (chunk, false)
                }
                if closed { return }
                if chunk.isEmpty { break }
                if let failure = writeAll(chunk) {
                    state.withLock { $0.closed = true }
                    onFailure(failure)
                    return
                }
            }
        }
    }

    /// Writes `chunk` to the non-blocking descriptor, waiting for room; `errno` on failure, `nil` on
    /// success or when the outbox was closed meanwhile.
    private func writeAll(_ chunk: [UInt8]) -> Int32? {
        chunk.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Platform.write(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                if count > 0 {
                    offset += count
                } else if count < 0 && Platform.wouldBlock {
                    if state.withLock({ $0.closed }) { return nil }
                    _ = Platform.poll(fd, forWriting: true, timeoutMillis: 250)
                } else {
                    return Platform.lastError
                }
            }
            return nil
        }
    }
}
