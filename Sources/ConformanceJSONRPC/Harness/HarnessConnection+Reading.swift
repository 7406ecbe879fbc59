import Foundation
import ConformanceKit

extension HarnessConnection {
    /// The reading side of the pipe: descriptor, framing, buffer and flood window. Only the leader of
    /// the moment touches it.
    struct ReadState: ~Copyable {
        private(set) var fd: Int32
        var framer: LineFramer
        var buffer: [UInt8] = Array(repeating: 0, count: 65536)
        /// The start of the current one-second window and the adapter-initiated messages in it.
        var windowStart = ContinuousClock.now
        var windowCount = 0
        /// How long the leader spins before it blocks.
        var spin = AdaptiveSpin()

        init(fd: Int32, maximumLineBytes: Int) {
            self.fd = fd
            self.framer = LineFramer(maximumLineBytes: maximumLineBytes)
        }

        mutating func close() {
            if fd >= 0 { Platform.close(fd) }
            fd = -1
        }
    }

    /// Reads as the leader until the answer to `id` (or a failure) is there, or `budgetEnd`.
    func lead(until id: Int, budgetEnd: ContinuousClock.Instant) {
        reading.withLock { reading in
            while state.withLock({ $0.answers[id] == nil && $0.fault == nil }) {
                let left = budgetEnd - .now
                guard reading.fd >= 0, left > .zero else { return }
                let millis = Int32(left.components.attoseconds / 1_000_000_000_000_000 + left.components.seconds * 1000 + 1)
                if reading.spin.wait(for: reading.fd, timeoutMillis: min(millis, pollTimeout())) == .ready { readOnce(&reading) }
                if let (fault, culprit) = expiredDeadline(partialLine: reading.framer.partialLine) { fail(fault, culprit: culprit) }
            }
        }
    }

    /// The connection's reader thread: leads while callers are parked; between calls, drains the
    /// pipe every 20 ms without blocking. Ends with the connection.
    static func readerThread(_ weak: Weak, wake: DispatchSemaphore) {
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(20))
            guard let connection = weak.connection, connection.isAlive else { return }
            let leads = connection.state.withLock { state -> Bool in
                if state.leader == .readerThread { return true }
                guard state.leader == nil && state.pending.isEmpty else { return false }
                state.leader = .readerThread
                return true
            }
            guard leads else { continue }
            connection.leadForParkedCallers()
        }
    }

    /// Reads (on the reader thread) until no caller is parked, then gives up the lead.
    private func leadForParkedCallers() {
        reading.withLock { reading in
            while true {
                let keepReading = state.withLock { state -> Bool in
                    if state.fault == nil && state.pending.values.contains(where: { $0.continuation != nil }) { return true }
                    return false
                }
                if keepReading && reading.fd >= 0 {
                    if Platform.poll(reading.fd, timeoutMillis: pollTimeout()) == .ready { readOnce(&reading) }
                    if let (fault, culprit) = expiredDeadline(partialLine: reading.framer.partialLine) { fail(fault, culprit: culprit) }
                    continue
                }
                // Nobody parked: read what is there without blocking, then leave.
                while reading.fd >= 0 && isAlive && Platform.poll(reading.fd, timeoutMillis: 0) == .ready {
                    readOnce(&reading)
                }
                let done = state.withLock { state -> Bool in
                    if state.fault == nil && state.pending.values.contains(where: { $0.continuation != nil }) { return false }
                    state.leader = nil
                    return true
                }
                if done { return }
            }
        }
    }

    /// One `read`, and the lines it completes; any fault fails the connection.
    private func readOnce(_ reading: inout ReadState) {
        let fd = reading.fd
        let count = reading.buffer.withUnsafeMutableBytes { Platform.read(fd, into: $0) }
        if count == 0 {
            fail(endOfFile(reading.framer))
            reading.close()
            return
        }
        if count < 0 {
            if Platform.wouldBlock { return }
            fail(AdapterFault(.processExited, "reading the adapter's output failed (errno \(Platform.lastError))"))
            reading.close()
            return
        }
        var lines: [ArraySlice<UInt8>] = []
        do {
            try reading.buffer.withUnsafeBytes { buffer in
                try reading.framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { lines.append($0) }
            }
        } catch let failure as LineFramer.Failure {
            guard case .lineTooLong(let prefix, let length) = failure else { return }
            fail(AdapterFault(.oversizedMessage, "the adapter wrote a line of more than \(length) bytes (the limit is \(reading.framer.maximumLineBytes))",
                              excerpt: Excerpt(prefix).text))
            reading.close()
            return
        } catch {
            return
        }
        for line in lines {
            do {
                try handle(line, &reading)
            } catch {
                fail(error as? AdapterFault ?? AdapterFault(.protocolViolation, "\(error)"))
                reading.close()
                return
            }
        }
    }

    /// Milliseconds until the earliest deadline, at most 250 (so that calls registered later with
    /// an earlier deadline, a cancellation and a shutdown are noticed soon).
    private func pollTimeout() -> Int32 {
        let earliest = state.withLock { $0.pending.values.map(\.deadline).min() }
        guard let earliest else { return 250 }
        let left = earliest - .now
        if left <= .zero { return 0 }
        let millis = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(min(millis, 250))
    }

    /// The fault for the first call whose deadline has passed, if any.
    private func expiredDeadline(partialLine: ArraySlice<UInt8>) -> (AdapterFault, Int)? {
        let now = ContinuousClock.now
        let expired = state.withLock { state in state.pending.first { $0.value.deadline <= now } }
        guard let (id, call) = expired else { return nil }
        var excerpt = child?.standardErrorText
        if !partialLine.isEmpty { excerpt = "unfinished line: " + Excerpt(partialLine).text }
        let fault = call.deadlineIsTestCase
            ? AdapterFault(.testCaseTimeout, "the test case's time budget ran out while waiting for the answer to id \(id); the adapter process was stopped",
                           method: call.method, excerpt: excerpt)
            : AdapterFault(.timeout, "no answer to id \(id) within \(call.budget.shortDescription); the adapter process was stopped",
                           method: call.method, excerpt: excerpt)
        return (fault, id)
    }

    /// The fault for the end of the adapter's output.
    private func endOfFile(_ framer: LineFramer) -> AdapterFault {
        child?.waitForExit(timeout: .milliseconds(500))
        child?.standardErrorSettled(within: .milliseconds(200))
        let how = child?.exitDescription.map { "the adapter process \($0)" } ?? "the adapter closed its output"
        do {
            try framer.finish()
        } catch {
            if case .truncated(let partial) = error as? LineFramer.Failure {
                return AdapterFault(.truncatedMessage, "\(how) in the middle of a message", excerpt: Excerpt(partial).text)
            }
        }
        return AdapterFault(.processExited, how, excerpt: child?.standardErrorText)
    }

    /// Dispatches one line.
    private func handle(_ line: ArraySlice<UInt8>, _ reading: inout ReadState) throws {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            try countAdapterMessage(&reading)
            return
        }
        let message: JSONRPCMessage
        do {
            message = try JSONRPCMessage(line: line)
        } catch {
            switch error {
            case .malformed(let why):
                throw AdapterFault(.malformedMessage, "the adapter wrote a line that is not JSON (\(why))", excerpt: Excerpt(line).text)
            case .invalid(let why):
                throw AdapterFault(.protocolViolation, "the adapter wrote an invalid message: \(why)", excerpt: Excerpt(line).text)
            }
        }
        switch message.kind {
        case .result, .error:
            if let id = message.integerID {
                if deliver(id, .success(message)) { return }
                if state.withLock({ $0.abandoned.remove(id) != nil }) { return }
            }
            throw AdapterFault(.unknownResponseID, "the adapter answered id \(Excerpt(message.rawID ?? [])), which the harness is not waiting for",
                               excerpt: Excerpt(line).text)
        case .request, .notification:
            try countAdapterMessage(&reading)
            try serve(message)
        }
    }

    private func countAdapterMessage(_ reading: inout ReadState) throws {
        let now = ContinuousClock.now
        if now - reading.windowStart >= .seconds(1) {
            reading.windowStart = now
            reading.windowCount = 0
        }
        reading.windowCount += 1
        let limit = configuration.maximumAdapterMessagesPerSecond
        if reading.windowCount > limit {
            throw AdapterFault(.flood, "the adapter sent more than \(limit) calls and notifications within one second")
        }
    }
}
