import Foundation
import Synchronization
import ConformanceKit

/// The harness's end of one adapter process: the table of calls awaiting answers, the sessions it
/// serves, and the reader thread.
///
/// Threading: callers (any task) register a continuation and write their request through the
/// `Outbox`; one dedicated reader thread reads the adapter's output, resumes the continuation an
/// answer belongs to, serves the adapter's own calls by calling the session's `PlatformHost`
/// synchronously and in order, and enforces deadlines (it polls with a timeout). The shared state is
/// small and behind one `Mutex`; the lifecycle (launch, hello, restart, shutdown) belongs to the
/// `AdapterSupervisor` actor.
final class HarnessConnection: Sendable {
    /// Where a connection reads and writes, and the process behind it, if any.
    struct Endpoint: Sendable {
        var pipes: ChildProcess.Pipes
        var child: ChildProcess?
    }

    struct Pending {
        var method: String
        var continuation: CheckedContinuation<JSONRPCMessage, any Error>
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
        /// Ids whose callers gave up (task cancelled): a late answer is dropped, not a fault.
        var abandoned: Set<Int> = []
        /// Ids cancelled before their continuation was registered.
        var cancelledEarly: Set<Int> = []
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

    init(endpoint: Endpoint, configuration: JSONRPCAdapter.Configuration) {
        self.configuration = configuration
        self.child = endpoint.child
        let failure = Mutex<HarnessConnection?>(nil)
        self.outbox = Outbox(fd: endpoint.pipes.toChild) { error in
            // Usually the process has exited: give the reader the chance to say how (it sees end of file).
            Thread.detachNewThread {
                guard let connection = failure.withLock({ $0 }) else { return }
                connection.child?.waitForExit(timeout: .milliseconds(500))
                Thread.sleep(forTimeInterval: 0.1)
                let how = connection.child?.exitDescription.map { "the adapter process \($0)" } ?? "the adapter stopped reading its input (errno \(error))"
                connection.fail(AdapterFault(.processExited, how, excerpt: connection.child?.standardErrorText))
            }
        }
        failure.withLock { $0 = self }
        let input = endpoint.pipes.fromChild
        Thread.detachNewThread { [self] in
            var reader = Reader(connection: self, fd: input)
            reader.run()
            failure.withLock { $0 = nil }
        }
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
        let message = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONRPCMessage, any Error>) in
                let rejection = state.withLock { state -> (any Error)? in
                    if state.cancelledEarly.remove(id) != nil { return CancellationError() }
                    if let fault = state.fault {
                        if state.faultDelivered {
                            return AdapterFault(.connectionClosed, "the adapter process was stopped earlier: \(fault)", method: method.rawValue)
                        }
                        state.faultDelivered = true
                        return fault.during(method.rawValue)
                    }
                    state.pending[id] = Pending(method: method.rawValue, continuation: continuation, deadline: deadline,
                                                deadlineIsTestCase: deadlineIsTestCase, budget: budget)
                    return nil
                }
                if let rejection {
                    continuation.resume(throwing: rejection)
                } else {
                    outbox.send(line)
                }
            }
        } onCancel: {
            let pending = state.withLock { state -> Pending? in
                guard let pending = state.pending.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                state.abandoned.insert(id)
                return pending
            }
            pending?.continuation.resume(throwing: CancellationError())
        }
        state.withLock { _ = $0.cancelledEarly.remove(id) }
        return try Self.decodeAnswer(message, method: method, as: Result.self)
    }

    private static func decodeAnswer<Result: Decodable>(_ message: JSONRPCMessage, method: JSONRPCMethod, as: Result.Type) throws -> Result {
        if message.kind == .error {
            let error = message.decodeError()
            let kind: AdapterFault.Kind = error.code == JSONRPCErrorCode.unsupportedVersion ? .versionMismatch : .adapterError
            throw AdapterFault(kind, "the adapter answered with error \(error.code): \(error.message)", method: method.rawValue,
                               excerpt: error.data.map { Excerpt(Array((try? JSONRPCCodec.encoder.encode($0)) ?? Data())).text })
        }
        if let empty = JSONRPCParams.Empty() as? Result { return empty }
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
        let pending = state.withLock { state -> [Int: Pending]? in
            guard state.fault == nil else { return nil }
            state.fault = fault
            let pending = state.pending
            state.pending = [:]
            if !pending.isEmpty { state.faultDelivered = true }
            return pending
        }
        guard let pending else { return }
        for (id, call) in pending {
            if culprit == nil || culprit == id {
                call.continuation.resume(throwing: fault.during(call.method))
            } else {
                call.continuation.resume(throwing: AdapterFault(.connectionClosed, "the adapter process was stopped because another call failed: \(fault)",
                                                                method: call.method))
            }
        }
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
