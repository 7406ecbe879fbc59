import Foundation
import ConformanceModel
import PasskeyConformanceAdapter

extension HarnessConnection {
    /// One message of the adapter's output, on the connection's thread: answers go to their
    /// callers (or behind queued adapter calls), calls and notifications to the serving task. Any
    /// fault fails the connection and stops the reader.
    func receive(_ inbound: JSONRPCConnection<Call>.Inbound) -> ConnectionLoop.Next {
        do {
            try route(inbound)
            return .goOn
        } catch {
            fail(error as? AdapterFault ?? AdapterFault(.protocolViolation, "\(error)"))
            return .stop
        }
    }

    private func route(_ inbound: JSONRPCConnection<Call>.Inbound) throws {
        switch inbound {
        case .blank:
            try countAdapterMessage()
        case .unreadable(.malformed(let why), let line):
            throw AdapterFault(.malformedMessage, "the adapter wrote a line that is not JSON (\(why))", excerpt: Excerpt(line).text)
        case .unreadable(.invalid(let why), let line):
            throw AdapterFault(.protocolViolation, "the adapter wrote an invalid message: \(why)", excerpt: Excerpt(line).text)
        case .answer(let message):
            // Straight to the caller, unless adapter calls read before it still wait to be served.
            let direct = state.withLock { state -> Bool in
                if state.queued == 0 { return true }
                state.queued += 1
                return false
            }
            if direct {
                try settle(message)
            } else {
                inbox.yield(.answer(message))
            }
        case .call(let message):
            try countAdapterMessage()
            state.withLock { $0.queued += 1 }
            inbox.yield(.call(message))
        }
    }

    /// Delivers an answer to its caller; an answer nobody waits for (and nobody gave up) is a fault.
    func settle(_ message: JSONRPCMessage) throws {
        if connection.settle(message) != .unknown { return }
        throw AdapterFault(
            .unknownResponseID, "the adapter answered id \(Excerpt(message.rawID ?? [])), which the harness is not waiting for",
            excerpt: Excerpt(message.bytes).text)
    }

    /// The serving task: the adapter's calls and the answers queued behind them, in arrival order.
    static func serveInbound(_ stream: AsyncStream<Inbound>, _ weak: Weak) async {
        for await inbound in stream {
            guard let connection = weak.connection else { return }
            do {
                switch inbound {
                case .call(let message): try await connection.serve(message)
                case .answer(let message): try connection.settle(message)
                }
            } catch {
                connection.fail(error as? AdapterFault ?? AdapterFault(.protocolViolation, "\(error)"))
            }
            connection.state.withLock { $0.queued -= 1 }
        }
    }

    /// The reader ended: at the end of the adapter's output, the fault says how the process ended.
    func readerEnded(_ end: ConnectionLoop.End) {
        switch end {
        case .stopped:
            return
        case .lineTooLong(let prefix, let length):
            fail(
                AdapterFault(
                    .oversizedMessage, "the adapter wrote a line of more than \(length) bytes (the limit is \(configuration.maximumMessageBytes))",
                    excerpt: Excerpt(prefix).text))
        case .couldNotStart(let error):
            fail(AdapterFault(.launchFailed, "could not create a pipe to wake the reader (errno \(error))"))
        case .readFailed(let error):
            fail(
                AdapterFault(
                    .processExited,
                    connected ? "the connection to the adapter failed (errno \(error))" : "reading the adapter's output failed (errno \(error))"))
        case .endOfInput(let truncated):
            Task {
                await child?.exited(within: .milliseconds(500))
                await child?.standardErrorSettled(within: .milliseconds(200))
                let how =
                    child?.exitDescription.map { "the adapter process \($0)" }
                    ?? (connected ? "the adapter closed the connection" : "the adapter closed its output")
                if let truncated {
                    fail(AdapterFault(.truncatedMessage, "\(how) in the middle of a message", excerpt: Excerpt(truncated).text))
                } else {
                    fail(AdapterFault(.processExited, how, excerpt: child?.standardErrorText))
                }
            }
        }
    }

    private func countAdapterMessage() throws {
        let limit = configuration.maximumAdapterMessagesPerSecond
        let flooded = state.withLock { state -> Bool in
            let now = ContinuousClock.now
            if now - state.windowStart >= .seconds(1) {
                state.windowStart = now
                state.windowCount = 0
            }
            state.windowCount += 1
            return state.windowCount > limit
        }
        if flooded {
            throw AdapterFault(.flood, "the adapter sent more than \(limit) calls and notifications within one second")
        }
    }
}
