import Synchronization
import ConformanceKit

/// The platform of one session as the relying party sees it on the adapter's side: every call is a
/// JSON-RPC call to the harness, made synchronously (see `JSONRPCAdapterServer`).
///
/// `PlatformHost` cannot throw. When the harness does not answer validly (it rejected the call, it
/// is gone, the time-out passed), the call returns an empty id (or 0 for the time), the failure is
/// written to standard error, and the harness request during which it happened is answered with
/// error `-32003`, so that the harness records the test case as `error`.
final class RemotePlatformHost: PlatformHost {
    let session: String
    private let connection: ServerConnection
    private let failure = Mutex<String?>(nil)

    init(session: String, connection: ServerConnection) {
        self.session = session
        self.connection = connection
    }

    func createCredential(_ request: CreateCredentialRequest) -> OperationID {
        call(.platformCreateCredential, JSONRPCParams.CreateCredential(session: session, request: request), JSONRPCParams.Operation.self)?.operation ?? ""
    }

    func getCredential(_ request: GetCredentialRequest) -> OperationID {
        call(.platformGetCredential, JSONRPCParams.GetCredential(session: session, request: request), JSONRPCParams.Operation.self)?.operation ?? ""
    }

    func signal(_ request: SignalRequest) -> OperationID {
        call(.platformSignal, JSONRPCParams.Signal(session: session, request: request), JSONRPCParams.Operation.self)?.operation ?? ""
    }

    func now() -> Int64 {
        call(.clockNow, JSONRPCParams.Session(session: session), JSONRPCParams.Now.self)?.millis ?? 0
    }

    func scheduleTimer(afterMillis: Int64, label: String) -> TimerID {
        call(.clockSchedule, JSONRPCParams.Schedule(session: session, afterMillis: afterMillis, label: label), JSONRPCParams.Timer.self)?.timer ?? ""
    }

    func cancelTimer(_ timer: TimerID) {
        notify(.clockCancel, JSONRPCParams.Cancel(session: session, timer: timer))
    }

    func show(_ event: UIEvent) {
        notify(.uiShow, JSONRPCParams.Show(session: session, event: event))
    }

    func telemetry(_ event: TelemetryEvent) {
        notify(.telemetryRecord, JSONRPCParams.Telemetry(session: session, event: event))
    }

    /// The first failure since the last call, if any (and forgets it).
    func takeFailure() -> String? {
        failure.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }

    private func call<Result: Decodable>(_ method: JSONRPCMethod, _ params: some Encodable, _ type: Result.Type) -> Result? {
        do {
            return try connection.callHarness(method, params, returning: type)
        } catch {
            record("\(method.rawValue) failed: \(error)")
            return nil
        }
    }

    private func notify(_ method: JSONRPCMethod, _ params: some Encodable) {
        do {
            guard connection.write(try JSONRPCCodec.notification(method: method.rawValue, params: params)) else {
                record("\(method.rawValue) failed: the connection to the harness is closed")
                return
            }
        } catch {
            record("\(method.rawValue) failed: \(error)")
        }
    }

    private func record(_ text: String) {
        failure.withLock { if $0 == nil { $0 = text } }
        connection.log("session \(session): \(text)")
    }
}

extension ServerConnection {
    /// Why a platform call got no valid answer.
    struct PlatformCallError: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends a request to the harness and blocks the calling thread until the answer arrives.
    func callHarness<Result: Decodable>(_ method: JSONRPCMethod, _ params: some Encodable, returning: Result.Type) throws -> Result {
        let waiter = PlatformCallWaiter()
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            defer { state.nextID += 1 }
            state.waiting[state.nextID] = waiter
            return state.nextID
        }
        guard let id else { throw PlatformCallError(description: "the connection to the harness is closed") }
        guard write(try JSONRPCCodec.request(id: id, method: method.rawValue, params: params)) else {
            _ = state.withLock { $0.waiting.removeValue(forKey: id) }
            throw PlatformCallError(description: "the connection to the harness is closed")
        }
        let answer: JSONRPCMessage?
        if onReaderThread {
            // The handler runs on the reader thread: read until the answer is there.
            pump(until: waiter, timeout: configuration.platformCallTimeout)
            answer = waiter.delivered
        } else {
            answer = waiter.wait(timeout: configuration.platformCallTimeout)
        }
        guard let answer else {
            _ = state.withLock { $0.waiting.removeValue(forKey: id) }
            throw PlatformCallError(description: "no answer from the harness")
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
