import Foundation
import WebAuthn

/// Probes that tell a path proof which criterion explains a path that was not reached: each runs
/// the scenario's `Given` steps again in a fresh session (`withoutTrigger`), does one thing there
/// and reports what the relying party did with it. A probe changes nothing in this run; it leaves
/// one line in the transcript.
///
/// Controls guard, they do not blame: when a scenario's control fails because of a fault another
/// criterion judges (a server that refuses the UP=0 registration of an automatic upgrade is
/// N2.6-X01's fault), the items the control guards are *not verified* with a pointer to that
/// criterion, so that one cause is counted once.
extension World {
    /// What a probe saw.
    enum ProbeOutcome: Equatable {
        /// The relying party accepted what the probe did: it stored the passkey, or signed the user in.
        case accepted
        /// It refused it; the text says what was seen.
        case refused(String)
        /// The probe could not do its one thing (no saved password, no passkey to present, the
        /// credential manager created nothing); the text says why.
        case inconclusive(String)
    }

    /// N2.6-X01's own case in a fresh replay of the scenario's `Given` steps: the credential manager
    /// autofills the saved password of `alias`, the app signs in, and the conditional registration
    /// it asks for is answered at once, with the flags the scenario's `Given` steps chose (the
    /// platform's UP=0 UV=0 BE=1 BS=1 unless they chose others). `accepted` when the server stores it.
    /// With `flags`, the registration is answered with those flags instead.
    func probeAutomaticUpgrade(_ alias: String, flags: ProviderState.Flags? = nil) async throws -> ProbeOutcome {
        let answered = flags.map { "answered at once with \(Self.text($0))" } ?? "answered at once"
        return try await probe("an automatic upgrade of \(World.username(alias)) \(answered)") { replay in
            replay.host.withProvider {
                $0.holdRegistrations = false
                $0.nextConditionalCreateFailure = nil
                if let flags { $0.flagsOverride = flags }
            }
            let account = try replay.account(alias)
            guard replay.host.snapshot.provider.savedPasswords.contains(where: { $0.username == account.username && $0.rpID == account.rpID }) else {
                return .inconclusive("the credential manager holds no saved password of \(account.username) to autofill")
            }
            try replay.autofill(savedFor: account.username, rpID: account.rpID)
            try await replay.perform(.passwordSignIn(username: account.username, password: account.password))
            return try await replay.storedRegistration(alias, conditional: true)
        }
    }

    /// The scenario's explicit creation in a fresh replay of its `Given` steps, answered with
    /// `flags`: the user creates a passkey from the app's settings. `accepted` when the server stores it.
    func probeExplicitCreation(_ alias: String, flags: ProviderState.Flags) async throws -> ProbeOutcome {
        try await probe("the creation from the app's settings answered with \(Self.text(flags))") { replay in
            replay.host.withProvider {
                $0.holdRegistrations = false
                $0.cancelNextModal = false
                $0.nextRegistrationAnswersOtherChallenge = false
                $0.flagsOverride = flags
            }
            let answer = try await replay.perform(.createPasskey)
            if answer.status == .rejected { return .inconclusive("the app refused the creation: \(answer.message ?? "no reason given")") }
            return try await replay.storedRegistration(alias, conditional: false)
        }
    }

    /// A valid passkey sign-in, answered at once, in a fresh replay of the scenario's `Given`
    /// steps: a passkey the credential manager holds of an account that is not restricted and
    /// whose server record is active. `accepted` when the app signs the user in.
    func probePasskeySignIn() async throws -> ProbeOutcome {
        try await probe("a valid passkey sign-in answered at once") { replay in
            replay.host.withProvider {
                $0.holdAssertions = false
                $0.flagsOverride = nil
            }
            let held = replay.host.snapshot.provider.passkeys.filter { $0.visibility == .visible }
            for alias in replay.accounts.keys.sorted() where replay.accounts[alias]?.restricted == false {
                let account = try await replay.inspect(alias)
                let active = Set(account.credentials.filter { $0.state == .active }.map(\.credentialID))
                guard let passkey = held.first(where: { active.contains($0.credentialID) && $0.rpID == account.rpID }) else { continue }
                try await replay.passkeySignIn(.use(passkey.credentialID), hint: nil)
                try await replay.quiesce()
                let session = try await replay.inspectSession()
                return session.stage == .signedIn && session.username == account.username
                    ? .accepted
                    : .refused("the app refused the sign-in of \(account.username) with its active passkey \(Base64URL.encode(passkey.credentialID))")
            }
            return .inconclusive("no account of the scenario that is not restricted has an active passkey in the credential manager")
        }
    }

    /// N3.2-AC02's own case in a fresh replay of the scenario's `Given` steps: the user signs in
    /// with the passkey the server does not know, the platform answers at once and passes signals
    /// on. `accepted` when the app signals that credential as unknown once it has nothing left scheduled.
    func probeUnknownCredentialSignal() async throws -> ProbeOutcome {
        try await probe("a sign-in with the passkey the server does not know, answered at once") { replay in
            replay.host.withProvider {
                $0.holdAssertions = false
                $0.holdSignals = false
                $0.failSignals = false
                $0.flagsOverride = nil
            }
            guard let id = try? replay.storedID("unknown passkey") else {
                return .inconclusive("the scenario's Given steps make no passkey the server does not know")
            }
            try await replay.passkeySignIn(.use(id), hint: nil)
            let calls = try await replay.signalsSinceTrigger()
            guard calls.contains(where: { $0.kind == .unknownCredential && $0.operation.signal?.credentialID == id }) else {
                return .refused("the app sent no unknown-credential signal for \(Base64URL.encode(id))")
            }
            return .accepted
        }
    }

    /// Runs `body` on a fresh replay of the `Given` steps, closes it, and notes what it saw.
    private func probe(_ what: String, _ body: (World) async throws -> ProbeOutcome) async throws -> ProbeOutcome {
        let replay = try await withoutTrigger()
        let outcome: ProbeOutcome
        do {
            outcome = try await body(replay)
        } catch {
            await replay.session.close()
            throw error
        }
        await replay.session.close()
        let seen: String
        switch outcome {
        case .accepted: seen = "accepted"
        case .refused(let text): seen = "refused: " + text
        case .inconclusive(let text): seen = "could not tell: " + text
        }
        host.record(.step, "probe", "the same scenario in a fresh session without its When steps, with \(what): \(seen)")
        return outcome
    }

    /// Whether the last registration after the replay's trigger succeeded at the platform and its
    /// passkey is now active on the server for `alias`.
    private func storedRegistration(_ alias: String, conditional: Bool) async throws -> ProbeOutcome {
        try await quiesce()
        let made = operationsSinceTrigger.filter { $0.kind == .create && ($0.registration?.conditional == true) == conditional && $0.outcome.error == nil }
        guard let operation = made.last, let id = operation.createdCredentialID else {
            let kind = conditional ? "conditional" : "explicit"
            return .inconclusive("the credential manager created no passkey for the \(kind) registration request")
        }
        let account = try await inspect(alias)
        guard account.credentials.contains(where: { $0.credentialID == id && $0.state == .active }) else {
            return .refused("the server did not store \(Base64URL.encode(id)) (\(operation.response?.flagsText ?? "?")) for \(account.username)")
        }
        return .accepted
    }

    /// Flags as the scenarios write them: `UP=1 UV=1 BE=0 BS=0`.
    static func text(_ flags: ProviderState.Flags) -> String {
        [("UP", flags.userPresent), ("UV", flags.userVerified), ("BE", flags.backupEligible), ("BS", flags.backedUp)]
            .map { "\($0.0)=\($0.1 ? 1 : 0)" }.joined(separator: " ")
    }

    /// Flags that exercise none of N2.6-X01's demands: user present and verified, not backup eligible.
    static let flagsX01DoesNotJudge = ProviderState.Flags(userPresent: true, userVerified: true, backupEligible: false, backedUp: false)
}
