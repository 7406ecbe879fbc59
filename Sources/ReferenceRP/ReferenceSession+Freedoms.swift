import ConformanceModel
import ConformanceSimulation
import Foundation

/// The choices of the Signal API the criteria leave to the relying party, as the design's knobs
/// set them: a recurring reconciliation, reconciling at the foreground, details sent with the list,
/// the app's own signal budget, a revocation notice, the unused-password report, an empty list at
/// sign-in and a recurring timer that does nothing. Each is conforming; none is the reference's
/// default.
extension ReferenceSession {
    /// Arms the timers that run from the app's start (F-time): a recurring timer that does nothing.
    func armStartTimers() async {
        guard let period = design.idleTimerMillis, state.app.signals.idleTimer == nil else { return }
        state.app.signals.idleTimer = await host.scheduleTimer(afterMillis: period, label: "app heartbeat (does nothing)")
    }

    /// Work a design does after every successful full sign-in, besides reconciling (F-schedule, F-empty).
    func freedomsAfterSignIn(_ username: String, byPasskey: Bool) async {
        await armPeriodicReconciliation()
        if design.emptyListAtSignIn, signalInterface != nil, state.server.accounts[username]?.credentials.contains(where: { $0.state == .active }) == false {
            await send(.reconcile(username: username))
        }
        if byPasskey, design.reportsUnusedPassword, let interface = signalInterface, interface != .android, let account = state.server.accounts[username] {
            let report = AppleSignalReport(
                interface: interface == .appleDataManager ? .credentialDataManager : .credentialUpdater, method: .reportUnusedPasswordCredential,
                relyingPartyIdentifier: account.rpID, userName: account.name)
            _ = await host.signal(.apple(report))
        }
    }

    /// Arms the recurring reconciliation of the signed-in account, if the design has one and it is not armed.
    func armPeriodicReconciliation() async {
        guard let period = periodicReconciliationMillis, signalInterface != nil, state.app.signals.periodicTimer == nil else { return }
        state.app.signals.periodicTimer = await host.scheduleTimer(afterMillis: period, label: "periodic reconciliation")
    }

    /// Stops the recurring reconciliation (at sign-out).
    func stopPeriodicReconciliation() async {
        guard let timer = state.app.signals.periodicTimer else { return }
        state.app.signals.periodicTimer = nil
        await host.cancelTimer(timer)
    }

    /// The app came to the foreground (a relaunch) with what it persisted.
    func cameToForeground() async {
        await armStartTimers()
        guard state.app.stage == .signedIn, let username = state.app.username else { return }
        await armPeriodicReconciliation()
        if design.reconcileAtForeground { await scheduleReconciliation(for: username, reason: "foreground") }
    }

    /// Handles the timers of this file; `false` for any other timer.
    func freedomTimerFired(_ timer: TimerID) async -> Bool {
        if timer == state.app.signals.idleTimer, let period = design.idleTimerMillis {
            state.app.signals.idleTimer = await host.scheduleTimer(afterMillis: period, label: "app heartbeat (does nothing)")
            return true
        }
        if timer == state.app.signals.periodicTimer, let period = periodicReconciliationMillis {
            state.app.signals.periodicTimer = nil
            guard state.app.stage == .signedIn, let username = state.app.username else { return true }
            state.app.signals.periodicTimer = await host.scheduleTimer(afterMillis: period, label: "periodic reconciliation")
            await send(.reconcile(username: username))
            return true
        }
        return false
    }

    /// Whether the app's own budget (F-drop) drops this Android signal; counts it when it does not.
    func ownBudgetDrops() async -> Bool {
        guard let budget = design.ownSignalBudget else { return false }
        let now = await host.now()
        state.app.signals.ownCalls.removeAll { $0 <= now - SignalScheduler.androidWindowMillis }
        if state.app.signals.ownCalls.count >= Int(budget) {
            await host.telemetry(TelemetryEvent("signal-dropped-by-budget", ["budget": String(budget)]))
            return true
        }
        state.app.signals.ownCalls.append(now)
        return false
    }

    /// What the app shows once the server revoked a passkey (F-words): only what the server did.
    func showRevokeNotice() async {
        switch design.revokeNotice {
        case .none: return
        case .providerLabel: await show(.message, .revokedWithLabel(provider: providerLabel))
        case .deviceDisclaimer: await show(.message, .revokedWithDisclaimer)
        case .accountSide: await show(.confirmation, .revokedAccountSide)
        }
    }
}
