import ConformanceModel
import ConformanceSimulation
import Foundation
import Synchronization

/// One fresh instance of the reference app and server for one test case.
///
/// An actor: the app's logic runs one call at a time, and suspends at each call into the platform
/// host (a round trip to the harness when served over JSON-RPC). The harness sends a session one
/// request at a time and delivers outcomes and timers only between them, so no other call of the
/// session runs while one is suspended.
actor ReferenceSession: RelyingPartySession {
    struct PendingRegistration: Sendable {
        var conditional: Bool
        var token: String
        var username: String
        var retried: Bool
        var issuedAt: Int64
    }

    struct AppState: Sendable {
        var token: String?
        var username: String?
        var stage: SessionSnapshot.Stage = .signedOut
        /// The first account signed in during the app's life (read only by mutants that build options from it).
        var firstUsername: String?
        var pendingRegistrations: [OperationID: PendingRegistration] = [:]
        var delayedUpgrades: [TimerID: (token: String, username: String)] = [:]
        /// Upgrades a conforming design asks for a moment after the sign-in, by timer: each only if
        /// its session is still the app's when the timer fires.
        var scheduledUpgrades: [TimerID: (token: String, username: String)] = [:]
        /// Stale registration responses queued for a later upload (never, in the conforming app), by timer.
        var queuedStaleResponses: [TimerID: (token: String, outcome: PlatformOutcome)] = [:]
        /// The challenge of the app's first registration request (read only by a mutant that reuses it).
        var firstChallenge: Data?
        var declinedOnce = false
        /// The app asks for no automatic upgrade before this time (a mutant's cool-down).
        var noUpgradeBefore: Int64?
        /// Stale registration responses kept for the next sign-in: sent then, for the server to judge.
        var staleForNextSignIn: [(token: String, outcome: PlatformOutcome)] = []
        /// Modal creation sheets a mutant opens from a timer after a failed conditional request.
        var sheetTimers: [TimerID: (token: String, username: String)] = [:]
        /// The design's housekeeping timers (they do nothing).
        var housekeepingTimers: Set<TimerID> = []
        var signals = SignalScheduler.State()
    }

    struct State: Sendable {
        var server: Server
        var app = AppState()
        var rng: SeededGenerator
    }

    let host: any PlatformHost
    let context: SessionContext
    /// The choice at each named decision point: the conforming one, or a mutant's.
    let decisions: Decisions
    let design: ReferenceDesign
    var state: State
    /// Whether the device offers conditional registration, and the signal interface the app uses
    /// on it (the one the device offers): both checked once, for the session's device.
    let conditionalCreateAvailable: Bool
    let signalInterface: SignalScheduler.Interface?

    init(context: SessionContext, host: any PlatformHost, decisions: Decisions, design: ReferenceDesign) {
        self.context = context
        self.host = host
        self.decisions = decisions
        self.design = design
        conditionalCreateAvailable = Self.offersConditionalCreate(context.device)
        signalInterface = decisions.signals.interface(context.device)
        state = State(server: Server(decisions: decisions, design: design, device: context.device), rng: SeededGenerator(seed: context.seed))
    }

    var device: DeviceInfo { context.device }

    /// Runs `body` with the state as one `inout` value, so that it may touch two of its parts in one
    /// call (the server and the random generator): as a stored property of the actor, `state` admits
    /// only one access at a time.
    func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try body(&state)
    }

    // MARK: RelyingPartySession

    func setUp(accounts: [AccountFixture]) async throws {
        withState { state in
            for fixture in accounts { state.server.create(fixture, rng: &state.rng) }
        }
        await armStartTimers()
    }

    func addCredential(_ credential: CredentialFixture) async throws {
        guard var account = state.server.accounts[credential.username] else {
            throw SystemIssue("addCredential: no account \(credential.username)")
        }
        account.credentials.append(
            Server.StoredCredential(
                id: credential.credentialID, publicKey: credential.publicKey, signCount: credential.signCount,
                state: credential.state, rpID: account.rpID, backupEligible: true))
        state.server.accounts[credential.username] = account
        state.server.store.changed(credential.username)
    }

    func inspectAccount(username: String) async throws -> AccountSnapshot {
        // Read in place: reading `state.server` as a value would copy the whole server first.
        guard let snapshot = withState({ $0.server.snapshot(username) }) else { throw SystemIssue("inspectAccount: no account \(username)") }
        return snapshot
    }

    func inspectSession() async throws -> SessionSnapshot {
        SessionSnapshot(stage: state.app.stage, username: state.app.username)
    }

    func injectFault(_ fault: Fault) async throws {
        state.server.store.inject(fault)
    }

    func perform(_ action: UserAction) async throws -> ActionOutcome {
        let outcome = try await act(action)
        await afterAction()
        return outcome
    }

    func platformCompleted(operation: OperationID, outcome: PlatformOutcome) async throws {
        await completed(operation, outcome)
    }

    func timerFired(_ timer: TimerID) async throws {
        await fired(timer)
    }

    func close() async {}

    // MARK: User actions

    private func act(_ action: UserAction) async throws -> ActionOutcome {
        switch action {
        case .passwordSignIn(let username, let password), .switchAccount(let username, let password):
            return await passwordSignIn(username: username, password: password)
        case .secondFactor(let outcome):
            return await secondFactor(outcome)
        case .recoverySignIn(let username):
            guard state.server.accounts[username] != nil else { return ActionOutcome(.rejected, message: "unknown account") }
            let token = state.server.openSession(username, .limited)
            enter(token: token, username: username, stage: .signedInLimited)
            await considerUpgrade(.recoverySignIn, token: token, username: username)
            return ActionOutcome(.signedInLimited)
        case .alternativeSignIn(let username, _):
            guard state.server.accounts[username] != nil else { return ActionOutcome(.rejected, message: "unknown account") }
            let token = state.server.openSession(username, .full)
            enter(token: token, username: username, stage: .signedIn)
            await signedIn(username)
            await considerUpgrade(.alternativeSignIn, token: token, username: username)
            return ActionOutcome(.signedIn)
        case .signOut:
            if let token = state.app.token { state.server.signOut(token: token) }
            state.app.token = nil
            state.app.username = nil
            state.app.stage = .signedOut
            await stopPeriodicReconciliation()
            return ActionOutcome(.done)
        case .createPasskey:
            guard let token = state.app.token, let username = state.app.username, state.app.stage == .signedIn else {
                return ActionOutcome(.rejected, message: "sign in first")
            }
            await creationStarted(username)
            await startRegistration(conditional: false, token: token, username: username)
            return ActionOutcome(.pending)
        case .passkeySignIn, .revokePasskey, .rename, .refresh, .managePasskeys:
            return try await performSignalAction(action)
        case .relaunch:
            // What the app held in memory is gone; its persisted session and the server stay.
            let persisted = (state.app.token, state.app.username, state.app.stage, state.app.firstUsername)
            state.app = AppState()
            (state.app.token, state.app.username, state.app.stage, state.app.firstUsername) = persisted
            state.app.signals.lastUsername = persisted.1
            if let token = persisted.0, let username = persisted.1, persisted.2 == .signedIn {
                await considerUpgrade(.relaunchSignedIn, token: token, username: username)
            }
            await cameToForeground()
            return ActionOutcome(.done)
        }
    }

    private func enter(token: String, username: String, stage: SessionSnapshot.Stage) {
        if let previous = state.app.token, previous != token, design.staleResponse != .appDiscards {
            // A design that lets the server judge stale responses ends the superseded session there.
            state.server.signOut(token: previous)
        }
        state.app.token = token
        state.app.username = username
        state.app.stage = stage
        if state.app.firstUsername == nil { state.app.firstUsername = username }
        state.app.signals.lastUsername = username
    }

    private func passwordSignIn(username: String, password: String) async -> ActionOutcome {
        switch state.server.passwordSignIn(username: username, password: password) {
        case .refused(let reason):
            if decisions.signals.reconcilesOnRefusedPassword, state.server.accounts[username] != nil {
                await scheduleReconciliation(for: username, reason: "password refused")
            }
            return ActionOutcome(.rejected, message: reason)
        case .signedIn(let token, let assurance):
            if assurance == .full {
                enter(token: token, username: username, stage: .signedIn)
                await considerUpgrade(.qualifyingSignIn, token: token, username: username, path: .passwordOnly)
                await signedIn(username)
                await afterSignIn(username)
                return ActionOutcome(.signedIn)
            }
            enter(token: token, username: username, stage: .awaitingSecondFactor)
            if decisions.signals.reconcilesOnPasswordAccepted { await scheduleReconciliation(for: username, reason: "password accepted") }
            await considerUpgrade(.passwordAccepted, token: token, username: username)
            return ActionOutcome(.secondFactorRequired)
        }
    }

    private func secondFactor(_ outcome: SecondFactorOutcome) async -> ActionOutcome {
        guard let token = state.app.token, let username = state.app.username, state.app.stage == .awaitingSecondFactor else {
            return ActionOutcome(.rejected, message: "no second factor is due")
        }
        switch state.server.secondFactor(token: token, outcome: outcome) {
        case .success:
            state.app.stage = .signedIn
            await considerUpgrade(.qualifyingSignIn, token: token, username: username, path: .afterSecondFactor)
            await signedIn(username)
            await afterSignIn(username)
            return ActionOutcome(.signedIn)
        case .failure(let reason):
            await considerUpgrade(.failedSecondFactor, token: token, username: username)
            return ActionOutcome(.rejected, message: reason.message)
        }
    }

    // MARK: Automatic upgrade

    /// Whether the platform offers a conditional registration request, checked at run time.
    static func offersConditionalCreate(_ device: DeviceInfo) -> Bool {
        switch device.platform {
        // As `#available(iOS 18, iPadOS 18, macOS 15, visionOS 2, *)`: the floor depends on the OS family.
        case .apple: Version(device.osVersion) >= ([.macos: Version.macOS15, .visionos: Version.visionOS2][device.family] ?? Version.iOS18)
        case .android: Version(device.credentialsLibraryVersion ?? "0") >= Version.credentials1_6
        // The reference relying party is a native app; it has no web front end.
        case .web: false
        }
    }

    /// Asks for a conditional registration if the app upgrades at this moment (after a qualifying sign-in).
    func considerUpgrade(_ moment: Decisions.UpgradeMoment, token: String, username: String, path: Decisions.QualifyingPath? = nil) async {
        if decisions.upgrade.modalMoments.contains(moment) { await startRegistration(conditional: false, token: token, username: username) }
        guard decisions.upgrade.moments.contains(moment) else { return }
        if let path, !decisions.upgrade.qualifyingPaths.contains(path) { return }
        await startUpgrade(token: token, username: username)
    }

    /// Asks for a conditional registration.
    private func startUpgrade(token: String, username: String) async {
        if decisions.upgrade.afterNoCreate == .neverAskAgain, state.app.declinedOnce { return }
        if let until = state.app.noUpgradeBefore, await host.now() < until { return }
        if decisions.upgrade.skipsAccountsWithPasskeys, state.server.accounts[username]?.credentials.contains(where: { $0.state == .active }) == true {
            return
        }
        guard conditionalCreateAvailable else {
            if decisions.upgrade.modalFallbackWithoutAPI {
                await startRegistration(conditional: false, token: token, username: username)
            } else {
                await host.telemetry(
                    TelemetryEvent("conditional-create-unavailable", ["os": device.osVersion, "library": device.credentialsLibraryVersion ?? "-"]))
            }
            return
        }
        if let delay = decisions.upgrade.delayMillis {
            let timer = await host.scheduleTimer(afterMillis: delay, label: "automatic passkey upgrade")
            state.app.delayedUpgrades[timer] = (token, username)
            return
        }
        if let delay = design.upgradeDelayMillis {
            let timer = await host.scheduleTimer(afterMillis: delay, label: "automatic passkey upgrade after the sign-in screen")
            state.app.scheduledUpgrades[timer] = (token, username)
            return
        }
        await requestUpgrade(token: token, username: username)
    }

    /// Issues the conditional request (as many as `decisions.upgrade.requests` say).
    private func requestUpgrade(token: String, username: String) async {
        for _ in 0..<decisions.upgrade.requests { await startRegistration(conditional: true, token: token, username: username) }
    }

    /// Gets options from the server and hands the platform a registration request.
    func startRegistration(conditional: Bool, token: String, username: String, retried: Bool = false) async {
        let override = decisions.options.fromFirstAccount ? state.app.firstUsername : nil
        let now = await host.now()
        let built = withState { $0.server.registrationOptions(token: token, conditional: conditional, now: now, rng: &$0.rng, forUsername: override) }
        guard var options = built else {
            await host.telemetry(TelemetryEvent("registration-options-refused", ["account": username]))
            return
        }
        // The conforming app hands on the server's options unchanged.
        tamper(with: &options)
        let request = RequestBuilder(device: device, decisions: decisions.options, format: design.wireFormat).registration(options, conditional: conditional)
        let operation = await host.createCredential(request)
        state.app.pendingRegistrations[operation] = PendingRegistration(
            conditional: conditional, token: token, username: username, retried: retried,
            issuedAt: await host.now())
    }

    private func completed(_ operation: OperationID, _ outcome: PlatformOutcome) async {
        if let pending = state.app.pendingRegistrations.removeValue(forKey: operation) {
            await registrationCompleted(pending, outcome)
        } else {
            await signalOperationCompleted(operation, outcome)
        }
    }

    private func registrationCompleted(_ pending: PendingRegistration, _ outcome: PlatformOutcome) async {
        if let error = outcome.error {
            if decisions.signals.reconcileTriggers.contains(.failedCreation) {
                await scheduleReconciliation(for: pending.username, reason: "creation attempted")
            }
            guard pending.conditional else {
                if !RequestBuilder.isCancellation(error) { await show(.error, .passkeyNotCreated) }
                return
            }
            if decisions.upgrade.isExpectedNoCreate(error) {
                // The expected no-op: nothing to show, nothing to retry; the next qualifying sign-in asks again.
                state.app.declinedOnce = true
                await afterNoCreate(pending)
                await offerNudge()
            } else {
                // Every failure other than the expected no-op is recorded under its own class.
                let event = decisions.upgrade.failureTelemetry.map { $0(error) } ?? failureRecord(error)
                if let event { await host.telemetry(event) }
            }
            await openSheetAfterFailure(pending)
            return
        }
        if let limit = decisions.response.dropAfterMillis, await host.now() - pending.issuedAt > limit {
            await host.telemetry(TelemetryEvent("slow-registration-dropped", ["account": pending.username]))
            return
        }
        var token = pending.token
        if token != state.app.token {
            // A response for a session that is no longer the app's is discarded.
            if decisions.response.stale == .discard {
                await refuseStale(pending, outcome)
                return
            }
            guard let kept = await keepStaleResponse(pending, outcome) else { return }
            token = kept
        }
        guard let response = RequestBuilder.registrationResponse(outcome) else {
            await host.telemetry(TelemetryEvent("malformed-registration-response", [:]))
            return
        }
        let now = await host.now()
        /// The app's upload of the response; the server verifies and, if it accepts it, stores the passkey.
        func submit() -> Result<Data, Server.Refusal> {
            state.server.finishRegistration(token: token, clientDataJSON: response.clientDataJSON, attestationObject: response.attestationObject, now: now)
        }
        var result = submit()
        // The server committed; an answer lost on the way back leaves the app with a network error. A
        // design may upload the same response again (F-retry) and takes the path of the answer it gets.
        if answerLost() {
            var lost = true
            var resubmissions = resubmissionsAfterLostAnswer
            let createdID = Self.registeredCredentialID(outcome)
            while lost, resubmissions > 0 {
                resubmissions -= 1
                result = submit()
                lost = answerLost()
                if !lost, case .failure = result { await refusedRegistrationRetry(rpID: pendingRPID(pending), credentialID: createdID) }
            }
            if lost || (try? result.get()) == nil {
                await registrationUnconfirmed(username: pending.username, credentialID: createdID)
                if pending.conditional { await upgradeAnswerLost(token: pending.token, username: pending.username) }
            }
            if lost {
                await host.telemetry(TelemetryEvent("registration-unconfirmed", ["reason": "network error"]))
                if !pending.conditional { await host.show(UIEvent(.error, "The passkey could not be saved. Check your connection.")) }
                return
            }
        }
        switch result {
        case .failure(let reason):
            await host.telemetry(TelemetryEvent("registration-rejected", ["reason": reason.message]))
            if !pending.conditional { await show(.error, .passkeyNotSaved) }
            if decisions.forms.reconcilesAfterRejectedCreation { await scheduleReconciliation(for: pending.username, reason: "creation rejected") }
            await creationRejected(pending.username)
        case .success:
            if pending.conditional, let confirmation = decisions.upgrade.ownConfirmation { await host.show(confirmation) }
            if decisions.listForms.reconcilesCreationTwice { await send(.reconcile(username: pending.username)) }
            if decisions.signals.reconcileTriggers.contains(.credentialCreated),
                let username = state.server.sessions[token]?.username ?? Optional(pending.username)
            {
                await scheduleReconciliation(for: username, reason: "credential created")
            }
        }
    }

    private func fired(_ timer: TimerID) async {
        if let queued = state.app.queuedStaleResponses.removeValue(forKey: timer), let response = RequestBuilder.registrationResponse(queued.outcome) {
            _ = state.server.finishRegistration(
                token: queued.token, clientDataJSON: response.clientDataJSON, attestationObject: response.attestationObject, now: await host.now())
            return
        }
        if let upgrade = state.app.delayedUpgrades.removeValue(forKey: timer) {
            await startRegistration(conditional: true, token: upgrade.token, username: upgrade.username)
            return
        }
        if await upgradeTimerFired(timer) { return }
        if let upgrade = state.app.scheduledUpgrades.removeValue(forKey: timer) {
            if state.app.token == upgrade.token { await requestUpgrade(token: upgrade.token, username: upgrade.username) }
            return
        }
        await signalTimerFired(timer)
    }
}

/// A dotted version number compared numerically (`26.2` > `26.0`, `1.6.0` > `1.5.0`).
struct Version: Comparable, Sendable {
    let parts: [Int]
    init(_ text: String) { parts = text.split(separator: ".").map { Int($0) ?? 0 } }
    /// The API floors the app checks, read once.
    static let iOS18 = Version("18.0")
    static let macOS15 = Version("15.0")
    static let visionOS2 = Version("2.0")
    static let android15 = Version("15")
    static let apple26 = Version("26.0")
    static let apple26_2 = Version("26.2")
    static let credentials1_6 = Version("1.6.0")
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
