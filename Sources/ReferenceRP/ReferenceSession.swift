import ConformanceKit
import Foundation
import Synchronization

/// One fresh instance of the reference app and server for one test case.
///
/// The app's logic runs under one lock; calls into the platform host return at once and never call
/// back, so holding the lock across them is safe.
final class ReferenceSession: RelyingPartySession {
    struct PendingRegistration: Sendable {
        var conditional: Bool
        var token: String
        var username: String
        var retried: Bool
    }

    struct AppState: Sendable {
        var token: String?
        var username: String?
        var stage: SessionSnapshot.Stage = .signedOut
        /// The first account signed in during the app's life (read only by the stale-options mutant).
        var firstUsername: String?
        var pendingRegistrations: [OperationID: PendingRegistration] = [:]
        var delayedUpgrades: [TimerID: (token: String, username: String)] = [:]
        var declinedOnce = false
        var signals = SignalScheduler.State()
    }

    struct State: Sendable {
        var server: Server
        var app = AppState()
        var rng: SeededGenerator
    }

    let host: any PlatformHost
    let context: SessionContext
    let mutation: Mutation?
    let design: ReferenceDesign
    let state: Mutex<State>

    init(context: SessionContext, host: any PlatformHost, mutation: Mutation?, design: ReferenceDesign) {
        self.context = context
        self.host = host
        self.mutation = mutation
        self.design = design
        state = Mutex(State(server: Server(mutation: mutation, design: design, device: context.device), rng: SeededGenerator(seed: context.seed)))
    }

    var device: DeviceInfo { context.device }

    // MARK: RelyingPartySession

    func setUp(accounts: [AccountFixture]) async throws {
        state.withLock { state in
            for fixture in accounts { state.server.create(fixture, rng: &state.rng) }
        }
    }

    func addCredential(_ credential: CredentialFixture) async throws {
        try state.withLock { state in
            guard var account = state.server.accounts[credential.username] else {
                throw SystemIssue("addCredential: no account \(credential.username)")
            }
            account.credentials.append(Server.StoredCredential(id: credential.credentialID, publicKey: credential.publicKey, signCount: credential.signCount,
                                                               state: credential.state, rpID: account.rpID, backupEligible: true))
            state.server.accounts[credential.username] = account
            state.server.store.changed(credential.username)
        }
    }

    func inspectAccount(username: String) async throws -> AccountSnapshot {
        try state.withLock { state in
            guard let snapshot = state.server.snapshot(username) else { throw SystemIssue("inspectAccount: no account \(username)") }
            return snapshot
        }
    }

    func inspectSession() async throws -> SessionSnapshot {
        state.withLock { SessionSnapshot(stage: $0.app.stage, username: $0.app.username) }
    }

    func injectFault(_ fault: Fault) async throws {
        state.withLock { $0.server.store.inject(fault) }
    }

    func perform(_ action: UserAction) async throws -> ActionOutcome {
        try state.withLock { state in try perform(action, &state) }
    }

    func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {
        state.withLock { state in completed(operation, outcome, &state) }
    }

    func timerFired(_ timer: TimerID) async throws {
        state.withLock { state in fired(timer, &state) }
    }

    func close() async {}

    // MARK: User actions

    private func perform(_ action: UserAction, _ state: inout State) throws -> ActionOutcome {
        switch action.kind {
        case .passwordSignIn, .switchAccount:
            guard let username = action.username, let password = action.password else { throw SystemIssue("\(action.kind.rawValue) needs username and password") }
            return passwordSignIn(username: username, password: password, &state)
        case .secondFactor:
            guard let outcome = action.secondFactor else { throw SystemIssue("second-factor needs secondFactor") }
            return secondFactor(outcome, &state)
        case .recoverySignIn:
            guard let username = action.username, state.server.accounts[username] != nil else { return ActionOutcome(.rejected, message: "unknown account") }
            let token = state.server.openSession(username, .limited)
            enter(token: token, username: username, stage: .signedInLimited, &state)
            if mutation == .upgradeAfterRecovery { startUpgrade(token: token, username: username, &state) }
            return ActionOutcome(.signedInLimited)
        case .alternativeSignIn:
            guard let username = action.username, state.server.accounts[username] != nil else { return ActionOutcome(.rejected, message: "unknown account") }
            let token = state.server.openSession(username, .full)
            enter(token: token, username: username, stage: .signedIn, &state)
            signedIn(username, &state)
            return ActionOutcome(.signedIn)
        case .signOut:
            if let token = state.app.token { state.server.signOut(token: token) }
            state.app.token = nil
            state.app.username = nil
            state.app.stage = .signedOut
            return ActionOutcome(.done)
        case .createPasskey:
            guard let token = state.app.token, let username = state.app.username, state.app.stage == .signedIn else {
                return ActionOutcome(.rejected, message: "sign in first")
            }
            startRegistration(conditional: false, token: token, username: username, &state)
            return ActionOutcome(.pending)
        case .passkeySignIn, .revokePasskey, .rename, .refresh, .managePasskeys:
            return try performSignalAction(action, &state)
        }
    }

    private func enter(token: String, username: String, stage: SessionSnapshot.Stage, _ state: inout State) {
        state.app.token = token
        state.app.username = username
        state.app.stage = stage
        if state.app.firstUsername == nil { state.app.firstUsername = username }
        state.app.signals.lastUsername = username
    }

    private func passwordSignIn(username: String, password: String, _ state: inout State) -> ActionOutcome {
        switch state.server.passwordSignIn(username: username, password: password) {
        case .refused(let reason):
            return ActionOutcome(.rejected, message: reason)
        case .signedIn(let token, let assurance):
            if assurance == .full {
                enter(token: token, username: username, stage: .signedIn, &state)
                startUpgrade(token: token, username: username, &state)
                signedIn(username, &state)
                return ActionOutcome(.signedIn)
            }
            enter(token: token, username: username, stage: .awaitingSecondFactor, &state)
            if mutation == .upgradeBeforeSecondFactor { startUpgrade(token: token, username: username, &state) }
            return ActionOutcome(.secondFactorRequired)
        }
    }

    private func secondFactor(_ outcome: SecondFactorOutcome, _ state: inout State) -> ActionOutcome {
        guard let token = state.app.token, let username = state.app.username, state.app.stage == .awaitingSecondFactor else {
            return ActionOutcome(.rejected, message: "no second factor is due")
        }
        switch state.server.secondFactor(token: token, outcome: outcome) {
        case .success:
            state.app.stage = .signedIn
            startUpgrade(token: token, username: username, &state)
            signedIn(username, &state)
            return ActionOutcome(.signedIn)
        case .failure(let reason):
            if mutation == .upgradeAfterFailedSecondFactor { startUpgrade(token: token, username: username, &state) }
            return ActionOutcome(.rejected, message: reason.message)
        }
    }

    // MARK: Automatic upgrade

    /// Whether the platform offers a conditional registration request, checked at run time.
    var conditionalCreateAvailable: Bool {
        switch device.platform {
        case .apple: Version(device.osVersion) >= Version("18.0")
        case .android: Version(device.credentialsLibraryVersion ?? "0") >= Version("1.6.0")
        }
    }

    /// Asks for a conditional registration after a qualifying sign-in.
    private func startUpgrade(token: String, username: String, _ state: inout State) {
        if mutation == .neverUpgrade { return }
        if mutation == .giveUpAfterNoCreate, state.app.declinedOnce { return }
        guard conditionalCreateAvailable else {
            if mutation == .modalFallbackWithoutAPI {
                startRegistration(conditional: false, token: token, username: username, &state)
            } else {
                host.telemetry(TelemetryEvent("conditional-create-unavailable", ["os": device.osVersion, "library": device.credentialsLibraryVersion ?? "-"]))
            }
            return
        }
        if mutation == .delayedUpgrade {
            let timer = host.scheduleTimer(afterMillis: 10 * 60_000, label: "automatic passkey upgrade")
            state.app.delayedUpgrades[timer] = (token, username)
            return
        }
        startRegistration(conditional: true, token: token, username: username, &state)
        if mutation == .doubleRequest { startRegistration(conditional: true, token: token, username: username, &state) }
    }

    /// Gets options from the server and hands the platform a registration request.
    func startRegistration(conditional: Bool, token: String, username: String, retried: Bool = false, _ state: inout State) {
        let override = mutation == .staleAccountOptions ? state.app.firstUsername : nil
        guard var options = state.server.registrationOptions(token: token, conditional: conditional, now: host.now(), rng: &state.rng, forUsername: override) else {
            host.telemetry(TelemetryEvent("registration-options-refused", ["account": username]))
            return
        }
        if mutation == .accountIDAsUserHandle, let account = state.server.accounts[options.userName] {
            options.userHandle = Data(account.accountID.utf8)
        }
        let request = RequestBuilder(device: device, mutation: mutation).registration(options, conditional: conditional)
        let operation = host.createCredential(request)
        state.app.pendingRegistrations[operation] = PendingRegistration(conditional: conditional, token: token, username: username, retried: retried)
    }

    private func completed(_ operation: OperationID, _ outcome: PlatformOutcome, _ state: inout State) {
        if let pending = state.app.pendingRegistrations.removeValue(forKey: operation) {
            registrationCompleted(pending, outcome, &state)
        } else {
            signalOperationCompleted(operation, outcome, &state)
        }
    }

    private func registrationCompleted(_ pending: PendingRegistration, _ outcome: PlatformOutcome, _ state: inout State) {
        if let error = outcome.error {
            if mutation == .reconcileAfterFailedCreate { scheduleReconciliation(for: pending.username, reason: "creation attempted", &state) }
            guard pending.conditional else {
                if !RequestBuilder.isCancellation(error) { host.show(UIEvent(.error, "The passkey could not be created.")) }
                return
            }
            if RequestBuilder.isExpectedNoCreate(error) {
                state.app.declinedOnce = true
                if mutation == .errorOnNoCreate { host.show(UIEvent(.error, "Passkey creation failed.")) }
                if mutation == .retryAfterNoCreate, !pending.retried {
                    startRegistration(conditional: true, token: pending.token, username: pending.username, retried: true, &state)
                }
            } else if mutation != .silentUnexpectedFailure {
                host.telemetry(TelemetryEvent("conditional-create-failed", ["error": error.name, "type": error.type ?? "-", "code": error.code.map(String.init) ?? "-"]))
            }
            return
        }
        var token = pending.token
        if token != state.app.token {
            switch mutation {
            case .lateResponseToOriginalAccount: break
            case .lateResponseToCurrentAccount:
                guard let current = state.app.token else { return }
                token = current
            default:
                host.telemetry(TelemetryEvent("stale-registration-discarded", ["account": pending.username]))
                return
            }
        }
        guard let response = RequestBuilder.registrationResponse(outcome) else {
            host.telemetry(TelemetryEvent("malformed-registration-response", [:]))
            return
        }
        switch state.server.finishRegistration(token: token, clientDataJSON: response.clientDataJSON, attestationObject: response.attestationObject, now: host.now()) {
        case .failure(let reason):
            host.telemetry(TelemetryEvent("registration-rejected", ["reason": reason.message]))
            if !pending.conditional { host.show(UIEvent(.error, "The passkey could not be saved.")) }
        case .success:
            if pending.conditional, mutation == .ownConfirmationScreen { host.show(UIEvent(.confirmation, "Your passkey is ready!")) }
            if let username = state.server.sessions[token]?.username ?? Optional(pending.username) {
                scheduleReconciliation(for: username, reason: "credential created", &state)
            }
        }
    }

    private func fired(_ timer: TimerID, _ state: inout State) {
        if let upgrade = state.app.delayedUpgrades.removeValue(forKey: timer) {
            startRegistration(conditional: true, token: upgrade.token, username: upgrade.username, &state)
            return
        }
        signalTimerFired(timer, &state)
    }
}

/// A dotted version number compared numerically (`26.2` > `26.0`, `1.6.0` > `1.5.0`).
struct Version: Comparable, Sendable {
    let parts: [Int]
    init(_ text: String) { parts = text.split(separator: ".").map { Int($0) ?? 0 } }
    static func < (lhs: Version, rhs: Version) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let left = index < lhs.parts.count ? lhs.parts[index] : 0
            let right = index < rhs.parts.count ? rhs.parts[index] : 0
            if left != right { return left < right }
        }
        return false
    }
    static func == (lhs: Version, rhs: Version) -> Bool { !(lhs < rhs) && !(rhs < lhs) }
}
