import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

extension ReferenceSession {
    // MARK: User actions that touch signals

    func performSignalAction(_ action: UserAction) async throws -> ActionOutcome {
        switch action {
        case .passkeySignIn(let username, let requestedRPID):
            let rpID = requestedRPID ?? username.flatMap { state.server.accounts[$0]?.rpID } ?? ReferenceRP.relyingPartyIDs[0]
            let now = await host.now()
            let challenge = withState { $0.server.authenticationOptions(rpID: rpID, now: now, rng: &$0.rng) }
            // F-allow: a design may name the account's passkeys when the user named the account.
            let allowed = design.allowList ? design.wireFormat.order(username.map { state.server.acceptedIDs($0) } ?? []) : []
            let request: GetCredentialRequest
            switch device.platform {
            case .apple:
                request = GetCredentialRequest.apple(AppleAssertionRequest(relyingPartyIdentifier: rpID, challenge: challenge, allowedCredentials: allowed))
            case .android, .web:
                var json: [String: JSONValue] = [
                    "challenge": .string(Base64URL.encode(challenge)), "rpId": .string(rpID),
                    "userVerification": .string("preferred"), "timeout": .number(60_000),
                ]
                if !allowed.isEmpty {
                    json["allowCredentials"] = .array(allowed.map { .object(["type": .string("public-key"), "id": .string(Base64URL.encode($0))]) })
                }
                let options = design.wireFormat.options(json, extras: WireFormat.ignoredOptionMembers)
                request =
                    device.platform == .web
                    ? .web(WebGetRequest(publicKeyJson: options, mediation: nil, origin: "https://\(rpID)"))
                    : .android(AndroidGetPublicKeyCredentialOption(requestJson: options))
            }
            let operation = await host.getCredential(request)
            state.app.signals.pendingSignIns[operation] = .init(rpID: rpID, username: username)
            return ActionOutcome(.pending)
        case .revokePasskey(let id):
            guard let token = state.app.token else { return ActionOutcome(.rejected, message: "sign in first") }
            if decisions.signals.revokesBySignalOnly, await revokeBySignalOnly(id) { return ActionOutcome(.done) }
            if let outcome = await revokeAfterSignal(id, token: token) { return outcome }
            let before = state.app.username.map { state.server.acceptedIDs($0) } ?? []
            switch state.server.revoke(token: token, credentialID: id) {
            case .failure(let refusal): return ActionOutcome(.rejected, message: refusal.message)
            case .success(let username):
                // A mutant announces the provider's removal where it can signal, before any signal.
                if let notice = decisions.forms.noticeAtRevocation, signalInterface != nil { await host.show(notice) }
                if decisions.forms.revocationSendsOldList {
                    await send(.fixedList(username: username, ids: before))
                } else if decisions.signals.reconcileTriggers.contains(.credentialRevoked), !(await reportedLastPasskeyAsUnknown(id, of: username)) {
                    await scheduleReconciliation(for: username, reason: "credential revoked")
                }
                await showRevokeNotice()
                return ActionOutcome(.done)
            }
        case .rename(let newName, let newDisplayName, let confirmed):
            guard let token = state.app.token, let username = state.app.username else { return ActionOutcome(.rejected, message: "sign in first") }
            if state.app.declinedOnce, state.app.stage == .signedIn { await considerUpgrade(.profileChangeAfterNoCreate, token: token, username: username) }
            if decisions.forms.renameNeedsSignals, signalInterface == nil { return ActionOutcome(.rejected, message: "not available") }
            if decisions.encodingForms.renameSignalBeforeAnswer {
                await announceRefusedRename(name: newName, displayName: newDisplayName, username: username)
            }
            if decisions.forms.detailsBeforeRename, confirmed {
                await send(.userDetails(username: username, nameChanged: newName != nil, displayNameChanged: newDisplayName != nil))
            }
            if let outcome = await renameAfterSignal(name: newName, displayName: newDisplayName, confirmed: confirmed, token: token, username: username) {
                return outcome
            }
            let nameChanged = newName != nil
            let displayNameChanged = newDisplayName != nil
            switch state.server.rename(token: token, name: newName, displayName: newDisplayName, confirmed: confirmed) {
            case .failure(let refusal):
                await show(.error, .profileNotSaved)
                if decisions.signals.announcesRefusedRename { await announceRefusedRename(name: newName, displayName: newDisplayName, username: username) }
                return ActionOutcome(.rejected, message: refusal.message)
            case .success:
                if decisions.forms.renameEmptiesListLater {
                    let timer = await host.scheduleTimer(afterMillis: 30_000, label: "tidy the accepted list")
                    state.app.signals.timerIntents[timer] = .fixedList(username: username, ids: [])
                }
                if decisions.forms.detailsBeforeRename || decisions.encodingForms.renameSignalBeforeAnswer { return ActionOutcome(.done) }
                await send(.userDetails(username: username, nameChanged: nameChanged, displayNameChanged: displayNameChanged))
                if decisions.signals.renameSendsEmptyList { await send(.fixedList(username: username, ids: [])) }
                return ActionOutcome(.done)
            }
        case .refresh:
            if state.app.declinedOnce, state.app.stage == .signedIn, let token = state.app.token, let username = state.app.username {
                await considerUpgrade(.refreshAfterNoCreate, token: token, username: username)
            }
            if state.app.stage == .signedIn, let username = state.app.username {
                if decisions.signals.reconcileTriggers.contains(.refreshPoint) {
                    if design.detailsWithListAtRefresh { await send(.userDetails(username: username, nameChanged: true, displayNameChanged: true)) }
                    let flushed = await flushBatchedReconciliation(for: username)
                    if !flushed { await scheduleReconciliation(for: username, reason: "refresh point") }
                    if decisions.forms.refreshReconcilesTwice { await send(.reconcile(username: username)) }
                }
            } else if decisions.signals.reconcileTriggers.contains(.refreshSignedOut), let username = state.app.signals.lastUsername {
                await scheduleReconciliation(for: username, reason: "refresh point")
            }
            return ActionOutcome(.done)
        case .managePasskeys:
            guard state.app.stage == .signedIn, let username = state.app.username, let account = state.server.accounts[username] else {
                return ActionOutcome(.rejected, message: "sign in first")
            }
            if state.app.declinedOnce, let token = state.app.token { await considerUpgrade(.managementAfterNoCreate, token: token, username: username) }
            if decisions.forms.managementNeedsNoSignals, signalInterface != nil { return ActionOutcome(.rejected, message: "unavailable") }
            let active = account.credentials.filter { $0.state == .active }.count
            await show(.screen, .passkeyList(count: active))
            return ActionOutcome(.done)
        default:
            throw SystemIssue("\(action.kind.rawValue) is not a signal action")
        }
    }

    // MARK: Scheduling

    /// Schedules one reconciliation of the account's complete list; triggers close together share it.
    func scheduleReconciliation(for username: String, reason: String) async {
        guard signalInterface != nil else { return }
        captureFirstState(of: .reconcile(username: username))
        // Work already held by the rate limit is the same work: it is sent, rebuilt from current state, when the limit allows.
        if decisions.signals.coalescing != .perTrigger,
            state.app.signals.held.contains(where: { SignalScheduler.equivalent($0, .reconcile(username: username)) })
        {
            return
        }
        let delay = design.batchToRefreshMillis ?? design.coalesceMillis
        if delay == 0 {
            await send(.reconcile(username: username))
            return
        }
        if let pending = state.app.signals.reconcileTimers[username], decisions.signals.coalescing != .perTrigger {
            guard design.debounce else { return }
            await host.cancelTimer(pending)
            state.app.signals.timerIntents[pending] = nil
        }
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
        if await freedomTimerFired(timer) { return }
        guard let intent = state.app.signals.timerIntents.removeValue(forKey: timer) else { return }
        if case .reconcile(let username) = intent, state.app.signals.reconcileTimers[username] == timer {
            state.app.signals.reconcileTimers[username] = nil
        }
        await send(intent)
    }

    /// Builds the signal for an intent from current server state and hands it to the platform,
    /// keeping the Android budget and any retryMillis the platform asked for.
    /// Sends a signal now, or holds it for the rate limit; returns the platform operation when it went out.
    @discardableResult
    func send(_ intent: SignalScheduler.Intent) async -> OperationID? {
        guard let interface = signalInterface else { return nil }
        let rpID = budgetRPID(of: intent)
        if interface == .android, decisions.signals.rateBudget != .ignored, decisions.listForms.keepsBudget(intent), countsInBudget(rpID) {
            let now = await host.now()
            state.app.signals.androidCalls.removeAll { $0.at <= now - decisions.listForms.androidWindowMillis }
            let kind = SignalEncoding.androidType(of: intent)
            let byType = decisions.signals.rateBudget == .perType ? state.app.signals.androidCalls.filter { $0.kind == kind } : state.app.signals.androidCalls
            let counted = budgetCalls(byType, rpID: rpID)
            if now < state.app.signals.androidBlockedUntil {
                await hold(intent, until: state.app.signals.androidBlockedUntil)
                return nil
            }
            if counted.count >= SignalScheduler.androidBudget {
                await hold(intent, until: counted[0].at + decisions.listForms.androidWindowMillis + 1)
                return nil
            }
        }
        guard let request = await buildSignal(intent, interface: interface) else { return nil }
        if interface == .android, await ownBudgetDrops() { return nil }
        if interface == .android, countsInBudget(rpID) {
            state.app.signals.androidCalls.append((await host.now(), SignalEncoding.androidType(of: intent), rpID))
        }
        let operation = await host.signal(request)
        state.app.signals.inFlight[operation] = (intent, request)
        return operation
    }

    /// Keeps a signal until the rate limit allows it; equivalent pending work is kept once.
    func hold(_ intent: SignalScheduler.Intent, until time: Int64) async {
        if decisions.signals.coalescing != .perTrigger, state.app.signals.held.contains(where: { SignalScheduler.equivalent($0, intent) }) { return }
        captureFirstState(of: intent)
        state.app.signals.held.append(intent)
        guard state.app.signals.flushTimer == nil else { return }
        let now = await host.now()
        state.app.signals.flushTimer = await host.scheduleTimer(afterMillis: max(0, time - now), label: "send signals held by the rate limit")
    }

    func buildSignal(_ intent: SignalScheduler.Intent, interface: SignalScheduler.Interface) async -> SignalRequest? {
        // The list and the details are the signed-in user's to send (N3.2: "while the user is
        // authenticated"): work left pending by an account that is no longer signed in is dropped.
        if let username = intent.accountUsername, decisions.signals.onlyForSignedInAccount,
            ![.signedIn, .signedInLimited].contains(state.app.stage) || state.app.username != username
        {
            return nil
        }
        let encoding = SignalEncoding(
            interface: decisions.encodingForms.interface(intent, interface), decisions: decisions.encoding, forms: decisions.encodingForms,
            format: design.wireFormat)
        switch intent {
        case .resend(let request):
            return request
        case .unknown(let rpID, let credentialID):
            return encoding.unknown(rpID: decisions.signals.unknownRPID(rpID), credentialID: credentialID)
        case .reconcile(let username):
            guard let account = state.server.accounts[username] else { return nil }
            if let captured = state.app.signals.capturedLists.removeValue(forKey: username) {
                return encoding.allAccepted(account: account, ids: captured)
            }
            switch assembleReceivedList(username) {
            case .failure(let refusal):
                if let fallback = refusal == Self.lostListAnswer ? listAfterLostAnswer(username) : nil {
                    return encoding.allAccepted(account: account, ids: fallback)
                }
                await host.telemetry(TelemetryEvent("reconciliation-skipped", ["account": username, "reason": refusal.message]))
                return nil
            case .success(let ids):
                state.app.signals.lastReceivedLists[username] = ids
                // A mutant's pending job sends its account's ids under whoever is signed in now.
                if decisions.signals.pendingListUnderCurrentHandle, let current = state.app.username, current != username,
                    let signedIn = state.server.accounts[current]
                {
                    return encoding.allAccepted(account: signedIn, ids: ids)
                }
                return encoding.allAccepted(account: account, ids: ids)
            }
        case .fixedList(let username, let ids):
            guard let account = state.server.accounts[username] else { return nil }
            return encoding.allAccepted(account: account, ids: ids)
        case .userDetails(let username, let nameChanged, let displayNameChanged):
            guard let account = state.server.accounts[username] else { return nil }
            let reReport = design.appleDisplayNameOnly == .reReportName
            let detailsEncoding = SignalEncoding(
                interface: decisions.signals.userDetailsInterface(interface), decisions: decisions.encoding, forms: decisions.encodingForms,
                format: design.wireFormat)
            return detailsEncoding.userDetails(
                account: account, nameChanged: nameChanged || (reReport && displayNameChanged), displayNameChanged: displayNameChanged)
        }
    }

    // MARK: Completions

    func signalOperationCompleted(_ operation: OperationID, _ outcome: PlatformOutcome) async {
        if let signIn = state.app.signals.pendingSignIns.removeValue(forKey: operation) {
            await signInCompleted(signIn, outcome)
            return
        }
        guard let (intent, request) = state.app.signals.inFlight.removeValue(forKey: operation) else { return }
        if let waiting = state.app.signals.waiting.removeValue(forKey: operation) { await finish(waiting, accepted: outcome.error == nil) }
        if let error = outcome.error {
            if let retryMillis = error.retryMillis {
                let delay = decisions.signals.retryDelay(retryMillis) * design.retryBackoffFactor
                let until = await host.now() + delay
                state.app.signals.androidBlockedUntil = max(state.app.signals.androidBlockedUntil, until)
                if design.rateLimited == .retry { await hold(decisions.signals.retriesOriginalPayload ? .resend(request) : retryIntent(intent), until: until) }
            } else {
                await host.telemetry(TelemetryEvent("signal-failed", ["error": error.name]))
            }
            return
        }
        // The platform promises nothing about what a provider did with the signal, so the app claims nothing.
        if let notice = decisions.signals.acceptedNotice(intent) { await host.show(notice) }
    }

    /// Work a design does after every successful sign-in.
    func signedIn(_ username: String, byPasskey: Bool = false) async {
        if design.reconcileAtEverySignIn { await scheduleReconciliation(for: username, reason: "signed in") }
        await freedomsAfterSignIn(username, byPasskey: byPasskey)
        await extraUIAtSignIn(username, byPasskey: byPasskey)
    }

    private func signInCompleted(_ signIn: SignalScheduler.PendingSignIn, _ outcome: PlatformOutcome) async {
        if outcome.error != nil {
            // A cancellation or platform error says nothing about the credential.
            await signalUnknownAfterFailedSignIn(signIn)
            return
        }
        guard let assertion = SignalEncoding.assertion(outcome) else {
            await host.telemetry(TelemetryEvent("malformed-assertion-response", [:]))
            return
        }
        // A design may resubmit after a network failure; the failure path is the one the last attempt took.
        var networkFailed = state.server.store.take(.networkFailure)
        var resubmissions = design.submissionRetries
        while networkFailed, resubmissions > 0 {
            resubmissions -= 1
            networkFailed = state.server.store.take(.networkFailure)
        }
        if networkFailed {
            await show(.error, .noConnection)
            await afterRefusedSignIn(credentialID: assertion.credentialID)
            if decisions.signals.unknownCauses.contains(.cancelOrNetworkError) { await send(.unknown(rpID: signIn.rpID, credentialID: assertion.credentialID)) }
            return
        }
        let now = await host.now()
        /// The server's verification of the presented assertion (each call one credential lookup).
        func verify() -> Server.AuthenticationResult {
            state.server.finishAuthentication(
                credentialID: assertion.credentialID, clientDataJSON: assertion.clientDataJSON,
                authenticatorData: assertion.authenticatorData, signature: assertion.signature,
                userHandle: assertion.userHandle, now: now)
        }
        var result = verify()
        // A design may retry a failed lookup, then take the path the retry's answer calls for.
        var lookups = design.lookupRetries
        while case .lookupFailed = result, lookups > 0 {
            lookups -= 1
            result = verify()
        }
        let unknown = SignalScheduler.Intent.unknown(rpID: signIn.rpID, credentialID: assertion.credentialID)
        // The server committed what it decided; an answer lost on the way back leaves the app with a
        // network error. A design may submit the same response again (F-retry): the server judges the
        // replay, and the app takes the path of the answer it finally gets.
        if answerLost() {
            var lost = true
            var resubmissions = resubmissionsAfterLostAnswer
            while lost, resubmissions > 0 {
                resubmissions -= 1
                result = verify()
                lost = answerLost()
                if lost { continue }
                if case .signedIn = result { break }
                await refusedAssertionRetry(unknown)
            }
            if lost {
                await host.show(UIEvent(.error, "No connection. Try again."))
                await afterRefusedSignIn(credentialID: assertion.credentialID)
                if decisions.signals.unknownCauses.contains(.cancelOrNetworkError) { await send(unknown) }
                return
            }
        }
        switch result {
        case .signedIn(let username, let token):
            if decisions.forms.unknownForOtherAccount, let expected = signIn.username, expected != username { await send(unknown) }
            state.app.token = token
            state.app.username = username
            state.app.stage = .signedIn
            state.app.signals.lastUsername = username
            await signedIn(username, byPasskey: true)
            await considerUpgrade(.passkeySignIn, token: token, username: username)
        case .lookupFailed:
            await show(.error, .signInFailed)
            if decisions.signals.unknownCauses.contains(.lookupFailure) { await send(unknown) }
            // A second-form mutant looks the credential up once more and takes a second failure as proof that the id is unknown.
            if decisions.encodingForms.unknownWhenLookupFailsTwice, verify() == .lookupFailed { await send(unknown) }
        case .unknownCredential:
            await show(.error, .passkeyNotValid)
            if decisions.signals.unknownCauses.contains(.unknownCredential) { await send(unknown) }
        case .revoked(let username):
            await show(.error, .passkeyRevoked)
            // The revoked passkey is reconciled by a full list only while this account is signed in;
            // a client that is not signed in never receives the account's list.
            let authenticated = state.app.stage == .signedIn && state.app.username == username
            if decisions.signals.unknownCauses.contains(.revoked) {
                await send(unknown)
            } else if authenticated || decisions.signals.reconcileTriggers.contains(.revokedPresentedSignedOut) {
                await scheduleReconciliation(for: username, reason: "revoked credential presented")
            }
        case .restricted:
            await show(.error, .accountRestricted)
            await afterRefusedSignIn(credentialID: assertion.credentialID)
            if decisions.signals.unknownCauses.contains(.restricted) { await send(unknown) }
        case .expiredChallenge, .invalid:
            await show(.error, .signInFailed)
            await afterRefusedSignIn(credentialID: assertion.credentialID)
            if decisions.signals.unknownCauses.contains(.verificationFailure) { await send(unknown) }
        case .rpIDRefused, .malformed:
            // Another RP ID, or a response that cannot be read, says nothing about the credential.
            await host.show(UIEvent(.error, "Sign-in failed. Try again."))
            await afterRefusedSignIn(credentialID: assertion.credentialID)
            if decisions.signals.unknownCauses.contains(.verificationFailure) { await send(unknown) }
            await responseRefused(result, unknown)
        case .originRefused:
            // An origin the server does not accept says nothing about the credential.
            await host.show(UIEvent(.error, "Sign-in failed. Try again."))
            await afterRefusedSignIn(credentialID: assertion.credentialID)
            if decisions.signals.unknownCauses.contains(.verificationFailure) { await send(unknown) }
            await originRefused(unknown)
        }
    }
}
