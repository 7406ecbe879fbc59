import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

/// Decision points that only the mutants of a lost answer override: the server committed what the
/// app asked (a sign-in, a registration, a list read), the answer never reached the app. Each
/// conforming value is the reference's behaviour.
struct LostAnswerForms: Sendable {
    /// When an answer was lost, submits the same response once more even where the design does not
    /// (a mutant needs the retry's refusal to misread it).
    var resubmitsOnce = false
    /// Takes the refusal of a resubmitted assertion, after its first answer was lost, as proof that
    /// the credential is unknown: reports it after this delay (0: at once).
    var unknownAfterRefusedAssertionRetryMillis: Int64?
    /// Takes the refusal of a resubmitted registration ("already registered", no such ceremony), after
    /// its first answer was lost, as proof that the new credential is unknown: reports it after this
    /// delay (0: at once).
    var unknownAfterRefusedRegistrationRetryMillis: Int64?
    /// After a registration whose answer was lost, sends the accepted list without the passkey it could
    /// not confirm, after this delay (0: at once).
    var listWithoutUnconfirmedPasskeyMillis: Int64?
    /// What the app sends when the answer to its read of the accepted list was lost: nothing (`nil`),
    /// an empty list, or the list it received last.
    var afterLostList: LostList?
    /// After an automatic upgrade whose registration answer was lost, asks the credential manager
    /// for another conditional registration after this delay (0: at once).
    var reasksUpgradeAfterLostAnswerMillis: Int64?

    enum LostList: Sendable, Hashable {
        case empty
        case lastReceived
    }
}

/// The mutants of a lost answer (issue 29, "an answer lost after the server committed"): a lost
/// answer taken as a reason to ask for the upgrade again, the retry's refusal read as an unknown
/// credential, a list built from what the app believes rather than what the server holds, and a
/// lost list read filled in. Each in two forms.
extension Mutation {
    // MARK: N3.2-AC02: the retry's refusal read as an unknown credential

    /// Resubmits an assertion whose answer was lost and reports the credential as unknown when the
    /// server refuses the replay.
    package static let unknownAfterRefusedAssertionRetry = Mutation(
        "unknown-after-refused-assertion-retry", "N3.2-AC02", ["N3.2-AC02.V6"],
        "resubmits a passkey sign-in whose answer was lost after the server signed the user in, and sends the unknown-credential signal when the server refuses the replay",
        form: "an unknown-credential signal at once after the refused retry of a sign-in",
        appliesTo: Self.replayRefused
    ) { decisions in
        decisions.lostAnswers.resubmitsOnce = true
        decisions.lostAnswers.unknownAfterRefusedAssertionRetryMillis = 0
    }

    /// The same, from a timer a minute later.
    package static let unknownLaterAfterRefusedAssertionRetry = Mutation(
        "unknown-later-after-refused-assertion-retry", "N3.2-AC02", ["N3.2-AC02.V6"],
        "resubmits a passkey sign-in whose answer was lost after the server signed the user in, and a minute after the server refuses the replay reports the credential as unknown from a timer",
        form: "a timer-driven unknown-credential signal after the refused retry of a sign-in",
        appliesTo: Self.replayRefused
    ) { decisions in
        decisions.lostAnswers.resubmitsOnce = true
        decisions.lostAnswers.unknownAfterRefusedAssertionRetryMillis = 60_000
    }

    /// Resubmits a registration whose answer was lost and reports the new passkey as unknown when
    /// the server refuses the replay.
    package static let unknownAfterRefusedRegistrationRetry = Mutation(
        "unknown-after-refused-registration-retry", "N3.2-AC02", ["N3.2-AC02.V6"],
        "resubmits a registration whose answer was lost after the server stored the passkey, and reports the new passkey as unknown when the server refuses the replay",
        form: "an unknown-credential signal at once for the passkey whose registration retry was refused",
        appliesTo: Self.replayRefused
    ) { decisions in
        decisions.lostAnswers.resubmitsOnce = true
        decisions.lostAnswers.unknownAfterRefusedRegistrationRetryMillis = 0
    }

    /// The same, from a timer a minute later.
    package static let unknownLaterAfterRefusedRegistrationRetry = Mutation(
        "unknown-later-after-refused-registration-retry", "N3.2-AC02", ["N3.2-AC02.V6"],
        "resubmits a registration whose answer was lost after the server stored the passkey, and a minute after the server refuses the replay reports the new passkey as unknown from a timer",
        form: "a timer-driven unknown-credential signal for the passkey whose registration retry was refused",
        appliesTo: Self.replayRefused
    ) { decisions in
        decisions.lostAnswers.resubmitsOnce = true
        decisions.lostAnswers.unknownAfterRefusedRegistrationRetryMillis = 60_000
    }

    // MARK: N3.2-AC04: a list of what the app believes

    /// After a registration whose answer was lost, sends the accepted list without the new passkey.
    package static let listWithoutUnconfirmedPasskey = Mutation(
        "list-without-unconfirmed-passkey", "N3.2-AC04", ["N3.2-AC04.V4"],
        "after a registration whose answer was lost, sends at once the accepted list without the passkey the server stored but the app could not confirm",
        form: "a list at once without the passkey whose answer was lost",
        appliesTo: Self.replayNotAnswered
    ) { $0.lostAnswers.listWithoutUnconfirmedPasskeyMillis = 0 }

    /// The same, from a timer a minute later.
    package static let listLaterWithoutUnconfirmedPasskey = Mutation(
        "list-later-without-unconfirmed-passkey", "N3.2-AC04", ["N3.2-AC04.V4"],
        "after a registration whose answer was lost, sends a minute later, from a timer, the accepted list without the passkey the server stored but the app could not confirm",
        form: "a timer-driven list without the passkey whose answer was lost",
        appliesTo: Self.replayNotAnswered
    ) { $0.lostAnswers.listWithoutUnconfirmedPasskeyMillis = 60_000 }

    // MARK: N3.2-AC04: a lost list read filled in

    /// Sends an empty list when the answer to its read of the accepted list was lost.
    package static let emptyListWhenAnswerLost = Mutation(
        "empty-list-when-answer-lost", "N3.2-AC04", ["N3.2-AC04.V3"],
        "sends an empty accepted list when the answer to its read of the list was lost on the way back",
        form: "an empty list in place of a lost answer"
    ) { $0.lostAnswers.afterLostList = .empty }

    /// Sends the list it received last when the answer to its read of the accepted list was lost.
    package static let lastListWhenAnswerLost = Mutation(
        "last-list-when-answer-lost", "N3.2-AC04", ["N3.2-AC04.V3"],
        "sends the accepted list it received at its previous reconciliation when the answer to its read of the list was lost on the way back",
        form: "the previous list in place of a lost answer"
    ) { $0.lostAnswers.afterLostList = .lastReceived }

    // MARK: N2.6-AC05: a lost answer taken as a reason to ask again

    /// Asks for another conditional registration at once when the upgrade's answer was lost.
    package static let reaskUpgradeAfterLostAnswer = Mutation(
        "reask-upgrade-after-lost-answer", "N2.6-AC05", ["N2.6-AC05.V7"],
        "asks the credential manager for another conditional registration at once when the answer to the upgrade's registration was lost after the server stored the passkey",
        form: "a new conditional request at once after a lost answer",
        appliesTo: Self.replayNotAnswered
    ) { $0.lostAnswers.reasksUpgradeAfterLostAnswerMillis = 0 }

    /// The same, from a timer 30 seconds later.
    package static let reaskUpgradeLaterAfterLostAnswer = Mutation(
        "reask-upgrade-later-after-lost-answer", "N2.6-AC05", ["N2.6-AC05.V7"],
        "asks the credential manager for another conditional registration 30 seconds after the answer to the upgrade's registration was lost, from a timer",
        form: "a timer-driven conditional request after a lost answer",
        appliesTo: Self.replayNotAnswered
    ) { $0.lostAnswers.reasksUpgradeAfterLostAnswerMillis = 30_000 }

    /// Whether the server of a design refuses a replayed response (a mutant that resubmits meets the
    /// refusal it misreads): not one that answers it with the same success.
    static let replayRefused: @Sendable (ReferenceDesign) -> Bool = { $0.replayAnswer == .refuse }

    /// Whether a design leaves a registration unconfirmed after its answer was lost: it does not
    /// resubmit, or its server refuses the replay.
    static let replayNotAnswered: @Sendable (ReferenceDesign) -> Bool = { $0.replayAnswer == .refuse || $0.submissionRetries == 0 }

    /// The mutants of a lost answer, in report order.
    static let lostAnswerMutants: [Mutation] = [
        .reaskUpgradeAfterLostAnswer, .reaskUpgradeLaterAfterLostAnswer, .unknownAfterRefusedAssertionRetry, .unknownLaterAfterRefusedAssertionRetry,
        .unknownAfterRefusedRegistrationRetry, .unknownLaterAfterRefusedRegistrationRetry, .listWithoutUnconfirmedPasskey,
        .listLaterWithoutUnconfirmedPasskey, .emptyListWhenAnswerLost, .lastListWhenAnswerLost,
    ]
}

extension ReferenceSession {
    /// How many times the app submits a response again after its answer was lost: the design's
    /// resubmissions (F-retry), or one for a mutant that needs the retry's refusal.
    var resubmissionsAfterLostAnswer: Int64 { max(design.submissionRetries, decisions.lostAnswers.resubmitsOnce ? 1 : 0) }

    /// Whether the server's answer to the request it just committed is lost on the way back (one
    /// strike of `answer-lost-after-commit`).
    func answerLost() -> Bool { state.server.store.take(.answerLostAfterCommit) }

    /// Sends `intent` after `delay` (0: at once), from a timer.
    func send(_ intent: SignalScheduler.Intent, afterMillis delay: Int64, label: String) async {
        guard delay > 0 else {
            await send(intent)
            return
        }
        guard signalInterface != nil else { return }
        let timer = await host.scheduleTimer(afterMillis: delay, label: label)
        state.app.signals.timerIntents[timer] = intent
    }

    /// The server refused an assertion the app resubmitted after the first answer was lost: a
    /// mutant reads the refusal as an unknown credential.
    func refusedAssertionRetry(_ unknown: SignalScheduler.Intent) async {
        guard let delay = decisions.lostAnswers.unknownAfterRefusedAssertionRetryMillis else { return }
        await send(unknown, afterMillis: delay, label: "report the credential whose retried sign-in was refused")
    }

    /// The server refused a registration the app resubmitted after the first answer was lost: a
    /// mutant reads the refusal as an unknown credential.
    func refusedRegistrationRetry(rpID: String, credentialID: Data?) async {
        guard let delay = decisions.lostAnswers.unknownAfterRefusedRegistrationRetryMillis, let credentialID else { return }
        await send(.unknown(rpID: rpID, credentialID: credentialID), afterMillis: delay, label: "report the passkey whose retried registration was refused")
    }

    /// A registration's answer was lost (and its retries, if any, refused or lost too): a mutant
    /// sends the list it believes, without the passkey it could not confirm.
    func registrationUnconfirmed(username: String, credentialID: Data?) async {
        guard let delay = decisions.lostAnswers.listWithoutUnconfirmedPasskeyMillis, let credentialID else { return }
        let believed = state.server.acceptedIDs(username).filter { $0 != credentialID }
        await send(.fixedList(username: username, ids: believed), afterMillis: delay, label: "reconcile the passkeys the app knows of")
    }

    /// An automatic upgrade's registration answer was lost: a mutant asks for another one.
    func upgradeAnswerLost(token: String, username: String) async {
        guard let delay = decisions.lostAnswers.reasksUpgradeAfterLostAnswerMillis else { return }
        guard delay > 0 else {
            await startRegistration(conditional: true, token: token, username: username)
            return
        }
        let timer = await host.scheduleTimer(afterMillis: delay, label: "ask for the automatic upgrade again")
        state.app.delayedUpgrades[timer] = (token, username)
    }

    /// The credential id of a registration the platform made, whichever platform.
    static func registeredCredentialID(_ outcome: PlatformOutcome) -> Data? {
        switch outcome {
        case .appleRegistration(let apple): return apple.credentialID
        case .androidRegistration(let json), .webRegistration(let json):
            return (try? JSONValue.parse(Data(json.utf8)))?["rawId"]?.stringValue.flatMap(Base64URL.decodeIfValid)
        case .androidAuthentication, .appleAssertion, .webAuthentication, .signalAccepted, .failure: return nil
        }
    }

    /// The list the app sends when the answer to its read of `username`'s accepted list was lost:
    /// nothing in the conforming app; a mutant's empty or previous list.
    func listAfterLostAnswer(_ username: String) -> [Data]? {
        switch decisions.lostAnswers.afterLostList {
        case nil: return nil
        case .empty: return []
        case .lastReceived: return state.app.signals.lastReceivedLists[username]
        }
    }
}

extension ReferenceSession {
    /// Why a list was not sent when the answer to its read was lost.
    static let lostListAnswer = Server.Refusal("the answer to the read of the accepted list was lost")

    /// The accepted list of `username` as the app receives it from its server: the server assembles
    /// it (or says why it cannot), and the answer may be lost on the way back. A design that reads
    /// again after a failed read asks once more (F-retry); a list never received is not sent.
    func assembleReceivedList(_ username: String) -> Result<[Data], Server.Refusal> {
        var assembled = state.server.assembleAcceptedList(username)
        guard case .success = assembled, answerLost() else { return assembled }
        guard design.unusableList == .refetch else { return .failure(Self.lostListAnswer) }
        assembled = state.server.assembleAcceptedList(username)
        if case .success = assembled, answerLost() { return .failure(Self.lostListAnswer) }
        return assembled
    }
}

extension ReferenceSession {
    /// The RP ID of the account a pending registration is for.
    func pendingRPID(_ pending: PendingRegistration) -> String {
        state.server.accounts[pending.username]?.rpID ?? ReferenceRP.relyingPartyIDs[0]
    }
}
