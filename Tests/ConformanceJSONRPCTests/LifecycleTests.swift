import Foundation
import Testing
import ConformanceTestSupport
import ConformanceKit
@testable import ConformanceJSONRPC
@testable import PasskeyConformanceAdapter

/// Concurrency, cancellation and release of the harness side.
@Suite("Lifecycle")
struct LifecycleTests {
    @Test("many sessions at once, each with platform calls, over one connection")
    func stress() async throws {
        let party = ToyRelyingParty()
        let adapter = JSONRPCAdapter(servingInProcess: party, configuration: .patient())
        let hosts = (0..<8).map { _ in RecordingHost() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, host) in hosts.enumerated() {
                group.addTask {
                    let session = try await adapter.openSession(.sample("stress-\(index)"), host: host)
                    try await session.setUp(accounts: [.alice])
                    for round in 0..<40 {
                        let outcome = try await session.perform(UserAction.passwordSignIn(username: "alice@example.com", password: "correct horse"))
                        #expect(outcome.status == .signedIn, "session \(index) round \(round)")
                        _ = try await session.inspectSession()
                    }
                    await session.close()
                }
            }
            try await group.waitForAll()
        }
        for host in hosts {
            #expect(host.calls.withLock { $0.count } == 40 * 5)
        }
        #expect(party.record.withLock { $0.closed } == 8)
        await adapter.shutdown()
    }

    @Test("a cancelled call throws CancellationError; its late answer is dropped and the connection goes on")
    func cancellation() async throws {
        let party = ToyRelyingParty()
        let adapter = JSONRPCAdapter(servingInProcess: party, configuration: .patient())
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        let held = Task { try await session.perform(UserAction.refresh) }
        await party.reached("refresh waiting")
        held.cancel()
        await #expect(throws: CancellationError.self) { _ = try await held.value }
        party.gate.open()
        // The late answer is written after this event, ahead of the inspection's answer.
        await party.reached("refresh resumed")
        #expect(try await session.inspectSession().stage == .signedIn)
        await adapter.shutdown()
    }

    @Test("an adapter released without shutdown() stops its process", .enabled(if: Fixture.hasPython, "needs python3"))
    func releasedWithoutShutdown() async throws {
        var pid: Int32?
        do {
            let adapter = Fixture.adapter(mode: "ok", configuration: .patient(terminationGrace: .milliseconds(300)))
            _ = try await adapter.describe()
            pid = await adapter.processIdentifier()
        }
        let process = try #require(pid)
        #expect(await Fixture.processGone(process))
    }

    @Test("after shutdown() the adapter can be used again with a fresh process", .enabled(if: Fixture.hasPython, "needs python3"))
    func reuseAfterShutdown() async throws {
        let adapter = Fixture.adapter(mode: "ok", configuration: .patient(terminationGrace: .milliseconds(300)))
        _ = try await adapter.describe()
        let first = try #require(await adapter.processIdentifier())
        await adapter.shutdown()
        #expect(await Fixture.processGone(first))
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        #expect(try await session.inspectSession().stage == .signedOut)
        #expect(try #require(await adapter.processIdentifier()) != first)
        await adapter.shutdown()
    }
}
