import ConformanceModel
import ConformanceSimulation
import Foundation

/// Decision points of reconciliation, list assembly and the Android budget that only second-form
/// mutants override: each conforming value is the reference's behaviour.
struct ListForms: Sendable {
    /// Also reconciles at once when a creation succeeds, beside the reconciliation it schedules.
    var reconcilesCreationTwice = false
    /// Takes the last page's end marker as proof the list is complete, never comparing the count with the store's total.
    var trustsEndOfList = false
    /// Caches every page it read before checking the list is complete; a re-read serves a current cache.
    var cachesUncheckedReads = false
    /// After a time-out, falls back to a one-page query and sends its first page.
    var firstPageAfterTimeout = false
    /// How many versions behind the store a cached list may be and still be sent.
    var cacheVersionSlack = 0
    /// Reports the last passkey of an account as unknown when it is revoked, instead of reconciling.
    var unknownForLastPasskey = false
    /// Reads as many pages as the total divided by the page size, rounded down, at least one.
    var pagesFromTotalRoundedDown = false
    /// The span of the Android ten-call budget.
    var androidWindowMillis = SignalScheduler.androidWindowMillis
    /// Rebuilds a rate-limited reconciliation from the list read when the refusal arrived.
    var retriesListAtRefusal = false
    /// Sends unknown-credential signals straight to the platform, outside the Android budget.
    var unknownOutsideBudget = false

    /// Whether a signal waits for the Android budget (every signal, in the conforming app).
    func keepsBudget(_ intent: SignalScheduler.Intent) -> Bool {
        guard unknownOutsideBudget, case .unknown = intent else { return true }
        return false
    }
}

/// Second forms of the N3.2 obligations on reconciliation, list assembly and the Android budget:
/// each breaks a verify item its first mutant already breaks, at another moment, on another path,
/// at another boundary or with another kind of signal.
extension Mutation {
    // MARK: N3.2-AC03

    /// Reconciles at once and again after its coalescing wait for one creation.
    package static let reconcileCreationTwice = Mutation(
        "reconcile-creation-twice", "N3.2-AC03", ["N3.2-AC03.V1"],
        "reconciles at once when a passkey is created and schedules another reconciliation for the same creation",
        form: "a second reconciliation for one creation"
    ) { $0.listForms.reconcilesCreationTwice = true }

    // MARK: N3.2-AC04

    /// Sends a list short of the store's total when the last page says there is no more.
    package static let trustEndOfList = Mutation(
        "trust-end-of-list", "N3.2-AC04", ["N3.2-AC04.V1"],
        "takes the last page's end marker as proof the list is complete, never comparing the count with the store's total",
        form: "a count never compared with the total"
    ) { $0.listForms.trustsEndOfList = true }

    /// Caches a list before checking it, so that the re-read after a failure sends the incomplete one.
    package static let rereadFromUncheckedCache = Mutation(
        "reread-from-unchecked-cache", "N3.2-AC04", ["N3.2-AC04.V1", "N3.2-AC04.V2"],
        "caches the pages it read before checking the list is complete, and the re-read after a failure serves that cache",
        form: "a re-read served from a cache the failed read filled", appliesTo: { $0.unusableList == .refetch }
    ) { $0.listForms.cachesUncheckedReads = true }

    /// Falls back to one page of the list after a time-out.
    package static let firstPageAfterTimeout = Mutation(
        "first-page-after-timeout", "N3.2-AC04", ["N3.2-AC04.V3"],
        "falls back to a one-page query after a time-out and sends its first page as the list",
        form: "the first page alone after a time-out"
    ) { $0.listForms.firstPageAfterTimeout = true }

    /// Sends a cached list one version behind the store.
    package static let cacheVersionOffByOne = Mutation(
        "cache-version-off-by-one", "N3.2-AC04", ["N3.2-AC04.V4"],
        "sends a cached list that is one version behind the store, as if it were current",
        form: "a version check off by one"
    ) { $0.listForms.cacheVersionSlack = 1 }

    /// Signals the last revoked passkey as unknown instead of sending the empty list.
    package static let unknownForLastPasskey = Mutation(
        "unknown-for-last-passkey", "N3.2-AC04", ["N3.2-AC04.V5"],
        "reports the account's last passkey as unknown when it is revoked, instead of sending the empty list",
        form: "an unknown-credential signal instead of the empty list"
    ) { $0.listForms.unknownForLastPasskey = true }

    /// Leaves out the last page of a list that does not fill it.
    package static let pagesFromTotalRoundedDown = Mutation(
        "pages-from-total-rounded-down", "N3.2-AC04", ["N3.2-AC04.V6"],
        "reads as many pages as the total divided by the page size, rounded down, leaving out the credentials of a last, short page",
        form: "the last, short page left out"
    ) { $0.listForms.pagesFromTotalRoundedDown = true }

    // MARK: N3.2-AC05

    /// Keeps ten calls per 60 seconds instead of 120.
    package static let rateWindow60s = Mutation(
        "rate-window-60s", "N3.2-AC05", ["N3.2-AC05.V1"],
        "keeps to ten Android signal calls in any 60 seconds instead of 120",
        form: "a 60-second window"
    ) { $0.listForms.androidWindowMillis = 60_000 }

    /// Reads retryMillis as seconds and waits a thousandth of it.
    package static let retryMillisAsSeconds = Mutation(
        "retry-millis-as-seconds", "N3.2-AC05", ["N3.2-AC05.V2"],
        "reads retryMillis as seconds and converts it once more, so a rate-limited signal waits a thousandth of what the platform asked",
        form: "a wait in the wrong unit", appliesTo: { $0.rateLimited == .retry }
    ) { $0.signals.retryDelay = { $0 / 1_000 } }

    /// Retries a rate-limited reconciliation with the list read when the refusal arrived.
    package static let retryListAtRefusal = Mutation(
        "retry-list-at-refusal", "N3.2-AC05", ["N3.2-AC05.V3"],
        "rebuilds a rate-limited reconciliation from the list read when the refusal arrived, not from the server's state at the retry",
        form: "a new payload from the state at the refusal", appliesTo: { $0.rateLimited == .retry }
    ) { $0.listForms.retriesListAtRefusal = true }

    /// Sends unknown-credential signals outside the Android budget.
    package static let unknownOutsideBudget = Mutation(
        "unknown-outside-budget", "N3.2-AC05", ["N3.2-AC05.V4"],
        "sends unknown-credential signals straight to the platform, outside the ten-call budget the other signals keep",
        form: "one signal type outside the budget"
    ) { $0.listForms.unknownOutsideBudget = true }

    /// The second-form mutants of reconciliation, list assembly and the Android budget, in report order.
    static let listFormMutants: [Mutation] = [
        .reconcileCreationTwice, .trustEndOfList, .rereadFromUncheckedCache, .firstPageAfterTimeout, .cacheVersionOffByOne, .unknownForLastPasskey,
        .pagesFromTotalRoundedDown, .rateWindow60s, .retryMillisAsSeconds, .retryListAtRefusal, .unknownOutsideBudget,
    ]
}

extension ReferenceSession {
    /// After a revocation: a second-form mutant reports the account's last passkey as unknown, and
    /// says so (the reconciliation is then skipped).
    func reportedLastPasskeyAsUnknown(_ credentialID: Data, of username: String) async -> Bool {
        guard decisions.listForms.unknownForLastPasskey, state.server.acceptedIDs(username).isEmpty, let account = state.server.accounts[username] else {
            return false
        }
        await send(.unknown(rpID: account.rpID, credentialID: credentialID))
        return true
    }

    /// What a rate-limited signal is retried as: itself, rebuilt from current state when sent; a
    /// second-form mutant pins a reconciliation to the list read now.
    func retryIntent(_ intent: SignalScheduler.Intent) -> SignalScheduler.Intent {
        guard decisions.listForms.retriesListAtRefusal, case .reconcile(let username) = intent else { return intent }
        return .fixedList(username: username, ids: state.server.acceptedIDs(username))
    }
}

extension Server {
    /// After a time-out: a second-form mutant queries the first page alone and returns it as the list.
    mutating func firstPageAlone(of accepted: [Data]) -> Result<[Data], Refusal>? {
        guard decisions.listForms.firstPageAfterTimeout else { return nil }
        guard case .success(let page) = store.page(0, of: accepted) else { return .failure("the credential query timed out") }
        return .success(page.ids)
    }

    /// Before a re-read: a second-form mutant serves the cache, current by version, that the failed read filled.
    func cachedForReread(_ username: String, version: Int) -> [Data]? {
        guard decisions.listForms.cachesUncheckedReads, let cached = store.cache[username], cached.version == version else { return nil }
        return cached.ids
    }

    /// Whether a second-form mutant stops after this page: it reads total / page size pages, rounded down.
    func stopsByRoundedPageCount(after index: Int, total: Int) -> Bool {
        decisions.listForms.pagesFromTotalRoundedDown && index + 1 >= max(1, total / CredentialStore.pageSize)
    }
}
