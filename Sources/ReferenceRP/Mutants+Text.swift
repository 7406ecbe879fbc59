import ConformanceModel
import ConformanceSimulation

/// Mutants of what the app shows, in the forms a reader of English words misses: text in another
/// language, and English text whose words no list holds. Each is shown only because of its cause
/// (the upgrade's success, a no-create, an accepted signal), so the harness, which judges text by
/// cause and then by meaning, must catch it in whatever words it comes.
extension Mutation {
    // MARK: N2.6-AC05.V5

    /// Confirms the automatic upgrade in German.
    package static let ownConfirmationInGerman = Mutation(
        "own-confirmation-in-german", "N2.6-AC05", ["N2.6-AC05.V5"],
        "tells the user \"Ihr Passkey ist bereit.\" in a message of its own after an automatic upgrade", form: "a message in German"
    ) { $0.upgrade.ownConfirmation = UIEvent(.message, "Ihr Passkey ist bereit.") }

    /// Confirms the automatic upgrade without naming the passkey.
    package static let ownConfirmationWithoutPasskey = Mutation(
        "own-confirmation-without-passkey", "N2.6-AC05", ["N2.6-AC05.V5"],
        "confirms an automatic upgrade with \"Done! Next time, sign in with Face ID.\", a text that names no passkey",
        form: "a confirmation that names no passkey"
    ) { $0.upgrade.ownConfirmation = UIEvent(.confirmation, "Done! Next time, sign in with Face ID.") }

    // MARK: N2.6-AC05.V2, V3

    /// Tells the user in German that no passkey was created, when the credential manager answers no-create.
    package static let noCreateNoticeInGerman = Mutation(
        "no-create-notice-in-german", "N2.6-AC05", ["N2.6-AC05.V2", "N2.6-AC05.V3"],
        "tells the user \"Es wurde kein Passkey erstellt.\" when the credential manager answers no-create", form: "a message in German"
    ) { $0.upgrade.afterNoCreate = .show(UIEvent(.message, "Es wurde kein Passkey erstellt.")) }

    /// Shows a notice in words no failure list holds, when the credential manager answers no-create.
    package static let noCreateNoticeUnlisted = Mutation(
        "no-create-notice-unlisted", "N2.6-AC05", ["N2.6-AC05.V2", "N2.6-AC05.V3"],
        "shows a \"Passkey not available right now.\" screen when the credential manager answers no-create",
        form: "a screen in words no failure list holds"
    ) { $0.upgrade.afterNoCreate = .show(UIEvent(.screen, "Passkey not available right now.")) }

    // MARK: N3.2-AC08

    /// Tells the user in French that the passkey was removed from the device once a list or
    /// unknown-credential signal is accepted.
    package static let providerClaimInFrench = Mutation(
        "provider-claim-in-french", "N3.2-AC08", ["N3.2-AC08.V1", "N3.2-AC08.V2"],
        "tells the user \"La clé d'accès a été supprimée de cet appareil.\" once a list or unknown-credential signal is accepted",
        form: "a message in French"
    ) {
        $0.signals.acceptedNotice = { intent in
            switch intent {
            case .reconcile, .unknown: UIEvent(.message, "La clé d'accès a été supprimée de cet appareil.")
            default: nil
            }
        }
    }

    /// Confirms "Your passkeys are now up to date." once any signal is accepted.
    package static let passkeysUpToDate = Mutation(
        "passkeys-up-to-date", "N3.2-AC08", ["N3.2-AC08.V1", "N3.2-AC08.V2"],
        "confirms \"Your passkeys are now up to date.\" once any signal is accepted", form: "a confirmation in words no result list holds"
    ) { $0.signals.acceptedNotice = { _ in UIEvent(.confirmation, "Your passkeys are now up to date.") } }

    /// The mutants of what the app shows, in report order.
    static let textMutants: [Mutation] = [
        .ownConfirmationInGerman, .ownConfirmationWithoutPasskey, .noCreateNoticeInGerman, .noCreateNoticeUnlisted, .providerClaimInFrench,
        .passkeysUpToDate,
    ]
}
