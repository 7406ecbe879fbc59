import PasskeyConformanceProtocol

extension ServerConnection {
    /// An error answer to a harness request.
    struct Rejection: Error {
        var code: Int
        var message: String
        var data: JSONValue?
    }

    /// Handles one harness request and answers it.
    func handle(_ message: JSONRPCMessage) async {
        guard let id = message.rawID else { return }
        let line: [UInt8]
        do {
            line = try JSONRPCCodec.result(id: id, try await result(for: message))
        } catch let rejection as Rejection {
            line = JSONRPCCodec.error(id: id, code: rejection.code, message: rejection.message, data: rejection.data)
        } catch {
            line = JSONRPCCodec.error(id: id, code: JSONRPCErrorCode.adapterError, message: "\(error)")
        }
        if configuration.answerLatency > .zero, message.method?.hasPrefix("session.") == true {
            try? await Task.sleep(for: configuration.answerLatency)
        }
        write(line)
        if message.method == JSONRPCMethod.shutdown.rawValue { finish() }
    }

    private func result(for message: JSONRPCMessage) async throws -> any Encodable {
        let name = message.method ?? ""
        guard let method = JSONRPCMethod(rawValue: name), !JSONRPCMethod.callsToHarness.contains(method) else {
            throw Rejection(code: JSONRPCErrorCode.methodNotFound, message: "the adapter has no method \(name)")
        }
        if method == .hello {
            let hello = try params(JSONRPCParams.Hello.self, of: message)
            guard let major = ProtocolVersion.major(of: hello.protocolVersion), major == ProtocolVersion.major(of: adapterProtocolVersion) else {
                throw Rejection(
                    code: JSONRPCErrorCode.unsupportedVersion,
                    message: "the harness speaks protocol \(hello.protocolVersion); this adapter speaks \(adapterProtocolVersion)",
                    data: .object(["supported": .string(adapterProtocolVersion)]))
            }
            let description = try await adapter.describe()
            state.withLock { $0.helloDone = true }
            return description
        }
        guard state.withLock({ $0.helloDone }) else {
            throw Rejection(code: JSONRPCErrorCode.unsupportedVersion, message: "call adapter.hello first")
        }
        switch method {
        case .shutdown:
            let sessions = state.withLock { state in
                defer { state.sessions = [:] }
                return Array(state.sessions.values)
            }
            for served in sessions { await served.session.close() }
            if !keepsAdapter,
                state.withLock({ state in
                    defer { state.adapterShutDown = true }
                    return !state.adapterShutDown
                })
            {
                await adapter.shutdown()
            }
            return JSONRPCParams.Empty()
        case .sessionOpen:
            let open = try params(JSONRPCParams.Open.self, of: message)
            guard state.withLock({ $0.sessions[open.session] == nil }) else {
                throw Rejection(code: JSONRPCErrorCode.invalidParams, message: "session \(open.session) is already open")
            }
            let host = RemotePlatformHost(session: open.session, connection: self)
            let session = try await adapter.openSession(open.context, host: host)
            state.withLock { $0.sessions[open.session] = ServedSession(session: session, host: host) }
            return JSONRPCParams.Session(session: open.session)
        case .sessionSetUp:
            let (served, params) = try session(JSONRPCParams.SetUp.self, of: message)
            return try await served.checked { try await served.session.setUp(accounts: params.accounts) }
        case .sessionAddCredential:
            let (served, params) = try session(JSONRPCParams.AddCredential.self, of: message)
            return try await served.checked { try await served.session.addCredential(params.credential) }
        case .sessionPerform:
            let (served, params) = try session(JSONRPCParams.Perform.self, of: message)
            return try await served.checked { try await served.session.perform(params.action) }
        case .sessionInspect:
            let (served, params) = try session(JSONRPCParams.Inspect.self, of: message)
            return try await served.checked { try await served.session.inspect(usernames: params.usernames) }
        case .sessionInspectAccount:
            let (served, params) = try session(JSONRPCParams.InspectAccount.self, of: message)
            return try await served.checked { try await served.session.inspectAccount(username: params.username) }
        case .sessionInspectSession:
            let (served, _) = try session(JSONRPCParams.Session.self, of: message)
            return try await served.checked { try await served.session.inspectSession() }
        case .sessionInjectFault:
            let (served, params) = try session(JSONRPCParams.InjectFault.self, of: message)
            return try await served.checked { try await served.session.injectFault(params.fault) }
        case .sessionPlatformCompleted:
            let (served, params) = try session(JSONRPCParams.PlatformCompleted.self, of: message)
            return try await served.checked { try await served.session.platformCompleted(operation: params.operation, outcome: params.outcome) }
        case .sessionTimerFired:
            let (served, params) = try session(JSONRPCParams.TimerFired.self, of: message)
            return try await served.checked { try await served.session.timerFired(params.timer) }
        case .sessionWebRequest:
            let (served, params) = try session(JSONRPCParams.WebRequestParams.self, of: message)
            return try await served.checked { try await served.session.webRequest(params.request) }
        case .sessionClose:
            let (served, params) = try session(JSONRPCParams.Session.self, of: message)
            await served.session.close()
            _ = state.withLock { $0.sessions.removeValue(forKey: params.session) }
            return JSONRPCParams.Empty()
        default:
            throw Rejection(code: JSONRPCErrorCode.methodNotFound, message: "the adapter has no method \(name)")
        }
    }

    private func params<Params: Decodable>(_ type: Params.Type, of message: JSONRPCMessage) throws -> Params {
        do {
            return try message.decodePayload(type)
        } catch {
            throw Rejection(code: JSONRPCErrorCode.invalidParams, message: "invalid params: \(DecodingErrorText(error))")
        }
    }

    private func session<Params: SessionScoped>(_ type: Params.Type, of message: JSONRPCMessage) throws -> (ServedSession, Params) {
        let params = try params(type, of: message)
        guard let served = state.withLock({ $0.sessions[params.session] }) else {
            throw Rejection(code: JSONRPCErrorCode.unknownSession, message: "no open session \(params.session)")
        }
        return (served, params)
    }
}

extension ServerConnection.ServedSession {
    /// Runs one call of the session; if a platform call made meanwhile got no valid answer, the
    /// request fails with `platformCallFailed` instead of answering as if nothing happened.
    func checked<Result: Encodable>(_ body: () async throws -> Result) async throws -> any Encodable {
        let result = try await body()
        if let failure = host.takeFailure() {
            throw ServerConnection.Rejection(code: JSONRPCErrorCode.platformCallFailed, message: failure)
        }
        if Result.self == Void.self { return JSONRPCParams.Empty() }
        return result
    }

    func checked(_ body: () async throws -> Void) async throws -> any Encodable {
        try await body()
        if let failure = host.takeFailure() {
            throw ServerConnection.Rejection(code: JSONRPCErrorCode.platformCallFailed, message: failure)
        }
        return JSONRPCParams.Empty()
    }
}
