import ConformanceModel
import PasskeyConformanceAdapter

/// The coordinator of the adapter process for one run: launches it, negotiates the protocol version,
/// hands out sessions, relaunches it when it has died, and stops it at the end.
///
/// One process serves the whole run; sessions are multiplexed over it by id. A process that fails
/// (crash, hang, garbage) is stopped, and the next `openSession` launches a fresh one, so that one
/// broken test case costs one `error` verdict and not the run.
actor AdapterSupervisor {
    typealias Launcher = @Sendable () throws(AdapterFault) -> HarnessConnection.Endpoint

    let configuration: JSONRPCAdapter.Configuration
    /// The reader of the live connection, as an executor for test cases.
    nonisolated let relay = ReaderRelay()
    private let launcher: Launcher
    private var connection: HarnessConnection?
    private var adapterDescription: AdapterDescription?
    private var launching: Task<(HarnessConnection, AdapterDescription), any Error>?
    private var consecutiveLaunchFailures = 0
    private var lastLaunchFault: AdapterFault?
    private var sessionCount = 0

    init(configuration: JSONRPCAdapter.Configuration, launcher: @escaping Launcher) {
        self.configuration = configuration
        self.launcher = launcher
    }

    /// The live connection and the adapter's description, launching a process if there is none.
    func live() async throws -> (HarnessConnection, AdapterDescription) {
        if let connection, connection.isAlive, let adapterDescription { return (connection, adapterDescription) }
        if let launching { return try await launching.value }
        if consecutiveLaunchFailures >= configuration.maximumConsecutiveLaunchFailures, let lastLaunchFault {
            throw AdapterFault(
                lastLaunchFault.kind, "not launched again after \(consecutiveLaunchFailures) failed launches; the last: \(lastLaunchFault.message)",
                method: lastLaunchFault.method, excerpt: lastLaunchFault.excerpt)
        }
        let task = Task { [configuration, launcher, relay] in try await Self.launch(configuration: configuration, launcher: launcher, relay: relay) }
        launching = task
        defer { launching = nil }
        do {
            let (connection, description) = try await task.value
            self.connection = connection
            self.adapterDescription = description
            consecutiveLaunchFailures = 0
            return (connection, description)
        } catch {
            consecutiveLaunchFailures += 1
            lastLaunchFault = error as? AdapterFault
            throw error
        }
    }

    private static func launch(
        configuration: JSONRPCAdapter.Configuration, launcher: Launcher, relay: ReaderRelay
    ) async throws -> (HarnessConnection, AdapterDescription) {
        let connection = HarnessConnection(endpoint: try launcher(), configuration: configuration, relay: relay)
        let description: AdapterDescription
        do {
            description = try await connection.call(
                .hello, params: JSONRPCParams.Hello(protocolVersion: adapterProtocolVersion, harness: "passkey-conformance"),
                returning: AdapterDescription.self, deadline: .now + configuration.launchTimeout,
                deadlineIsTestCase: false, budget: configuration.launchTimeout)
        } catch var fault as AdapterFault {
            fault.message = "while starting the adapter: " + fault.message
            connection.fail(fault)
            throw fault
        }
        guard ProtocolVersion.major(of: description.protocolVersion) == ProtocolVersion.major(of: adapterProtocolVersion) else {
            let fault = AdapterFault(
                .versionMismatch, "the adapter speaks protocol \(description.protocolVersion); the harness speaks \(adapterProtocolVersion)",
                method: JSONRPCMethod.hello.rawValue)
            connection.fail(fault)
            throw fault
        }
        return (connection, description)
    }

    /// Opens a session on the live process (launching one if needed).
    func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> JSONRPCSession {
        let (connection, description) = try await live()
        sessionCount += 1
        let session = JSONRPCSession(
            connection: connection, id: "s\(sessionCount)", deadline: .now + configuration.testCaseTimeout,
            batchInspection: description.implements(.batchInspection))
        connection.register(session: session.id, host: host)
        do {
            let opened = try await session.call(.sessionOpen, JSONRPCParams.Open(session: session.id, context: context), returning: JSONRPCParams.Session.self)
            guard opened.session == session.id else {
                throw AdapterFault(
                    .protocolViolation, "session.open answered session \(opened.session) for \(session.id)", method: JSONRPCMethod.sessionOpen.rawValue)
            }
        } catch {
            connection.unregister(session: session.id)
            throw error
        }
        return session
    }

    /// The process id of the live adapter process, if any.
    func processIdentifier() -> Int32? {
        guard let connection, connection.isAlive else { return nil }
        return connection.child?.pid
    }

    /// Shuts the live process down; a later call launches a new one.
    func shutdown() async {
        if let launching { _ = try? await launching.value }
        guard let connection else { return }
        self.connection = nil
        self.adapterDescription = nil
        await connection.shutdown()
    }

    deinit {
        connection?.fail(AdapterFault(.connectionClosed, "the adapter was released without shutdown()"))
    }
}
