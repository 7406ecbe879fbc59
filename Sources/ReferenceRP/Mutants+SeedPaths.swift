import ConformanceModel
import ConformanceSimulation
import Foundation

/// Decision points that only the mutants of the seed paths override (a response naming another RP
/// ID or that cannot be read, a credential id registered twice, the rate budget across RPs): each
/// conforming value is the reference's behaviour.
struct SeedPathForms: Sendable {
    /// Reports the presented credential as unknown after a sign-in refused because its authenticator
    /// data names another RP ID, after this delay (0: at once).
    var unknownAfterRPIDRefusalMillis: Int64?
    /// Reports the presented credential as unknown after a sign-in refused because its response cannot
    /// be read, after this delay (0: at once).
    var unknownAfterMalformedResponseMillis: Int64?
    /// What the server does with a registration whose credential id it already holds: refuses it
    /// (`nil`), stores it a second time, or gives the id to the new registration.
    var duplicateCredentialID: DuplicateCredentialID?

    enum DuplicateCredentialID: Sendable, Hashable {
        case storeAgain
        case takeOver
    }

    /// Which Android signal calls the app's ten-per-120-seconds budget counts together: every RP's
    /// (`nil`), each RP ID's apart, or the primary RP's only (the others go uncounted).
    var budgetScope: BudgetScope?

    enum BudgetScope: Sendable, Hashable {
        case perRPID
        case primaryRPOnly
    }
}

/// The mutants of the seed sentences no other scenario drives: "Do not send it for ... RP or origin
/// mismatch ... and verification errors". Each in two forms.
extension Mutation {
    // MARK: N3.2-AC02: an unknown-credential signal after another RP ID or a malformed response

    /// Reports the presented credential as unknown when the authenticator data named another RP ID.
    package static let unknownOnRPIDRefusal = Mutation(
        "unknown-on-rp-id-refusal", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential when the server refused the sign-in because its authenticator data names another RP ID",
        form: "an unknown-credential signal at once after an RP ID refusal"
    ) { $0.seedPaths.unknownAfterRPIDRefusalMillis = 0 }

    /// The same, 30 seconds later from a timer.
    package static let unknownLaterOnRPIDRefusal = Mutation(
        "unknown-later-on-rp-id-refusal", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential 30 seconds after the server refused the sign-in for another RP ID, from a timer",
        form: "a timer-driven unknown-credential signal after an RP ID refusal"
    ) { $0.seedPaths.unknownAfterRPIDRefusalMillis = 30_000 }

    /// Reports the presented credential as unknown when its response could not be read.
    package static let unknownOnMalformedResponse = Mutation(
        "unknown-on-malformed-response", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential when the server refused the sign-in because its response cannot be read",
        form: "an unknown-credential signal at once after a malformed response"
    ) { $0.seedPaths.unknownAfterMalformedResponseMillis = 0 }

    /// The same, 30 seconds later from a timer.
    package static let unknownLaterOnMalformedResponse = Mutation(
        "unknown-later-on-malformed-response", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential 30 seconds after the server refused the sign-in because its response cannot be read, from a timer",
        form: "a timer-driven unknown-credential signal after a malformed response"
    ) { $0.seedPaths.unknownAfterMalformedResponseMillis = 30_000 }

    // MARK: N2.6-AC04: server-side credential uniqueness

    /// Stores a registration whose credential id the server already holds as a second record.
    package static let duplicateCredentialIDStored = Mutation(
        "duplicate-credential-id-stored", "N2.6-AC04", ["N2.6-AC04.V4"],
        "stores a registration whose credential id the server already holds for another account as a second record with that id",
        form: "a second record under an id the server holds"
    ) { $0.seedPaths.duplicateCredentialID = .storeAgain }

    /// Gives a credential id the server already holds to the new registration.
    package static let duplicateCredentialIDTakesOver = Mutation(
        "duplicate-credential-id-takes-over", "N2.6-AC04", ["N2.6-AC04.V4"],
        "accepts a registration whose credential id the server already holds for another account and moves the id, with the new key, to the registering account",
        form: "an id the server holds moved to the new registration"
    ) { $0.seedPaths.duplicateCredentialID = .takeOver }

    // MARK: N3.2-AC05: the rate window across every RP

    /// Keeps the Android budget for each RP ID apart.
    package static let rateBudgetPerRPID = Mutation(
        "rate-budget-per-rp-id", "N3.2-AC05", ["N3.2-AC05.V1"],
        "keeps the Android budget of ten signal calls per 120 seconds for each RP ID apart, so that two RPs together make more than ten",
        form: "a budget per RP ID"
    ) { $0.seedPaths.budgetScope = .perRPID }

    /// Counts only the primary RP's signals against the Android budget.
    package static let rateBudgetPrimaryRPOnly = Mutation(
        "rate-budget-primary-rp-only", "N3.2-AC05", ["N3.2-AC05.V1"],
        "counts only the primary RP's signal calls against the Android budget; the other RPs' calls go out uncounted",
        form: "a budget that leaves the other RPs' calls out"
    ) { $0.seedPaths.budgetScope = .primaryRPOnly }

    /// The mutants of the seed paths, in report order.
    static let seedPathMutants: [Mutation] = [
        .unknownOnRPIDRefusal, .unknownLaterOnRPIDRefusal, .unknownOnMalformedResponse, .unknownLaterOnMalformedResponse, .duplicateCredentialIDStored,
        .duplicateCredentialIDTakesOver, .rateBudgetPerRPID, .rateBudgetPrimaryRPOnly,
    ]
}

extension ReferenceSession {
    /// After a sign-in the server refused for another RP ID or a malformed response: a mutant reports
    /// the credential as unknown, at once or later.
    func responseRefused(_ result: Server.AuthenticationResult, _ unknown: SignalScheduler.Intent) async {
        let delay: Int64?
        switch result {
        case .rpIDRefused: delay = decisions.seedPaths.unknownAfterRPIDRefusalMillis
        case .malformed: delay = decisions.seedPaths.unknownAfterMalformedResponseMillis
        default: delay = nil
        }
        guard let delay else { return }
        await send(unknown, afterMillis: delay, label: "report the credential the server refused")
    }
}

extension ReferenceSession {
    /// The RP ID a signal is for (the primary RP's for a mutant's replayed payload).
    func budgetRPID(of intent: SignalScheduler.Intent) -> String {
        switch intent {
        case .unknown(let rpID, _): return rpID
        case .reconcile(let username), .userDetails(let username, _, _), .fixedList(let username, _):
            return state.server.accounts[username]?.rpID ?? ReferenceRP.relyingPartyIDs[0]
        case .resend: return ReferenceRP.relyingPartyIDs[0]
        }
    }

    /// Whether the Android budget counts a call for `rpID`: always, but for a mutant's primary-only budget.
    func countsInBudget(_ rpID: String) -> Bool {
        decisions.seedPaths.budgetScope != .primaryRPOnly || rpID == ReferenceRP.relyingPartyIDs[0]
    }

    /// The calls the budget holds a call for `rpID` to: every RP's, or a mutant's one RP's.
    func budgetCalls(_ calls: [(at: Int64, kind: String, rpID: String)], rpID: String) -> [(at: Int64, kind: String, rpID: String)] {
        decisions.seedPaths.budgetScope == .perRPID ? calls.filter { $0.rpID == rpID } : calls
    }
}
