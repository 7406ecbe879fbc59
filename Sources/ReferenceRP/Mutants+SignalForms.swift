import ConformanceModel
import ConformanceSimulation
import Foundation

/// Decision points of signalling that only second-form mutants override: each conforming value is
/// the reference's behaviour.
struct SignalForms: Sendable {
    /// Shown at once when the server revokes a passkey, before any signal, where the app can signal.
    var noticeAtRevocation: UIEvent?
    /// Reconciles the account of the presented credential after a sign-in the server refused
    /// (restricted account, invalid signature, expired challenge, network failure).
    var reconcilesAfterRefusedSignIn = false
    /// Reports the presented credential as unknown when it belongs to another account than the one the app expected.
    var unknownForOtherAccount = false
    /// Reconciles after a creation the server rejected.
    var reconcilesAfterRejectedCreation = false
    /// Sends the list of before the revocation at once instead of reconciling after it.
    var revocationSendsOldList = false
    /// Reconciles twice at the refresh point.
    var refreshReconcilesTwice = false
    /// Refuses to open passkey management where signals exist.
    var managementNeedsNoSignals = false
    /// Refuses a rename where no signal interface exists.
    var renameNeedsSignals = false
    /// Sends an empty accepted list 30 s after a rename, from a timer.
    var renameEmptiesListLater = false
    /// Sends the user details built before the server saved the rename.
    var detailsBeforeRename = false
}

/// Second forms of the N3.2 obligations: each breaks a verify item the first mutants already break,
/// in another form (another path, another moment, another kind of event).
extension Mutation {
    /// Where it can signal, tells the user at once that the passkey was removed from the device, before any signal.
    package static let claimAtRevocation = Mutation(
        "claim-at-revocation", "N3.2-AC08", ["N3.2-AC08.V1", "N3.2-AC08.V2"],
        "where it can signal, tells the user the passkey was removed from this device as soon as it is revoked, before any signal",
        form: "a message before the first signal"
    ) { $0.forms.noticeAtRevocation = UIEvent(.message, "The passkey was removed from this device.") }

    /// Confirms that the password manager updated the name once a user-details signal is accepted.
    package static let claimDetailsUpdated = Mutation(
        "claim-details-updated", "N3.2-AC08", ["N3.2-AC08.V2"],
        "confirms that the password manager updated the name once a user-details signal is accepted",
        form: "a confirmation after a user-details signal"
    ) {
        $0.signals.acceptedNotice = { intent in
            guard case .userDetails = intent else { return nil }
            return UIEvent(.confirmation, "Your name was updated in your password manager.")
        }
    }

    /// Reconciles the presented credential's account after a sign-in the server refused.
    package static let reconcileAfterRefusedSignIn = Mutation(
        "reconcile-after-refused-sign-in", "N3.2-AC02", ["N3.2-AC02.V3", "N3.2-AC02.V4", "N3.2-AC02.V5", "N3.2-AC02.V6"],
        "sends the presented credential's account list after a sign-in the server refused", form: "an accepted list instead of an unknown credential"
    ) {
        $0.forms.reconcilesAfterRefusedSignIn = true
        $0.signals.onlyForSignedInAccount = false
    }

    /// The same fault seen as work a failed, unauthenticated sign-in schedules.
    package static let reconcileAfterFailedSignIn = Mutation(
        "reconcile-after-failed-sign-in", "N3.2-AC03", ["N3.2-AC03.V5"],
        "schedules a reconciliation after a failed passkey sign-in while signed out", form: "a failed passkey sign-in"
    ) {
        $0.forms.reconcilesAfterRefusedSignIn = true
        $0.signals.onlyForSignedInAccount = false
    }

    /// Reports another account's known passkey as unknown.
    package static let unknownForOtherAccount = Mutation(
        "unknown-for-other-account", "N3.2-AC02", ["N3.2-AC02.V1"],
        "reports a passkey as unknown when it belongs to another account than the one the app expected",
        form: "a known credential of another account"
    ) { $0.forms.unknownForOtherAccount = true }

    /// Reconciles after a creation the server rejected.
    package static let reconcileAfterRejectedCreate = Mutation(
        "reconcile-after-rejected-create", "N3.2-AC03", ["N3.2-AC03.V2"],
        "reconciles after a creation the server rejected", form: "a creation rejected by the server"
    ) { $0.forms.reconcilesAfterRejectedCreation = true }

    /// Sends the list of before the revocation instead of reconciling after it.
    package static let revokeSendsOldList = Mutation(
        "revoke-sends-old-list", "N3.2-AC03", ["N3.2-AC03.V3"],
        "sends the list of before the revocation at once instead of reconciling after it", form: "a list without the latest state"
    ) { $0.forms.revocationSendsOldList = true }

    /// Reconciles twice at the refresh point.
    package static let refreshReconcilesTwice = Mutation(
        "refresh-reconciles-twice", "N3.2-AC03", ["N3.2-AC03.V4"],
        "reconciles twice at the refresh point", form: "two reconciliations for one trigger"
    ) { $0.forms.refreshReconcilesTwice = true }

    /// Refuses to open passkey management where signals exist.
    package static let managementBrokenWithSignals = Mutation(
        "management-broken-with-signals", "N3.2-AC01", ["N3.2-AC01.V1"],
        "refuses to open passkey management where signals exist", form: "passkey management refused"
    ) { $0.forms.managementNeedsNoSignals = true }

    /// Refuses a rename where no signal interface exists.
    package static let renameNeedsSignals = Mutation(
        "rename-needs-signals", "N3.2-AC01", ["N3.2-AC01.V2"],
        "refuses a rename where no signal interface exists", form: "a profile update refused"
    ) { $0.forms.renameNeedsSignals = true }

    /// Sends an empty accepted list 30 s after a rename, from a timer.
    package static let renameEmptiesListLater = Mutation(
        "rename-empties-list-later", "N3.2-AC10", ["N3.2-AC10.V2"],
        "sends an empty accepted list 30 s after a rename, from a timer", form: "a timer-driven change after the rename"
    ) { $0.forms.renameEmptiesListLater = true }

    /// Sends the user details built before the server saved the rename.
    package static let detailsBeforeRename = Mutation(
        "details-before-rename", "N3.2-AC10", ["N3.2-AC10.V1"],
        "sends the user details built before the server saved the rename", form: "the previous values"
    ) { $0.forms.detailsBeforeRename = true }

    /// The second-form N3.2 mutants, in report order.
    static let signalFormMutants: [Mutation] = [
        .claimAtRevocation, .claimDetailsUpdated, .reconcileAfterRefusedSignIn, .reconcileAfterFailedSignIn, .unknownForOtherAccount,
        .reconcileAfterRejectedCreate, .revokeSendsOldList, .refreshReconcilesTwice, .managementBrokenWithSignals, .renameNeedsSignals,
        .renameEmptiesListLater, .detailsBeforeRename,
    ]
}

extension ReferenceSession {
    /// After a sign-in the server refused: a second-form mutant reconciles the credential's account.
    func afterRefusedSignIn(credentialID: Data) async {
        guard decisions.forms.reconcilesAfterRefusedSignIn,
            let username = state.server.accounts.values.first(where: { $0.credentials.contains { $0.id == credentialID } })?.username
        else { return }
        await scheduleReconciliation(for: username, reason: "refused sign-in")
    }
}
