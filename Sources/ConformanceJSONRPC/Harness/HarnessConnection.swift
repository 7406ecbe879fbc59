import Foundation
import Synchronization
import ConformanceKit

/// The harness's end of one adapter process: the calls awaiting answers, the sessions it serves,
/// and who reads the pipe.
///
/// Threading (leader/follower): exactly one *leader* reads the adapter's output at a time. It
/// delivers answers to their callers, serves the adapter's calls by calling the session's
/// `PlatformHost` synchronously and in arrival order, and enforces every deadline. A caller that
/// finds nobody reading leads itself, on its own thread, for at most `leadBudget` (2 ms): a quick
/// answer then costs no thread hand-off at all, as with a blocking client. A caller whose answer
/// takes longer, or that finds someone else reading, parks on a continuation and the connection's
/// reader thread leads for it; so no thread of the cooperative pool is ever blocked for more than
/// the budget. When nobody leads and nothing is pending, the reader thread drains the pipe every
/// 20 ms without blocking (end of file, calls of the adapter between requests). The shared state is
/// small and behind one `Mutex`; the lifecycle (launch, hello, restart, shutdown) belongs to the
/// `AdapterSupervisor` actor.
final class HarnessConnection: Sendable {
    /// Where a connection reads and writes, and the process behind it, if any.
    struct Endpoint: Sendable {
        var pipes: ChildProcess.Pipes
        var child: ChildProcess?
    }

    /// What a caller does next.
    enum Wake: Sendable {
        /// Return its answer, or throw why there is none.
        case answer(Swift.Result<JSONRPCMessage, any Error>)
        /// Read, as the leader.
        case lead
    }

    /// Who reads the pipe.
    enum Leader: Sendable {
        /// A caller, on its own thread, within its budget.
        case caller
        /// The connection's reader thread, for parked callers or between calls.
        case readerThread
    }

    /// Where a parked caller receives its answer.
    typealias Waiter = CheckedContinuation<Swift.Result<JSONRPCMessage, any Error>, Never>

    /// How long a caller may read for its own answer before it parks and lets the reader thread read.
    static let leadBudget: Duration = .milliseconds(2)

    struct Pending {
        var method: String
        /// The continuation of a parked caller; `nil` while the caller leads.
        var continuation: Waiter?
        var deadline: ContinuousClock.Instant
        /// The deadline is the test case's, not the call's.
        var deadlineIsTestCase: Bool
        var budget: Duration
    }

    struct SessionEntry {
        var host: any PlatformHost
        /// A fault of the adapter attributed to this session (an invalid platform call).
        var fault: AdapterFault?
    }

    struct State {
        var nextID = 1
        var pending: [Int: Pending] = [:]
        /// Answers (or failures) for callers that were not parked when they came.
        var answers: [Int: Swift.Result<JSONRPCMessage, any Error>] = [:]
        /// Ids whose callers gave up (task cancelled): a late answer is dropped, not a fault.
        var abandoned: Set<Int> = []
        /// Who reads the pipe, if anyone.
        var leader: Leader?
        var sessions: [String: SessionEntry] = [:]
        /// Set once, when the connection fails or is shut down.
        var fault: AdapterFault?
        /// Whether some caller has seen `fault` itself; later callers get `.connectionClosed`.
        var faultDelivered = false
    }

    let configuration: JSONRPCAdapter.Configuration
    let child: ChildProcess?
    let state = Mutex(State())
    let outbox: Outbox
    /// The reading side; used only by the leader of the moment.
    let reading: Mutex<ReadState>
    /// Wakes the reader thread when it must lead.
    let readerWake = DispatchSemaphore(value: 0)

    init(endpoint: Endpoint, configuration: JSONRPCAdapter.Configuration) {
        Platform.ignoreBrokenPipeSignal()
        self.configuration = configuration
        self.child = endpoint.child
        self.reading = Mutex(ReadState(fd: endpoint.pipes.fromChild, maximumLineBytes: configuration.maximumMessageBytes))
        let owner = Mutex<Weak?>(nil)
        self.outbox = Outbox(fd: endpoint.pipes.toChild) { error in
            // Usually the process has exited: give the reader the chance to say how (it sees end of file).
            Thread.detachNewThread {
                guard let connection = owner.withLock({ $0?.connection }) else { return }
                connection.child?.waitForExit(timeout: .milliseconds(500))
                Thread.sleep(forTimeInterval: 0.1)
                let how = connection.child?.exitDescription.map { "the adapter process \($0)" } ?? "the adapter stopped reading its input (errno \(error))"
                connection.fail(AdapterFault(.processExited, how, excerpt: connection.child?.standardErrorText))
            }
        }
        let weak = Weak(self)
        owner.withLock { $0 = weak }
        let wake = readerWake
        Thread.detachNewThread { Self.readerThread(weak, wake: wake) }
    }

    deinit {
        let open = state.withLock { $0.fault == nil }
        if open { outbox.close() }
        child?.terminate(grace: configuration.terminationGrace)
        reading.withLock { $0.close() }
    }

    /// A reference that does not keep the connection alive (threads hold it).
    final class Weak: Sendable {
        weak let connection: HarnessConnection?
        init(_ connection: HarnessConnection) { self.connection = connection }
    }

    /// Whether the connection can still carry calls.
    var isAlive: Bool { state.withLock { $0.fault == nil } }

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
    func call<Result: Decodable>(_ method: JSONRPCMethod, params: some Encodable, returning: Result.Type,
                                 deadline: ContinuousClock.Instant, deadlineIsTestCase: Bool, budget: Duration) async throws -> Result {
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
        let rejection = state.withLock { state -> AdapterFault? in
            if let fault = state.fault {
                if state.faultDelivered {
                    return AdapterFault(.connectionClosed, "the adapter process was stopped earlier: \(fault)", method: method.rawValue)
                }
                state.faultDelivered = true
                return fault.during(method.rawValue)
            }
            state.pending[id] = Pending(method: method.rawValue, continuation: nil, deadline: deadline, deadlineIsTestCase: deadlineIsTestCase, budget: budget)
            return nil
        }
        if let rejection { throw rejection }
        outbox.send(line)
        let budgetEnd = ContinuousClock.now + Self.leadBudget
        while true {
            let immediate = state.withLock { state -> Wake? in
                if let answer = state.answers.removeValue(forKey: id) { return .answer(answer) }
                if state.leader == nil && ContinuousClock.now < budgetEnd {
                    state.leader = .caller
                    return .lead
                }
                return nil
            }
            switch immediate {
            case .answer(let answer)?:
                return try Self.decodeAnswer(try answer.get(), method: method, as: Result.self)
            case .lead?:
                lead(until: id, budgetEnd: budgetEnd)
                releaseLead()
            case nil:
                let answer = await park(id)
                return try Self.decodeAnswer(try answer.get(), method: method, as: Result.self)
            }
        }
    }

    /// Waits for the answer to `id`; makes sure somebody reads meanwhile.
    private func park(_ id: Int) async -> Swift.Result<JSONRPCMessage, any Error> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                let (now, wakeReader) = state.withLock { state -> (Swift.Result<JSONRPCMessage, any Error>?, Bool) in
                    if let answer = state.answers.removeValue(forKey: id) { return (answer, false) }
                    guard state.pending[id] != nil else { return (.failure(CancellationError()), false) }
                    state.pending[id]?.continuation = waiter
                    if state.leader == nil {
                        state.leader = .readerThread
                        return (nil, true)
                    }
                    return (nil, false)
                }
                if wakeReader { readerWake.signal() }
                if let now { waiter.resume(returning: now) }
            }
        } onCancel: {
            let parked = state.withLock { state -> Waiter?? in
                guard let pending = state.pending.removeValue(forKey: id) else { return nil }
                state.abandoned.insert(id)
                if pending.continuation == nil { state.answers[id] = .failure(CancellationError()) }
                return pending.continuation
            }
            if case let waiter?? = parked { waiter.resume(returning: .failure(CancellationError())) }
        }
    }

    /// Hands an answer (or a failure) to the caller of `id`; `false` if nobody waits for it.
    @discardableResult
    func deliver(_ id: Int, _ answer: Swift.Result<JSONRPCMessage, any Error>) -> Bool {
        let (found, waiter) = state.withLock { state -> (Bool, Waiter?) in
            guard let pending = state.pending.removeValue(forKey: id) else { return (false, nil) }
            if pending.continuation == nil { state.answers[id] = answer }
            return (true, pending.continuation)
        }
        waiter?.resume(returning: answer)
        return found
    }

    /// Gives up a caller's lead: to the reader thread if callers are parked, else to nobody.
    func releaseLead() {
        let wakeReader = state.withLock { state -> Bool in
            if state.fault == nil && state.pending.values.contains(where: { $0.continuation != nil }) {
                state.leader = .readerThread
                return true
            }
            state.leader = nil
            return false
        }
        if wakeReader { readerWake.signal() }
    }

    private static func decodeAnswer<Result: Decodable>(_ message: JSONRPCMessage, method: JSONRPCMethod, as: Result.Type) throws -> Result {
        if message.kind == .error {
            let error = message.decodeError()
            let kind: AdapterFault.Kind = error.code == JSONRPCErrorCode.unsupportedVersion ? .versionMismatch : .adapterError
            throw AdapterFault(kind, "the adapter answered with error \(error.code): \(error.message)", method: method.rawValue,
                               excerpt: error.data.map { Excerpt(Array((try? JSONRPCCodec.encoder.encode($0)) ?? Data())).text })
        }
        if Result.self == JSONRPCParams.Empty.self { return unsafeBitCast(JSONRPCParams.Empty(), to: Result.self) }
        do {
            return try message.decodePayload(Result.self)
        } catch {
            throw AdapterFault(.protocolViolation, "the result is not a valid \(Result.self): \(DecodingErrorText(error))", method: method.rawValue,
                               excerpt: Excerpt(message.payload).text)
        }
    }

    // MARK: - Failure and shutdown

    /// Fails the connection: every pending call throws, the outbox closes, the process is stopped.
    /// With a `culprit`, only that call gets `fault`; the others learn that the process was stopped.
    /// Idempotent: the first fault wins.
    func fail(_ fault: AdapterFault, culprit: Int? = nil) {
        // One critical section: a caller that is not parked finds its failure among the answers as
        // soon as its call is no longer pending.
        let parked = state.withLock { state -> [(Waiter, AdapterFault)]? in
            guard state.fault == nil else { return nil }
            state.fault = fault
            if !state.pending.isEmpty { state.faultDelivered = true }
            var parked: [(Waiter, AdapterFault)] = []
            for (id, call) in state.pending {
                let error = culprit == nil || culprit == id
                    ? fault.during(call.method)
                    : AdapterFault(.connectionClosed, "the adapter process was stopped because another call failed: \(fault)", method: call.method)
                if let continuation = call.continuation {
                    parked.append((continuation, error))
                } else {
                    state.answers[id] = .failure(error)
                }
            }
            state.pending = [:]
            return parked
        }
        guard let parked else { return }
        for (continuation, error) in parked { continuation.resume(returning: .failure(error)) }
        outbox.close()
        child?.terminate(grace: configuration.terminationGrace)
    }

    /// Ends the connection politely: `adapter.shutdown`, end of input, then the process has
    /// `terminationGrace` to exit before it is stopped.
    func shutdown() async {
        let grace = configuration.terminationGrace
        if isAlive {
            _ = try? await call(.shutdown, params: JSONRPCParams.Empty(), returning: JSONRPCParams.Empty.self,
                                deadline: .now + grace, deadlineIsTestCase: false, budget: grace)
        }
        outbox.close()
        if let child { await child.exited(within: grace) }
        fail(AdapterFault(.connectionClosed, "the adapter was shut down"))
        if let child { await child.stop(grace: grace) }
    }
}

/// A short account of a decoding error: where and what.
struct DecodingErrorText: CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            description = "\(error)"
            return
        }
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "" : " at \(path)"
        }
        switch error {
        case .keyNotFound(let key, let context): description = "missing \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            description = "\(context.debugDescription)\(path(context))"
        @unknown default: description = "\(error)"
        }
    }
}
