import ConformanceModel
import PasskeyConformanceAdapter

extension HarnessConnection {
    /// Serves one call or notification of the adapter (on the serving task, in arrival order) by
    /// calling the `PlatformHost` of the session it names, and answers it.
    ///
    /// A call the harness cannot attribute to a session fails the connection; a call with invalid
    /// params for a known session is answered with an error and fails that session's calls. A
    /// platform request that carries both `android` and `apple`, or neither, does not decode: it is
    /// such a call, a protocol violation of the adapter rather than a wrong-platform call.
    func serve(_ message: JSONRPCMessage) async throws {
        let name = message.method ?? ""
        let isRequest = message.kind == .request
        guard let method = JSONRPCMethod(rawValue: name), Self.adapterMethods.contains(method) else {
            if isRequest { answerError(message, code: JSONRPCErrorCode.methodNotFound, "the harness has no method \(name)") }
            return
        }
        let session: String
        do {
            session = try message.decodePayload(JSONRPCParams.Session.self).session
        } catch {
            if isRequest { answerError(message, code: JSONRPCErrorCode.invalidParams, "params need a session: \(DecodingErrorText(error))") }
            throw AdapterFault(.protocolViolation, "the adapter called \(name) without a session id", excerpt: Excerpt(message.bytes).text)
        }
        guard let host = state.withLock({ $0.sessions[session]?.host }) else {
            if isRequest { answerError(message, code: JSONRPCErrorCode.unknownSession, "no open session \(session)") }
            return
        }
        if !isRequest && !Self.notificationMethods.contains(method) {
            poison(
                session: session,
                with: AdapterFault(
                    .protocolViolation, "the adapter sent \(name) as a notification; it needs an answer",
                    method: name, excerpt: Excerpt(message.bytes).text))
            return
        }
        do {
            switch method {
            case .platformCreateCredential:
                let params = try message.decodePayload(JSONRPCParams.CreateCredential.self)
                try answer(message, JSONRPCParams.Operation(operation: await host.createCredential(params.request)))
            case .platformGetCredential:
                let params = try message.decodePayload(JSONRPCParams.GetCredential.self)
                try answer(message, JSONRPCParams.Operation(operation: await host.getCredential(params.request)))
            case .platformSignal:
                let params = try message.decodePayload(JSONRPCParams.Signal.self)
                try answer(message, JSONRPCParams.Operation(operation: await host.signal(params.request)))
            case .clockNow:
                try answer(message, JSONRPCParams.Now(millis: await host.now()))
            case .clockSchedule:
                let params = try message.decodePayload(JSONRPCParams.Schedule.self)
                try answer(message, JSONRPCParams.Timer(timer: await host.scheduleTimer(afterMillis: params.afterMillis, label: params.label)))
            case .clockCancel:
                await host.cancelTimer(try message.decodePayload(JSONRPCParams.Cancel.self).timer)
                if isRequest { try answer(message, JSONRPCParams.Empty()) }
            case .uiShow:
                await host.show(try message.decodePayload(JSONRPCParams.Show.self).event)
                if isRequest { try answer(message, JSONRPCParams.Empty()) }
            case .telemetryRecord:
                await host.telemetry(try message.decodePayload(JSONRPCParams.Telemetry.self).event)
                if isRequest { try answer(message, JSONRPCParams.Empty()) }
            default:
                return
            }
        } catch {
            let why = DecodingErrorText(error).description
            if isRequest { answerError(message, code: JSONRPCErrorCode.invalidParams, "invalid params: \(why)") }
            poison(
                session: session,
                with: AdapterFault(
                    .protocolViolation, "the adapter called \(name) with invalid params: \(why)", method: name,
                    excerpt: Excerpt(message.payload).text))
        }
    }

    /// The methods the adapter may call.
    static let adapterMethods = JSONRPCMethod.callsToHarness

    /// The adapter methods that may be sent as notifications (their answer carries nothing).
    static let notificationMethods: Set<JSONRPCMethod> = [.clockCancel, .uiShow, .telemetryRecord]

    private func answer(_ message: JSONRPCMessage, _ result: some Encodable) throws {
        guard let id = message.rawID else { return }
        connection.outbox.send(try JSONRPCCodec.result(id: id, result))
    }

    private func answerError(_ message: JSONRPCMessage, code: Int, _ text: String) {
        connection.outbox.send(JSONRPCCodec.error(id: message.rawID, code: code, message: text))
    }
}
