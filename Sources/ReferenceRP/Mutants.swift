import ConformanceKit
import Foundation
import WebAuthn

/// The mutants of conditional registration (N2.6): one value each, with the decision it overrides.
extension Mutation {
    // MARK: N2.6-AC01

    /// Asks for the conditional registration as soon as the password is accepted.
    public static let upgradeBeforeSecondFactor = Mutation(
        "upgrade-before-second-factor", "N2.6-AC01", ["N2.6-AC01.V1"],
        "asks for the conditional registration as soon as the password is accepted"
    ) { $0.upgrade.moments.insert(.passwordAccepted) }

    /// Asks for the conditional registration after any second-factor attempt, even a wrong or expired one.
    public static let upgradeAfterFailedSecondFactor = Mutation(
        "upgrade-after-failed-second-factor", "N2.6-AC01", ["N2.6-AC01.V2", "N2.6-AC01.V3"],
        "asks for the conditional registration after any second-factor attempt, even a wrong or expired one"
    ) { $0.upgrade.moments.insert(.failedSecondFactor) }

    /// Treats a lower-assurance recovery sign-in as qualifying.
    public static let upgradeAfterRecovery = Mutation(
        "upgrade-after-recovery", "N2.6-AC01", ["N2.6-AC01.V5"],
        "treats a lower-assurance recovery sign-in as qualifying"
    ) { $0.upgrade.moments.insert(.recoverySignIn) }

    /// Never asks for a conditional registration.
    public static let neverUpgrade = Mutation(
        "never-upgrade", "N2.6-AC01", ["N2.6-AC01.V4", "N2.6-AC01.V6"],
        "never asks for a conditional registration"
    ) { $0.upgrade.moments = [] }

    /// Asks for the conditional registration after a magic-link, one-time-code or federated sign-in.
    public static let upgradeAfterNonPasswordSignIn = Mutation(
        "upgrade-after-non-password-sign-in", "N2.6-AC01", ["N2.6-AC01.V7"],
        "asks for the conditional registration after a magic-link, one-time-code or federated sign-in"
    ) { $0.upgrade.moments.insert(.alternativeSignIn) }

    // MARK: N2.6-AC02

    /// Leaves the Apple request style at standard.
    public static let appleStandardStyle = Mutation(
        "apple-standard-style", "N2.6-AC02", ["N2.6-AC02.V1"],
        "leaves the Apple request style at standard"
    ) { $0.options.appleConditionalStyle = .standard }

    /// Creates a modal Android request (isConditional false) that prefers immediately available credentials.
    public static let androidNotConditional = Mutation(
        "android-not-conditional", "N2.6-AC02", ["N2.6-AC02.V2", "N2.6-AC02.V3"],
        "creates a modal Android request (isConditional false) that prefers immediately available credentials"
    ) { $0.options.androidModal = true }

    /// Falls back to a modal registration where the conditional API is missing.
    public static let modalFallbackWithoutAPI = Mutation(
        "modal-fallback-without-api", "N2.6-AC02", ["N2.6-AC02.V1", "N2.6-AC02.V2"],
        "falls back to a modal registration where the conditional API is missing"
    ) { $0.upgrade.modalFallbackWithoutAPI = true }

    // MARK: N2.6-AC03

    /// Builds options from the first account signed in during the app's life.
    public static let staleAccountOptions = Mutation(
        "stale-account-options", "N2.6-AC03", ["N2.6-AC03.V1", "N2.6-AC03.V2"],
        "builds options from the first account signed in during the app's life"
    ) { $0.options.fromFirstAccount = true }

    /// Uses the product account id as the WebAuthn user handle.
    public static let accountIDAsUserHandle = Mutation(
        "account-id-as-user-handle", "N2.6-AC03", ["N2.6-AC03.V2"],
        "uses the product account id as the WebAuthn user handle"
    ) { $0.options.userHandle = { Data($0.accountID.utf8) } }

    /// Uses the account's email address as the WebAuthn user handle.
    public static let emailAsUserHandle = Mutation(
        "email-as-user-handle", "N2.6-AC03", ["N2.6-AC03.V2"],
        "uses the account's email address as the WebAuthn user handle"
    ) { $0.options.userHandle = { Data($0.username.utf8) } }

    /// Uses the product account id, hex-encoded, as the WebAuthn user handle.
    public static let hexAccountIDAsUserHandle = Mutation(
        "hex-account-id-as-user-handle", "N2.6-AC03", ["N2.6-AC03.V2"],
        "uses the product account id, hex-encoded, as the WebAuthn user handle"
    ) { $0.options.userHandle = { Data(Data($0.accountID.utf8).map { String(format: "%02x", $0) }.joined().utf8) } }

    /// Builds the exclusion list from the first account signed in during the app's life.
    public static let exclusionsOfFirstAccount = Mutation(
        "exclusions-of-first-account", "N2.6-AC03", ["N2.6-AC03.V3"],
        "builds the exclusion list from the first account signed in during the app's life"
    ) { $0.options.exclusionsOfFirstAccount = true }

    /// Reuses the challenge of the app's first registration request.
    public static let reuseFirstChallenge = Mutation(
        "reuse-first-challenge", "N2.6-AC03", ["N2.6-AC03.V3"],
        "reuses the challenge of the app's first registration request"
    ) { $0.options.reusesFirstChallenge = true }

    // MARK: N2.6-AC04

    /// Sends no exclusion list.
    public static let noExclusionList = Mutation(
        "no-exclusion-list", "N2.6-AC04", ["N2.6-AC04.V1", "N2.6-AC04.V2", "N2.6-AC04.V3"],
        "sends no exclusion list"
    ) { $0.options.excluded = { _, _ in nil } }

    /// Excludes only the first known credential.
    public static let excludeFirstOnly = Mutation(
        "exclude-first-only", "N2.6-AC04", ["N2.6-AC04.V3"],
        "excludes only the first known credential"
    ) { $0.options.excluded = { ids, _ in Array(ids.prefix(1)) } }

    /// Never sets excludedCredentials on Apple requests.
    public static let appleNoExclusion = Mutation(
        "apple-no-exclusion", "N2.6-AC04", ["N2.6-AC04.V2"],
        "never sets excludedCredentials on Apple requests"
    ) { $0.options.excluded = { ids, platform in platform == .apple ? nil : ids } }

    /// Holds the conditional request back for an account the server already knows a passkey of:
    /// the criteria document says the RP must send it and let the credential manager decide.
    public static let skipUpgradeForPasskeyHolders = Mutation(
        "skip-upgrade-for-passkey-holders", "N2.6-AC04", ["N2.6-AC04.V1", "N2.6-AC04.V2", "N2.6-AC04.V3"],
        "asks for no automatic upgrade when the server already knows a passkey of the account"
    ) { $0.upgrade.skipsAccountsWithPasskeys = true }

    // MARK: N2.6-AC05

    /// Asks for the registration 10 minutes after the sign-in, when the autofill context no longer applies.
    public static let delayedUpgrade = Mutation(
        "delayed-upgrade", "N2.6-AC05", ["N2.6-AC05.V1"],
        "asks for the registration 10 minutes after the sign-in, when the autofill context no longer applies"
    ) { $0.upgrade.delayMillis = 10 * 60_000 }

    /// Issues the conditional request twice.
    public static let doubleRequest = Mutation(
        "double-request", "N2.6-AC05", ["N2.6-AC05.V1"],
        "issues the conditional request twice"
    ) { $0.upgrade.requests = 2 }

    /// Retries after the credential manager answers no-create.
    public static let retryAfterNoCreate = Mutation(
        "retry-after-no-create", "N2.6-AC05", ["N2.6-AC05.V2", "N2.6-AC05.V3"],
        "retries after the credential manager answers no-create"
    ) { $0.upgrade.afterNoCreate = .retryOnce }

    /// Shows an error when the credential manager answers no-create.
    public static let errorOnNoCreate = Mutation(
        "error-on-no-create", "N2.6-AC05", ["N2.6-AC05.V2", "N2.6-AC05.V3"],
        "shows an error when the credential manager answers no-create"
    ) { $0.upgrade.afterNoCreate = .showError }

    /// Never asks again after one no-create.
    public static let giveUpAfterNoCreate = Mutation(
        "give-up-after-no-create", "N2.6-AC05", ["N2.6-AC05.V4"],
        "never asks again after one no-create"
    ) { $0.upgrade.afterNoCreate = .neverAskAgain }

    /// Shows its own confirmation screen after an automatic upgrade.
    public static let ownConfirmationScreen = Mutation(
        "own-confirmation-screen", "N2.6-AC05", ["N2.6-AC05.V5"],
        "shows its own confirmation screen after an automatic upgrade"
    ) { $0.upgrade.confirmsUpgrade = true }

    /// Swallows unexpected conditional-create failures without telemetry.
    public static let silentUnexpectedFailure = Mutation(
        "silent-unexpected-failure", "N2.6-AC05", ["N2.6-AC05.V6"],
        "swallows unexpected conditional-create failures without telemetry"
    ) { $0.upgrade.failureTelemetry = { _ in nil } }

    /// Records every conditional-create failure as ineligibility, without naming its class.
    public static let failureRecordedAsIneligible = Mutation(
        "failure-recorded-as-ineligible", "N2.6-AC05", ["N2.6-AC05.V6"],
        "records every conditional-create failure as ineligibility, without naming its class"
    ) { $0.upgrade.failureTelemetry = { _ in TelemetryEvent("conditional-create-ineligible", [:]) } }

    /// Treats CreatePublicKeyCredentialDomException as the expected no-op.
    public static let domExceptionAsNoOp = Mutation(
        "dom-exception-as-no-op", "N2.6-AC05", ["N2.6-AC05.V6"],
        "treats CreatePublicKeyCredentialDomException as the expected no-op"
    ) { $0.upgrade.isExpectedNoCreate = { RequestBuilder.isExpectedNoCreate($0) || $0.name == "CreatePublicKeyCredentialDomException" } }

    /// Retries the automatic upgrade at the refresh point after a no-create.
    public static let retryOnRefresh = Mutation(
        "retry-on-refresh", "N2.6-AC05", ["N2.6-AC05.V7"],
        "retries the automatic upgrade at the refresh point after a no-create"
    ) { $0.upgrade.moments.insert(.refreshAfterNoCreate) }

    /// Retries the automatic upgrade when the app is relaunched signed in.
    public static let retryAfterRelaunch = Mutation(
        "retry-after-relaunch", "N2.6-AC05", ["N2.6-AC05.V7"],
        "retries the automatic upgrade when the app is relaunched signed in"
    ) { $0.upgrade.moments.insert(.relaunchSignedIn) }

    /// Asks for the conditional registration after a passkey sign-in.
    public static let upgradeAfterPasskeySignIn = Mutation(
        "upgrade-after-passkey-sign-in", "N2.6-AC05", ["N2.6-AC05.V7"],
        "asks for the conditional registration after a passkey sign-in"
    ) { $0.upgrade.moments.insert(.passkeySignIn) }

    /// Retries the automatic upgrade an hour after a no-create, from a timer.
    public static let retryAfterAnHour = Mutation(
        "retry-after-an-hour", "N2.6-AC05", ["N2.6-AC05.V7"],
        "retries the automatic upgrade an hour after a no-create, from a timer"
    ) { $0.upgrade.afterNoCreate = .retryAfter(millis: 3_600_000) }

    // MARK: N2.6-AC06

    /// Attaches a late registration response to whichever account is signed in.
    public static let lateResponseToCurrentAccount = Mutation(
        "late-response-to-current-account", "N2.6-AC06", ["N2.6-AC06.V2"],
        "attaches a late registration response to whichever account is signed in"
    ) { $0.response.stale = .attachToCurrentAccount }

    /// Accepts a late registration response for the account that asked for it.
    public static let lateResponseToOriginalAccount = Mutation(
        "late-response-to-original-account", "N2.6-AC06", ["N2.6-AC06.V1", "N2.6-AC06.V3"],
        "accepts a late registration response for the account that asked for it"
    ) { $0.response.stale = .attachToOriginalAccount }

    /// Queues a stale registration response and uploads it for its account a minute later.
    public static let uploadStaleResponseLater = Mutation(
        "upload-stale-response-later", "N2.6-AC06", ["N2.6-AC06.V1", "N2.6-AC06.V2", "N2.6-AC06.V3"],
        "queues a stale registration response and uploads it for its account a minute later"
    ) { $0.response.stale = .uploadLater }

    /// Drops a registration response that arrives more than 30 seconds after its request.
    public static let dropSlowRegistrationResponses = Mutation(
        "drop-slow-registration-responses", "N2.6-AC06", ["N2.6-AC06.V4"],
        "drops a registration response that arrives more than 30 seconds after its request"
    ) { $0.response.dropAfterMillis = 30_000 }

    // MARK: N2.6-X01

    /// Requires UV for every registration.
    public static let requireUserVerification = Mutation(
        "require-user-verification", "N2.6-X01", ["N2.6-X01.X01"],
        "requires UV for every registration"
    ) { $0.response.userVerification = .required }

    /// Requires UP for every registration.
    public static let requireUserPresence = Mutation(
        "require-user-presence", "N2.6-X01", ["N2.6-X01.X01"],
        "requires UP for every registration"
    ) { $0.response.userPresence = .always }

    /// Rejects registrations whose backup-eligible flag is set.
    public static let rejectBackupEligible = Mutation(
        "reject-backup-eligible", "N2.6-X01", ["N2.6-X01.X01"],
        "rejects registrations whose backup-eligible flag is set"
    ) { $0.response.acceptsBackupEligible = false }

    // MARK: N2.6-X02

    /// Never checks UP, even for modal options.
    public static let neverCheckUserPresence = Mutation(
        "never-check-user-presence", "N2.6-X02", ["N2.6-X02.X02"],
        "never checks UP, even for modal options"
    ) { $0.response.userPresence = .never }

    /// The N2.6 mutants, in report order.
    static let registrationMutants: [Mutation] = [
        .upgradeBeforeSecondFactor, .upgradeAfterFailedSecondFactor, .upgradeAfterRecovery, .neverUpgrade, .upgradeAfterNonPasswordSignIn,
        .appleStandardStyle, .androidNotConditional, .modalFallbackWithoutAPI, .staleAccountOptions, .accountIDAsUserHandle, .emailAsUserHandle,
        .hexAccountIDAsUserHandle, .exclusionsOfFirstAccount, .reuseFirstChallenge, .noExclusionList, .excludeFirstOnly, .appleNoExclusion,
        .skipUpgradeForPasskeyHolders, .delayedUpgrade, .doubleRequest, .retryAfterNoCreate, .errorOnNoCreate, .giveUpAfterNoCreate, .ownConfirmationScreen,
        .silentUnexpectedFailure, .failureRecordedAsIneligible, .domExceptionAsNoOp, .retryOnRefresh, .retryAfterRelaunch,
        .upgradeAfterPasskeySignIn, .retryAfterAnHour, .lateResponseToCurrentAccount, .lateResponseToOriginalAccount, .uploadStaleResponseLater,
        .dropSlowRegistrationResponses, .requireUserVerification, .requireUserPresence, .rejectBackupEligible, .neverCheckUserPresence,
    ]
}
