import ConformanceModel
import ConformanceSimulation
import Foundation

/// The faulty behaviour a mutant's decision asks for, where it needs the app's state or the
/// platform. The conforming decisions never reach past the first line of these methods.
extension ReferenceSession {
    // MARK: Automatic upgrade

    /// Rewrites the server's options from what the app remembers: another user handle, the first
    /// account's exclusions, the first challenge. Records the app's first challenge.
    func tamper(with options: inout Server.RegistrationOptions) {
        if let userHandle = decisions.options.userHandle, let account = state.server.accounts[options.userName] {
            options.userHandle = userHandle(account)
        }
        if decisions.options.nameOfFirstAccount, let first = state.app.firstUsername, let account = state.server.accounts[first] {
            options.userName = account.name
            options.displayName = account.displayName
        }
        if decisions.options.exclusionsOfFirstAccount, let first = state.app.firstUsername, let account = state.server.accounts[first] {
            options.excluded = account.credentials.map(\.id)
        }
        if decisions.options.reusesFirstChallenge, let first = state.app.firstChallenge { options.challenge = first }
        if state.app.firstChallenge == nil { state.app.firstChallenge = options.challenge }
    }

    /// What the app does after the expected no-create, beyond remembering it.
    func afterNoCreate(_ pending: PendingRegistration) async {
        switch decisions.upgrade.afterNoCreate {
        case .waitForNextSignIn, .neverAskAgain:
            break
        case .showError:
            await host.show(UIEvent(.error, "Passkey creation failed."))
        case .show(let event):
            await host.show(event)
        case .coolDown(let millis):
            state.app.noUpgradeBefore = await host.now() + millis
        case .retryOnce:
            if !pending.retried { await startRegistration(conditional: true, token: pending.token, username: pending.username, retried: true) }
        case .retryAfter(let millis):
            let timer = await host.scheduleTimer(afterMillis: millis, label: "automatic passkey upgrade, again")
            state.app.delayedUpgrades[timer] = (pending.token, pending.username)
        }
    }

    /// Keeps a registration response whose session is no longer the app's: returns the session to
    /// upload it with now, or `nil` when it is not uploaded now.
    func keepStaleResponse(_ pending: PendingRegistration, _ outcome: PlatformOutcome) async -> String? {
        switch decisions.response.stale {
        case .discard:
            return nil
        case .attachToOriginalAccount:
            return pending.token
        case .attachToCurrentAccount:
            return state.app.token
        case .uploadAtNextSignIn:
            state.app.staleForNextSignIn.append((pending.token, outcome))
            return nil
        case .uploadLater:
            let timer = await host.scheduleTimer(afterMillis: 10_000, label: "upload a queued registration")
            state.app.queuedStaleResponses[timer] = (pending.token, outcome)
            return nil
        }
    }
}

extension ReferenceSession {
    // MARK: Signals

    /// Where signals exist, "revokes" a passkey by signalling the list without it; returns whether it did.
    func revokeBySignalOnly(_ id: Data) async -> Bool {
        guard signalInterface != nil, let username = state.app.username else { return false }
        await send(.fixedList(username: username, ids: state.server.acceptedIDs(username).filter { $0 != id }))
        return true
    }

    /// Announces the requested names as if the refused rename had been saved.
    func announceRefusedRename(name: String?, displayName: String?, username: String) async {
        guard var account = state.server.accounts[username] else { return }
        let saved = account
        if let name { account.name = name }
        if let displayName { account.displayName = displayName }
        state.server.accounts[username] = account
        await send(.userDetails(username: username, nameChanged: name != nil, displayNameChanged: displayName != nil))
        state.server.accounts[username] = saved
    }

    /// Captures an account's list at the first trigger, for a coalescing that sends that stale list.
    func captureFirstState(of intent: SignalScheduler.Intent) {
        guard decisions.signals.coalescing == .firstState, case .reconcile(let username) = intent, state.app.signals.capturedLists[username] == nil else {
            return
        }
        state.app.signals.capturedLists[username] = state.server.acceptedIDs(username)
    }

    /// Sends unknown-credential signals after a cancelled or failed sign-in, at once or later.
    func signalUnknownAfterFailedSignIn(_ signIn: SignalScheduler.PendingSignIn) async {
        let causes = decisions.signals.unknownCauses
        if causes.contains(.cancelOrNetworkError), let username = signIn.username {
            for id in state.server.acceptedIDs(username) { await send(.unknown(rpID: signIn.rpID, credentialID: id)) }
        }
        if causes.contains(.cancelledSignInLater), let username = signIn.username, let id = state.server.acceptedIDs(username).first {
            let timer = await host.scheduleTimer(afterMillis: 30_000, label: "report the cancelled sign-in's passkey")
            state.app.signals.timerIntents[timer] = .unknown(rpID: signIn.rpID, credentialID: id)
        }
    }
}
