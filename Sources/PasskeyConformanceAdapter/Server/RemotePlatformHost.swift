import Synchronization
import PasskeyConformanceProtocol

/// The platform of one session as the relying party sees it on the adapter's side: every call is a
/// JSON-RPC call (or notification) to the harness; a call suspends the relying party's task until the
/// answer arrives.
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

    func createCredential(_ request: CreateCredentialRequest) async -> OperationID {
        await call(.platformCreateCredential, JSONRPCParams.CreateCredential(session: session, request: request), JSONRPCParams.Operation.self)?.operation ?? ""
    }

    func getCredential(_ request: GetCredentialRequest) async -> OperationID {
        await call(.platformGetCredential, JSONRPCParams.GetCredential(session: session, request: request), JSONRPCParams.Operation.self)?.operation ?? ""
    }

    func signal(_ request: SignalRequest) async -> OperationID {
        await call(.platformSignal, JSONRPCParams.Signal(session: session, request: request), JSONRPCParams.Operation.self)?.operation ?? ""
    }

    func now() async -> Int64 {
        await call(.clockNow, JSONRPCParams.Session(session: session), JSONRPCParams.Now.self)?.millis ?? 0
    }

    func scheduleTimer(afterMillis: Int64, label: String) async -> TimerID {
        await call(.clockSchedule, JSONRPCParams.Schedule(session: session, afterMillis: afterMillis, label: label), JSONRPCParams.Timer.self)?.timer ?? ""
    }

    func cancelTimer(_ timer: TimerID) async {
        notify(.clockCancel, JSONRPCParams.Cancel(session: session, timer: timer))
    }

    func show(_ event: UIEvent) async {
        notify(.uiShow, JSONRPCParams.Show(session: session, event: event))
    }

    func telemetry(_ event: TelemetryEvent) async {
        notify(.telemetryRecord, JSONRPCParams.Telemetry(session: session, event: event))
    }

    /// The first failure since the last call, if any (and forgets it).
    func takeFailure() -> String? {
        failure.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }

    private func call<Result: Decodable>(_ method: JSONRPCMethod, _ params: some Encodable, _ type: Result.Type) async -> Result? {
        do {
            return try await connection.callHarness(method, params, returning: type)
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
