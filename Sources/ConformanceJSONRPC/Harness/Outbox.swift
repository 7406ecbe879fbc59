import Foundation
import PasskeyConformanceAdapter
import Synchronization

/// The harness's writing end of a pipe to an adapter: never blocks the caller.
///
/// A message is written at once with a non-blocking `write` when nothing is queued (the common case,
/// no thread hop). What does not fit into the pipe is queued and written by a drain on a serial
/// dispatch queue of its own, which waits in `poll` for room or for `close()` (through a wake
/// pipe). So a caller on the cooperative pool
/// never blocks on an adapter that does not read, and two processes writing to each other can never
/// deadlock.
final class Outbox: Sendable {
    private struct State {
        var queue: [UInt8] = []
        /// A drain is scheduled or running: direct writes must wait behind its bytes.
        var draining = false
        var closed = false
        /// The descriptor has been closed (by `close()` or by the drain, whichever is last).
        var descriptorClosed = false
    }

    private let fd: Int32
    /// Written by `close()` to wake a drain waiting for room; `nil` if no pipe could be made (then
    /// the drain looks for `close()` every 250 ms while it waits).
    private let wake: (read: Int32, write: Int32)?
    private let state = Mutex(State())
    private let drainQueue = DispatchQueue(label: "passkey-conformance.outbox")
    private let onFailure: @Sendable (Int32) -> Void

    /// Takes ownership of `fd` (closed by `close()`, or by the drain once it is done); `onFailure`
    /// is called once, with `errno`, if writing fails (the adapter closed its input or exited).
    init(fd: Int32, onFailure: @escaping @Sendable (Int32) -> Void) {
        self.fd = fd
        self.onFailure = onFailure
        wake = Platform.makePipe()
        Platform.setNonBlocking(fd)
    }

    deinit {
        if !state.withLock({ $0.descriptorClosed }) { Platform.close(fd) }
        if let wake {
            Platform.close(wake.read)
            Platform.close(wake.write)
        }
    }

    /// Sends one message (a complete line); silently dropped once the outbox is closed.
    func send(_ bytes: [UInt8]) {
        var failure: Int32?
        let startDrain = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            var offset = 0
            if !state.draining {
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
                if failure != nil || offset == bytes.count { return false }
            }
            state.queue.append(contentsOf: bytes[offset...])
            if state.draining { return false }
            state.draining = true
            return true
        }
        if startDrain { drainQueue.async { [self] in drain() } }
        if let failure { onFailure(failure) }
    }

    /// Stops writing: queued bytes are dropped and the descriptor is closed, so the adapter reads
    /// end-of-file. Idempotent.
    func close() {
        let (closeNow, draining) = state.withLock { state -> (Bool, Bool) in
            state.closed = true
            guard !state.draining, !state.descriptorClosed else { return (false, state.draining) }
            state.descriptorClosed = true
            return (true, false)
        }
        if closeNow { Platform.close(fd) }
        if draining, let wake {
            var byte: UInt8 = 1
            _ = withUnsafeBytes(of: &byte) { Platform.write(wake.write, $0) }
        }
    }

    /// Writes the queue until it is empty (then direct writes resume), the outbox is closed, or the
    /// descriptor fails.
    private func drain() {
        while true {
            let chunk = state.withLock { state -> [UInt8]? in
                if state.closed || state.queue.isEmpty {
                    state.draining = false
                    if state.closed && !state.descriptorClosed {
                        state.descriptorClosed = true
                        Platform.close(fd)
                    }
                    return nil
                }
                defer { state.queue = [] }
                return state.queue
            }
            guard let chunk else { return }
            if let failure = writeAll(chunk) {
                state.withLock { $0.closed = true }
                onFailure(failure)
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
                    // Wakes when the adapter reads, or when `close()` writes to the wake pipe.
                    if let wake {
                        _ = Platform.poll(fd, forWriting: true, orReadable: wake.read, timeoutMillis: -1)
                    } else {
                        _ = Platform.poll(fd, forWriting: true, timeoutMillis: 250)
                    }
                } else {
                    return Platform.lastError
                }
            }
            return nil
        }
    }
}
