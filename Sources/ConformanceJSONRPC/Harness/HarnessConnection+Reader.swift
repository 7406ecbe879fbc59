import Foundation
import ConformanceKit

extension HarnessConnection {
    /// The loop of the reader thread: reads lines, dispatches them, enforces deadlines and limits.
    ///
    /// Any fault of the stream (garbage, an oversized or unfinished line, an unknown answer id, a
    /// flood, end of file, a deadline) fails the whole connection and ends the loop; the descriptor is
    /// closed on the way out.
    struct Reader {
        let connection: HarnessConnection
        let fd: Int32
        /// The start of the current one-second window and the adapter-initiated messages in it.
        var windowStart = ContinuousClock.now
        var windowCount = 0

        init(connection: HarnessConnection, fd: Int32) {
            self.connection = connection
            self.fd = fd
        }

        mutating func run() {
            var framer = LineFramer(maximumLineBytes: connection.configuration.maximumMessageBytes)
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
            defer {
                chunk.deallocate()
                Platform.close(fd)
            }
            while connection.isAlive {
                if Platform.poll(fd, timeoutMillis: pollTimeout()) == .timedOut {
                    if let (fault, culprit) = expiredDeadline(partialLine: framer.partialLine) { connection.fail(fault, culprit: culprit) }
                    continue
                }
                let count = Platform.read(fd, into: chunk)
                if count == 0 {
                    connection.fail(endOfFile(framer))
                    return
                }
                if count < 0 {
                    if Platform.wouldBlock { continue }
                    connection.fail(AdapterFault(.processExited, "reading the adapter's output failed (errno \(Platform.lastError))"))
                    return
                }
                do {
                    try framer.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count])) { line in try handle(line) }
                } catch let failure as LineFramer.Failure {
                    guard case .lineTooLong(let prefix, let length) = failure else { continue }
                    connection.fail(AdapterFault(.oversizedMessage, "the adapter wrote a line of more than \(length) bytes (the limit is \(framer.maximumLineBytes))",
                                                 excerpt: Excerpt(prefix).text))
                } catch {
                    connection.fail(error as? AdapterFault ?? AdapterFault(.protocolViolation, "\(error)"))
                }
                if let (fault, culprit) = expiredDeadline(partialLine: framer.partialLine) { connection.fail(fault, culprit: culprit) }
            }
        }

        /// Milliseconds until the earliest deadline, at most 250 (so that calls registered later with
        /// an earlier deadline, and a shutdown, are noticed soon).
        private func pollTimeout() -> Int32 {
            let earliest = connection.state.withLock { $0.pending.values.map(\.deadline).min() }
            guard let earliest else { return 250 }
            let left = earliest - .now
            if left <= .zero { return 0 }
            let millis = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            return Int32(min(millis, 250))
        }

        /// The fault for the first call whose deadline has passed, if any.
        private func expiredDeadline(partialLine: ArraySlice<UInt8>) -> (AdapterFault, Int)? {
            let now = ContinuousClock.now
            let expired = connection.state.withLock { state in state.pending.first { $0.value.deadline <= now } }
            guard let (id, call) = expired else { return nil }
            var excerpt = connection.child?.standardErrorText
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
            let child = connection.child
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
        private mutating func handle(_ line: ArraySlice<UInt8>) throws {
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                try countAdapterMessage()
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
                let id = message.integerID
                let pending = connection.state.withLock { state -> (Pending?, Bool) in
                    guard let id else { return (nil, false) }
                    if let pending = state.pending.removeValue(forKey: id) { return (pending, false) }
                    return (nil, state.abandoned.remove(id) != nil)
                }
                switch pending {
                case (let call?, _): call.continuation.resume(returning: message)
                case (nil, true): return
                case (nil, false):
                    throw AdapterFault(.unknownResponseID, "the adapter answered id \(Excerpt(message.rawID ?? [])), which the harness is not waiting for",
                                       excerpt: Excerpt(line).text)
                }
            case .request, .notification:
                try countAdapterMessage()
                try connection.serve(message)
            }
        }

        private mutating func countAdapterMessage() throws {
            let now = ContinuousClock.now
            if now - windowStart >= .seconds(1) {
                windowStart = now
                windowCount = 0
            }
            windowCount += 1
            let limit = connection.configuration.maximumAdapterMessagesPerSecond
            if windowCount > limit {
                throw AdapterFault(.flood, "the adapter sent more than \(limit) calls and notifications within one second")
            }
        }
    }
}
