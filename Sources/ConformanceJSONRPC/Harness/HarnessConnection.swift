import Foundation
import Synchronization
import ConformanceModel
import PasskeyConformanceAdapter

/// The harness's end of one adapter process: the calls awaiting answers, the sessions it serves,
/// and the one reader of the adapter's output.
///
/// Threading: a `LineReader` thread reads the adapter's output and is the only reader. An answer
/// resumes its caller's continuation directly from that thread. A call or notification of the
/// adapter goes, in arrival order, to one serving task that calls the session's `PlatformHost` and
/// answers; an answer that arrives while adapter calls before it wait to be served goes the same
/// way behind them, so the harness never sees an answer before the platform calls the adapter made
/// ahead of it. Callers suspend on continuations and never block a thread. The deadlines of the
/// calls in flight are watched by one timer (`DeadlineWatch`); the first that expires fails the
/// connection. Test cases that prefer the adapter's `ReaderRelay` run on the reader thread too.
/// The shared state is small and behind one `Mutex`; the lifecycle (launch, hello, restart,
/// shutdown) belongs to the `AdapterSupervisor` actor.
final class HarnessConnection: Sendable {
    /// Where a connection reads and writes, and the process behind it, if any.
    struct Endpoint: Sendable {
        var pipes: ChildProcess.Pipes
        var child: ChildProcess?
    }

    /// Where a caller receives its answer.
    typealias Waiter = CheckedContinuation<Swift.Result<JSONRPCMessage, any Error>, Never>

    struct Pending {
        var method: String
        var continuation: Waiter
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
        var nextID = 1
        var pending: [Int: Pending] = [:]
        /// Ids whose callers gave up (task cancelled): a late answer is dropped, not a fault.
        var abandoned: Set<Int> = []
        /// Ids cancelled before their continuation was registered.
        var cancelledEarly: Set<Int> = []
        var sessions: [String: SessionEntry] = [:]
        /// Messages handed to the serving task and not yet served.
        var queued = 0
        /// Set once, when the connection fails or is shut down.
        var fault: AdapterFault?
        /// Whether some caller has seen `fault` itself; later callers get `.connectionClosed`.
        var faultDelivered = false
        /// The one-second flood window: its start and the adapter-initiated messages in it.
        var windowStart = ContinuousClock.now
        var windowCount = 0
    }

    let configuration: JSONRPCAdapter.Configuration
    let child: ChildProcess?
    let state = Mutex(State())
    let outbox: Outbox
    /// The deadlines of the pending calls.
    let deadlines = DeadlineWatch<Int>()
    let inbox: AsyncStream<Inbound>.Continuation
    /// What the serving task reads; it starts with the reader.
    private let inboundStream: AsyncStream<Inbound>
    /// The reader: not started, running, or stopped.
    private enum ReaderState {
        /// Waiting for the first call: the descriptor to read.
        case notStarted(Int32)
        case running(LineReader)
        case stopped
    }

    /// Started when the first call (`adapter.hello`) has been registered, so that whatever the
    /// process writes is read against that call (an early stray answer is then a wrong answer to
    /// `hello`, never a race between the reader and the registration).
    private let reader: Mutex<ReaderState>

    /// Where test cases that prefer this adapter's reader run.
    private let relay: ReaderRelay?

    init(endpoint: Endpoint, configuration: JSONRPCAdapter.Configuration, relay: ReaderRelay? = nil) {
        Platform.ignoreBrokenPipeSignal()
        self.configuration = configuration
        self.relay = relay
        self.child = endpoint.child
        let owner = Owner()
        self.outbox = Outbox(fd: endpoint.pipes.toChild) { error in
            // Usually the process has exited: give the reader the chance to say how (it sees end of file).
            Task {
                guard let connection = owner.weak.withLock({ $0?.connection }) else { return }
                await connection.child?.exited(within: .milliseconds(500))
                try? await Task.sleep(for: .milliseconds(100))
                let how = connection.child?.exitDescription.map { "the adapter process \($0)" } ?? "the adapter stopped reading its input (errno \(error))"
                connection.fail(AdapterFault(.processExited, how, excerpt: connection.child?.standardErrorText))
            }
        }
        let (stream, inbox) = AsyncStream<Inbound>.makeStream()
        self.inbox = inbox
        self.inboundStream = stream
        self.reader = Mutex(.notStarted(endpoint.pipes.fromChild))
        let weak = Weak(self)
        owner.weak.withLock { $0 = weak }
        deadlines.onExpire { id in weak.connection?.expire(id) }
    }

    /// Starts the reader if it has not started yet.
    private func startReader() {
        let started = reader.withLock { state -> Bool in
            guard case .notStarted(let fd) = state else { return true }
            let weak = Weak(self)
            guard
                let running = LineReader(
                    fd: fd, maximumLineBytes: configuration.maximumMessageBytes,
                    onLine: { line in weak.connection?.receive(line) ?? .stop },
                    onEnd: { end in weak.connection?.readerEnded(end) })
            else {
                state = .stopped
                return false
            }
            state = .running(running)
            relay?.attach(running)
            // The serving task runs on the reader thread (see `LineReader.enqueue`): an adapter call
            // read there is served right after the read, without waking another thread.
            let stream = inboundStream
            Task(executorPreference: running) { await Self.serveInbound(stream, weak) }
            return true
        }
        if !started { fail(AdapterFault(.launchFailed, "could not create a pipe to wake the reader (errno \(Platform.lastError))")) }
    }

    /// Stops the reader, or closes the descriptor it never read.
    private func stopReader() {
        reader.withLock { state in
            switch state {
            case .notStarted(let fd): Platform.close(fd)
            case .running(let running):
                relay?.detach(running)
                running.stop()
            case .stopped: break
            }
            state = .stopped
        }
    }

    deinit {
        let open = state.withLock { $0.fault == nil }
        if open { outbox.close() }
        inbox.finish()
        stopReader()
        child?.terminate(grace: configuration.terminationGrace)
    }

    /// A reference that does not keep the connection alive (threads and tasks hold it).
    final class Weak: Sendable {
        weak let connection: HarnessConnection?
        init(_ connection: HarnessConnection) { self.connection = connection }
    }

    /// The connection, for callbacks made before it exists.
    final class Owner: Sendable {
        let weak = Mutex<Weak?>(nil)
    }

    /// Whether the connection can still carry calls.
    var isAlive: Bool { state.withLock { $0.fault == nil } }

    /// The start of the unfinished line the adapter is writing, if any.
    var partialLine: [UInt8] {
        reader.withLock { state in
            if case .running(let running) = state { return running.partialLine }
            return []
        }
    }

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
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let line: [UInt8]
        do {
            line = try JSONRPCCodec.request(id: id, method: method.rawValue, params: params)
        } catch {
            throw AdapterFault(.protocolViolation, "the harness could not encode its params: \(error)", method: method.rawValue)
        }
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                let rejection = state.withLock { state -> Swift.Result<JSONRPCMessage, any Error>? in
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    if let fault = state.fault {
                        if state.faultDelivered {
                            return .failure(AdapterFault(.connectionClosed, "the adapter process was stopped earlier: \(fault)", method: method.rawValue))
                        }
                        state.faultDelivered = true
                        return .failure(fault.during(method.rawValue))
                    }
                    state.pending[id] = Pending(method: method.rawValue, continuation: waiter, deadlineIsTestCase: deadlineIsTestCase, budget: budget)
                    return nil
                }
                if let rejection {
                    waiter.resume(returning: rejection)
                    return
                }
                deadlines.add(id, deadline: deadline)
                startReader()
                outbox.send(line)
            }
        } onCancel: {
            cancel(id)
        }
        return try Self.decodeAnswer(try answer.get(), method: method, as: Result.self)
    }

    /// Gives up the call `id`: its caller gets `CancellationError`; a late answer is dropped.
    private func cancel(_ id: Int) {
        let pending = state.withLock { state -> Pending? in
            guard let pending = state.pending.removeValue(forKey: id) else {
                state.cancelledEarly.insert(id)
                return nil
            }
            state.abandoned.insert(id)
            return pending
        }
        deadlines.remove(id)
        pending?.continuation.resume(returning: .failure(CancellationError()))
    }

    /// Hands an answer to the caller of `id`; `false` if nobody waits for it.
    @discardableResult
    func deliver(_ id: Int, _ answer: Swift.Result<JSONRPCMessage, any Error>) -> Bool {
        guard let pending = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return false }
        deadlines.remove(id)
        pending.continuation.resume(returning: answer)
        return true
    }

    /// The deadline of call `id` passed: the connection fails, that call with a time-out.
    func expire(_ id: Int) {
        guard let call = state.withLock({ $0.pending[id] }) else { return }
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
        let failed = state.withLock { state -> [(Pending, AdapterFault)]? in
            guard state.fault == nil else { return nil }
            state.fault = fault
            if !state.pending.isEmpty { state.faultDelivered = true }
            let failed = state.pending.map { id, call in
                let error =
                    culprit == nil || culprit == id
                    ? fault.during(call.method)
                    : AdapterFault(.connectionClosed, "the adapter process was stopped because another call failed: \(fault)", method: call.method)
                return (call, error)
            }
            state.pending = [:]
            return failed
        }
        guard let failed else { return }
        deadlines.stop()
        for (call, error) in failed {
            call.continuation.resume(returning: .failure(error))
        }
        inbox.finish()
        outbox.close()
        stopReader()
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
        outbox.close()
        if let child { await child.exited(within: grace) }
        fail(AdapterFault(.connectionClosed, "the adapter was shut down"))
        if let child { await child.stop(grace: grace) }
    }
}
