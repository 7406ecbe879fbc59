import Foundation
import WebAuthn

extension StepLibrary {
    /// Steps that prove a scenario's path was reached: the trigger happened (the creation succeeded
    /// and the server stored the passkey, the revocation took effect, the refresh point was reached
    /// signed in), or the failure had the reason the item is about (the platform reported the
    /// cancellation, refused for an excluded passkey, the server refused the response).
    ///
    /// Controls guard, they do not blame: a proof that fails leaves the items it guards *not
    /// verified*, saying what was seen and, where another criterion judges the cause, pointing at it.
    static let pathProofSteps: [StepDefinition] = [
        StepDefinition("the creation took the path: the server stored the passkey the platform made for {string}", accounts: .uses(0)) {
            world, arguments in
            try await world.quiesce()
            let creates = world.operationsSinceTrigger.filter { $0.kind == .create }
            guard !creates.isEmpty else {
                return .notVerified(
                    "the creation this scenario needs did not happen: the app issued no registration request after the trigger, so its path was not reached")
            }
            let made = creates.filter { $0.outcome.error == nil && $0.createdCredentialID != nil }
            guard let last = made.last else {
                return .notVerified(
                    "the creation this scenario needs did not succeed: the platform answered "
                        + creates.map { "\(StepSupport.cite($0)) with \($0.outcome.error?.name ?? "an unreadable result")" }.joined(separator: ", ")
                        + ", so its path was not reached")
            }
            let active = Set(try await world.inspect(arguments[0]).credentials.filter { $0.state == .active }.map(\.credentialID))
            if made.contains(where: { $0.createdCredentialID.map(active.contains) == true }) { return .passed }
            return .notVerified(try await world.unstoredCreation(last, alias: arguments[0]))
        },
        StepDefinition("the creation took the path: the platform made the passkey and the server refused it") { world, _ in
            try await world.quiesce()
            let creates = world.operationsSinceTrigger.filter { $0.kind == .create }
            guard let made = creates.last(where: { $0.outcome.error == nil }), let id = made.createdCredentialID else {
                return .notVerified(
                    "the platform made no passkey for the creation this scenario needs the server to refuse ("
                        + (creates.isEmpty
                            ? "the app issued no registration request"
                            : creates.map { "\(StepSupport.cite($0)) \($0.outcome.error?.name ?? "unreadable")" }.joined(separator: ", "))
                        + "), so its path was not reached")
            }
            for alias in world.accounts.keys.sorted() {
                let account = try await world.inspect(alias)
                if account.credentials.contains(where: { $0.credentialID == id && $0.state == .active }) {
                    return .notVerified(
                        "the server stored \(Base64URL.encode(id)) of \(StepSupport.cite(made)) for \(account.username) although its response answers a "
                            + "challenge the server never issued (WebAuthn Level 3, §7.1): the refused creation this scenario needs did not happen, "
                            + "so its path was not reached")
                }
            }
            return .passed
        },
        StepDefinition("the creation took the path: the platform reported the cancellation") { world, _ in
            try await world.creationFailed(for: .cancelled, "the user's cancellation")
        },
        StepDefinition("the creation took the path: the platform refused it for a passkey the credential manager already holds") { world, _ in
            try await world.creationFailed(for: .excluded, "an excluded passkey the credential manager holds")
        },
        StepDefinition("the revocation took the path: the server no longer accepts the passkeys the user revoked for {string}", accounts: .uses(0)) {
            world, arguments in
            try await world.quiesce()
            var revoked: [Data] = []
            for text in (world.notes[World.revokedNote] ?? "").split(separator: " ") {
                if let id = Base64URL.decodeIfValid(String(text)), !revoked.contains(id) { revoked.append(id) }
            }
            guard !revoked.isEmpty else { throw SystemIssue("no step revoked a passkey of \(arguments[0]) before this one") }
            let refusals = world.answers.filter {
                $0.action.kind == .revokePasskey && $0.outcome.status == .rejected && $0.answered > (world.triggerSequence ?? 0)
            }
            if let refusal = refusals.last {
                return .notVerified(
                    "the app refused the revocation this scenario needs (#\(refusal.answered) \(refusal.text)), so its path was not reached; "
                        + "revoking a passkey from the app is N3.2-AC01's passkey management — see N3.2-AC01.V1")
            }
            let account = try await world.inspect(arguments[0])
            let still = revoked.filter { id in account.credentials.contains { $0.credentialID == id && $0.state == .active } }
            guard still.isEmpty else {
                return .notVerified(
                    "the revocation this scenario needs did not take effect: the server still accepts "
                        + still.map(Base64URL.encode).joined(separator: ", ")
                        + " of \(account.username) after the user revoked it, so its path was not reached — see N3.2-AC01.V1")
            }
            return .passed
        },
        StepDefinition("the refresh point took the path: the app reached it signed in as {string}", accounts: .uses(0)) { world, arguments in
            let username = try world.account(arguments[0]).username
            let reached = try await world.refreshPointReached()
            return reached == "signed in as \(username)"
                ? .passed
                : .notVerified(
                    "the app answered its refresh point \(reached), not signed in as \(username): the authenticated refresh point this scenario needs was not reached"
                )
        },
        StepDefinition("the refresh point took the path: the app reached it signed out") { world, _ in
            let reached = try await world.refreshPointReached()
            return reached == "signed out"
                ? .passed
                : .notVerified("the app answered its refresh point \(reached): the signed-out refresh point this scenario needs was not reached")
        },
        // The automatic upgrade's own liveness control (N2.6-AC05): a server that refuses the
        // upgrade's UP=0 registration is N2.6-X01's fault, counted there.
        StepDefinition("the upgrade took the path: the server stored the passkey the credential manager created for {string}", accounts: .uses(0)) {
            world, arguments in
            try await world.quiesce()
            let username = try world.account(arguments[0]).username
            let made = world.operationsSinceTrigger.filter {
                $0.kind == .create && $0.registration?.userName == username && $0.outcome.error == nil && $0.createdCredentialID != nil
            }
            guard let last = made.last else {
                // The steps before it judge the request; this control only proves the success path.
                return .notVerified(
                    "the credential manager created no passkey for \(username) after the trigger ("
                        + world.registrations.map { "\(StepSupport.cite($0)) \($0.outcome.error.map { "\($0.name)" } ?? "ok")" }.joined(separator: ", ")
                        + "), so the success path this control guards was not reached")
            }
            let active = Set(try await world.inspect(arguments[0]).credentials.filter { $0.state == .active }.map(\.credentialID))
            if made.contains(where: { $0.createdCredentialID.map(active.contains) == true }) { return .passed }
            let unstored =
                "the server holds no passkey of \(username) from \(StepSupport.cite(last)) (\(last.response?.flagsText ?? "?")) once the app has nothing left scheduled"
            return try await world.pointAtX01(alias: arguments[0], unstored)
        },
    ]
}

extension World {
    /// The note the revocation steps leave: the revoked credential ids, base64url, space-separated.
    static let revokedNote = "passkeys revoked by the user"

    /// Notes a passkey the user revoked, for the revocation's path proof.
    func noteRevoked(_ id: Data) {
        notes[Self.revokedNote] = ((notes[Self.revokedNote].map { [$0] } ?? []) + [Base64URL.encode(id)]).joined(separator: " ")
    }

    /// How the app's last refresh point after the trigger went: `rejected: …` when the app refused
    /// it, else how its session is once the app has settled (`signed in as <username>`, `signed out`).
    func refreshPointReached() async throws -> String {
        try await quiesce()
        let from = triggerSequence ?? 0
        guard let answer = answers.last(where: { $0.answered > from && $0.action.kind == .refresh }) else {
            throw SystemIssue("no When step reached the app's refresh point before this one")
        }
        if answer.outcome.status == .rejected { return "with \(answer.text)" }
        let session = try await inspectSession()
        return session.stage == .signedIn ? "signed in as \(session.username ?? "?")" : session.stage == .signedOut ? "signed out" : session.stage.rawValue
    }

    /// Why the server holds nothing of a registration the platform made for the scenario's creation,
    /// pointing at N2.6-X01 when the same creation answered with flags X01 does not judge is stored.
    func unstoredCreation(_ operation: PlatformOperation, alias: String) async throws -> String {
        let flags = operation.response?.flagsText ?? "?"
        let unstored = "the creation this scenario needs did not succeed: the server did not store the passkey of \(StepSupport.cite(operation)) (\(flags))"
        switch try await probeExplicitCreation(alias, flags: Self.flagsX01DoesNotJudge) {
        case .accepted:
            let probe = Self.text(Self.flagsX01DoesNotJudge).split(separator: " ")
            let differing = flags.split(separator: " ").filter { !probe.contains($0) }.joined(separator: " ")
            return unstored + "; it stores the same creation answered with \(Self.text(Self.flagsX01DoesNotJudge)), so the server refused the passkey "
                + "for its flags (\(differing)), which N2.6-X01 demands a server accept — see N2.6-X01"
        case .refused(let seen), .inconclusive(let seen):
            return unstored + "; answered with \(Self.text(Self.flagsX01DoesNotJudge)) in the same scenario without its When steps, \(seen), "
                + "so the flags are not the cause; the scenario's path was not reached"
        }
    }

    /// A control of the automatic upgrade that found no stored passkey: *not verified* with a pointer
    /// to N2.6-X01 when the server refuses X01's own case in the same scenario without its `When`
    /// steps, else failed with what was seen. A server that refuses X01's own case fails X01 there,
    /// whatever the reason (its flags, an origin it does not accept): the cause is counted once.
    func pointAtX01(alias: String, _ unstored: String) async throws -> StepOutcome {
        switch try await probeAutomaticUpgrade(alias) {
        case .refused(let seen):
            return .notVerified(
                unstored + "; in the same scenario without its When steps the server refuses N2.6-X01's own case as well (\(seen)): "
                    + "the server refused a UP=0 registration of an automatic upgrade, which N2.6-X01 demands it accept, so this control is not "
                    + "verified here — see N2.6-X01")
        case .accepted:
            return .failed(unstored + "; the server stores N2.6-X01's own case (the same registration answered at once), so its flags are not the cause")
        case .inconclusive(let seen):
            return .failed(unstored + " (whether N2.6-X01 explains it could not be told: \(seen))")
        }
    }

    /// The path proof of a creation that must fail at the platform for `refusal`: the platform's
    /// answer is the family's error for it and the server stored nothing.
    func creationFailed(for refusal: CreateRefusal, _ what: String) async throws -> StepOutcome {
        try await quiesce()
        let creates = operationsSinceTrigger.filter { $0.kind == .create }
        guard let last = creates.last else {
            return .notVerified("the app issued no registration request after the trigger, so the failed creation this scenario needs did not happen")
        }
        let expected = PlatformFamilies.simulation(of: last.call.platform).createError(refusal, on: target)
        guard let error = last.outcome.error, error.name == expected.name, error.type == expected.type, error.code == expected.code else {
            return .notVerified(
                "the platform answered \(StepSupport.cite(last)) with \(last.outcome.error.map { "\($0.name)" } ?? "a new passkey"), not with "
                    + "\(expected.name) for \(what): the failed creation this scenario needs did not happen, so its path was not reached")
        }
        return .passed
    }
}
