import ConformanceKit
import Synchronization

/// Wraps an adapter and keeps the simulation host of every session it opens, so that a test can
/// read the full transcript of passed test cases too (reports keep transcripts only as evidence of
/// failures).
package struct RecordingAdapter: RelyingPartyAdapter {
    /// The adapter every call is forwarded to.
    package let wrapped: any RelyingPartyAdapter
    private let hosts = Hosts()

    /// Creates a recorder around an adapter.
    package init(wrapping adapter: any RelyingPartyAdapter) {
        wrapped = adapter
    }

    /// Forwards to the wrapped adapter.
    package func describe() async throws -> AdapterDescription { try await wrapped.describe() }

    /// Keeps the host (when it is a `SimulationHost`), then forwards to the wrapped adapter.
    package func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
        if let simulation = host as? SimulationHost { hosts.add(context.testCase, simulation) }
        return try await wrapped.openSession(context, host: host)
    }

    /// Forwards to the wrapped adapter.
    package func shutdown() async { await wrapped.shutdown() }

    /// The transcript of every session, by test case id.
    package var transcripts: [String: [TranscriptEntry]] {
        hosts.all.mapValues(\.snapshot.transcript)
    }

    final class Hosts: Sendable {
        private let storage = Mutex<[String: SimulationHost]>([:])
        func add(_ id: String, _ host: SimulationHost) { storage.withLock { $0[id] = host } }
        var all: [String: SimulationHost] { storage.withLock { $0 } }
    }
}
