import ConformanceJSONRPC
import ConformanceKit
import Foundation
import Synchronization
import Testing

/// `session.inspect` (1.4): the harness reads the session and several accounts in one call from an
/// adapter of 1.4, and asks for each separately from an older one, with the same answer.
@Suite("Batch inspection")
struct BatchInspectionTests {
    /// A relying party that notes which inspection methods its sessions were asked.
    final class Counting: RelyingPartyAdapter {
        let calls = Mutex<[String]>([])
        let version: String
        init(version: String) { self.version = version }

        func describe() async throws -> AdapterDescription {
            AdapterDescription(
                protocolVersion: version, name: "counting", version: "1", targets: ["apple-18"], capabilities: [], relyingPartyIDs: ["example.com"])
        }
        func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession { Session(party: self) }
        func shutdown() async {}

        struct Session: RelyingPartySession {
            let party: Counting
            func note(_ call: String) { party.calls.withLock { $0.append(call) } }
            func setUp(accounts: [AccountFixture]) async throws {}
            func addCredential(_ credential: CredentialFixture) async throws {}
            func perform(_ action: UserAction) async throws -> ActionOutcome { ActionOutcome(.done) }
            func inspectAccount(username: String) async throws -> AccountSnapshot {
                note("inspectAccount \(username)")
                return AccountSnapshot(
                    username: username, accountID: "id-\(username)", userHandle: Data(username.utf8), rpID: "example.com", name: username,
                    displayName: username, credentials: [])
            }
            func inspectSession() async throws -> SessionSnapshot {
                note("inspectSession")
                return SessionSnapshot(stage: .signedIn, username: "bob@example.com")
            }
            func inspect(usernames: [String]) async throws -> StateSnapshot {
                note("inspect \(usernames.joined(separator: ","))")
                var accounts: [AccountSnapshot] = []
                for username in usernames { accounts.append(try await inspectAccount(username: username)) }
                return StateSnapshot(session: try await inspectSession(), accounts: accounts)
            }
            func injectFault(_ fault: Fault) async throws {}
            func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {}
            func timerFired(_ timer: TimerID) async throws {}
            func close() async {}
        }
    }

    static func inspect(version: String) async throws -> (StateSnapshot, [String]) {
        let party = Counting(version: version)
        let adapter = JSONRPCAdapter(servingInProcess: party, configuration: .patient())
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        let snapshot = try await session.inspect(usernames: ["alice@example.com", "bob@example.com"])
        await session.close()
        await adapter.shutdown()
        return (snapshot, party.calls.withLock { $0 })
    }

    @Test("an adapter of 1.4 is asked once; one of 1.3 is asked for the session and each account; the answers agree")
    func oneCallOrSeveral() async throws {
        let (batched, batchedCalls) = try await Self.inspect(version: adapterProtocolVersion)
        let (separate, separateCalls) = try await Self.inspect(version: "1.3")
        #expect(batchedCalls.first == "inspect alice@example.com,bob@example.com")
        #expect(separateCalls == ["inspectSession", "inspectAccount alice@example.com", "inspectAccount bob@example.com"])
        #expect(batched == separate)
        #expect(batched.accounts.map(\.username) == ["alice@example.com", "bob@example.com"])
    }
}
