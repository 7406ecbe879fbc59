import Foundation
import Synchronization
import ConformanceKit

/// The adapter's end of one harness connection: the reader thread, the sessions, the platform calls
/// awaiting the harness's answers.
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
        var finished = false
        var adapterShutDown = false
        var done: CheckedContinuation<Void, Never>?
    }

    let adapter: any RelyingPartyAdapter
    let configuration: JSONRPCAdapterServer.Configuration
    private let input: Int32
    private let output: Int32
    let state = Mutex(State())
    /// Serializes writes of whole lines; `nil` once the output is closed.
    private let writer: Mutex<Int32?>

    init(adapter: any RelyingPartyAdapter, configuration: JSONRPCAdapterServer.Configuration, input: Int32, output: Int32) {
        self.adapter = adapter
        self.configuration = configuration
        self.input = input
        self.output = output
        self.writer = Mutex(output)
    }

    /// Runs until the harness closes the input or sends `adapter.shutdown`, then closes every session
    /// and shuts the adapter down.
    func serve() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            state.withLock { $0.done = done }
            Thread.detachNewThread { [self] in readLoop() }
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

    /// Writes one line; `false` when the output is closed or failed.
    @discardableResult
    func write(_ line: [UInt8]) -> Bool {
        writer.withLock { fd in
            guard let open = fd else { return false }
            return line.withUnsafeBytes { Platform.writeAll(open, $0) }
        }
    }

    // MARK: - Reading

    private func readLoop() {
        var framer = LineFramer(maximumLineBytes: configuration.maximumMessageBytes)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer {
            chunk.deallocate()
            Platform.close(input)
            finish()
        }
        while true {
            let count = Platform.read(input, into: chunk)
            if count <= 0 { return }
            do {
                try framer.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count])) { line in receive(line) }
            } catch {
                write(JSONRPCCodec.error(id: nil, code: JSONRPCErrorCode.invalidRequest, message: "line longer than \(configuration.maximumMessageBytes) bytes"))
                return
            }
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
            Task { await handle(message) }
        case .notification:
            return
        }
    }
}

/// One platform call waiting for the harness's answer: the calling thread blocks on the semaphore
/// until the reader thread delivers the answer (or `nil` when the connection ends).
final class PlatformCallWaiter: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let answer = Mutex<JSONRPCMessage?>(nil)

    func deliver(_ message: JSONRPCMessage?) {
        answer.withLock { $0 = message }
        semaphore.signal()
    }

    /// The answer, or `nil` if the connection ended or `timeout` passed first.
    func wait(timeout: Duration) -> JSONRPCMessage? {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        guard semaphore.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return nil }
        return answer.withLock { $0 }
    }
}
