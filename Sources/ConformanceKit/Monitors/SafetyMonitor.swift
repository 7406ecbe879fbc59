import Foundation

/// A "never" or "only" demand of a criterion, checked over every test case of a run, whatever
/// criterion the scenario was written for (DESIGN.md, *Safety everywhere*).
///
/// A scenario proves what its criterion's items ask along the path it drives; a monitor watches
/// every platform call of every test case for the calls the demand forbids. It judges each call
/// against what the server and the app's session held just before and just after the relying
/// party's call that made it, never by difference with a replay (the replay may do the same wrong),
/// and never more strictly than its criterion: a call that one of those two states allows passes.
///
/// `list --monitors` lists them; `Criteria/invariants.md` names the verify item each one fails.
public struct SafetyMonitor: Sendable, Identifiable {
    /// The monitor's stable name, e.g. `signals-only-while-signed-in`.
    public let id: String
    /// The verify items a breach can fail, the one it stands for first.
    public let items: [VerifyItemID]
    /// What must hold at every moment of every test case, in one sentence.
    public let statement: String
    /// How it judges a platform call.
    let judge: Judge

    /// The criterion whose item a breach fails.
    public var criterion: CriterionID { items[0].criterion }
    /// The verify item it stands for.
    public var item: VerifyItemID { items[0] }

    init(_ id: String, items: [VerifyItemID], statement: String, judge: Judge) {
        precondition(!items.isEmpty, "a monitor names at least one verify item")
        self.id = id
        self.items = items
        self.statement = statement
        self.judge = judge
    }

    /// What a judgement found: the item broken (`nil`: the monitor's own) and what was seen, as an
    /// explore invariant's check reports it.
    typealias Breach = ExploreInvariant.Breach

    /// The calls a monitor judges, and its judgement of one.
    enum Judge: Sendable {
        /// Each signal call, once the relying party's call that made it returned.
        case signal(@Sendable (PlatformOperation, SignalView, MonitorWatch.Context) -> Breach?)
        /// Each registration request the platform could read, once the call that made it returned.
        case request(@Sendable (PlatformOperation, RegistrationView, MonitorWatch.Context) -> Breach?)
        /// The server's state after every relying-party call the watch reads it for.
        case state(@Sendable (MonitorWatch.Context) -> Breach?)
        /// What the test case did so far, each time the app has nothing left scheduled (but its
        /// recurring schedule): an obligation is judged once the app had every chance to meet it.
        case settled(@Sendable (MonitorWatch.Context) -> Breach?)
        /// What the app showed in the whole test case, once its steps are over: each event the
        /// monitor's reader picks is judged by cause (`Attributed`).
        case shown(Attributed)
    }

    /// A monitor of what the app shows: an event fails when the monitor's reader picks it and the
    /// same test case, replayed with one platform decision changed so that the cause does not
    /// happen, does not show it (`World.shownOnlyBecause`). The reader only narrows which events
    /// are worth a replay; the replay decides, so a text the app shows whatever happened never fails.
    struct Attributed: Sendable {
        /// The decision the replay changes.
        var change: World.Counterfactual
        /// Whether the monitor applies to a test case on this target.
        var applies: @Sendable (Target) -> Bool
        /// The events worth a replay.
        var picks: @Sendable (UIEvent) -> Bool
        /// The finding for an event shown only because of the cause.
        var breach: @Sendable (Timed<UIEvent>) -> Breach
    }

    /// Every monitor, in the order they judge a call.
    public static let all: [SafetyMonitor] = [
        requestOnlyAfterCompleteSignIn, requestForSignedInAccount, requestExcludesKnownPasskeys, oneRequestPerQualifyingSignIn,
        failureRecordedUnderItsClass, noModalSheetAfterDeclinedUpgrade, noStaleCredentialStored, upWaivedOnlyForConditional, noUnavailableSignalInterface,
        unknownOnlyForUnknownIDs,
        signalsOnlyWhileSignedIn, acceptedListIsServerList, androidRateWindow, retryNotBeforeRetryMillis, signalNamesAccountRPID,
        signalIDsExact, userDetailsAreServerDetails, noProviderClaim,
    ]
}
