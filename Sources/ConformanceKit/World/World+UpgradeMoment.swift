import Foundation

/// The moment an app takes after a sign-in before it asks for the automatic passkey upgrade.
///
/// N2.6-AC05 wants the conditional request "promptly after complete sign-in", while the credential
/// manager's recent autofill context still applies; the harness reads that as before any further
/// user action and within `upgradePromptnessMillis` of the sign-in. It does not say the request must
/// leave in the same millisecond: an app may wait for its sign-in screen to close, say. A scenario
/// whose next user action came at the very instant of the sign-in would fail such an app for a
/// schedule the criterion allows, so the user of the simulation does not act again before the app
/// has had that moment.
extension World {
    /// How soon after a qualifying sign-in the conditional request must leave to be "prompt"
    /// (N2.6-AC05.V1): `HarnessBounds.upgradePromptnessMillis`.
    public static let upgradePromptnessMillis = HarnessBounds.upgradePromptnessMillis

    /// After a sign-in that completed a password policy: while the app owes a conditional request and
    /// has not issued it, lets virtual time run through the app's timers due within
    /// `upgradePromptnessMillis` of the sign-in, in due order, and stops at the first registration request.
    ///
    /// An app that asked at once (or has no timer due within the window) sees no time pass and
    /// nothing recorded. The request is owed where the target has the conditional interface and the
    /// adapter declares it, whatever passkeys the account has: the criteria document says an RP must
    /// not hold the request back because some credential manager may already hold one.
    /// `action` is the one that just signed in, as `lastSignIn` notes it.
    func giveUpgradeItsMoment(after action: UserAction) async throws {
        switch action {
        case .passwordSignIn, .switchAccount, .secondFactor: break
        default: return
        }
        guard let signIn = lastSignIn, target.has(.conditionalCreateAPI), adapter.capabilities.contains(.conditionalCreate) else { return }
        let (end, overflow) = signIn.atMillis.addingReportingOverflow(Self.upgradePromptnessMillis)
        let window = overflow ? Int64.max : end
        func requested(_ snapshot: SimulationHost.Snapshot) -> Bool { snapshot.operations.contains { $0.kind == .create && $0.sequence > signIn.sequence } }
        let snapshot = host.snapshot
        guard !requested(snapshot), snapshot.pendingTimers.contains(where: { $0.dueMillis <= window }) else { return }
        host.record(
            .step, "clock.upgradeMoment",
            "the app has not asked for the automatic upgrade yet: its timers due within \(Self.upgradePromptnessMillis / 1000) s of the sign-in run before the next user action"
        )
        var fired = 0
        while !requested(host.snapshot), fired < Self.quiescenceTimerLimit, try await fireNextTimer(notAfter: window) {
            fired += 1
        }
    }
}
