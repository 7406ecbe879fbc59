import Foundation

/// The moment an app takes after a sign-in before it asks for the automatic passkey upgrade.
///
/// N2.6-AC05 wants the conditional request "promptly after complete sign-in", and the criteria
/// document says what that means: the app issues it "while the credential provider's recent
/// autofill context can still apply". The bound is therefore the provider's own window
/// (`ProviderState.autofillWindowMillis`, a knob of the simulated provider, 5 minutes unless a
/// scenario sets another), never a shorter number of the harness's: a request is prompt when it
/// comes before any further user action and within that window of the sign-in. An app may wait
/// for its sign-in screen to close, show a home screen first or run a timer; so the user of the
/// simulation does not act again before the app has had that window, and a step that reads
/// registration requests gives it the same window first.
extension World {
    /// The bound of "promptly" (N2.6-AC05.V1) in this test case: the credential manager's
    /// recent-autofill window, as the scenario left the provider.
    public var upgradeWindowMillis: Int64 { host.withProvider { $0.autofillWindowMillis } }

    /// Whether the app owes a conditional request after a qualifying sign-in here: the target has the
    /// conditional interface and the adapter declares it, whatever passkeys the account has (the
    /// criteria document says an RP must not hold the request back because some credential manager
    /// may already hold one).
    var owesUpgradeRequest: Bool { target.has(.conditionalCreateAPI) && adapter.capabilities.contains(.conditionalCreate) }

    /// After a sign-in that completed a password policy: notes it as qualifying and lets the app's
    /// timers run through the provider's window (see `letUpgradeWindowRun`) before anything else.
    /// `action` is the one that just signed in, as `lastSignIn` notes it.
    func giveUpgradeItsMoment(after action: UserAction) async throws {
        switch action {
        case .passwordSignIn, .switchAccount, .secondFactor: break
        default: return
        }
        guard let signIn = lastSignIn, owesUpgradeRequest else { return }
        qualifyingSignIns.append(signIn)
        try await letUpgradeWindowRun()
    }

    /// While the app owes a conditional request for the last qualifying sign-in, no user action has
    /// come since and no registration request has followed it: lets virtual time run through the
    /// app's timers due within the provider's autofill window of the sign-in, in due order, and
    /// stops at the first registration request.
    ///
    /// An app that asked at once (or has no timer due within the window) sees no time pass and
    /// nothing recorded. `perform` calls it after every qualifying sign-in, and every step that reads
    /// registration requests calls it before it reads, so that no step judges an app before it had
    /// its window.
    public func letUpgradeWindowRun() async throws {
        guard let signIn = qualifyingSignIns.last else { return }
        let window = upgradeWindowMillis
        let end = VirtualClock.adding(window, to: signIn.atMillis)
        func requested() -> Bool { host.snapshot.operations.contains { $0.kind == .create && $0.sequence > signIn.sequence } }
        let snapshot = host.snapshot
        guard Self.userActions(in: snapshot.transcript, after: signIn.sequence).isEmpty, !requested(),
            snapshot.pendingTimers.contains(where: { $0.dueMillis <= end })
        else { return }
        host.record(
            .step, "clock.upgradeMoment",
            "the app has not asked for the automatic upgrade yet: its timers due within the credential manager's autofill window "
                + "(\(window / 1000) s after the sign-in) run before the next user action")
        var fired = 0
        while !requested(), fired < Self.quiescenceTimerLimit, try await fireNextTimer(notAfter: end) {
            fired += 1
        }
    }

    /// What followed one qualifying sign-in.
    public enum UpgradeTiming: Sendable {
        /// The first registration request after the sign-in came before any further user action and
        /// within the provider's autofill window.
        case prompt(PlatformOperation, delayMillis: Int64)
        /// It came, but after a further user action (`action`, when that is why) or past the window.
        case late(PlatformOperation, delayMillis: Int64, action: TranscriptEntry?)
        /// No registration request followed the sign-in (before the next qualifying sign-in).
        case absent
    }

    /// How the first registration request after `signIn` relates to it: prompt, late or absent.
    public func upgradeTiming(after signIn: (sequence: Int, atMillis: Int64)) -> UpgradeTiming {
        let snapshot = host.snapshot
        let next = qualifyingSignIns.first { $0.sequence > signIn.sequence }?.sequence ?? .max
        guard let request = snapshot.operations.first(where: { $0.kind == .create && $0.sequence > signIn.sequence && $0.sequence < next }) else {
            return .absent
        }
        let delay = request.issuedAtMillis - signIn.atMillis
        let action = Self.userActions(in: snapshot.transcript, after: signIn.sequence).first { $0.sequence < request.sequence }
        if action != nil || delay > upgradeWindowMillis { return .late(request, delayMillis: delay, action: action) }
        return .prompt(request, delayMillis: delay)
    }

    /// In words, what followed the sign-in at `signIn`: `settled` says the app was let run until it
    /// had nothing left scheduled before the step read it.
    public func describeUpgrade(after signIn: (sequence: Int, atMillis: Int64), settled: Bool) -> String {
        let window = upgradeWindowMillis / 1000
        switch upgradeTiming(after: signIn) {
        case .prompt(let request, let delay):
            return "\(StepSupport.cite(request)) followed the sign-in at #\(signIn.sequence) promptly, \(delay / 1000) s later"
        case .late(let request, let delay, let action?):
            return "late: \(StepSupport.cite(request)) came only after a further user action (#\(action.sequence) \(action.name)), "
                + "\(delay / 1000) s after the sign-in at #\(signIn.sequence)"
        case .late(let request, let delay, nil):
            return "late: \(StepSupport.cite(request)) came \(delay / 1000) s after the sign-in at #\(signIn.sequence), "
                + "past the credential manager's recent-autofill window of \(window) s that \"promptly\" is judged by"
        case .absent:
            return "absent: no registration request followed the sign-in at #\(signIn.sequence), although the app's timers due within "
                + "the credential manager's autofill window (\(window) s) ran first"
                + (settled ? " and the app was let run until it had nothing left scheduled" : "")
        }
    }

    /// What followed each qualifying sign-in since `sequence` that did not get its request promptly,
    /// joined for a step's message; empty when there is nothing to explain.
    func upgradeShortfall(since sequence: Int, settled: Bool) -> String {
        qualifyingSignIns.filter { $0.sequence > sequence }.compactMap { signIn in
            if case .prompt = upgradeTiming(after: signIn) { return nil }
            return describeUpgrade(after: signIn, settled: settled)
        }.joined(separator: "; ")
    }

    /// The user actions the harness performed after transcript entry `sequence`.
    static func userActions(in transcript: [TranscriptEntry], after sequence: Int) -> LazyFilterSequence<ArraySlice<TranscriptEntry>> {
        transcript[min(sequence, transcript.count)...].lazy.filter {
            $0.channel == .harnessToRP && $0.name.hasPrefix("user.") && !$0.name.hasSuffix(".result")
        }
    }
}
