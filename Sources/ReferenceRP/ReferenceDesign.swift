/// One equally conforming way to build the reference relying party: the converse of a mutation.
///
/// The criteria say what must and must not happen, not when an RP reconciles, how long it
/// coalesces or what it does instead of a refused action. Each design below makes another such
/// choice; `selftest` runs every criterion against every design, and a criterion that fails one is
/// a false alarm of the harness.
package struct ReferenceDesign: Sendable, Hashable, Identifiable {
    /// What the app does with a signal the platform refused with a rate limit.
    package enum RateLimitedSignal: String, Sendable, Hashable, CaseIterable {
        /// Holds it and sends it, rebuilt from current state, once `retryMillis` has passed.
        case retry
        /// Drops it; later triggers still wait until `retryMillis` has passed.
        case drop
    }

    /// What the app does when the store answers a stale or partial credential list.
    package enum UnusableList: String, Sendable, Hashable, CaseIterable {
        /// Reads the store again (the authoritative store for a stale cache), and sends only a complete list.
        case refetch
        /// Sends nothing for this trigger.
        case skip
    }

    /// What an Apple app signals for a change of the display name alone, which Apple cannot carry.
    package enum AppleDisplayNameOnly: String, Sendable, Hashable, CaseIterable {
        /// Nothing: the name did not change.
        case sendNothing
        /// The current, unchanged name.
        case reReportName
    }

    /// What the server does with a passkey the user revokes (F-store).
    package enum Revocation: String, Sendable, Hashable, CaseIterable {
        /// Keeps it as an inactive record, for audit.
        case keepInactive
        /// Deletes the record.
        case delete
    }

    /// What the server answers when the app submits again a response whose first answer was lost
    /// after the server committed it (F-retry).
    package enum ReplayAnswer: String, Sendable, Hashable, CaseIterable {
        /// Refuses it: the challenge is spent (the reference's choice).
        case refuse
        /// Answers with the same success: the same sign-in (a new session), the same stored passkey.
        case sameSuccess = "same-success"
    }

    /// What the app shows once a passkey is revoked (F-words): each claims only what the server did.
    package enum RevokeNotice: String, Sendable, Hashable, CaseIterable {
        /// Nothing.
        case none
        /// Names the passkey by its provider label: `Passkey "Google Password Manager" was removed from your account.`
        case providerLabel
        /// An account-side statement with a disclaimer that mentions the device.
        case deviceDisclaimer
        /// A plain account-side statement.
        case accountSide
    }

    /// The design's stable name, as `selftest` shows it.
    package internal(set) var id: DesignID
    /// The choice the design makes, in one sentence.
    package internal(set) var summary: String
    /// Reconciles the account's list after every successful sign-in, besides the other triggers.
    package var reconcileAtEverySignIn = false
    /// Triggers of one account within this many milliseconds share one reconciliation; 0 sends at once.
    package var coalesceMillis: Int64 = 1_000
    /// Each new trigger of an account restarts its coalescing wait (a trailing debounce): the
    /// reconciliation leaves `coalesceMillis` after the last trigger, not after the first.
    package var debounce = false
    /// When set, reconciliations wait for the app's next scheduled refresh, this long after the
    /// first pending trigger, or for the next refresh point, whichever comes first.
    package var batchToRefreshMillis: Int64?
    /// What happens to a rate-limited signal.
    package var rateLimited = RateLimitedSignal.retry
    /// A rate-limited signal waits this many times the platform's `retryMillis` (a back-off).
    package var retryBackoffFactor: Int64 = 1
    /// What happens when the store answers a stale or partial list.
    package var unusableList = UnusableList.refetch
    /// What an Apple app sends for a display-name change alone.
    package var appleDisplayNameOnly = AppleDisplayNameOnly.sendNothing
    /// How long a sign-in or registration challenge stays valid.
    package var challengeLifetimeMillis: Int64 = 5 * 60_000
    /// When set, the automatic upgrade is asked for this long after the qualifying sign-in (once the
    /// sign-in screen has closed, say) instead of at once, if the session is still the same then.
    package var upgradeDelayMillis: Int64?
    /// How the app's telemetry names an Android conditional-create failure (F-telemetry).
    package var androidFailureSpelling = AndroidFailureSpelling.everything
    /// How the app's telemetry names an Apple conditional-create failure (F-telemetry).
    package var appleFailureSpelling = AppleFailureSpelling.everything
    /// What the server's opaque WebAuthn user handles are (F-handle).
    package var userHandleForm = UserHandleForm.random32
    /// What the product's own account ids look like (F-handle).
    package var accountIDForm = AccountIDForm.prefixed
    /// What the app shows once a sign-in completes (F-words).
    package var afterSignIn = AfterSignInUI.nothing
    /// The manual creation nudge the app offers after the credential manager created nothing (F-nudge).
    package var nudge = Nudge.none
    /// Where a registration response made stale by a context change is refused (F-stale).
    package var staleResponse = StaleResponseHandling.appDiscards
    /// When set, a no-op housekeeping timer this long after every sign-in (F-time).
    package var housekeepingMillis: Int64?
    /// The language of the app's own texts (F-words).
    package var language = Language.english
    /// Shows a status line after every user action, whatever happened (F-extra-ui).
    package var statusLine = false
    /// Shows the home screen's count of the account's passkeys at every sign-in (F-extra-ui).
    package var passkeyCountScreen = false
    /// Names a passkey by its provider, as a label, when the user signs in with it (F-words).
    package var providerLabels = false
    /// How the app writes lists and JSON for the platform (F-format).
    package var wireFormat = WireFormat()
    /// A passkey sign-in for a named account lists that account's passkeys in `allowCredentials`
    /// instead of leaving the choice to the credential manager (F-allow).
    package var allowList = false

    /// Creates a design; every choice not given is the reference's.
    package init(id: DesignID, summary: String, _ configure: (inout ReferenceDesign) -> Void = { _ in }) {
        self.id = id
        self.summary = summary
        configure(&self)
    }

    /// When set, the app reconciles the signed-in account's list on a recurring timer of this
    /// period, armed at the first full sign-in and kept while signed in (F-schedule).
    package var reconcileEveryMillis: Int64?
    /// Reconciles the signed-in account's list whenever the app comes to the foreground (a relaunch).
    package var reconcileAtForeground = false
    /// At the refresh point, sends the user details together with the accepted list (F-batch).
    package var detailsWithListAtRefresh = false
    /// When set, the app allows itself this many Android signal calls per 120 s and drops the
    /// excess instead of holding it (F-drop).
    package var ownSignalBudget: Int64?
    /// How many times the server retries a failed credential lookup before answering (F-retry).
    package var lookupRetries: Int64 = 0
    /// How many times the app resubmits a response whose submission failed or whose answer was lost
    /// (F-retry): an assertion on a network failure, an assertion or a registration on a lost answer.
    package var submissionRetries: Int64 = 0
    /// What the server answers to a response submitted again after its answer was lost (F-retry).
    package var replayAnswer = ReplayAnswer.refuse
    /// What the server does with a revoked passkey (F-store).
    package var revocation = Revocation.keepInactive
    /// What the app shows after a revocation (F-words).
    package var revokeNotice = RevokeNotice.none
    /// On Apple, reports the account's password as unused after a passkey sign-in (F-unused-password).
    package var reportsUnusedPassword = false
    /// Sends an empty accepted list at every sign-in of an account the server confirms has none (F-empty).
    package var emptyListAtSignIn = false
    /// When set, a recurring timer of this period that does nothing runs from the app's start (F-time).
    package var idleTimerMillis: Int64?

    /// The reference RP's own choices.
    package static let reference = ReferenceDesign(
        id: "reference", summary: "coalesces reconciliations for 1 s, retries rate-limited signals, refetches stale or partial lists")

    /// Every other conforming design `selftest` proves the criteria against.
    package static let variants: [ReferenceDesign] = [
        ReferenceDesign(id: "reconcile-at-every-sign-in", summary: "also reconciles after every successful sign-in") { $0.reconcileAtEverySignIn = true },
        ReferenceDesign(id: "coalesce-0s", summary: "sends every reconciliation at once; coalesces only work held by a rate limit") { $0.coalesceMillis = 0 },
        ReferenceDesign(id: "coalesce-30s", summary: "coalesces reconciliations for 30 s") { $0.coalesceMillis = 30_000 },
        ReferenceDesign(id: "coalesce-90s", summary: "coalesces reconciliations for 90 s") { $0.coalesceMillis = 90_000 },
        ReferenceDesign(id: "debounce-5s", summary: "sends a reconciliation once 5 s pass without a new trigger of the account") {
            $0.coalesceMillis = 5_000
            $0.debounce = true
        },
        ReferenceDesign(id: "batch-to-next-refresh", summary: "holds reconciliations for the next refresh point or the scheduled refresh 15 minutes later") {
            $0.batchToRefreshMillis = 15 * 60_000
        },
        ReferenceDesign(id: "drop-rate-limited", summary: "drops a rate-limited signal instead of retrying it") { $0.rateLimited = .drop },
        ReferenceDesign(id: "retry-backoff-3x", summary: "retries a rate-limited signal only after three times retryMillis") {
            $0.retryBackoffFactor = 3
        },
        ReferenceDesign(id: "skip-unusable-list", summary: "sends nothing when the store answers a stale or partial list") { $0.unusableList = .skip },
        ReferenceDesign(id: "apple-re-report-name", summary: "on Apple, re-reports the current name after a display-name change alone") {
            $0.appleDisplayNameOnly = .reReportName
        },
        ReferenceDesign(
            id: "resubmit-same-success",
            summary: "submits a response once more when its answer was lost, and the server answers the replay with the same success"
        ) {
            $0.submissionRetries = 1
            $0.replayAnswer = .sameSuccess
        },
        ReferenceDesign(id: "challenge-30s", summary: "challenges expire after 30 seconds") { $0.challengeLifetimeMillis = 30_000 },
        ReferenceDesign(id: "challenge-2min", summary: "challenges expire after 2 minutes") { $0.challengeLifetimeMillis = 2 * 60_000 },
        ReferenceDesign(id: "challenge-10min", summary: "challenges expire after 10 minutes") { $0.challengeLifetimeMillis = 10 * 60_000 },
        ReferenceDesign(
            id: "upgrade-after-3s", summary: "asks for the automatic upgrade 3 s after the sign-in, if the same session is still open"
        ) { $0.upgradeDelayMillis = 3_000 },
        ReferenceDesign(
            id: "upgrade-after-15s", summary: "asks for the automatic upgrade 15 s after the sign-in, if the same session is still open"
        ) { $0.upgradeDelayMillis = 15_000 },
        ReferenceDesign(
            id: "upgrade-after-60s", summary: "asks for the automatic upgrade 60 s after the sign-in, if the same session is still open"
        ) { $0.upgradeDelayMillis = 60_000 },
    ]

    /// The reference and every variant.
    package static var all: [ReferenceDesign] { [reference] + variants }

    /// Compares designs by their choices and name.
    package static func == (lhs: ReferenceDesign, rhs: ReferenceDesign) -> Bool { lhs.id == rhs.id }
    /// Hashes a design by its name.
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
