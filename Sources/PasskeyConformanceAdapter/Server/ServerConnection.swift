import Foundation
import Synchronization
import PasskeyConformanceProtocol

/// The adapter's end of one harness connection: the reader, the sessions, and the platform calls
/// awaiting the harness's answers.
///
/// A `LineReader` thread reads the harness's messages. Each request runs as a task of its own, so
/// requests of several sessions (and of one session) can be in progress at once; an answer to a
/// platform call resumes the handler that awaits it, from the reader thread. Nothing blocks a thread
/// of the cooperative pool except writing a line, which the harness always reads.
final class ServerConnection: Sendable {
    struct ServedSession: Sendable {
        var session: any RelyingPartySession
        var host: RemotePlatformHost
    }

    /// Where a platform call receives the harness's answer (`nil`: the connection ended first).
    typealias Waiter = CheckedContinuation<JSONRPCMessage?, Never>

    struct State {
        var helloDone = false
        var sessions: [String: ServedSession] = [:]
        var nextID = 1
        var waiting: [Int: Waiter] = [:]
        /// The harness has closed the input or sent `adapter.shutdown`.
        var finished = false
        var adapterShutDown = false
        var done: CheckedContinuation<Void, Never>?
    }

    let adapter: any RelyingPartyAdapter
    let configuration: JSONRPCAdapterServer.Configuration
    private let input: Int32
    let state = Mutex(State())
    /// Serializes writes of whole lines; `nil` once the output is closed.
    private let writer: Mutex<Int32?>
    private let reader = Mutex<LineReader?>(nil)
    /// The time-outs of the platform calls awaiting answers.
    private let deadlines = DeadlineWatch<Int>()

    init(adapter: any RelyingPartyAdapter, configuration: JSONRPCAdapterServer.Configuration, input: Int32, output: Int32) {
        self.adapter = adapter
        self.configuration = configuration
        self.input = input
        self.writer = Mutex(output)
        deadlines.onExpire { [weak self] id in self?.state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: nil) }
    }

    /// Runs until the harness closes the input or sends `adapter.shutdown`, then closes every session
    /// and shuts the adapter down.
    func serve() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            state.withLock { $0.done = done }
            let started = LineReader(
                fd: input, maximumLineBytes: configuration.maximumMessageBytes,
                onLine: { [self] line in receive(line) },
                onEnd: { [self] end in readerEnded(end) })
            if let started {
                reader.withLock { $0 = started }
            } else {
                finish()
            }
        }
        reader.withLock { $0?.stop() }
        let sessions = state.withLock { state in
            defer { state.sessions = [:] }
            return Array(state.sessions.values)
        }
        for served in sessions { await served.session.close() }
        if state.withLock({ state in
            defer { state.adapterShutDown = true }
            return !state.adapterShutDown
        }) {
            await adapter.shutdown()
        }
        writer.withLock { fd in
            if let open = fd { Platform.close(open) }
            fd = nil
        }
    }

    /// Ends `serve()`; pending platform calls return at once. Idempotent.
    func finish() {
        let (done, waiting) = state.withLock { state in
            state.finished = true
            defer {
                state.done = nil
                state.waiting = [:]
            }
            return (state.done, state.waiting)
        }
        deadlines.stop()
        for waiter in waiting.values { waiter.resume(returning: nil) }
        done?.resume()
    }

    /// Writes one line; `false` when the output is closed or failed (then the connection finishes:
    /// the harness is gone).
    @discardableResult
    func write(_ line: [UInt8]) -> Bool {
        let written = writer.withLock { fd -> Bool? in
            guard let open = fd else { return nil }
            return line.withUnsafeBytes { Platform.writeAll(open, $0) }
        }
        if written == false { finish() }
        return written ?? false
    }

    // MARK: - Reading

    /// One line of the harness, on the reader thread: answers to their platform calls, requests to
    /// handler tasks.
    private func receive(_ line: ArraySlice<UInt8>) -> LineReader.Next {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .goOn }
        let message: JSONRPCMessage
        do {
            message = try JSONRPCMessage(line: line)
        } catch {
            switch error {
            case .malformed(let why): write(JSONRPCCodec.error(id: nil, code: JSONRPCErrorCode.parseError, message: "not JSON: \(why)"))
            case .invalid(let why): write(JSONRPCCodec.error(id: nil, code: JSONRPCErrorCode.invalidRequest, message: why))
            }
            return .goOn
        }
        switch message.kind {
        case .result, .error:
            if let id = message.integerID, let waiter = state.withLock({ $0.waiting.removeValue(forKey: id) }) {
                deadlines.remove(id)
                waiter.resume(returning: message)
            }
        case .request:
            // On the reader thread, between reads (see `LineReader.enqueue`); suspended in a
            // platform call, the handler lets the reader read on.
            let executor = reader.withLock { state -> LineReader? in state }
            if let executor {
                Task(executorPreference: executor) { await self.handle(message) }
            } else {
                Task { await self.handle(message) }
            }
        case .notification:
            break
        }
        return .goOn
    }

    private func readerEnded(_ end: LineReader.End) {
        if case .lineTooLong = end {
            write(JSONRPCCodec.error(id: nil, code: JSONRPCErrorCode.invalidRequest, message: "line longer than \(configuration.maximumMessageBytes) bytes"))
        }
        finish()
    }

    // MARK: - Calls to the harness

    /// Why a platform call got no valid answer.
    struct PlatformCallError: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends a request to the harness and waits, suspended, for its answer.
    func callHarness<Result: Decodable>(_ method: JSONRPCMethod, _ params: some Encodable, returning: Result.Type) async throws -> Result {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let line = try JSONRPCCodec.request(id: id, method: method.rawValue, params: params)
        let timeout = configuration.platformCallTimeout
        let answer = await withCheckedContinuation { (waiter: Waiter) in
            let open = state.withLock { state -> Bool in
                guard !state.finished else { return false }
                state.waiting[id] = waiter
                return true
            }
            guard open else {
                waiter.resume(returning: nil)
                return
            }
            deadlines.add(id, deadline: .now + timeout)
            guard write(line) else {
                deadlines.remove(id)
                if let waiter = state.withLock({ $0.waiting.removeValue(forKey: id) }) { waiter.resume(returning: nil) }
                return
            }
        }
        guard let answer else { throw PlatformCallError(description: "no answer from the harness (the connection is closed, or \(timeout) passed)") }
        if answer.kind == .error {
            let error = answer.decodeError()
            throw PlatformCallError(description: "the harness answered with error \(error.code): \(error.message)")
        }
        do {
            return try answer.decodePayload(Result.self)
        } catch {
            throw PlatformCallError(description: "the harness's result is not a valid \(Result.self): \(DecodingErrorText(error))")
        }
    }

    /// Writes a diagnostic line to standard error (never to the protocol stream).
    func log(_ text: String) {
        let line = Array("adapter: \(text)\n".utf8)
        _ = line.withUnsafeBytes { Platform.writeAll(2, $0) }
    }
}
