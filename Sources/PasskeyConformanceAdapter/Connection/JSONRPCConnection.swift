import Synchronization

/// One end of a JSON-RPC 2.0 connection over a `MessageChannel` (a child's pipes, standard input and
/// output, a stream socket): what the harness's end and the adapter's end share.
///
/// It numbers the requests this end sends, keeps the callers awaiting their answers (each suspended
/// on a continuation, never on a thread), watches their deadlines, hands every line read to its
/// owner already parsed (`Inbound`), settles answers with their callers, and fails every pending call
/// at once when the connection closes. One thread does all the waiting (`ConnectionLoop`): it reads,
/// writes what the `Outbox` could not write at once, and expires deadlines; there is no other
/// thread, queue or timer. An answer that arrives removes its call's deadline: nothing is left
/// asleep behind it.
///
/// What differs between the ends stays with the owner, through `Handlers`: how an answer is routed
/// (the harness holds some behind the adapter's calls), what an expired deadline means (the harness
/// fails the whole connection, the adapter only that call), and how a call made after the close is
/// refused. `Context` is what the owner keeps with each pending call.
package final class JSONRPCConnection<Context: Sendable>: Sendable {
    /// What a caller receives: the answer, or why there is none.
    package typealias Answer = Result<JSONRPCMessage, any Error>
    private typealias Waiter = CheckedContinuation<Answer, Never>

    /// A line read, as the connection hands it to its owner.
    package enum Inbound: Sendable {
        /// A line of blanks only.
        case blank
        /// A line that is not a JSON-RPC 2.0 message.
        case unreadable(JSONRPCMessage.Failure, line: ArraySlice<UInt8>)
        /// A result or error answer (settle it with `settle(_:)`).
        case answer(JSONRPCMessage)
        /// A request or notification of the other end.
        case call(JSONRPCMessage)
    }

    /// What became of an answer handed to `settle(_:)`.
    package enum Settlement: Sendable, Equatable {
        /// Its caller has it.
        case delivered
        /// Its caller gave up (task cancelled): the late answer is dropped.
        case abandoned
        /// Nobody waits for that id.
        case unknown
    }

    /// What the owner does with what the connection sees; called on the connection's thread.
    package struct Handlers: Sendable {
        /// Each line read, in order.
        package var route: @Sendable (Inbound) -> ConnectionLoop.Next
        /// Reading ended (once, after the last line).
        package var ended: @Sendable (ConnectionLoop.End) -> Void
        /// The deadline of call `id` passed (the call is still pending).
        package var expired: @Sendable (Int) -> Void
        /// Writing failed with this `errno` (the other end is gone); the outbox is closed.
        package var writeFailed: @Sendable (Int32) -> Void
        /// The loop started (before it reads anything).
        package var started: @Sendable (ConnectionLoop) -> Void

        /// Handlers; `started` does nothing unless given.
        package init(
            route: @escaping @Sendable (Inbound) -> ConnectionLoop.Next, ended: @escaping @Sendable (ConnectionLoop.End) -> Void,
            expired: @escaping @Sendable (Int) -> Void, writeFailed: @escaping @Sendable (Int32) -> Void,
            started: @escaping @Sendable (ConnectionLoop) -> Void = { _ in }
        ) {
            self.route = route
            self.ended = ended
            self.expired = expired
            self.writeFailed = writeFailed
            self.started = started
        }
    }

    private struct Pending {
        var context: Context
        var waiter: Waiter
    }

    private enum LoopState {
        /// Not started: the descriptor to read.
        case notStarted(Int32)
        case running(ConnectionLoop)
        case stopped
    }

    private struct State {
        var nextID = 1
        var pending: [Int: Pending] = [:]
        /// Ids whose callers gave up: a late answer is dropped, not unknown.
        var abandoned: Set<Int> = []
        /// Ids cancelled before their continuation was registered.
        var cancelledEarly: Set<Int> = []
        /// Why the connection closed, once it has.
        var closed: (any Error)?
        /// Whether some caller has learnt `closed` itself.
        var closedDelivered = false
        var loop: LoopState
    }

    /// The writing end.
    package let outbox: Outbox
    /// The deadlines of the pending calls.
    package let deadlines = DeadlineWatch()
    private let maximumLineBytes: Int
    private let refusal: @Sendable (_ reason: any Error, _ firstToLearn: Bool, Context) -> any Error
    private let state: Mutex<State>
    private let slot = HandlerSlot()

    /// The owner's handlers, apart from the state: the outbox reports its failure through them.
    private final class HandlerSlot: Sendable {
        let handlers = Mutex<Handlers?>(nil)
        var current: Handlers? { handlers.withLock { $0 } }
    }

    /// A connection over `channel` (it owns the channel's descriptors from now on). A call made
    /// after `close` gets `refusal(reason, firstToLearn, context)`, where `firstToLearn` tells the
    /// first caller to learn the reason (no pending call learnt it when the connection closed).
    package init(
        channel: MessageChannel, maximumLineBytes: Int,
        refusal: @escaping @Sendable (_ reason: any Error, _ firstToLearn: Bool, Context) -> any Error
    ) {
        // A peer that went away must make writes fail, not kill the process.
        Platform.ignoreBrokenPipeSignal()
        self.maximumLineBytes = maximumLineBytes
        self.refusal = refusal
        state = Mutex(State(loop: .notStarted(channel.input)))
        let slot = self.slot
        outbox = Outbox(fd: channel.output) { error in slot.current?.writeFailed(error) }
        deadlines.onExpire { id in slot.current?.expired(id) }
    }

    /// A connection over a pair of pipe descriptors (tests, an in-process server).
    package convenience init(
        input: Int32, output: Int32, maximumLineBytes: Int,
        refusal: @escaping @Sendable (_ reason: any Error, _ firstToLearn: Bool, Context) -> any Error
    ) {
        self.init(channel: .pipes(input: input, output: output), maximumLineBytes: maximumLineBytes, refusal: refusal)
    }

    /// Sets the owner's handlers (before `start()`; the first set stays).
    package func prepare(_ handlers: Handlers) {
        slot.handlers.withLock { if $0 == nil { $0 = handlers } }
    }

    /// Starts the connection's thread if it has not started yet; `false` if it cannot start (no wake
    /// pipe could be made, or it was stopped before it started).
    @discardableResult
    package func start() -> Bool {
        guard let handlers = slot.current else { return false }
        let outcome = state.withLock { state -> StartOutcome in
            guard case .notStarted(let fd) = state.loop else {
                if case .running = state.loop { return .running }
                return .stopped
            }
            let reading = Reading(connection: self)
            guard
                let loop = ConnectionLoop(
                    fd: fd, maximumLineBytes: maximumLineBytes, outbox: outbox, deadlines: deadlines,
                    onLine: { line in reading.connection?.receive(line) ?? .stop },
                    onEnd: { end in handlers.ended(end) })
            else {
                state.loop = .stopped
                return .failed(Platform.lastError)
            }
            state.loop = .running(loop)
            return .started(loop)
        }
        switch outcome {
        case .running: return true
        case .started(let loop):
            handlers.started(loop)
            return true
        case .failed(let error):
            handlers.ended(.couldNotStart(error))
            return false
        case .stopped: return false
        }
    }

    private enum StartOutcome {
        case running
        case started(ConnectionLoop)
        case failed(Int32)
        case stopped
    }

    /// Holds the connection weakly for its thread (the thread must not keep it alive).
    private final class Reading: Sendable {
        weak let connection: JSONRPCConnection?
        init(connection: JSONRPCConnection) { self.connection = connection }
    }

    /// Stops the thread (or closes the descriptor it never read) and closes the outbox. Idempotent.
    package func stop() {
        stopReading()
        outbox.close()
    }

    /// Stops the thread (or closes the descriptor it never read); the outbox stays open. Idempotent.
    package func stopReading() {
        let loop = state.withLock { state -> ConnectionLoop? in
            defer { state.loop = .stopped }
            switch state.loop {
            case .notStarted(let fd):
                Platform.close(fd)
                return nil
            case .running(let loop): return loop
            case .stopped: return nil
            }
        }
        loop?.stop()
    }

    /// The running loop, for tasks that prefer it as their executor.
    package var loop: ConnectionLoop? {
        state.withLock { state in
            if case .running(let loop) = state.loop { return loop }
            return nil
        }
    }

    /// The start of the unfinished line being read, if any.
    package var partialLine: [UInt8] { loop?.partialLine ?? [] }

    /// Whether the connection has closed.
    package var isClosed: Bool { state.withLock { $0.closed != nil } }

    /// How many calls await their answers.
    package var pendingCount: Int { state.withLock { $0.pending.count } }

    // MARK: - Calls

    /// The id of the next request.
    package func nextID() -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// Sends request `line` (made with `id`) and waits, suspended, for its answer until `deadline`.
    /// The thread starts with the first call. A cancelled caller gets `CancellationError` at once.
    package func call(_ id: Int, _ line: [UInt8], context: Context, deadline: ContinuousClock.Instant) async -> Answer {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                let refused = state.withLock { state -> (any Error)? in
                    if state.cancelledEarly.remove(id) != nil { return CancellationError() }
                    if let reason = state.closed {
                        defer { state.closedDelivered = true }
                        return refusal(reason, !state.closedDelivered, context)
                    }
                    state.pending[id] = Pending(context: context, waiter: waiter)
                    return nil
                }
                if let refused {
                    waiter.resume(returning: .failure(refused))
                    return
                }
                deadlines.add(id, deadline: deadline)
                start()
                // A closed or failed outbox drops the line; the close fails the call.
                outbox.send(line)
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// What the owner keeps with pending call `id`.
    package func context(of id: Int) -> Context? {
        state.withLock { $0.pending[id]?.context }
    }

    /// Hands `answer` to the caller of `id`; `false` if nobody waits for it.
    @discardableResult
    package func deliver(_ id: Int, _ answer: Answer) -> Bool {
        guard let pending = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return false }
        deadlines.remove(id)
        pending.waiter.resume(returning: answer)
        return true
    }

    /// Delivers an answer read from the other end to its caller.
    package func settle(_ message: JSONRPCMessage) -> Settlement {
        guard let id = message.integerID else { return .unknown }
        if deliver(id, .success(message)) { return .delivered }
        return state.withLock { $0.abandoned.remove(id) != nil } ? .abandoned : .unknown
    }

    /// Gives up call `id`: its caller gets `CancellationError`; a late answer is dropped.
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
        pending?.waiter.resume(returning: .failure(CancellationError()))
    }

    /// Closes the connection for calls: every pending call gets `failing(id, context)`, later calls
    /// are refused, no deadline is watched any more. The thread and the outbox go on until `stop()`.
    /// `false` if it was closed already (the first reason stays).
    @discardableResult
    package func close(_ reason: any Error, failing: (Int, Context) -> any Error) -> Bool {
        let failed = state.withLock { state -> [(Waiter, any Error)]? in
            guard state.closed == nil else { return nil }
            state.closed = reason
            if !state.pending.isEmpty { state.closedDelivered = true }
            defer { state.pending = [:] }
            return state.pending.sorted { $0.key < $1.key }.map { id, call in (call.waiter, failing(id, call.context)) }
        }
        guard let failed else { return false }
        deadlines.stop()
        for (waiter, error) in failed { waiter.resume(returning: .failure(error)) }
        return true
    }

    // MARK: - Reading

    /// One line, on the connection's thread: parsed and handed to the owner.
    private func receive(_ line: ArraySlice<UInt8>) -> ConnectionLoop.Next {
        guard let handlers = slot.current else { return .stop }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return handlers.route(.blank) }
        let message: JSONRPCMessage
        do {
            message = try JSONRPCMessage(line: line)
        } catch {
            return handlers.route(.unreadable(error, line: line))
        }
        switch message.kind {
        case .result, .error: return handlers.route(.answer(message))
        case .request, .notification: return handlers.route(.call(message))
        }
    }
}
