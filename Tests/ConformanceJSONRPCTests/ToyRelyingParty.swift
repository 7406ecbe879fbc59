import Foundation
import Synchronization
import ConformanceKit

/// A small in-process relying party for the transport's tests: it keeps what it is sent, so a test
/// can check that every value crossed the wire intact, and it calls every `PlatformHost` method.
final class ToyRelyingParty: RelyingPartyAdapter {
    struct Record: Sendable {
        var accounts: [AccountFixture] = []
        var credentials: [CredentialFixture] = []
        var faults: [Fault] = []
        var completions: [OperationID: PlatformOutcome] = [:]
        var firedTimers: [TimerID] = []
        var contexts: [SessionContext] = []
        var events: [String] = []
        var closed = 0
        var shutDown = false
    }

    let record = Mutex(Record())
    /// Lets a test hold `perform(.refresh)` until it opens the gate.
    let gate = Gate()
    /// One latch per event the party notes, so that a test waits for the event itself.
    private let latches = Mutex<[String: Gate]>([:])

    static let description = AdapterDescription(
        name: "toy-rp", version: "0.1", targets: ["apple-18", "android-15-gpm"],
        capabilities: [.conditionalCreate, .signals, .faultInjection], relyingPartyIDs: ["example.com"])

    func describe() async throws -> AdapterDescription { Self.description }

    func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
        record.withLock { $0.contexts.append(context) }
        return ToySession(context: context, host: host, party: self)
    }

    func shutdown() async {
        record.withLock { $0.shutDown = true }
    }

    func note(_ event: String) {
        record.withLock { $0.events.append(event) }
        latch(event).open()
    }

    /// Returns once the party has noted `event` (at once if it already has).
    func reached(_ event: String) async {
        await latch(event).wait()
    }

    private func latch(_ event: String) -> Gate {
        latches.withLock { latches in
            if let gate = latches[event] { return gate }
            let gate = Gate()
            latches[event] = gate
            return gate
        }
    }
}

/// A one-shot latch that async code can wait on.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

struct ToySession: RelyingPartySession {
    let context: SessionContext
    let host: any PlatformHost
    let party: ToyRelyingParty

    func setUp(accounts: [AccountFixture]) async throws {
        party.record.withLock { $0.accounts += accounts }
    }

    func addCredential(_ credential: CredentialFixture) async throws {
        party.record.withLock { $0.credentials.append(credential) }
    }

    func perform(_ action: UserAction) async throws -> ActionOutcome {
        switch action {
        case .passwordSignIn(let username, let password):
            let account = party.record.withLock { $0.accounts.first { $0.username == username } }
            guard let account, account.password == password else {
                await host.show(UIEvent(.error, "wrong password"))
                return ActionOutcome(.rejected, message: "wrong password")
            }
            let now = await host.now()
            let timer = await host.scheduleTimer(afterMillis: 30_000, label: "upgrade-window")
            let operation = await host.createCredential(
                CreateCredentialRequest.apple(
                    AppleRegistrationRequest(
                        relyingPartyIdentifier: account.rpID, challenge: Data([0, 1, 2, 0xFF, 0xFE]), name: account.username,
                        userID: Data([9, 8, 7]), displayName: account.displayName, requestStyle: .conditional, excludedCredentials: [Data([1]), Data()])))
            await host.show(UIEvent(.screen, "home"))
            await host.telemetry(TelemetryEvent("sign-in", ["method": "password"]))
            return ActionOutcome(.signedIn, message: "now=\(now) timer=\(timer) operation=\(operation)")
        case .passkeySignIn:
            let operation = await host.getCredential(GetCredentialRequest.android(AndroidGetPublicKeyCredentialOption(requestJson: #"{"challenge":"AAEC"}"#)))
            return ActionOutcome(.pending, message: operation.rawValue)
        case .revokePasskey:
            let operation = await host.signal(
                SignalRequest.android(
                    AndroidSignalRequest(
                        type: AndroidSignalRequest.unknownCredentialType,
                        requestJson: #"{"rpId":"example.com"}"#)))
            return ActionOutcome(.done, message: operation.rawValue)
        case .signOut:
            await host.cancelTimer("t-1")
            return ActionOutcome(.done)
        case .refresh:
            party.note("refresh waiting")
            await party.gate.wait()
            party.note("refresh resumed")
            return ActionOutcome(.done, message: "refreshed")
        case .managePasskeys:
            // Blocks in a platform call that the harness's host holds for a while.
            party.note("manage calling platform")
            let operation = await host.createCredential(
                CreateCredentialRequest.android(AndroidCreatePublicKeyCredentialRequest(requestJson: "{}", isConditional: false)))
            party.note("manage got \(operation)")
            return ActionOutcome(.done, message: operation.rawValue)
        default:
            return ActionOutcome(.done, message: action.kind.rawValue)
        }
    }

    func inspectAccount(username: String) async throws -> AccountSnapshot {
        let (account, credentials) = party.record.withLock { record in
            (record.accounts.first { $0.username == username }, record.credentials.filter { $0.username == username })
        }
        guard let account else { throw ToyError.noSuchAccount(username) }
        return AccountSnapshot(
            username: username, accountID: "acct-\(username)", userHandle: Data([0xFF, 0x00, 0x10]), rpID: account.rpID,
            name: account.username, displayName: account.displayName,
            credentials: credentials.map { CredentialSnapshot(credentialID: $0.credentialID, rpID: account.rpID, state: $0.state) })
    }

    func inspectSession() async throws -> SessionSnapshot {
        party.note("inspect session")
        return SessionSnapshot(stage: .signedIn, username: "alice@example.com")
    }

    func injectFault(_ fault: Fault) async throws {
        party.record.withLock { $0.faults.append(fault) }
    }

    func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {
        party.record.withLock { $0.completions[operation] = outcome }
    }

    func timerFired(_ timer: TimerID) async throws {
        party.record.withLock { $0.firedTimers.append(timer) }
    }

    func close() async {
        party.record.withLock { $0.closed += 1 }
    }
}

enum ToyError: Error, CustomStringConvertible {
    case noSuchAccount(String)
    var description: String {
        switch self {
        case .noSuchAccount(let name): "no account \(name)"
        }
    }
}

/// A harness-side platform that records every call and answers with predictable ids.
final class RecordingHost: PlatformHost {
    enum Call: Sendable, Hashable {
        case create(CreateCredentialRequest)
        case get(GetCredentialRequest)
        case signal(SignalRequest)
        case now
        case schedule(Int64, String)
        case cancel(TimerID)
        case show(UIEvent)
        case telemetry(TelemetryEvent)
    }

    let calls = Mutex<[Call]>([])
    /// When set, `createCredential` holds its caller until the gate opens (a platform call in flight).
    let createGate: Gate?
    /// Opens when `createCredential` has been called.
    let createEntered = Gate()

    init(holdingCreate: Bool = false) {
        self.createGate = holdingCreate ? Gate() : nil
    }

    private func add(_ call: Call) -> Int {
        calls.withLock { calls in
            calls.append(call)
            return calls.count
        }
    }

    func createCredential(_ request: CreateCredentialRequest) async -> OperationID {
        createEntered.open()
        await createGate?.wait()
        return "op-\(add(.create(request)))"
    }

    func getCredential(_ request: GetCredentialRequest) -> OperationID { "op-\(add(.get(request)))" }
    func signal(_ request: SignalRequest) -> OperationID { "op-\(add(.signal(request)))" }
    func now() -> Int64 {
        _ = add(.now)
        return 120_000
    }
    func scheduleTimer(afterMillis: Int64, label: String) -> TimerID { "t-\(add(.schedule(afterMillis, label)))" }
    func cancelTimer(_ timer: TimerID) { _ = add(.cancel(timer)) }
    func show(_ event: UIEvent) { _ = add(.show(event)) }
    func telemetry(_ event: TelemetryEvent) { _ = add(.telemetry(event)) }
}

extension SessionContext {
    static func sample(_ name: String = "N2.6-AC01/sample@apple-18") -> SessionContext {
        SessionContext(testCase: name, target: "apple-18", device: DeviceInfo(platform: .apple, osVersion: "18.0"), seed: 18_446_744_073_709_551_557)
    }
}

extension AccountFixture {
    static let alice = AccountFixture(
        username: "alice@example.com", displayName: "Alice Ä. Example", password: "correct horse",
        policy: .passwordOnly, rpID: "example.com")
}
