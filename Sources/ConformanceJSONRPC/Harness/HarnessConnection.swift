import Foundation
import Synchronization
import ConformanceModel
import PasskeyConformanceAdapter

/// The harness's end of one adapter process: the sessions it serves and the order in which the
/// adapter's messages are served, over the `JSONRPCConnection` both ends share (ids, pending calls,
/// deadlines, the reader and the writer).
///
/// Threading: the connection's one thread reads the adapter's output, writes what could not be
/// written at once, and expires deadlines. An answer resumes its caller's continuation directly
/// from that thread. A call or notification of the adapter goes, in arrival order, to one serving
/// task that calls the session's `PlatformHost` and answers; an answer that arrives while adapter
/// calls before it wait to be served goes the same way behind them, so the harness never sees an
/// answer before the platform calls the adapter made ahead of it. Callers suspend on continuations
/// and never block a thread. The first deadline that expires fails the connection. Test cases that
/// prefer the adapter's `ReaderRelay` run on the connection's thread too. The shared state is small
/// and behind one `Mutex`; the lifecycle (launch, hello, restart, shutdown) belongs to the
/// `AdapterSupervisor` actor.
final class HarnessConnection: Sendable {
    /// Where a connection reads and writes, and the process behind it, if the harness started one
    /// (an adapter reached through a socket runs on its own).
    struct Endpoint: Sendable {
        var channel: MessageChannel
        var child: ChildProcess?
        /// A connection to an adapter that listens on its own.
        var connected = false
    }

    /// What the harness keeps with each call in flight.
    struct Call: Sendable {
        var method: String
        var deadlineIsTestCase: Bool
        var budget: Duration
    }

    struct SessionEntry {
        var host: any PlatformHost
        /// A fault of the adapter attributed to this session (an invalid platform call).
        var fault: AdapterFault?
    }

    /// What the reader hands the serving task.
    enum Inbound: Sendable {
        /// A call or notification of the adapter.
        case call(JSONRPCMessage)
        /// An answer that must wait behind the adapter calls read before it.
        case answer(JSONRPCMessage)
    }

    struct State {
        var sessions: [String: SessionEntry] = [:]
        /// Messages handed to the serving task and not yet served.
        var queued = 0
        /// The one-second flood window: its start and the adapter-initiated messages in it.
        var windowStart = ContinuousClock.now
        var windowCount = 0
    }

    let configuration: JSONRPCAdapter.Configuration
    let child: ChildProcess?
    /// Whether the adapter was reached through a socket it listens on (no process of the harness's):
    /// its faults speak of the connection, not of the process's output.
    let connected: Bool
    let state = Mutex(State())
    /// The wire: ids, pending calls, their deadlines, the reader and the writer. Its thread starts
    /// with the first call (`adapter.hello`), so that whatever the process writes is read against
    /// that call (an early stray answer is then a wrong answer to `hello`, never a race between the
    /// reader and the registration).
    let connection: JSONRPCConnection<Call>
    let inbox: AsyncStream<Inbound>.Continuation

    /// Where test cases that prefer this adapter's reader run.
    private let relay: ReaderRelay?

    init(endpoint: Endpoint, configuration: JSONRPCAdapter.Configuration, relay: ReaderRelay? = nil) {
        self.configuration = configuration
        self.relay = relay
        self.child = endpoint.child
        connected = endpoint.connected
        connection = JSONRPCConnection(
            channel: endpoint.channel, maximumLineBytes: configuration.maximumMessageBytes,
            refusal: Self.refusal)
        let (stream, inbox) = AsyncStream<Inbound>.makeStream()
        self.inbox = inbox
        let weak = Weak(self)
        connection.prepare(
            JSONRPCConnection.Handlers(
                route: { inbound in weak.connection?.receive(inbound) ?? .stop },
                ended: { end in weak.connection?.readerEnded(end) },
                expired: { id in weak.connection?.expire(id) },
                writeFailed: { error in weak.connection?.writeFailed(error) },
                started: { loop in
                    relay?.attach(loop)
                    // The serving task runs on the connection's thread (see `ConnectionLoop.enqueue`):
                    // an adapter call read there is served right after the read, without waking
                    // another thread.
                    Task(executorPreference: loop) { await Self.serveInbound(stream, weak) }
                }))
    }

    /// A call made after the connection failed: the first to learn it gets the fault itself, later
    /// ones learn that the process was stopped earlier.
    private static func refusal(_ reason: any Error, _ firstToLearn: Bool, _ call: Call) -> any Error {
        let fault = reason as? AdapterFault ?? AdapterFault(.connectionClosed, "\(reason)")
        if firstToLearn { return fault.during(call.method) }
        return AdapterFault(.connectionClosed, "the adapter process was stopped earlier: \(fault)", method: call.method)
    }

    /// Writing to the adapter failed: usually the process has exited; give the reader the chance to
    /// say how (it sees end of file).
    private func writeFailed(_ error: Int32) {
        let weak = Weak(self)
        Task {
            guard let connection = weak.connection else { return }
            await connection.child?.exited(within: .milliseconds(500))
            try? await Task.sleep(for: .milliseconds(100))
            let how =
                connection.child?.exitDescription.map { "the adapter process \($0)" }
                ?? (connection.connected ? "the adapter closed the connection (errno \(error))" : "the adapter stopped reading its input (errno \(error))")
            connection.fail(AdapterFault(.processExited, how, excerpt: connection.child?.standardErrorText))
        }
    }

    /// Stops the connection's thread and closes both pipes.
    private func stopConnection() {
        if let loop = connection.loop { relay?.detach(loop) }
        connection.stop()
    }

    deinit {
        inbox.finish()
        stopConnection()
        child?.terminate(grace: configuration.terminationGrace)
    }

    /// A reference that does not keep the connection alive (threads and tasks hold it).
    final class Weak: Sendable {
        weak let connection: HarnessConnection?
        init(_ connection: HarnessConnection) { self.connection = connection }
    }

    /// Whether the connection can still carry calls.
    var isAlive: Bool { !connection.isClosed }

    /// The start of the unfinished line the adapter is writing, if any.
    var partialLine: [UInt8] { connection.partialLine }

    // MARK: - Sessions

    func register(session: String, host: any PlatformHost) {
        state.withLock { $0.sessions[session] = SessionEntry(host: host) }
    }

    func unregister(session: String) {
        _ = state.withLock { $0.sessions.removeValue(forKey: session) }
    }

    /// The fault attributed to a session, if any.
    func fault(ofSession session: String) -> AdapterFault? {
        state.withLock { $0.sessions[session]?.fault }
    }

    /// Attributes a fault to a session (the first one sticks).
    func poison(session: String, with fault: AdapterFault) {
        state.withLock { state in
            if state.sessions[session] != nil && state.sessions[session]?.fault == nil { state.sessions[session]?.fault = fault }
        }
    }

    // MARK: - Calls

    /// Sends a request and waits for its answer until `deadline`, decoding the result as `Result`.
    func call<Result: Decodable>(
        _ method: JSONRPCMethod, params: some Encodable, returning: Result.Type,
        deadline: ContinuousClock.Instant, deadlineIsTestCase: Bool, budget: Duration
    ) async throws -> Result {
        let id = connection.nextID()
        let line: [UInt8]
        do {
            line = try JSONRPCCodec.request(id: id, method: method.rawValue, params: params)
        } catch {
            throw AdapterFault(.protocolViolation, "the harness could not encode its params: \(error)", method: method.rawValue)
        }
        let context = Call(method: method.rawValue, deadlineIsTestCase: deadlineIsTestCase, budget: budget)
        let answer = await connection.call(id, line, context: context, deadline: deadline)
        return try Self.decodeAnswer(try answer.get(), method: method, as: Result.self)
    }

    /// The deadline of call `id` passed: the connection fails, that call with a time-out.
    func expire(_ id: Int) {
        guard let call = connection.context(of: id) else { return }
        var excerpt = child?.standardErrorText
        let partial = partialLine
        if !partial.isEmpty { excerpt = "unfinished line: " + Excerpt(partial).text }
        let fault =
            call.deadlineIsTestCase
            ? AdapterFault(
                .testCaseTimeout,
                "the test case's time budget ran out while waiting for the answer to id \(id); the adapter process was stopped "
                    + "(a longer budget: --test-case-timeout <seconds>, now \(configuration.testCaseTimeout.shortDescription))",
                method: call.method, excerpt: excerpt)
            : AdapterFault(
                .timeout,
                "no answer to id \(id) within \(call.budget.shortDescription); the adapter process was stopped "
                    + (call.method == JSONRPCMethod.hello.rawValue
                        ? "(a slow start needs a longer launch time-out: --launch-timeout <seconds>)"
                        : "(a slower adapter needs a longer per-call time-out: --call-timeout <seconds>)"),
                method: call.method, excerpt: excerpt)
        fail(fault, culprit: id)
    }

    private static func decodeAnswer<Result: Decodable>(_ message: JSONRPCMessage, method: JSONRPCMethod, as: Result.Type) throws -> Result {
        if message.kind == .error {
            let error = message.decodeError()
            let kind: AdapterFault.Kind = error.code == JSONRPCErrorCode.unsupportedVersion ? .versionMismatch : .adapterError
            throw AdapterFault(
                kind, "the adapter answered with error \(error.code): \(error.message)", method: method.rawValue,
                excerpt: error.data.map { Excerpt(Array((try? JSONRPCCodec.encoder.encode($0)) ?? Data())).text })
        }
        if Result.self == JSONRPCParams.Empty.self { return unsafeBitCast(JSONRPCParams.Empty(), to: Result.self) }
        do {
            return try message.decodePayload(Result.self)
        } catch {
            throw AdapterFault(
                .protocolViolation, "the result is not a valid \(Result.self): \(DecodingErrorText(error))", method: method.rawValue,
                excerpt: Excerpt(message.payload).text)
        }
    }

    // MARK: - Failure and shutdown

    /// Fails the connection: every pending call throws, the outbox closes, the reader stops, the
    /// process is stopped. With a `culprit`, only that call gets `fault`; the others learn that the
    /// process was stopped. Idempotent: the first fault wins.
    func fail(_ fault: AdapterFault, culprit: Int? = nil) {
        let first = connection.close(fault) { id, call in
            culprit == nil || culprit == id
                ? fault.during(call.method)
                : AdapterFault(.connectionClosed, "the adapter process was stopped because another call failed: \(fault)", method: call.method)
        }
        guard first else { return }
        inbox.finish()
        stopConnection()
        child?.terminate(grace: configuration.terminationGrace)
    }

    /// Ends the connection politely: `adapter.shutdown`, end of input, then the process has
    /// `terminationGrace` to exit before it is stopped.
    func shutdown() async {
        let grace = configuration.terminationGrace
        if isAlive {
            _ = try? await call(
                .shutdown, params: JSONRPCParams.Empty(), returning: JSONRPCParams.Empty.self,
                deadline: .now + grace, deadlineIsTestCase: false, budget: grace)
        }
        connection.outbox.close()
        if let child { await child.exited(within: grace) }
        fail(AdapterFault(.connectionClosed, "the adapter was shut down"))
        if let child { await child.stop(grace: grace) }
    }
}
