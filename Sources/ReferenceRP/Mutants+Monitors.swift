/// Faults that show only where a scenario of another criterion drives the path: the safety
/// monitors (`SafetyMonitor`) catch them wherever they happen.
extension Mutation {
    /// Keeps a pending reconciliation when its account signs out or is switched away from, and
    /// sends it when its timer comes due (a design that sends at once has nothing pending).
    public static let pendingWorkAfterSignOut = Mutation(
        "pending-work-after-sign-out", "N3.2-AC03", ["N3.2-AC03.V5"],
        "keeps pending reconciliations through a sign-out or an account switch and sends them when they come due",
        form: "a pending job sent for an account no longer signed in", appliesTo: { $0.coalesceMillis > 0 || $0.batchToRefreshMillis != nil }
    ) { $0.signals.onlyForSignedInAccount = false }

    /// Sends a pending reconciliation's ids under the user handle of whoever is signed in when it
    /// comes due.
    public static let pendingListUnderCurrentHandle = Mutation(
        "pending-list-under-current-handle", "N3.2-AC04", ["N3.2-AC04.V4"],
        "sends a pending reconciliation's ids under the user handle of the account signed in when it comes due",
        form: "one account's ids under another account's user handle", appliesTo: { $0.coalesceMillis > 0 || $0.batchToRefreshMillis != nil }
    ) {
        $0.signals.onlyForSignedInAccount = false
        $0.signals.pendingListUnderCurrentHandle = true
    }

    /// The mutants the monitors catch across scenarios, in report order.
    static let monitorMutants: [Mutation] = [.pendingWorkAfterSignOut, .pendingListUnderCurrentHandle]
}
