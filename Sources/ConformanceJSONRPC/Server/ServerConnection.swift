import Foundation
import Synchronization
import ConformanceKit

/// The adapter's end of one harness connection: the reader thread (which is also the executor of
/// the request handlers), the sessions, and the platform calls awaiting the harness's answers.
final class ServerConnection: Sendable {
    struct ServedSession: Sendable {
        var session: any RelyingPartySession
        var host: RemotePlatformHost
    }

    struct State {
        var helloDone = false
        var sessions: [String: ServedSession] = [:]
        var nextID = 1
        var waiting: [Int: PlatformCallWaiter] = [:]
        /// The harness has closed the input or sent `adapter.shutdown`.
        var finished = false
        var adapterShutDown = false
        /// `serve()` has cleaned up: the reader may stop.
        var served = false
        var done: CheckedContinuation<Void, Never>?
    }

    let adapter: any RelyingPartyAdapter
    let configuration: JSONRPCAdapterServer.Configuration
    private let input: Int32
    let state = Mutex(State())
    /// Serializes writes of whole lines; `nil` once the output is closed.
    private let writer: Mutex<Int32?>
    let executor: ReaderExecutor
    /// The reader thread's identity, once it runs.
    private let readerThread = Atomic<UInt>(0)
    /// The reader's framing state and read buffer; touched only by the reader thread.
    private let reading: Mutex<(framer: LineFramer, buffer: [UInt8])>
    private let inputOpen = Atomic<Bool>(true)
    /// Handler tasks started and not finished (one may be suspended, to resume from another thread).
    private let handlersInFlight = Atomic<Int>(0)

    init?(adapter: any RelyingPartyAdapter, configuration: JSONRPCAdapterServer.Configuration, input: Int32, output: Int32) {
        guard let executor = ReaderExecutor() else { return nil }
        self.adapter = adapter
        self.configuration = configuration
        self.input = input
        self.writer = Mutex(output)
        self.executor = executor
        self.reading = Mutex((LineFramer(maximumLineBytes: configuration.maximumMessageBytes), [UInt8](repeating: 0, count: 65536)))
    }

    /// Runs until the harness closes the input or sends `adapter.shutdown`, then closes every session
    /// and shuts the adapter down.
    func serve() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            state.withLock { $0.done = done }
            Thread.detachNewThread { [self] in readerLoop() }
        }
        let sessions = state.withLock { state in
            defer { state.sessions = [:] }
            return Array(state.sessions.values)
        }
        for served in sessions { await served.session.close() }
        if state.withLock({ state in defer { state.adapterShutDown = true }; return !state.adapterShutDown }) {
            await adapter.shutdown()
        }
        writer.withLock { fd in
            if let open = fd { Platform.close(open) }
            fd = nil
        }
        state.withLock { $0.served = true }
        executor.enqueueWake()
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
        for waiter in waiting.values { waiter.deliver(nil) }
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

    /// Whether the calling thread is the reader thread.
    var onReaderThread: Bool { readerThread.load(ordering: .relaxed) == Platform.currentThread() }

    // MARK: - Reading

    /// The reader thread: runs the handlers' jobs, and reads when there are none.
    private func readerLoop() {
        readerThread.store(Platform.currentThread(), ordering: .relaxed)
        defer {
            executor.stop()
            if inputOpen.exchange(false, ordering: .relaxed) { Platform.close(input) }
        }
        var spin = AdaptiveSpin()
        while true {
            executor.runJobs()
            if state.withLock({ $0.served }) { return }
            let reading = inputOpen.load(ordering: .relaxed)
            if reading && handlersInFlight.load(ordering: .acquiring) == 0 {
                // No handler can resume from another thread: wait for input alone.
                _ = spin.wait(for: input, timeoutMillis: -1)
                readOnce()
                continue
            }
            guard executor.prepareToSleep() else { continue }
            let (inputReady, woken) = Platform.poll(readable: reading ? input : -1, or: executor.wakeRead, timeoutMillis: -1)
            executor.awake(woken: woken)
            if inputReady { readOnce() }
        }
    }

    /// Reads what is available and routes the lines: answers to their waiters, requests to handler
    /// tasks on the reader's executor. At end of input, finishes.
    private func readOnce() {
        var lines: [ArraySlice<UInt8>] = []
        let (count, tooLong) = reading.withLock { reading -> (Int, Bool) in
            reading.buffer.withUnsafeMutableBytes { buffer in
                let count = Platform.read(input, into: buffer)
                guard count > 0 else { return (count, false) }
                do {
                    try reading.framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { lines.append($0) }
                    return (count, false)
                } catch {
                    return (count, true)
                }
            }
        }
        guard count > 0 else {
            if inputOpen.exchange(false, ordering: .relaxed) { Platform.close(input) }
            finish()
            return
        }
        for line in lines { receive(line) }
        if tooLong {
            write(JSONRPCCodec.error(id: nil, code: JSONRPCErrorCode.invalidRequest, message: "line longer than \(configuration.maximumMessageBytes) bytes"))
            if inputOpen.exchange(false, ordering: .relaxed) { Platform.close(input) }
            finish()
        }
    }

    /// Blocks the reader thread, reading and routing input, until `waiter` has its answer (a
    /// platform call made by a handler running on the reader thread), the input ends, or `timeout`.
    func pump(until waiter: PlatformCallWaiter, timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        // The harness answers platform calls at once: a spin usually catches the answer.
        var spin = AdaptiveSpin()
        while !waiter.hasAnswer && inputOpen.load(ordering: .relaxed) {
            let left = deadline - .now
            guard left > .zero else { return }
            let millis = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            if spin.wait(for: input, timeoutMillis: millis) == .ready { readOnce() }
        }
    }

    private func receive(_ line: ArraySlice<UInt8>) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let message: JSONRPCMessage
        do {
            message = try JSONRPCMessage(line: line)
        } catch {
            switch error {
            case .malformed(let why): write(JSONRPCCodec.error(id: nil, code: JSONRPCErrorCode.parseError, message: "not JSON: \(why)"))
            case .invalid(let why): write(JSONRPCCodec.error(id: nil, code: JSONRPCErrorCode.invalidRequest, message: why))
            }
            return
        }
        switch message.kind {
        case .result, .error:
            guard let id = message.integerID, let waiter = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
            waiter.deliver(message)
        case .request:
            handlersInFlight.add(1, ordering: .relaxed)
            Task(executorPreference: executor) {
                await self.handle(message)
                self.handlersInFlight.subtract(1, ordering: .releasing)
            }
        case .notification:
            return
        }
    }
}

extension ReaderExecutor {
    /// Wakes the reader so that it notices a change of state.
    func enqueueWake() {
        Task(executorPreference: self) {}
    }
}

/// One platform call waiting for the harness's answer: the calling thread blocks on the semaphore
/// (or, on the reader thread, pumps the input) until the answer is delivered (`nil` when the
/// connection ends).
final class PlatformCallWaiter: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let answer = Mutex<(delivered: Bool, message: JSONRPCMessage?)>((false, nil))

    func deliver(_ message: JSONRPCMessage?) {
        answer.withLock { $0 = (true, message) }
        semaphore.signal()
    }

    var hasAnswer: Bool { answer.withLock { $0.delivered } }

    /// The answer, or `nil` if the connection ended or `timeout` passed first.
    func wait(timeout: Duration) -> JSONRPCMessage? {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        guard semaphore.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return nil }
        return answer.withLock { $0.message }
    }

    /// The answer if it has been delivered.
    var delivered: JSONRPCMessage? { answer.withLock { $0.message } }
}
