import ConformanceModel
import PasskeyConformanceAdapter

/// A relying party reached through an adapter that speaks the adapter protocol as JSON-RPC 2.0: a
/// process the harness starts, over its standard input and output, or an adapter listening on a
/// stream socket (see `Documentation/adapter-protocol.md`).
///
/// One process serves the whole run and multiplexes the sessions by id. It is launched on first
/// use, launched again when the previous one died or was stopped after a fault, and stopped by
/// `shutdown()` (and, failing that, when the adapter is released or the harness exits). Every fault
/// of the process or the transport is thrown as an `AdapterFault`.
///
/// ```swift
/// let adapter = JSONRPCAdapter(commandLine: "python3 my_adapter.py --verbose")
/// let description = try await adapter.describe()
/// ```
package struct JSONRPCAdapter: RelyingPartyAdapter {
    let supervisor: AdapterSupervisor

    /// An adapter started as `/bin/sh -c commandLine` (so the line may use quotes, variables, `cd`).
    ///
    /// - Parameters:
    ///   - environment: Variables added to the harness's own environment.
    ///   - workingDirectory: The directory the command runs in; the harness's by default.
    package init(
        commandLine: String, environment: [String: String] = [:], workingDirectory: String? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.init(
            executable: "/bin/sh", arguments: ["-c", commandLine], environment: environment,
            workingDirectory: workingDirectory, configuration: configuration)
    }

    /// An adapter started as `executable` with `arguments`, without a shell.
    package init(
        executable: String, arguments: [String] = [], environment: [String: String] = [:], workingDirectory: String? = nil,
        configuration: Configuration = Configuration()
    ) {
        let capture = configuration.standardError == .capture
        supervisor = AdapterSupervisor(configuration: configuration) { () throws(AdapterFault) in
            let (child, pipes) = try ChildProcess.launch(
                executable: executable, arguments: arguments, environment: environment,
                workingDirectory: workingDirectory, captureStandardError: capture)
            return HarnessConnection.Endpoint(
                channel: .pipes(input: pipes.fromChild, output: pipes.toChild, name: "standard input and output"), child: child)
        }
    }

    /// An adapter that runs on its own and listens at `address` (a device-farm bridge, an adapter
    /// run as a service): each launch is a connection to it, a fault closes that connection, and
    /// `shutdown()` sends `adapter.shutdown` and closes it; the adapter's process is never the
    /// harness's to stop. A refused connection is a `launch-failed` fault.
    package init(connectingTo address: ChannelAddress, configuration: Configuration = Configuration()) {
        supervisor = AdapterSupervisor(configuration: configuration) { () throws(AdapterFault) in
            do {
                return HarnessConnection.Endpoint(channel: try MessageChannel.connect(to: address), child: nil, connected: true)
            } catch {
                throw AdapterFault(.launchFailed, "\(error) (is the adapter listening there?)")
            }
        }
    }

    /// An in-process `adapter` served by a `JSONRPCAdapterServer` over a pair of pipes: the whole
    /// JSON-RPC path without a child process (tests; checking that the two transports agree).
    package init(servingInProcess adapter: any RelyingPartyAdapter, configuration: Configuration = Configuration()) {
        supervisor = AdapterSupervisor(configuration: configuration) { () throws(AdapterFault) in
            guard let toServer = Platform.makePipe(), let fromServer = Platform.makePipe() else {
                throw AdapterFault(.launchFailed, "could not create pipes (errno \(Platform.lastError))")
            }
            let server = JSONRPCAdapterServer(adapter: adapter)
            Task.detached { await server.run(input: toServer.read, output: fromServer.write) }
            return HarnessConnection.Endpoint(channel: .pipes(input: fromServer.read, output: toServer.write), child: nil)
        }
    }

    /// The adapter's description, from its answer to `adapter.hello` (launching it if needed).
    package func describe() async throws -> AdapterDescription {
        try await supervisor.live().1
    }

    /// Opens a session; its platform calls go to `host`.
    package func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
        try await supervisor.openSession(context, host: host)
    }

    /// Sends `adapter.shutdown`, closes the process's input and stops it if it does not exit within
    /// the grace period. A later call launches a new process.
    package func shutdown() async {
        await supervisor.shutdown()
    }

    /// The reader thread of the live connection: a test case there resumes after each answer
    /// without waking a pool thread (see `ReaderRelay`).
    package var preferredTaskExecutor: (any TaskExecutor)? { supervisor.relay }

    /// The process id of the live adapter process, `nil` when none runs (or the adapter is in-process).
    package func processIdentifier() async -> Int32? {
        await supervisor.processIdentifier()
    }
}

extension AdapterFault: ReportableFault {
    /// The fault as the typed value the reports carry.
    package var runFault: RunFault {
        RunFault(kind: kind, message: message, method: method, excerpt: excerpt)
    }
}
