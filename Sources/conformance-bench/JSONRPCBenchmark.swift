import ConformanceJSONRPC
import ConformanceKit
import Foundation
import PasskeyConformanceAdapter

/// Measures the cost of the JSON-RPC transport: round trips per second between the harness and a
/// trivial adapter in a child process, beside a raw echo of the same request line through a pipe
/// (`cat`), in the same run; and, to tell the two sides' shares apart, raw request lines written to
/// a second process of the same adapter (its server's cost without the harness's).
///
/// For `conformance-bench`:
/// ```swift
/// if CommandLine.arguments.contains("--serve-trivial-adapter") {
///     await JSONRPCBenchmark.serveTrivialAdapter()
/// } else {
///     let result = try await JSONRPCBenchmark.run(adapterCommand: "'\(CommandLine.arguments[0])' --serve-trivial-adapter")
///     print(result)
/// }
/// ```
package enum JSONRPCBenchmark {
    /// The figures of one run: seconds per round trip, one figure per batch and path.
    package struct Result: Sendable, CustomStringConvertible {
        /// Round trips per batch.
        package var batchSize: Int
        /// `session.inspectSession` through `JSONRPCAdapter`.
        package var protocolBatches: [Double]
        /// The same request line, pre-encoded, written to the adapter server; its answer read back unparsed.
        package var adapterServerBatches: [Double]
        /// The same request line echoed by `cat`.
        package var rawBatches: [Double]

        /// The median seconds per protocol round trip.
        package var protocolSeconds: Double { Self.median(protocolBatches) }
        /// The median seconds per raw round trip to the adapter server.
        package var adapterServerSeconds: Double { Self.median(adapterServerBatches) }
        /// The median seconds per raw echo.
        package var rawSeconds: Double { Self.median(rawBatches) }
        /// How many times a protocol round trip costs a raw echo (medians of batches run alternately,
        /// so that all paths see the same load of the machine).
        package var ratio: Double { protocolSeconds / rawSeconds }

        private static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        }

        package var description: String {
            func line(_ title: String, _ seconds: Double) -> String {
                title + String(format: "%8.0f/s  %6.1f µs  %5.2fx", 1 / seconds, seconds * 1e6, seconds / rawSeconds)
            }
            return """
                round trips (median of \(protocolBatches.count) alternating batches of \(batchSize)):
                \(line("  JSON-RPC adapter (harness + server):  ", protocolSeconds))
                \(line("  raw lines to the adapter server:      ", adapterServerSeconds))
                \(line("  raw pipe echo (cat):                  ", rawSeconds))
                ratio protocol / raw pipe: \(String(format: "%.2f", ratio))x
                """
        }
    }

    /// A relying party that answers everything at once and calls nothing.
    package struct TrivialAdapter: RelyingPartyAdapter, RelyingPartySession {
        package init() {}
        package func describe() async throws -> AdapterDescription {
            AdapterDescription(name: "trivial", version: "1", targets: [], capabilities: [], relyingPartyIDs: ["example.com"])
        }
        package func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession { self }
        package func shutdown() async {}
        package func setUp(accounts: [AccountFixture]) async throws {}
        package func addCredential(_ credential: CredentialFixture) async throws {}
        package func perform(_ action: UserAction) async throws -> ActionOutcome { ActionOutcome(.done) }
        package func inspectAccount(username: String) async throws -> AccountSnapshot {
            AccountSnapshot(
                username: username, accountID: username, userHandle: Data(), rpID: "example.com", name: username, displayName: username, credentials: [])
        }
        package func inspectSession() async throws -> SessionSnapshot { SessionSnapshot(stage: .signedOut) }
        package func injectFault(_ fault: Fault) async throws {}
        package func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {}
        package func timerFired(_ timer: TimerID) async throws {}
        package func close() async {}
    }

    /// A host that answers everything at once.
    package struct NullHost: PlatformHost {
        package init() {}
        package func createCredential(_ request: CreateCredentialRequest) -> OperationID { "op" }
        package func getCredential(_ request: GetCredentialRequest) -> OperationID { "op" }
        package func signal(_ request: SignalRequest) -> OperationID { "op" }
        package func now() -> Int64 { 0 }
        package func scheduleTimer(afterMillis: Int64, label: String) -> TimerID { "t" }
        package func cancelTimer(_ timer: TimerID) {}
        package func show(_ event: UIEvent) {}
        package func telemetry(_ event: TelemetryEvent) {}
    }

    /// Serves `TrivialAdapter` on standard input and output (the child side of `run`).
    package static func serveTrivialAdapter() async {
        await JSONRPCAdapterServer(adapter: TrivialAdapter()).run()
    }

    /// Runs `batches` rounds of three alternating batches of `batchSize` sequential round trips (after
    /// one warm-up round): `session.inspectSession` through `JSONRPCAdapter(commandLine:
    /// adapterCommand)`, the same request line written raw to a second process of `adapterCommand`,
    /// and the same line echoed by `echoCommand`. The raw batches block the calling thread.
    package static func run(adapterCommand: String, echoCommand: String = "cat", batches: Int = 15, batchSize: Int = 2_000) async throws -> Result {
        let adapter = JSONRPCAdapter(commandLine: adapterCommand)
        let context = SessionContext(testCase: "bench", target: "apple-18", device: DeviceInfo(platform: .apple, osVersion: "18.0"), seed: 1)
        let session = try await adapter.openSession(context, host: NullHost())
        let server = try RawPeer(command: adapterCommand)
        let echo = try RawPeer(command: echoCommand)
        defer {
            server.close()
            echo.close()
        }
        try server.roundTrip(
            JSONRPCCodec.request(id: 1, method: JSONRPCMethod.hello.rawValue, params: JSONRPCParams.Hello(protocolVersion: adapterProtocolVersion)))
        try server.roundTrip(
            JSONRPCCodec.request(id: 2, method: JSONRPCMethod.sessionOpen.rawValue, params: JSONRPCParams.Open(session: "s1", context: context)))
        let line = try JSONRPCCodec.request(id: 3, method: JSONRPCMethod.sessionInspectSession.rawValue, params: JSONRPCParams.Session(session: "s1"))
        let clock = ContinuousClock()
        var result = Result(batchSize: batchSize, protocolBatches: [], adapterServerBatches: [], rawBatches: [])
        for batch in 0...batches {
            let protocolTime = try await clock.measure {
                for _ in 0..<batchSize { _ = try await session.inspectSession() }
            }
            let serverTime = try clock.measure {
                for _ in 0..<batchSize { try server.roundTrip(line) }
            }
            let rawTime = try clock.measure {
                for _ in 0..<batchSize { try echo.roundTrip(line) }
            }
            if batch > 0 {
                result.protocolBatches.append(protocolTime.inSeconds / Double(batchSize))
                result.adapterServerBatches.append(serverTime.inSeconds / Double(batchSize))
                result.rawBatches.append(rawTime.inSeconds / Double(batchSize))
            }
        }
        await session.close()
        await adapter.shutdown()
        return result
    }

    /// A child process spoken to with blocking writes and reads of whole lines, nothing parsed.
    private final class RawPeer {
        let child: ChildProcess
        let pipes: ChildProcess.Pipes
        private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)

        init(command: String) throws {
            (child, pipes) = try ChildProcess.launch(
                executable: "/bin/sh", arguments: ["-c", command], environment: [:], workingDirectory: nil,
                captureStandardError: false)
        }

        deinit { buffer.deallocate() }

        /// Writes `line` and reads until a newline comes back.
        func roundTrip(_ line: [UInt8]) throws {
            guard line.withUnsafeBytes({ Platform.writeAll(pipes.toChild, $0) }) else { throw AdapterFault(.processExited, "the benchmark peer stopped") }
            var received = 0
            while true {
                let count = Platform.read(pipes.fromChild, into: UnsafeMutableRawBufferPointer(rebasing: buffer[received...]))
                guard count > 0 else { throw AdapterFault(.processExited, "the benchmark peer stopped") }
                received += count
                if buffer[received - 1] == 0x0A { return }
            }
        }

        func close() {
            Platform.close(pipes.toChild)
            Platform.close(pipes.fromChild)
            child.terminate(grace: .seconds(1))
        }
    }
}
