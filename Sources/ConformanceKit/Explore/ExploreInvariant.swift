import Foundation

/// A property of the criteria that `explore` checks after every step of a random history, with
/// its check and the `Then` steps that state it in a regression scenario.
///
/// Each names the criterion and the verify items it stands for; `Criteria/invariants.md` lists them
/// for auditors. An invariant is never stricter than its criterion: the reference RP and every
/// conforming design must break none (the explore self-test proves it).
public struct ExploreInvariant: Sendable, Hashable, Identifiable {
    /// The invariant's stable name, e.g. `upgrade-only-after-complete-sign-in`.
    public let id: String
    /// The criterion it checks, e.g. `N2.6-AC01`.
    public let criterion: CriterionID
    /// The verify items a violation can name, the one it stands for first (e.g. `N2.6-AC01.V1`,
    /// then the items of the sign-ins that do not qualify).
    public let items: [VerifyItemID]
    /// What must hold, in one sentence.
    public let statement: String
    /// How and when it is checked.
    let check: Check
    /// The `Then` steps of the step library that state the invariant for a history whose Background
    /// created the given accounts (`alice`, `bob`, …), most specific first; a shrunk history's
    /// regression scenario keeps the first that fails on the explored relying party.
    let thenSteps: @Sendable (_ aliases: [String]) -> [String]

    /// The verify item it stands for, e.g. `N2.6-AC01.V1`.
    public var item: VerifyItemID { items[0] }

    /// Creates an invariant; `items` must not be empty.
    init(
        _ id: String, criterion: CriterionID, items: [VerifyItemID], statement: String,
        thenSteps: @escaping @Sendable (_ aliases: [String]) -> [String], check: Check
    ) {
        precondition(!items.isEmpty, "an invariant names at least one verify item")
        self.id = id
        self.criterion = criterion
        self.items = items
        self.statement = statement
        self.thenSteps = thenSteps
        self.check = check
    }

    /// The `Then` steps that state the invariant for a history with the given accounts.
    public func checks(aliases: [String]) -> [String] { thenSteps(aliases) }

    /// The check that `count` registration requests were issued.
    static func exactlyIssued(_ count: Int) -> String {
        count == 1 ? "exactly 1 registration request has been issued" : "exactly \(count) registration requests have been issued"
    }

    /// The check that the server holds `count` passkeys for an account.
    static func serverHolds(_ count: Int, _ alias: String) -> String {
        "the server holds \(count) passkey\(count == 1 ? "" : "s") for \"\(alias)\""
    }

    /// What a check found: the verify item broken (`nil`: the invariant's own) and what was seen.
    struct Breach {
        var item: VerifyItemID?
        var message: String
        init(item: VerifyItemID? = nil, _ message: String) {
            self.item = item
            self.message = message
        }
    }

    /// The moment of a step at which an invariant is checked, and its check there. The monitor
    /// takes the moments in this order, and the invariants of one moment in the order of ``all``.
    enum Check: Sendable {
        /// On a user action, before the step's own events count: what the history owed by then.
        case obligation(@Sendable (InvariantMonitor.StepFacts, InvariantMonitor.Record) -> Breach?)
        /// Each registration request the step issued, in call order.
        case registrationRequest(@Sendable (InvariantMonitor.RequestFacts, InvariantMonitor.StepFacts, InvariantMonitor.Record) -> Breach?)
        /// The step as a whole, once its events count.
        case step(@Sendable (InvariantMonitor.StepFacts, InvariantMonitor.Record) -> Breach?)
        /// Each signal call the step made, in call order.
        case signal(@Sendable (PlatformOperation, InvariantMonitor.StepFacts) -> Breach?)
        /// Every signal call so far, after a step that made one.
        case signalCalls(@Sendable (InvariantMonitor.StepFacts, InvariantMonitor.Record) -> Breach?)
    }

    /// Every invariant `explore` checks, in the order they are checked within a moment.
    public static let all: [ExploreInvariant] = [
        qualifyingSignInGetsARequest, requestIsConditional, upgradeOnlyAfterCompleteSignIn, oneRequestPerQualifyingSignIn,
        requestForSignedInAccount, requestExcludesKnownPasskeys, noErrorAfterExpectedNoOp, noCredentialFromChangedContext,
        liveResponseIsStored, upWaivedOnlyForConditional, noUnavailableInterface, signalIDsExact, unknownOnlyForUnknownIDs, signalsOnlyWhileSignedIn,
        acceptedListIsServerList,
        signalNamesAccountRPID, androidRateWindow, retryAfterRetryMillis,
    ]

    /// Invariants are equal when their names are: a name stands for one check.
    public static func == (lhs: ExploreInvariant, rhs: ExploreInvariant) -> Bool { lhs.id == rhs.id }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// An invariant broken by a history: which, after which step, and the evidence.
public struct ExploreViolation: Sendable, Hashable {
    /// The invariant broken.
    public var invariant: ExploreInvariant
    /// The verify item broken: one of the invariant's `items`.
    public var item: VerifyItemID
    /// The index (from 0) of the history step after which it was seen.
    public var stepIndex: Int
    /// What was seen, citing the transcript.
    public var message: String
}
