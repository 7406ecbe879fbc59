import Foundation
import Testing
import ConformanceTestSupport
import ConformanceKit
@testable import ConformanceJSONRPC
@testable import PasskeyConformanceAdapter

/// The whole JSON-RPC path (harness side, pipes, `JSONRPCAdapterServer`) against an in-process toy
/// relying party: every method in both directions, and calls outstanding both ways at once.
@Suite("JSON-RPC round trips")
struct RoundTripTests {
    let party = ToyRelyingParty()
    let adapter: JSONRPCAdapter

    init() {
        adapter = JSONRPCAdapter(servingInProcess: party, configuration: .patient())
    }

    @Test("adapter.hello answers the adapter's description")
    func describe() async throws {
        let description = try await adapter.describe()
        #expect(description == ToyRelyingParty.description)
        await adapter.shutdown()
        #expect(party.record.withLock { $0.shutDown })
    }

    @Test("fixtures, faults, completions and timers reach the relying party intact")
    func harnessToAdapter() async throws {
        let host = RecordingHost()
        let session = try await adapter.openSession(.sample(), host: host)
        let credential = CredentialFixture(
            username: AccountFixture.alice.username, credentialID: Data([0, 0xFF, 0x7E, 0x3F]),
            publicKey: Data((0..<77).map { UInt8($0) }), signCount: 4_000_000_000, state: .revoked)
        let outcome = PlatformOutcome.appleRegistration(
            AppleRegistration(
                credentialID: Data([1, 2]), rawClientDataJSON: Data(#"{"type":"webauthn.create"}"#.utf8),
                rawAttestationObject: Data([0xA3, 0x63])))
        let failure = PlatformOutcome.failure(
            PlatformError.android(
                AndroidCredentialException(
                    name: "SignalCredentialRateLimitExceededException", type: "rate-limit", message: "slow down", retryMillis: 119_000)))
        try await session.setUp(accounts: [.alice])
        try await session.addCredential(credential)
        try await session.injectFault(Fault(.paginationFailure, count: 2))
        try await session.platformCompleted(operation: "op-7", outcome: outcome)
        try await session.platformCompleted(operation: "op-8", outcome: failure)
        try await session.timerFired("t-3")
        let record = party.record.withLock { $0 }
        #expect(record.contexts == [.sample()])
        #expect(record.accounts == [.alice])
        #expect(record.credentials == [credential])
        #expect(record.faults == [Fault(.paginationFailure, count: 2)])
        #expect(record.completions == ["op-7": outcome, "op-8": failure])
        #expect(record.firedTimers == ["t-3"])

        let account = try await session.inspectAccount(username: AccountFixture.alice.username)
        #expect(account.userHandle == Data([0xFF, 0x00, 0x10]))
        #expect(account.credentials == [CredentialSnapshot(credentialID: credential.credentialID, rpID: "example.com", state: .revoked)])
        #expect(try await session.inspectSession() == SessionSnapshot(stage: .signedIn, username: "alice@example.com"))
        await session.close()
        #expect(party.record.withLock { $0.closed } == 1)
        await adapter.shutdown()
    }

    @Test("every platform call of the relying party reaches the harness's host with its answer")
    func adapterToHarness() async throws {
        let host = RecordingHost()
        let session = try await adapter.openSession(.sample(), host: host)
        try await session.setUp(accounts: [.alice])
        let signIn = try await session.perform(UserAction.passwordSignIn(username: "alice@example.com", password: "correct horse"))
        #expect(signIn == ActionOutcome(.signedIn, message: "now=120000 timer=t-2 operation=op-3"))
        #expect(try await session.perform(UserAction.passkeySignIn(username: nil, rpID: nil)) == ActionOutcome(.pending, message: "op-6"))
        #expect(try await session.perform(UserAction.revokePasskey(credentialID: Data([1]))) == ActionOutcome(.done, message: "op-7"))
        #expect(try await session.perform(UserAction.signOut) == ActionOutcome(.done))
        #expect(try await session.perform(UserAction.passwordSignIn(username: "alice@example.com", password: "wrong")).status == .rejected)

        let calls = host.calls.withLock { $0 }
        #expect(calls.count == 9)
        guard calls.count == 9 else { return }
        #expect(calls[0] == .now)
        #expect(calls[1] == .schedule(30_000, "upgrade-window"))
        guard case .create(.apple(let apple)) = calls[2] else {
            Issue.record("expected an Apple registration request, got \(calls[2])")
            return
        }
        #expect(apple.challenge == Data([0, 1, 2, 0xFF, 0xFE]))
        #expect(apple.requestStyle == .conditional)
        #expect(apple.excludedCredentials == [Data([1]), Data()])
        #expect(apple.displayName == "Alice Ä. Example")
        #expect(calls[3] == .show(UIEvent(.screen, "home")))
        #expect(calls[4] == .telemetry(TelemetryEvent("sign-in", ["method": "password"])))
        #expect(calls[5] == .get(GetCredentialRequest.android(AndroidGetPublicKeyCredentialOption(requestJson: #"{"challenge":"AAEC"}"#))))
        guard case .signal(.android(let signal)) = calls[6] else {
            Issue.record("expected an Android signal, got \(calls[6])")
            return
        }
        #expect(signal.type == AndroidSignalRequest.unknownCredentialType)
        #expect(calls[7] == .cancel("t-1"))
        #expect(calls[8] == .show(UIEvent(.error, "wrong password")))
        await adapter.shutdown()
    }

    @Test("a perform and an inspection outstanding while the relying party's platform call is in flight")
    func outstandingBothWays() async throws {
        // The host holds createCredential until the adapter has served the inspection: the
        // adapter's platform call is outstanding while the harness has session.perform and then
        // session.inspectSession outstanding. The handler of the perform is suspended in its
        // platform call, so the adapter serves the inspection meanwhile; its answer reaches the
        // harness behind the platform call read before it, and the perform ends once the harness
        // answers that call.
        let host = RecordingHost(holdingCreate: true)
        let session = try await adapter.openSession(.sample(), host: host)
        async let managed = session.perform(UserAction.managePasskeys)
        await host.createEntered.wait()
        async let snapshot = session.inspectSession()
        await party.reached("inspect session")
        host.createGate?.open()
        #expect(try await snapshot.stage == .signedIn)
        #expect(try await managed == ActionOutcome(.done, message: "op-1"))
        let events = party.record.withLock { $0.events }
        #expect(events == ["manage calling platform", "inspect session", "manage got op-1"])
        await adapter.shutdown()
    }

    @Test("a handler that suspends lets the adapter serve other requests and platform calls meanwhile")
    func suspendedHandler() async throws {
        let host = RecordingHost()
        let session = try await adapter.openSession(.sample(), host: host)
        try await session.setUp(accounts: [.alice])
        async let refreshed = session.perform(UserAction.refresh)
        await party.reached("refresh waiting")
        // While perform(.refresh) is outstanding, a sign-in with four platform calls completes.
        let signIn = try await session.perform(UserAction.passwordSignIn(username: "alice@example.com", password: "correct horse"))
        #expect(signIn.status == .signedIn)
        #expect(try await session.inspectSession().stage == .signedIn)
        party.gate.open()
        #expect(try await refreshed == ActionOutcome(.done, message: "refreshed"))
        #expect(party.record.withLock { $0.events } == ["refresh waiting", "inspect session", "refresh resumed"])
        #expect(host.calls.withLock { $0.count } == 5)
        await adapter.shutdown()
    }

    @Test("sessions are multiplexed: each platform call goes to its own session's host")
    func multiplexedSessions() async throws {
        let hosts = (0..<4).map { _ in RecordingHost() }
        var sessions: [any RelyingPartySession] = []
        for (index, host) in hosts.enumerated() {
            sessions.append(try await adapter.openSession(.sample("case-\(index)"), host: host))
        }
        // One perform held at the gate while the others sign in with platform calls.
        let held = sessions[0]
        async let refreshed = held.perform(UserAction.refresh)
        try await withThrowingTaskGroup(of: ActionOutcome.self) { group in
            for session in sessions.dropFirst() {
                group.addTask {
                    try await session.setUp(accounts: [.alice])
                    return try await session.perform(UserAction.passwordSignIn(username: "alice@example.com", password: "correct horse"))
                }
            }
            for try await outcome in group {
                #expect(outcome.status == .signedIn)
            }
        }
        party.gate.open()
        #expect(try await refreshed == ActionOutcome(.done, message: "refreshed"))
        #expect(hosts[0].calls.withLock { $0.isEmpty })
        for host in hosts.dropFirst() {
            #expect(host.calls.withLock { $0.count } == 5)
        }
        for session in sessions { await session.close() }
        await adapter.shutdown()
    }

    @Test("an error thrown by the relying party is an adapter-error fault, and the session goes on")
    func relyingPartyError() async throws {
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        await #expect {
            _ = try await session.inspectAccount(username: "nobody")
        } throws: { error in
            (error as? AdapterFault)?.kind == .adapterError && "\(error)".contains("no account nobody")
        }
        #expect(try await session.inspectSession().stage == .signedIn)
        await adapter.shutdown()
    }

    @Test("the test case's budget bounds every call of the session")
    func testCaseBudget() async throws {
        let adapter = JSONRPCAdapter(
            servingInProcess: party, configuration: .init(callTimeout: .seconds(30), testCaseTimeout: .seconds(20), launchTimeout: .seconds(30)))
        // The refresh below waits on a gate that stays shut, so only the budget ends it; the next
        // session must open and answer within its own budget, which is kept far beyond what an
        // in-process open and read need on a busy machine (the test waits it out once).
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        await #expect {
            _ = try await session.perform(UserAction.refresh)
        } throws: { ($0 as? AdapterFault)?.kind == .testCaseTimeout }
        party.gate.open()
        // The next test case gets a fresh connection.
        let next = try await adapter.openSession(.sample("next"), host: RecordingHost())
        #expect(try await next.inspectSession().stage == .signedIn)
        await adapter.shutdown()
    }
}
