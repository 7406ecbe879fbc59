import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

/// The mutants of conditional registration (N2.6): one value each, with the decision it overrides.
extension Mutation {
    // MARK: N2.6-AC01

    /// Asks for the conditional registration as soon as the password is accepted.
    package static let upgradeBeforeSecondFactor = Mutation(
        "upgrade-before-second-factor", "N2.6-AC01", ["N2.6-AC01.V1"],
        "asks for the conditional registration as soon as the password is accepted", form: "a conditional request"
    ) { $0.upgrade.moments.insert(.passwordAccepted) }

    /// Asks for the conditional registration after any second-factor attempt, even a wrong or expired one.
    package static let upgradeAfterFailedSecondFactor = Mutation(
        "upgrade-after-failed-second-factor", "N2.6-AC01", ["N2.6-AC01.V2", "N2.6-AC01.V3"],
        "asks for the conditional registration after any second-factor attempt, even a wrong or expired one", form: "a conditional request"
    ) { $0.upgrade.moments.insert(.failedSecondFactor) }

    /// Treats a lower-assurance recovery sign-in as qualifying.
    package static let upgradeAfterRecovery = Mutation(
        "upgrade-after-recovery", "N2.6-AC01", ["N2.6-AC01.V5"],
        "treats a lower-assurance recovery sign-in as qualifying", form: "a conditional request"
    ) { $0.upgrade.moments.insert(.recoverySignIn) }

    /// Never asks for a conditional registration.
    package static let neverUpgrade = Mutation(
        "never-upgrade", "N2.6-AC01", ["N2.6-AC01.V4", "N2.6-AC01.V6"],
        "never asks for a conditional registration", form: "no request ever"
    ) { $0.upgrade.moments = [] }

    /// Asks for the conditional registration after a magic-link, one-time-code or federated sign-in.
    package static let upgradeAfterNonPasswordSignIn = Mutation(
        "upgrade-after-non-password-sign-in", "N2.6-AC01", ["N2.6-AC01.V7"],
        "asks for the conditional registration after a magic-link, one-time-code or federated sign-in", form: "a conditional request"
    ) { $0.upgrade.moments.insert(.alternativeSignIn) }

    // MARK: N2.6-AC02

    /// Leaves the Apple request style at standard.
    package static let appleStandardStyle = Mutation(
        "apple-standard-style", "N2.6-AC02", ["N2.6-AC02.V1", "N2.6-AC02.V3"],
        "leaves the Apple request style at standard", form: "Apple standard request style"
    ) { $0.options.appleConditionalStyle = .standard }

    /// Creates a modal Android request (isConditional false) that prefers immediately available credentials.
    package static let androidNotConditional = Mutation(
        "android-not-conditional", "N2.6-AC02", ["N2.6-AC02.V2", "N2.6-AC02.V3"],
        "creates a modal Android request (isConditional false) that prefers immediately available credentials", form: "Android isConditional false"
    ) { $0.options.androidModal = true }

    /// Falls back to a modal registration where the conditional API is missing.
    package static let modalFallbackWithoutAPI = Mutation(
        "modal-fallback-without-api", "N2.6-AC02", ["N2.6-AC02.V1", "N2.6-AC02.V2"],
        "falls back to a modal registration where the conditional API is missing", form: "a modal fallback where the API is missing"
    ) { $0.upgrade.modalFallbackWithoutAPI = true }

    // MARK: N2.6-AC03

    /// Builds options from the first account signed in during the app's life.
    package static let staleAccountOptions = Mutation(
        "stale-account-options", "N2.6-AC03", ["N2.6-AC03.V1", "N2.6-AC03.V2"],
        "builds options from the first account signed in during the app's life", form: "the first account's whole options"
    ) { $0.options.fromFirstAccount = true }

    /// Uses the product account id as the WebAuthn user handle.
    package static let accountIDAsUserHandle = Mutation(
        "account-id-as-user-handle", "N2.6-AC03", ["N2.6-AC03.V2"],
        "uses the product account id as the WebAuthn user handle", form: "the account id as UTF-8"
    ) { $0.options.userHandle = { Data($0.accountID.utf8) } }

    /// Uses the account's email address as the WebAuthn user handle.
    package static let emailAsUserHandle = Mutation(
        "email-as-user-handle", "N2.6-AC03", ["N2.6-AC03.V2"],
        "uses the account's email address as the WebAuthn user handle", form: "the email address"
    ) { $0.options.userHandle = { Data($0.username.utf8) } }

    /// Uses the product account id, hex-encoded, as the WebAuthn user handle.
    package static let hexAccountIDAsUserHandle = Mutation(
        "hex-account-id-as-user-handle", "N2.6-AC03", ["N2.6-AC03.V2"],
        "uses the product account id, hex-encoded, as the WebAuthn user handle", form: "the account id in hex"
    ) { $0.options.userHandle = { Data(Data($0.accountID.utf8).map { String(format: "%02x", $0) }.joined().utf8) } }

    /// Builds the exclusion list from the first account signed in during the app's life.
    package static let exclusionsOfFirstAccount = Mutation(
        "exclusions-of-first-account", "N2.6-AC03", ["N2.6-AC03.V3"],
        "builds the exclusion list from the first account signed in during the app's life", form: "another account's exclusions"
    ) { $0.options.exclusionsOfFirstAccount = true }

    /// Reuses the challenge of the app's first registration request.
    package static let reuseFirstChallenge = Mutation(
        "reuse-first-challenge", "N2.6-AC03", ["N2.6-AC03.V3"],
        "reuses the challenge of the app's first registration request", form: "another request's challenge"
    ) { $0.options.reusesFirstChallenge = true }

    // MARK: N2.6-AC04

    /// Sends no exclusion list.
    package static let noExclusionList = Mutation(
        "no-exclusion-list", "N2.6-AC04", ["N2.6-AC04.V1", "N2.6-AC04.V2", "N2.6-AC04.V3"],
        "sends no exclusion list", form: "no exclusion input"
    ) { $0.options.excluded = { _, _ in nil } }

    /// Excludes only the first known credential.
    package static let excludeFirstOnly = Mutation(
        "exclude-first-only", "N2.6-AC04", ["N2.6-AC04.V3"],
        "excludes only the first known credential", form: "a partial exclusion list"
    ) { $0.options.excluded = { ids, _ in Array(ids.prefix(1)) } }

    /// Never sets excludedCredentials on Apple requests.
    package static let appleNoExclusion = Mutation(
        "apple-no-exclusion", "N2.6-AC04", ["N2.6-AC04.V2"],
        "never sets excludedCredentials on Apple requests", form: "no Apple exclusion input"
    ) { $0.options.excluded = { ids, platform in platform == .apple ? nil : ids } }

    /// Holds the conditional request back for an account the server already knows a passkey of:
    /// the criteria document says the RP must send it and let the credential manager decide.
    package static let skipUpgradeForPasskeyHolders = Mutation(
        "skip-upgrade-for-passkey-holders", "N2.6-AC04", ["N2.6-AC04.V1", "N2.6-AC04.V2", "N2.6-AC04.V3"],
        "asks for no automatic upgrade when the server already knows a passkey of the account", form: "no request for passkey holders"
    ) { $0.upgrade.skipsAccountsWithPasskeys = true }

    // MARK: N2.6-AC05

    /// Asks for the registration 10 minutes after the sign-in, when the autofill context no longer applies.
    package static let delayedUpgrade = Mutation(
        "delayed-upgrade", "N2.6-AC05", ["N2.6-AC05.V1"],
        "asks for the registration 10 minutes after the sign-in, when the autofill context no longer applies", form: "a request minutes late"
    ) { $0.upgrade.delayMillis = 10 * 60_000 }

    /// Issues the conditional request twice.
    package static let doubleRequest = Mutation(
        "double-request", "N2.6-AC05", ["N2.6-AC05.V1"],
        "issues the conditional request twice", form: "a second request"
    ) { $0.upgrade.requests = 2 }

    /// Retries after the credential manager answers no-create.
    package static let retryAfterNoCreate = Mutation(
        "retry-after-no-create", "N2.6-AC05", ["N2.6-AC05.V2", "N2.6-AC05.V3"],
        "retries after the credential manager answers no-create", form: "a retry"
    ) { $0.upgrade.afterNoCreate = .retryOnce }

    /// Shows an error when the credential manager answers no-create.
    package static let errorOnNoCreate = Mutation(
        "error-on-no-create", "N2.6-AC05", ["N2.6-AC05.V2", "N2.6-AC05.V3"],
        "shows an error when the credential manager answers no-create", form: "an error event"
    ) { $0.upgrade.afterNoCreate = .showError }

    /// Never asks again after one no-create.
    package static let giveUpAfterNoCreate = Mutation(
        "give-up-after-no-create", "N2.6-AC05", ["N2.6-AC05.V4"],
        "never asks again after one no-create", form: "never asks again"
    ) { $0.upgrade.afterNoCreate = .neverAskAgain }

    /// Shows its own confirmation screen after an automatic upgrade.
    package static let ownConfirmationScreen = Mutation(
        "own-confirmation-screen", "N2.6-AC05", ["N2.6-AC05.V5"],
        "shows its own confirmation screen after an automatic upgrade", form: "a confirmation event"
    ) { $0.upgrade.ownConfirmation = UIEvent(.confirmation, "Your passkey is ready!") }

    /// Swallows unexpected conditional-create failures without telemetry.
    package static let silentUnexpectedFailure = Mutation(
        "silent-unexpected-failure", "N2.6-AC05", ["N2.6-AC05.V6"],
        "swallows unexpected conditional-create failures without telemetry", form: "no record"
    ) { $0.upgrade.failureTelemetry = { _ in nil } }

    /// Records every conditional-create failure as ineligibility, without naming its class.
    package static let failureRecordedAsIneligible = Mutation(
        "failure-recorded-as-ineligible", "N2.6-AC05", ["N2.6-AC05.V6"],
        "records every conditional-create failure as ineligibility, without naming its class", form: "a record without the class"
    ) { $0.upgrade.failureTelemetry = { _ in TelemetryEvent("conditional-create-ineligible", [:]) } }

    /// Treats CreatePublicKeyCredentialDomException as the expected no-op.
    package static let domExceptionAsNoOp = Mutation(
        "dom-exception-as-no-op", "N2.6-AC05", ["N2.6-AC05.V6"],
        "treats CreatePublicKeyCredentialDomException as the expected no-op", form: "a DOM exception taken for the no-op"
    ) { $0.upgrade.isExpectedNoCreate = { RequestBuilder.isExpectedNoCreate($0) || $0.name == "CreatePublicKeyCredentialDomException" } }

    /// Retries the automatic upgrade at the refresh point after a no-create.
    package static let retryOnRefresh = Mutation(
        "retry-on-refresh", "N2.6-AC05", ["N2.6-AC05.V7"],
        "retries the automatic upgrade at the refresh point after a no-create", form: "a retry at a refresh point"
    ) { $0.upgrade.moments.insert(.refreshAfterNoCreate) }

    /// Retries the automatic upgrade when the app is relaunched signed in.
    package static let retryAfterRelaunch = Mutation(
        "retry-after-relaunch", "N2.6-AC05", ["N2.6-AC05.V7"],
        "retries the automatic upgrade when the app is relaunched signed in", form: "a retry at a relaunch"
    ) { $0.upgrade.moments.insert(.relaunchSignedIn) }

    /// Asks for the conditional registration after a passkey sign-in.
    package static let upgradeAfterPasskeySignIn = Mutation(
        "upgrade-after-passkey-sign-in", "N2.6-AC05", ["N2.6-AC05.V7"],
        "asks for the conditional registration after a passkey sign-in", form: "a request after a passkey sign-in"
    ) { $0.upgrade.moments.insert(.passkeySignIn) }

    /// Retries the automatic upgrade an hour after a no-create, from a timer.
    package static let retryAfterAnHour = Mutation(
        "retry-after-an-hour", "N2.6-AC05", ["N2.6-AC05.V7"],
        "retries the automatic upgrade an hour after a no-create, from a timer", form: "a retry from a timer"
    ) { $0.upgrade.afterNoCreate = .retryAfter(millis: 3_600_000) }

    // MARK: N2.6-AC06

    /// Attaches a late registration response to whichever account is signed in.
    package static let lateResponseToCurrentAccount = Mutation(
        "late-response-to-current-account", "N2.6-AC06", ["N2.6-AC06.V2"],
        "attaches a late registration response to whichever account is signed in", form: "attached to the current account"
    ) { $0.response.stale = .attachToCurrentAccount }

    /// Accepts a late registration response for the account that asked for it.
    package static let lateResponseToOriginalAccount = Mutation(
        "late-response-to-original-account", "N2.6-AC06", ["N2.6-AC06.V1", "N2.6-AC06.V3"],
        "accepts a late registration response for the account that asked for it", form: "uploaded at once"
    ) { $0.response.stale = .attachToOriginalAccount }

    /// Queues a stale registration response and uploads it for its account 10 seconds later
    /// (sooner than any challenge lifetime of the designs, so that none hides the upload).
    package static let uploadStaleResponseLater = Mutation(
        "upload-stale-response-later", "N2.6-AC06", ["N2.6-AC06.V1", "N2.6-AC06.V2", "N2.6-AC06.V3"],
        "queues a stale registration response and uploads it for its account 10 seconds later", form: "a timer-driven upload"
    ) { $0.response.stale = .uploadLater }

    /// Drops a registration response half a second old. (Dropping one that comes later than the app's
    /// own timeout conforms when that timeout is one WebAuthn recommends, 30 s or more: the control
    /// releases after 1 s.)
    package static let dropRegistrationResponses = Mutation(
        "drop-responses-after-half-a-second", "N2.6-AC06", ["N2.6-AC06.V4"],
        "drops a registration response that arrives half a second or more after its request, and never sends it to the server",
        form: "dropped by the app"
    ) { $0.response.dropAfterMillis = 499 }

    // MARK: N2.6-X01

    /// Requires UV for every registration.
    package static let requireUserVerification = Mutation(
        "require-user-verification", "N2.6-X01", ["N2.6-X01.X01"],
        "requires UV for every registration", form: "UV required"
    ) { $0.response.userVerification = .required }

    /// Requires UP for every registration.
    package static let requireUserPresence = Mutation(
        "require-user-presence", "N2.6-X01", ["N2.6-X01.X01"],
        "requires UP for every registration", form: "UP required"
    ) { $0.response.userPresence = .always }

    /// Rejects registrations whose backup-eligible flag is set.
    package static let rejectBackupEligible = Mutation(
        "reject-backup-eligible", "N2.6-X01", ["N2.6-X01.X01"],
        "rejects registrations whose backup-eligible flag is set", form: "BE refused"
    ) { $0.response.acceptsBackupEligible = false }

    // MARK: N2.6-X02

    /// Never checks UP, even for modal options.
    package static let neverCheckUserPresence = Mutation(
        "never-check-user-presence", "N2.6-X02", ["N2.6-X02.X02"],
        "never checks UP, even for modal options", form: "UP never checked"
    ) { $0.response.userPresence = .never }

    // MARK: Second forms (each verify item broken in at least two forms)

    /// Opens a modal creation sheet as soon as the password is accepted.
    package static let modalBeforeSecondFactor = Mutation(
        "modal-before-second-factor", "N2.6-AC01", ["N2.6-AC01.V1"],
        "opens a modal creation sheet as soon as the password is accepted", form: "a modal sheet"
    ) { $0.upgrade.modalMoments.insert(.passwordAccepted) }

    /// Opens a modal creation sheet after a wrong or expired second factor.
    package static let modalAfterFailedSecondFactor = Mutation(
        "modal-after-failed-second-factor", "N2.6-AC01", ["N2.6-AC01.V2", "N2.6-AC01.V3"],
        "opens a modal creation sheet after a wrong or expired second factor", form: "a modal sheet"
    ) { $0.upgrade.modalMoments.insert(.failedSecondFactor) }

    /// Opens a modal creation sheet after a recovery sign-in.
    package static let modalAfterRecovery = Mutation(
        "modal-after-recovery", "N2.6-AC01", ["N2.6-AC01.V5"],
        "opens a modal creation sheet after a lower-assurance recovery sign-in", form: "a modal sheet"
    ) { $0.upgrade.modalMoments.insert(.recoverySignIn) }

    /// Opens a modal creation sheet after a magic-link, one-time-code or federated sign-in.
    package static let modalAfterNonPasswordSignIn = Mutation(
        "modal-after-non-password-sign-in", "N2.6-AC01", ["N2.6-AC01.V7"],
        "opens a modal creation sheet after a magic-link, one-time-code or federated sign-in", form: "a modal sheet"
    ) { $0.upgrade.modalMoments.insert(.alternativeSignIn) }

    /// Asks for no automatic upgrade once a second factor completed the sign-in.
    package static let noUpgradeAfterSecondFactor = Mutation(
        "no-upgrade-after-second-factor", "N2.6-AC01", ["N2.6-AC01.V4"],
        "asks for no automatic upgrade when a second factor completed the sign-in", form: "no request after a second factor"
    ) { $0.upgrade.qualifyingPaths = [.passwordOnly] }

    /// Asks for the automatic upgrade only when a second factor completed the sign-in.
    package static let noUpgradeForPasswordOnly = Mutation(
        "no-upgrade-for-password-only", "N2.6-AC01", ["N2.6-AC01.V6"],
        "asks for the automatic upgrade only when a second factor completed the sign-in", form: "no request for a password-only policy"
    ) { $0.upgrade.qualifyingPaths = [.afterSecondFactor] }

    /// Names the first account of the app's life in the options, with the right user handle.
    package static let nameOfFirstAccount = Mutation(
        "name-of-first-account", "N2.6-AC03", ["N2.6-AC03.V1"],
        "names the first account signed in during the app's life in the options, with the current account's user handle",
        form: "another account's name"
    ) { $0.options.nameOfFirstAccount = true }

    /// Asks for the registration just after the credential manager's default autofill window: late,
    /// though it only just misses the bound of "promptly".
    package static let upgradeJustAfterTheWindow = Mutation(
        "upgrade-just-after-the-window", "N2.6-AC05", ["N2.6-AC05.V1"],
        "asks for the registration 1 s after the credential manager's autofill window (5 minutes) has closed", form: "a request just past the window"
    ) { $0.upgrade.delayMillis = ProviderState.defaultAutofillWindowMillis + 1_000 }

    /// Shows a failure message (not an error event) when the credential manager answers no-create.
    package static let failureMessageOnNoCreate = Mutation(
        "failure-message-on-no-create", "N2.6-AC05", ["N2.6-AC05.V2", "N2.6-AC05.V3"],
        "shows a failure text as a message when the credential manager answers no-create", form: "a message"
    ) { $0.upgrade.afterNoCreate = .show(UIEvent(.message, "Passkey creation failed. Try again later.")) }

    /// Waits a day after a no-create before it asks again.
    package static let coolDownAfterNoCreate = Mutation(
        "cool-down-after-no-create", "N2.6-AC05", ["N2.6-AC05.V4"],
        "asks for no automatic upgrade for a day after a no-create", form: "a cool-down"
    ) { $0.upgrade.afterNoCreate = .coolDown(millis: 24 * 3_600_000) }

    /// Confirms the automatic upgrade with a message of its own.
    package static let ownConfirmationMessage = Mutation(
        "own-confirmation-message", "N2.6-AC05", ["N2.6-AC05.V5"],
        "tells the user \"Your passkey is ready\" in a message of its own after an automatic upgrade", form: "a message"
    ) { $0.upgrade.ownConfirmation = UIEvent(.message, "Your passkey is ready") }

    /// Confirms the automatic upgrade with a screen of its own.
    package static let ownConfirmationPage = Mutation(
        "own-confirmation-page", "N2.6-AC05", ["N2.6-AC05.V5"],
        "navigates to a \"Passkey created\" screen of its own after an automatic upgrade", form: "a screen"
    ) { $0.upgrade.ownConfirmation = UIEvent(.screen, "Passkey created") }

    /// Opens the modal creation sheet at once when a conditional request fails or is declined.
    package static let modalSheetAfterFailure = Mutation(
        "modal-sheet-after-failure", "N2.6-AC05", ["N2.6-AC05.V8"],
        "opens the modal creation sheet at once when a conditional request fails or is declined", form: "a modal sheet at once"
    ) { $0.upgrade.sheetAfterFailure = .atOnce }

    /// Opens the modal creation sheet 30 seconds after a conditional request failed or was declined.
    package static let modalSheetLater = Mutation(
        "modal-sheet-later", "N2.6-AC05", ["N2.6-AC05.V8"],
        "opens the modal creation sheet from a timer 30 s after a conditional request failed or was declined", form: "a modal sheet from a timer"
    ) { $0.upgrade.sheetAfterFailure = .after(millis: 30_000) }

    /// Keeps a stale registration response and uploads it at the app's next sign-in.
    package static let uploadStaleAtNextSignIn = Mutation(
        "upload-stale-at-next-sign-in", "N2.6-AC06", ["N2.6-AC06.V1", "N2.6-AC06.V2", "N2.6-AC06.V3"],
        "keeps a stale registration response and uploads it for its account at the app's next sign-in", form: "an event-driven upload"
    ) { $0.response.stale = .uploadAtNextSignIn }

    /// Refuses a registration response half a second old as expired, on the server. (A challenge
    /// lifetime WebAuthn recommends, 30 s or more, conforms: the design `challenge-30s` passes.)
    package static let registrationExpiredAtOnce = Mutation(
        "challenge-lasts-half-a-second", "N2.6-AC06", ["N2.6-AC06.V4"],
        "refuses a registration response on the server as if its challenge had expired once it is half a second old",
        form: "refused by the server"
    ) { $0.response.registrationLifetimeMillis = 499 }

    /// Waives user presence for any registration while the session has a conditional ceremony open.
    package static let waiveUserPresenceBySession = Mutation(
        "waive-user-presence-by-session", "N2.6-X02", ["N2.6-X02.X02"],
        "waives user presence for a modal registration while the session has a conditional ceremony open", form: "UP waived by the session's state"
    ) { $0.response.userPresence = .bySession }

    /// The N2.6 mutants, in report order.
    static let registrationMutants: [Mutation] = [
        .upgradeBeforeSecondFactor, .upgradeAfterFailedSecondFactor, .upgradeAfterRecovery, .neverUpgrade, .upgradeAfterNonPasswordSignIn,
        .appleStandardStyle, .androidNotConditional, .modalFallbackWithoutAPI, .staleAccountOptions, .accountIDAsUserHandle, .emailAsUserHandle,
        .hexAccountIDAsUserHandle, .exclusionsOfFirstAccount, .reuseFirstChallenge, .noExclusionList, .excludeFirstOnly, .appleNoExclusion,
        .skipUpgradeForPasskeyHolders, .delayedUpgrade, .doubleRequest, .retryAfterNoCreate, .errorOnNoCreate, .giveUpAfterNoCreate, .ownConfirmationScreen,
        .silentUnexpectedFailure, .failureRecordedAsIneligible, .domExceptionAsNoOp, .retryOnRefresh, .retryAfterRelaunch,
        .upgradeAfterPasskeySignIn, .retryAfterAnHour, .lateResponseToCurrentAccount, .lateResponseToOriginalAccount, .uploadStaleResponseLater,
        .dropRegistrationResponses, .requireUserVerification, .requireUserPresence, .rejectBackupEligible, .neverCheckUserPresence,
        .modalBeforeSecondFactor, .modalAfterFailedSecondFactor, .modalAfterRecovery, .modalAfterNonPasswordSignIn, .noUpgradeAfterSecondFactor,
        .noUpgradeForPasswordOnly, .nameOfFirstAccount, .upgradeJustAfterTheWindow, .failureMessageOnNoCreate, .coolDownAfterNoCreate,
        .ownConfirmationMessage, .ownConfirmationPage, .modalSheetAfterFailure, .modalSheetLater, .uploadStaleAtNextSignIn,
        .registrationExpiredAtOnce, .waiveUserPresenceBySession,
    ]
}
