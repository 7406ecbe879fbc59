/// Faults that show only where a scenario of another criterion drives the path: the safety
/// monitors (`SafetyMonitor`) catch them wherever they happen.
extension Mutation {
    /// Keeps a pending reconciliation when its account signs out or is switched away from, and
    /// sends it when its timer comes due (a design that sends at once has nothing pending).
    package static let pendingWorkAfterSignOut = Mutation(
        "pending-work-after-sign-out", "N3.2-AC03", ["N3.2-AC03.V5"],
        "keeps pending reconciliations through a sign-out or an account switch and sends them when they come due",
        form: "a pending job sent for an account no longer signed in", appliesTo: { $0.coalesceMillis > 0 || $0.batchToRefreshMillis != nil }
    ) { $0.signals.onlyForSignedInAccount = false }

    /// Sends a pending reconciliation's ids under the user handle of whoever is signed in when it
    /// comes due.
    package static let pendingListUnderCurrentHandle = Mutation(
        "pending-list-under-current-handle", "N3.2-AC04", ["N3.2-AC04.V4"],
        "sends a pending reconciliation's ids under the user handle of the account signed in when it comes due",
        form: "one account's ids under another account's user handle", appliesTo: { $0.coalesceMillis > 0 || $0.batchToRefreshMillis != nil }
    ) {
        $0.signals.onlyForSignedInAccount = false
        $0.signals.pendingListUnderCurrentHandle = true
    }

    /// Sends the last list it read for the account when the list cannot be assembled now.
    package static let lastListOnError = Mutation(
        "last-list-on-error", "N3.2-AC04", ["N3.2-AC04.V4"],
        "sends the last list it read for the account when the store fails to deliver the current one",
        form: "the last good list after the data changed"
    ) { $0.list.fallsBackToLastList = true }

    /// Sends an empty list once reading the list again has failed too.
    package static let emptyAfterFailedReread = Mutation(
        "empty-after-failed-reread", "N3.2-AC04", ["N3.2-AC04.V1", "N3.2-AC04.V2", "N3.2-AC04.V3"],
        "reads a list that failed once more and sends an empty list when that read fails too",
        form: "an empty list after its own retry", appliesTo: { $0.unusableList == .refetch }
    ) { $0.list.emptyAfterFailedReread = true }

    /// Reconciles as soon as the password is accepted, while the second factor is still due.
    package static let reconcileOnPasswordAccepted = Mutation(
        "reconcile-on-password-accepted", "N3.2-AC03", ["N3.2-AC03.V5"],
        "schedules a reconciliation as soon as the password is accepted, before the second factor",
        form: "a reconciliation before the second factor"
    ) {
        $0.signals.reconcilesOnPasswordAccepted = true
        $0.signals.onlyForSignedInAccount = false
    }

    /// Reconciles the named account after its password was refused.
    package static let reconcileOnRefusedPassword = Mutation(
        "reconcile-on-refused-password", "N3.2-AC03", ["N3.2-AC03.V5"],
        "schedules a reconciliation of the named account after its password was refused",
        form: "a reconciliation after a refused password"
    ) {
        $0.signals.reconcilesOnRefusedPassword = true
        $0.signals.onlyForSignedInAccount = false
    }

    /// Asks for the automatic upgrade again when the user opens passkey management after a no-create.
    package static let retryOnManagement = Mutation(
        "retry-on-management", "N2.6-AC05", ["N2.6-AC05.V7"],
        "retries the automatic upgrade when the user opens passkey management after a no-create",
        form: "a retry when a screen opens"
    ) { $0.upgrade.moments.insert(.managementAfterNoCreate) }

    /// Asks for the automatic upgrade again when the user changes the profile after a no-create.
    package static let retryOnProfileChange = Mutation(
        "retry-on-profile-change", "N2.6-AC05", ["N2.6-AC05.V7"],
        "retries the automatic upgrade when the user changes the account's name after a no-create",
        form: "a retry on a profile change"
    ) { $0.upgrade.moments.insert(.profileChangeAfterNoCreate) }

    /// The mutants the monitors catch across scenarios, and those of the paths driven for them, in report order.
    static let monitorMutants: [Mutation] = [
        .pendingWorkAfterSignOut, .pendingListUnderCurrentHandle, .lastListOnError, .emptyAfterFailedReread, .reconcileOnPasswordAccepted,
        .reconcileOnRefusedPassword, .retryOnManagement, .retryOnProfileChange,
    ]
}
