import Foundation
import Synchronization
import PasskeyConformanceProtocol

/// The adapter's end of one harness connection: the sessions, the requests of the harness, and the
/// platform calls awaiting the harness's answers, over the `JSONRPCConnection` both ends share.
///
/// The connection's one thread reads the harness's messages, writes what could not be written at
/// once, and expires the platform calls' deadlines. Each request runs as a task of its own (on that
/// thread, between reads), so requests of several sessions (and of one session) can be in progress
/// at once; an answer to a platform call resumes the handler that awaits it. Nothing blocks a thread
/// of the cooperative pool: a line the harness has no room for yet waits in the outbox.
final class ServerConnection: Sendable {
    struct ServedSession: Sendable {
        var session: any RelyingPartySession
        var host: RemotePlatformHost
    }

    struct State {
        var helloDone = false
        var sessions: [String: ServedSession] = [:]
        var adapterShutDown = false
        var done: CheckedContinuation<Void, Never>?
        /// `finish()` came before `serve()` waited.
        var finished = false
    }

    /// Why a platform call got no answer: the connection closed, or its time-out passed.
    struct NoAnswer: Error {}

    let adapter: any RelyingPartyAdapter
    let configuration: JSONRPCAdapterServer.Configuration
    let state = Mutex(State())
    /// The wire: ids, pending platform calls, their deadlines, the reader and the writer.
    let connection: JSONRPCConnection<Void>

    /// Whether the adapter outlives this connection: a listening server serves the next harness with
    /// it, so `adapter.shutdown` and the end of the connection close only this connection's sessions.
    let keepsAdapter: Bool

    init(adapter: any RelyingPartyAdapter, configuration: JSONRPCAdapterServer.Configuration, channel: MessageChannel, keepsAdapter: Bool = false) {
        self.adapter = adapter
        self.configuration = configuration
        self.keepsAdapter = keepsAdapter
        connection = JSONRPCConnection(channel: channel, maximumLineBytes: configuration.maximumMessageBytes) { _, _, _ in NoAnswer() }
        let weak = Weak(self)
        connection.prepare(
            JSONRPCConnection.Handlers(
                route: { inbound in weak.connection?.receive(inbound) ?? .stop },
                ended: { end in weak.connection?.readerEnded(end) },
                expired: { id in weak.connection?.connection.deliver(id, .failure(NoAnswer())) },
                writeFailed: { _ in weak.connection?.finish() }))
    }

    /// A connection over a pair of pipe descriptors.
    convenience init(adapter: any RelyingPartyAdapter, configuration: JSONRPCAdapterServer.Configuration, input: Int32, output: Int32) {
        self.init(adapter: adapter, configuration: configuration, channel: .pipes(input: input, output: output))
    }

    /// A reference that does not keep the connection alive (its thread holds it).
    final class Weak: Sendable {
        weak let connection: ServerConnection?
        init(_ connection: ServerConnection) { self.connection = connection }
    }

    /// Runs until the harness closes the input or sends `adapter.shutdown`, then closes every session
    /// and shuts the adapter down.
    func serve() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state -> Bool in
                state.done = done
                return state.finished
            }
            if finished || !connection.start() { finish() }
        }
        connection.stopReading()
        let sessions = state.withLock { state in
            defer { state.sessions = [:] }
            return Array(state.sessions.values)
        }
        for served in sessions { await served.session.close() }
        if !keepsAdapter,
            state.withLock({ state in
                defer { state.adapterShutDown = true }
                return !state.adapterShutDown
            })
        {
            await adapter.shutdown()
        }
        connection.stop()
    }

    /// Ends `serve()`; pending platform calls return at once. Idempotent.
    func finish() {
        let done = state.withLock { state in
            state.finished = true
            defer { state.done = nil }
            return state.done
        }
        connection.close(NoAnswer()) { _, _ in NoAnswer() }
        done?.resume()
    }

    /// Writes one line; `false` when the output is closed or failed (then the connection finishes:
    /// the harness is gone).
    @discardableResult
    func write(_ line: [UInt8]) -> Bool {
        connection.outbox.send(line)
    }

    // MARK: - Reading

    /// One message of the harness, on the connection's thread: answers to their platform calls,
    /// requests to handler tasks.
    private func receive(_ inbound: JSONRPCConnection<Void>.Inbound) -> ConnectionLoop.Next {
        switch inbound {
        case .blank:
            break
        case .unreadable(.malformed(let why), _):
            write(JSONRPCCodec.error(id: nil, code: JSONRPCErrorCode.parseError, message: "not JSON: \(why)"))
        case .unreadable(.invalid(let why), _):
            write(JSONRPCCodec.error(id: nil, code: JSONRPCErrorCode.invalidRequest, message: why))
        case .answer(let message):
            _ = connection.settle(message)
        case .call(let message) where message.kind == .request:
            // On the connection's thread, between reads (see `ConnectionLoop.enqueue`); suspended in
            // a platform call, the handler lets the thread read on.
            if let executor = connection.loop {
                Task(executorPreference: executor) { await self.handle(message) }
            } else {
                Task { await self.handle(message) }
            }
        case .call:
            break
        }
        return .goOn
    }

    private func readerEnded(_ end: ConnectionLoop.End) {
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
        let id = connection.nextID()
        let line = try JSONRPCCodec.request(id: id, method: method.rawValue, params: params)
        let timeout = configuration.platformCallTimeout
        guard case .success(let answer) = await connection.call(id, line, context: (), deadline: .now + timeout) else {
            throw PlatformCallError(description: "no answer from the harness (the connection is closed, or \(timeout) passed)")
        }
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
