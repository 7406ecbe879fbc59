import ConformanceKit
import Foundation
import WebAuthn

extension ReferenceSession {
    /// The signal interface the device offers, checked at run time from OS and library versions.
    var signalInterface: SignalScheduler.Interface? {
        switch device.family.platform {
        case .apple:
            // Apple's signal APIs have the same floors (26.0, 26.2) on iOS, iPadOS, macOS and visionOS.
            let version = Version(device.osVersion)
            if mutation == .noRuntimeCheck { return .appleDataManager }
            if version >= Version("26.2") { return mutation == .updaterOn262 ? .appleUpdater : .appleDataManager }
            if version >= Version("26.0") { return mutation == .dataManagerOn260 ? .appleDataManager : .appleUpdater }
            return nil
        case .android:
            if mutation == .noRuntimeCheck { return .android }
            let available = Version(device.osVersion) >= Version("15") && Version(device.credentialsLibraryVersion ?? "0") >= Version("1.6.0")
            return available ? .android : nil
        }
    }

    // MARK: User actions that touch signals

    func performSignalAction(_ action: UserAction) async throws -> ActionOutcome {
        switch action {
        case .passkeySignIn(let username, let requestedRPID):
            let rpID = requestedRPID ?? username.flatMap { state.server.accounts[$0]?.rpID } ?? ReferenceRP.relyingPartyIDs[0]
            let now = await host.now()
            let challenge = withState { $0.server.authenticationOptions(rpID: rpID, now: now, rng: &$0.rng) }
            let request: GetCredentialRequest
            switch device.platform {
            case .apple:
                request = GetCredentialRequest.apple(AppleAssertionRequest(relyingPartyIdentifier: rpID, challenge: challenge))
            case .android:
                let json: JSONValue = .object(["challenge": .string(Base64URL.encode(challenge)), "rpId": .string(rpID),
                                               "userVerification": .string("preferred"), "timeout": .number(60_000)])
                request = GetCredentialRequest.android(AndroidGetPublicKeyCredentialOption(requestJson: Wire.jsonString(json)))
            }
            let operation = await host.getCredential(request)
            state.app.signals.pendingSignIns[operation] = .init(rpID: rpID, username: username)
            return ActionOutcome(.pending)
        case .revokePasskey(let id):
            guard let token = state.app.token else { return ActionOutcome(.rejected, message: "sign in first") }
            if mutation == .revokeBySignalOnly, signalInterface != nil, let username = state.app.username {
                await send(.fixedList(username: username, ids: state.server.acceptedIDs(username).filter { $0 != id }))
                return ActionOutcome(.done)
            }
            switch state.server.revoke(token: token, credentialID: id) {
            case .failure(let refusal): return ActionOutcome(.rejected, message: refusal.message)
            case .success(let username):
                if mutation != .noReconcileAfterRevoke { await scheduleReconciliation(for: username, reason: "credential revoked") }
                return ActionOutcome(.done)
            }
        case .rename(let newName, let newDisplayName, let confirmed):
            guard let token = state.app.token, let username = state.app.username else { return ActionOutcome(.rejected, message: "sign in first") }
            let nameChanged = newName != nil
            let displayNameChanged = newDisplayName != nil
            switch state.server.rename(token: token, name: newName, displayName: newDisplayName, confirmed: confirmed) {
            case .failure(let refusal):
                await host.show(UIEvent(.error, "Your profile could not be saved."))
                if mutation == .renameSignalUnconfirmed, var account = state.server.accounts[username] {
                    // The mutant announces the requested values as if they had been saved.
                    let saved = account
                    if let name = newName { account.name = name }
                    if let displayName = newDisplayName { account.displayName = displayName }
                    state.server.accounts[username] = account
                    await send(.userDetails(username: username, nameChanged: nameChanged, displayNameChanged: displayNameChanged))
                    state.server.accounts[username] = saved
                }
                return ActionOutcome(.rejected, message: refusal.message)
            case .success:
                await send(.userDetails(username: username, nameChanged: nameChanged, displayNameChanged: displayNameChanged))
                if mutation == .renameReconcilesEmpty { await send(.fixedList(username: username, ids: [])) }
                return ActionOutcome(.done)
            }
        case .refresh:
            if mutation == .retryOnRefresh, state.app.declinedOnce, state.app.stage == .signedIn, let token = state.app.token, let username = state.app.username {
                await startUpgrade(token: token, username: username)
            }
            if state.app.stage == .signedIn, let username = state.app.username {
                if mutation != .noReconcileOnRefresh {
                    let flushed = await flushBatchedReconciliation(for: username)
                    if !flushed { await scheduleReconciliation(for: username, reason: "refresh point") }
                }
            } else if mutation == .reconcileUnauthenticated, let username = state.app.signals.lastUsername {
                await scheduleReconciliation(for: username, reason: "refresh point")
            }
            return ActionOutcome(.done)
        case .managePasskeys:
            guard state.app.stage == .signedIn, let username = state.app.username, let account = state.server.accounts[username] else {
                return ActionOutcome(.rejected, message: "sign in first")
            }
            let active = account.credentials.filter { $0.state == .active }.count
            await host.show(UIEvent(.screen, "Passkeys: \(active)"))
            return ActionOutcome(.done)
        default:
            throw SystemIssue("\(action.kind.rawValue) is not a signal action")
        }
    }

    // MARK: Scheduling

    /// Schedules one reconciliation of the account's complete list; triggers close together share it.
    func scheduleReconciliation(for username: String, reason: String) async {
        guard signalInterface != nil else { return }
        if mutation == .noReconcileAfterCreate, reason == "credential created" { return }
        if mutation == .coalesceWithFirstState, state.app.signals.capturedLists[username] == nil {
            state.app.signals.capturedLists[username] = state.server.acceptedIDs(username)
        }
        // Work already held by the rate limit is the same work: it is sent, rebuilt from current state, when the limit allows.
        if mutation != .noCoalescing, state.app.signals.held.contains(where: { SignalScheduler.equivalent($0, .reconcile(username: username)) }) { return }
        let delay = design.batchToRefreshMillis ?? design.coalesceMillis
        if delay == 0 {
            await send(.reconcile(username: username))
            return
        }
        if state.app.signals.reconcileTimers[username] != nil, mutation != .noCoalescing { return }
        let label = design.batchToRefreshMillis == nil ? "reconcile \(username) (\(reason))" : "scheduled refresh: reconcile \(username) (\(reason))"
        let timer = await host.scheduleTimer(afterMillis: delay, label: label)
        state.app.signals.reconcileTimers[username] = timer
        state.app.signals.timerIntents[timer] = .reconcile(username: username)
    }

    /// At a refresh point, a design that batches reconciliations sends what is pending at once.
    func flushBatchedReconciliation(for username: String) async -> Bool {
        guard design.batchToRefreshMillis != nil, let timer = state.app.signals.reconcileTimers.removeValue(forKey: username) else { return false }
        await host.cancelTimer(timer)
        state.app.signals.timerIntents[timer] = nil
        await send(.reconcile(username: username))
        return true
    }

    func signalTimerFired(_ timer: TimerID) async {
        if timer == state.app.signals.flushTimer {
            state.app.signals.flushTimer = nil
            let held = state.app.signals.held
            state.app.signals.held = []
            for intent in held { await send(intent) }
            return
        }
        guard let intent = state.app.signals.timerIntents.removeValue(forKey: timer) else { return }
        if case .reconcile(let username) = intent, state.app.signals.reconcileTimers[username] == timer {
            state.app.signals.reconcileTimers[username] = nil
        }
        await send(intent)
    }

    /// Builds the signal for an intent from current server state and hands it to the platform,
    /// keeping the Android budget and any retryMillis the platform asked for.
    func send(_ intent: SignalScheduler.Intent) async {
        guard let interface = signalInterface else { return }
        if interface == .android, mutation != .ignoreRateLimit {
            let now = await host.now()
            state.app.signals.androidCalls.removeAll { $0.at <= now - SignalScheduler.androidWindowMillis }
            let kind = SignalEncoding.androidType(of: intent)
            let counted = mutation == .rateBudgetPerType ? state.app.signals.androidCalls.filter { $0.kind == kind } : state.app.signals.androidCalls
            if now < state.app.signals.androidBlockedUntil {
                await hold(intent, until: state.app.signals.androidBlockedUntil)
                return
            }
            if counted.count >= SignalScheduler.androidBudget {
                await hold(intent, until: counted[0].at + SignalScheduler.androidWindowMillis + 1)
                return
            }
        }
        guard let request = await buildSignal(intent, interface: interface) else { return }
        if interface == .android { state.app.signals.androidCalls.append((await host.now(), SignalEncoding.androidType(of: intent))) }
        let operation = await host.signal(request)
        state.app.signals.inFlight[operation] = (intent, request)
    }

    /// Keeps a signal until the rate limit allows it; equivalent pending work is kept once.
    func hold(_ intent: SignalScheduler.Intent, until time: Int64) async {
        if mutation != .noCoalescing, state.app.signals.held.contains(where: { SignalScheduler.equivalent($0, intent) }) { return }
        if mutation == .coalesceWithFirstState, case .reconcile(let username) = intent, state.app.signals.capturedLists[username] == nil {
            state.app.signals.capturedLists[username] = state.server.acceptedIDs(username)
        }
        state.app.signals.held.append(intent)
        guard state.app.signals.flushTimer == nil else { return }
        let now = await host.now()
        state.app.signals.flushTimer = await host.scheduleTimer(afterMillis: max(0, time - now), label: "send signals held by the rate limit")
    }

    func buildSignal(_ intent: SignalScheduler.Intent, interface: SignalScheduler.Interface) async -> SignalRequest? {
        let encoding = SignalEncoding(interface: interface, mutation: mutation)
        switch intent {
        case .resend(let request):
            return request
        case .unknown(let rpID, let credentialID):
            let rpID = mutation == .unknownSignalPrimaryRPID ? ReferenceRP.relyingPartyIDs[0] : rpID
            return encoding.unknown(rpID: rpID, credentialID: credentialID)
        case .reconcile(let username):
            guard let account = state.server.accounts[username] else { return nil }
            if let captured = state.app.signals.capturedLists.removeValue(forKey: username) {
                return encoding.allAccepted(account: account, ids: captured)
            }
            switch state.server.assembleAcceptedList(username) {
            case .failure(let refusal):
                await host.telemetry(TelemetryEvent("reconciliation-skipped", ["account": username, "reason": refusal.message]))
                return nil
            case .success(let ids):
                return encoding.allAccepted(account: account, ids: ids)
            }
        case .fixedList(let username, let ids):
            guard let account = state.server.accounts[username] else { return nil }
            return encoding.allAccepted(account: account, ids: ids)
        case .userDetails(let username, let nameChanged, let displayNameChanged):
            guard let account = state.server.accounts[username] else { return nil }
            let reReport = design.appleDisplayNameOnly == .reReportName
            let updaterEncoding = mutation == .userDetailsViaUpdater && interface == .appleDataManager
                ? SignalEncoding(interface: .appleUpdater, mutation: mutation) : encoding
            return updaterEncoding.userDetails(account: account, nameChanged: nameChanged || (reReport && displayNameChanged), displayNameChanged: displayNameChanged)
        }
    }

    // MARK: Completions

    func signalOperationCompleted(_ operation: OperationID, _ outcome: PlatformOutcome) async {
        if let signIn = state.app.signals.pendingSignIns.removeValue(forKey: operation) {
            await signInCompleted(signIn, outcome)
            return
        }
        guard let (intent, request) = state.app.signals.inFlight.removeValue(forKey: operation) else { return }
        if let error = outcome.error {
            if let retryMillis = error.retryMillis {
                let delay = mutation == .retryEarly ? 1_000 : retryMillis
                let until = await host.now() + delay
                state.app.signals.androidBlockedUntil = max(state.app.signals.androidBlockedUntil, until)
                if design.rateLimited == .retry { await hold(mutation == .retryStalePayload ? .resend(request) : intent, until: until) }
            } else {
                await host.telemetry(TelemetryEvent("signal-failed", ["error": error.name]))
            }
            return
        }
        switch (mutation, intent) {
        case (.claimProviderRemoval?, .reconcile), (.claimProviderRemoval?, .unknown):
            await host.show(UIEvent(.message, "The passkey was removed from this device."))
        case (.claimProviderUpdateScreen?, .reconcile):
            await host.show(UIEvent(.screen, "Passkeys on this device updated"))
        default:
            break
        }
    }

    /// Work a design does after every successful sign-in.
    func signedIn(_ username: String) async {
        if design.reconcileAtEverySignIn { await scheduleReconciliation(for: username, reason: "signed in") }
    }

    private func signInCompleted(_ signIn: SignalScheduler.PendingSignIn, _ outcome: PlatformOutcome) async {
        if outcome.error != nil {
            if mutation == .unknownOnNetworkOrCancel, let username = signIn.username {
                for id in state.server.acceptedIDs(username) { await send(.unknown(rpID: signIn.rpID, credentialID: id)) }
            }
            if mutation == .unknownOnCancelLater, let username = signIn.username, let id = state.server.acceptedIDs(username).first {
                let timer = await host.scheduleTimer(afterMillis: 30_000, label: "report the cancelled sign-in's passkey")
                state.app.signals.timerIntents[timer] = .unknown(rpID: signIn.rpID, credentialID: id)
            }
            return
        }
        guard let assertion = SignalEncoding.assertion(outcome) else {
            await host.telemetry(TelemetryEvent("malformed-assertion-response", [:]))
            return
        }
        if state.server.store.take(.networkFailure) {
            await host.show(UIEvent(.error, "No connection. Try again."))
            if mutation == .unknownOnNetworkOrCancel { await send(.unknown(rpID: signIn.rpID, credentialID: assertion.credentialID)) }
            return
        }
        let result = state.server.finishAuthentication(credentialID: assertion.credentialID, clientDataJSON: assertion.clientDataJSON,
                                                       authenticatorData: assertion.authenticatorData, signature: assertion.signature,
                                                       userHandle: assertion.userHandle, now: await host.now())
        let unknown = SignalScheduler.Intent.unknown(rpID: signIn.rpID, credentialID: assertion.credentialID)
        switch result {
        case .signedIn(let username, let token):
            state.app.token = token
            state.app.username = username
            state.app.stage = .signedIn
            state.app.signals.lastUsername = username
            await signedIn(username)
            if mutation == .upgradeAfterPasskeySignIn { await startUpgrade(token: token, username: username) }
        case .lookupFailed:
            await host.show(UIEvent(.error, "Sign-in failed. Try again."))
            if mutation == .unknownOnLookupFailure { await send(unknown) }
        case .unknownCredential:
            await host.show(UIEvent(.error, "This passkey is not valid for your account."))
            if mutation != .neverSignalUnknown { await send(unknown) }
        case .revoked(let username):
            await host.show(UIEvent(.error, "This passkey has been removed from your account."))
            // The revoked passkey is reconciled by a full list only while this account is signed in;
            // a client that is not signed in never receives the account's list.
            let authenticated = state.app.stage == .signedIn && state.app.username == username
            if mutation == .unknownOnRevoked {
                await send(unknown)
            } else if authenticated || mutation == .reconcileRevokedUnauthenticated {
                await scheduleReconciliation(for: username, reason: "revoked credential presented")
            }
        case .restricted:
            await host.show(UIEvent(.error, "Your account is restricted."))
            if mutation == .unknownOnRestricted { await send(unknown) }
        case .expiredChallenge, .invalid:
            await host.show(UIEvent(.error, "Sign-in failed. Try again."))
            if mutation == .unknownOnVerificationFailure { await send(unknown) }
        }
    }
}
