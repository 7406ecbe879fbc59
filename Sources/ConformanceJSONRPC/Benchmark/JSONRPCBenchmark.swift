import Foundation
import ConformanceKit

/// Measures the cost of the JSON-RPC transport: round trips per second between the harness and a
/// trivial adapter in a child process, beside a raw echo of the same lines through a pipe (`cat`),
/// in the same run.
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
    /// The figures of one run.
    package struct Result: Sendable, CustomStringConvertible {
        /// Round trips per batch.
        package var batchSize: Int
        /// Seconds per protocol round trip (`session.inspectSession`), one figure per batch.
        package var protocolBatches: [Double]
        /// Seconds per raw echo of the same request line, one figure per batch.
        package var rawBatches: [Double]

        /// The median seconds per protocol round trip.
        package var protocolSeconds: Double { median(protocolBatches) }
        /// The median seconds per raw round trip.
        package var rawSeconds: Double { median(rawBatches) }
        package var protocolPerSecond: Double { 1 / protocolSeconds }
        package var rawPerSecond: Double { 1 / rawSeconds }
        /// How many times a protocol round trip costs a raw one (medians of batches run alternately,
        /// so that both paths see the same load of the machine).
        package var ratio: Double { protocolSeconds / rawSeconds }

        private func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        }

        package var description: String {
            func format(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }
            return """
            JSON-RPC adapter round trips: \(format(protocolPerSecond))/s (\(format(protocolSeconds * 1e6, 1)) µs each)
            raw pipe echo (cat):          \(format(rawPerSecond))/s (\(format(rawSeconds * 1e6, 1)) µs each)
            ratio (protocol / raw):       \(format(ratio, 2))x (medians of \(protocolBatches.count) alternating batches of \(batchSize))
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
            AccountSnapshot(username: username, accountID: username, userHandle: Data(), rpID: "example.com", name: username, displayName: username, credentials: [])
        }
        package func inspectSession() async throws -> SessionSnapshot { SessionSnapshot(stage: .signedOut) }
        package func injectFault(_ fault: Fault) async throws {}
        package func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {}
        package func timerFired(_ timer: TimerID) async throws {}
        package func close() async {}
    }

    /// A host that answers everything at once.
    struct NullHost: PlatformHost {
        func createCredential(_ request: CreateCredentialRequest) -> OperationID { "op" }
        func getCredential(_ request: GetCredentialRequest) -> OperationID { "op" }
        func signal(_ request: SignalRequest) -> OperationID { "op" }
        func now() -> Int64 { 0 }
        func scheduleTimer(afterMillis: Int64, label: String) -> TimerID { "t" }
        func cancelTimer(_ timer: TimerID) {}
        func show(_ event: UIEvent) {}
        func telemetry(_ event: TelemetryEvent) {}
    }

    /// Serves `TrivialAdapter` on standard input and output (the child side of `run`).
    package static func serveTrivialAdapter() async {
        await JSONRPCAdapterServer(adapter: TrivialAdapter()).run()
    }

    /// Runs `batches` alternating batches of `batchSize` sequential `session.inspectSession` calls
    /// against `adapterCommand` and of as many raw echoes of the same request line through
    /// `echoCommand` (after a warm-up of one batch each). The raw batches block the calling thread.
    package static func run(adapterCommand: String, echoCommand: String = "cat", batches: Int = 15, batchSize: Int = 2_000) async throws -> Result {
        let adapter = JSONRPCAdapter(commandLine: adapterCommand)
        let session = try await adapter.openSession(SessionContext(testCase: "bench", target: "apple-18", device: DeviceInfo(platform: .apple, osVersion: "18.0"), seed: 1),
                                                    host: NullHost())
        let (echo, pipes) = try ChildProcess.launch(executable: "/bin/sh", arguments: ["-c", echoCommand], environment: [:], workingDirectory: nil,
                                                    captureStandardError: false)
        defer {
            Platform.close(pipes.toChild)
            Platform.close(pipes.fromChild)
            echo.terminate(grace: .seconds(1))
        }
        let line = try JSONRPCCodec.request(id: 12345, method: JSONRPCMethod.sessionInspectSession.rawValue, params: JSONRPCParams.Session(session: "s1"))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { buffer.deallocate() }
        func rawRoundTrip() throws {
            guard line.withUnsafeBytes({ Platform.writeAll(pipes.toChild, $0) }) else { throw AdapterFault(.processExited, "the echo process stopped") }
            var received = 0
            while received < line.count {
                let count = Platform.read(pipes.fromChild, into: UnsafeMutableRawBufferPointer(rebasing: buffer[received...]))
                guard count > 0 else { throw AdapterFault(.processExited, "the echo process stopped") }
                received += count
            }
        }
        let clock = ContinuousClock()
        var result = Result(batchSize: batchSize, protocolBatches: [], rawBatches: [])
        for batch in 0...batches {
            let protocolTime = try await clock.measure {
                for _ in 0..<batchSize { _ = try await session.inspectSession() }
            }
            let rawTime = try clock.measure {
                for _ in 0..<batchSize { try rawRoundTrip() }
            }
            if batch > 0 {
                result.protocolBatches.append(protocolTime.seconds / Double(batchSize))
                result.rawBatches.append(rawTime.seconds / Double(batchSize))
            }
        }
        await session.close()
        await adapter.shutdown()
        return result
    }
}

private extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
