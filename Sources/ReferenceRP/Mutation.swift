/// One deliberate defect of the reference relying party. Each breaks exactly one thing, named by
/// the verify item of the criteria checklist that should catch it.
public enum Mutation: String, Sendable, Hashable, CaseIterable, Identifiable {
    // N2.6-AC01
    /// Asks for the conditional registration as soon as the password is accepted.
    case upgradeBeforeSecondFactor = "upgrade-before-second-factor"
    /// Asks for the conditional registration after any second-factor attempt, even a wrong or expired one.
    case upgradeAfterFailedSecondFactor = "upgrade-after-failed-second-factor"
    /// Treats a lower-assurance recovery sign-in as qualifying.
    case upgradeAfterRecovery = "upgrade-after-recovery"
    /// Never asks for a conditional registration.
    case neverUpgrade = "never-upgrade"
    // N2.6-AC02
    /// Leaves the Apple request style at standard.
    case appleStandardStyle = "apple-standard-style"
    /// Creates a modal Android request (isConditional false) that prefers immediately available credentials.
    case androidNotConditional = "android-not-conditional"
    /// Falls back to a modal registration where the conditional API is missing.
    case modalFallbackWithoutAPI = "modal-fallback-without-api"
    // N2.6-AC03
    /// Builds options from the first account signed in during the app's life.
    case staleAccountOptions = "stale-account-options"
    /// Uses the product account id as the WebAuthn user handle.
    case accountIDAsUserHandle = "account-id-as-user-handle"
    // N2.6-AC04
    /// Sends no exclusion list.
    case noExclusionList = "no-exclusion-list"
    /// Excludes only the first known credential.
    case excludeFirstOnly = "exclude-first-only"
    /// Never sets excludedCredentials on Apple requests.
    case appleNoExclusion = "apple-no-exclusion"
    // N2.6-AC05
    /// Asks for the registration 10 minutes after the sign-in, when the autofill context no longer applies.
    case delayedUpgrade = "delayed-upgrade"
    /// Issues the conditional request twice.
    case doubleRequest = "double-request"
    /// Retries after the credential manager answers no-create.
    case retryAfterNoCreate = "retry-after-no-create"
    /// Shows an error when the credential manager answers no-create.
    case errorOnNoCreate = "error-on-no-create"
    /// Never asks again after one no-create.
    case giveUpAfterNoCreate = "give-up-after-no-create"
    /// Shows its own confirmation screen after an automatic upgrade.
    case ownConfirmationScreen = "own-confirmation-screen"
    /// Swallows unexpected conditional-create failures without telemetry.
    case silentUnexpectedFailure = "silent-unexpected-failure"
    // N2.6-AC06
    /// Attaches a late registration response to whichever account is signed in.
    case lateResponseToCurrentAccount = "late-response-to-current-account"
    /// Accepts a late registration response for the account that asked for it.
    case lateResponseToOriginalAccount = "late-response-to-original-account"
    // N2.6-X01, X02
    /// Requires UV for every registration.
    case requireUserVerification = "require-user-verification"
    /// Requires UP for every registration.
    case requireUserPresence = "require-user-presence"
    /// Rejects registrations whose backup-eligible flag is set.
    case rejectBackupEligible = "reject-backup-eligible"
    /// Never checks UP, even for modal options.
    case neverCheckUserPresence = "never-check-user-presence"
    // N3.2-AC01
    /// Calls the signal API without checking that the OS and library offer it.
    case noRuntimeCheck = "no-runtime-check"
    /// Where signals exist, 'revokes' a passkey by signalling and never revokes it on the server.
    case revokeBySignalOnly = "revoke-by-signal-only"
    // N3.2-AC02
    /// Never sends the unknown-credential signal.
    case neverSignalUnknown = "never-signal-unknown"
    /// Sends the unknown-credential signal for a known but revoked credential.
    case unknownOnRevoked = "unknown-on-revoked"
    /// Sends the unknown-credential signal when the account is restricted.
    case unknownOnRestricted = "unknown-on-restricted"
    /// Sends the unknown-credential signal on an invalid signature or an expired challenge.
    case unknownOnVerificationFailure = "unknown-on-verification-failure"
    /// Sends the unknown-credential signal after a network error or a cancellation.
    case unknownOnNetworkOrCancel = "unknown-on-network-or-cancel"
    /// Sends the unknown-credential signal 30 seconds after a cancelled sign-in, from a timer.
    case unknownOnCancelLater = "unknown-on-cancel-later"
    /// Treats a failed credential lookup as proof that the id is unknown.
    case unknownOnLookupFailure = "unknown-on-lookup-failure"
    /// Sends the account's accepted list to a client that is not signed in after a revoked passkey was presented.
    case reconcileRevokedUnauthenticated = "reconcile-revoked-unauthenticated"
    // N3.2-AC03
    /// Does not reconcile after a successful creation.
    case noReconcileAfterCreate = "no-reconcile-after-create"
    /// Reconciles after a failed creation.
    case reconcileAfterFailedCreate = "reconcile-after-failed-create"
    /// Does not reconcile after a revocation.
    case noReconcileAfterRevoke = "no-reconcile-after-revoke"
    /// Does not reconcile at the documented refresh point.
    case noReconcileOnRefresh = "no-reconcile-on-refresh"
    /// Reconciles at the refresh point while signed out.
    case reconcileUnauthenticated = "reconcile-unauthenticated"
    /// Keeps one pending reconciliation per trigger instead of coalescing pending work.
    case noCoalescing = "no-coalescing"
    /// Coalesces but sends the list captured at the first trigger.
    case coalesceWithFirstState = "coalesce-with-first-state"
    // N3.2-AC04
    /// Sends whatever part of the list it could assemble.
    case sendPartialList = "send-partial-list"
    /// Sends an empty list when the credential query times out.
    case emptyListOnError = "empty-list-on-error"
    /// Sends the cached list without checking that it is current.
    case trustStaleCache = "trust-stale-cache"
    /// Never sends an empty list, even for a confirmed zero-credential account.
    case neverSendEmptyList = "never-send-empty-list"
    /// Lists revoked credentials as accepted.
    case includeRevokedInList = "include-revoked-in-list"
    // N3.2-AC05
    /// Sends Android signals without keeping to ten calls in 120 seconds.
    case ignoreRateLimit = "ignore-rate-limit"
    /// Retries a rate-limited signal after one second instead of retryMillis.
    case retryEarly = "retry-early"
    /// Retries a rate-limited signal with its original, stale payload.
    case retryStalePayload = "retry-stale-payload"
    /// Keeps a separate ten-call budget for each signal type.
    case rateBudgetPerType = "rate-budget-per-type"
    // N3.2-AC06
    /// Uses the deprecated ASCredentialUpdater on 26.2 and later.
    case updaterOn262 = "updater-on-26.2"
    /// Uses ASCredentialDataManager on 26.0 and 26.1, where it does not exist.
    case dataManagerOn260 = "data-manager-on-26.0"
    /// Sends Android signals with a request type the library does not know.
    case androidWrongRequestType = "android-wrong-request-type"
    /// Sends user-details signals through the deprecated ASCredentialUpdater on 26.2 and later.
    case userDetailsViaUpdater = "user-details-via-updater"
    // N3.2-AC07
    /// Sends every signal with the primary RP ID, whatever the credential's RP.
    case signalPrimaryRPID = "signal-primary-rp-id"
    /// Sends the origin (https://…) instead of the RP ID.
    case signalOriginAsRPID = "signal-origin-as-rp-id"
    /// Sends unknown-credential signals with the primary RP ID, whatever the credential's RP.
    case unknownSignalPrimaryRPID = "unknown-signal-primary-rp-id"
    // N3.2-AC08
    /// Tells the user the passkey was removed from the device once a signal is accepted.
    case claimProviderRemoval = "claim-provider-removal"
    /// Shows a screen saying the device's passkeys were updated once a signal is accepted.
    case claimProviderUpdateScreen = "claim-provider-update-screen"
    // N3.2-AC09
    /// Passes the base64url text's bytes instead of the raw ids to Apple's report methods.
    case appleBase64TextData = "apple-base64-text-data"
    /// Encodes Android signal ids with padded standard base64.
    case androidStandardBase64 = "android-standard-base64"
    /// Signals the product account id as the user handle.
    case accountIDAsSignalUserHandle = "account-id-as-signal-user-handle"
    /// Sends allAcceptedCredentialIds as one comma-joined string instead of an array.
    case androidJoinedIDList = "android-joined-id-list"
    // N3.2-AC10
    /// Sends the metadata signal before the server confirmed the rename.
    case renameSignalUnconfirmed = "rename-signal-unconfirmed"
    /// Sends an empty value for the field that did not change.
    case renameBlankUnchangedField = "rename-blank-unchanged-field"
    /// Follows a rename with an empty accepted-credentials list.
    case renameReconcilesEmpty = "rename-reconciles-empty"

    /// The mutation's stable name (its raw value), as `selftest` and the adapter name show it.
    public var id: String { rawValue }

    /// The criterion whose scenarios must fail against this mutant.
    public var criterion: String {
        switch self {
        case .upgradeBeforeSecondFactor, .upgradeAfterFailedSecondFactor, .upgradeAfterRecovery, .neverUpgrade: "N2.6-AC01"
        case .appleStandardStyle, .androidNotConditional, .modalFallbackWithoutAPI: "N2.6-AC02"
        case .staleAccountOptions, .accountIDAsUserHandle: "N2.6-AC03"
        case .noExclusionList, .excludeFirstOnly, .appleNoExclusion: "N2.6-AC04"
        case .delayedUpgrade, .doubleRequest, .retryAfterNoCreate, .errorOnNoCreate, .giveUpAfterNoCreate, .ownConfirmationScreen, .silentUnexpectedFailure: "N2.6-AC05"
        case .lateResponseToCurrentAccount, .lateResponseToOriginalAccount: "N2.6-AC06"
        case .requireUserVerification, .requireUserPresence, .rejectBackupEligible: "N2.6-X01"
        case .neverCheckUserPresence: "N2.6-X02"
        case .noRuntimeCheck, .revokeBySignalOnly: "N3.2-AC01"
        case .neverSignalUnknown, .unknownOnRevoked, .unknownOnRestricted, .unknownOnVerificationFailure, .unknownOnNetworkOrCancel,
             .unknownOnCancelLater, .unknownOnLookupFailure, .reconcileRevokedUnauthenticated: "N3.2-AC02"
        case .noReconcileAfterCreate, .reconcileAfterFailedCreate, .noReconcileAfterRevoke, .noReconcileOnRefresh, .reconcileUnauthenticated,
             .noCoalescing, .coalesceWithFirstState: "N3.2-AC03"
        case .sendPartialList, .emptyListOnError, .trustStaleCache, .neverSendEmptyList, .includeRevokedInList: "N3.2-AC04"
        case .ignoreRateLimit, .retryEarly, .retryStalePayload, .rateBudgetPerType: "N3.2-AC05"
        case .updaterOn262, .dataManagerOn260, .androidWrongRequestType, .userDetailsViaUpdater: "N3.2-AC06"
        case .signalPrimaryRPID, .signalOriginAsRPID, .unknownSignalPrimaryRPID: "N3.2-AC07"
        case .claimProviderRemoval, .claimProviderUpdateScreen: "N3.2-AC08"
        case .appleBase64TextData, .androidStandardBase64, .accountIDAsSignalUserHandle, .androidJoinedIDList: "N3.2-AC09"
        case .renameSignalUnconfirmed, .renameBlankUnchangedField, .renameReconcilesEmpty: "N3.2-AC10"
        }
    }

    /// The verify items whose scenarios must fail.
    public var verifyItems: [String] {
        switch self {
        case .upgradeBeforeSecondFactor: ["N2.6-AC01.V1"]
        case .upgradeAfterFailedSecondFactor: ["N2.6-AC01.V2", "N2.6-AC01.V3"]
        case .upgradeAfterRecovery: ["N2.6-AC01.V5"]
        case .neverUpgrade: ["N2.6-AC01.V4", "N2.6-AC01.V6"]
        case .appleStandardStyle: ["N2.6-AC02.V1"]
        case .androidNotConditional: ["N2.6-AC02.V2", "N2.6-AC02.V3"]
        case .modalFallbackWithoutAPI: ["N2.6-AC02.V3"]
        case .staleAccountOptions: ["N2.6-AC03.V1", "N2.6-AC03.V2"]
        case .accountIDAsUserHandle: ["N2.6-AC03.V2"]
        case .noExclusionList: ["N2.6-AC04.V1", "N2.6-AC04.V2", "N2.6-AC04.V3"]
        case .excludeFirstOnly: ["N2.6-AC04.V3"]
        case .appleNoExclusion: ["N2.6-AC04.V2"]
        case .delayedUpgrade: ["N2.6-AC05.V1"]
        case .doubleRequest: ["N2.6-AC05.V1"]
        case .retryAfterNoCreate: ["N2.6-AC05.V2", "N2.6-AC05.V3"]
        case .errorOnNoCreate: ["N2.6-AC05.V2", "N2.6-AC05.V3"]
        case .giveUpAfterNoCreate: ["N2.6-AC05.V4"]
        case .ownConfirmationScreen: ["N2.6-AC05.V5"]
        case .silentUnexpectedFailure: ["N2.6-AC05.V2"]
        case .lateResponseToCurrentAccount: ["N2.6-AC06.V2"]
        case .lateResponseToOriginalAccount: ["N2.6-AC06.V1", "N2.6-AC06.V3"]
        case .requireUserVerification, .requireUserPresence, .rejectBackupEligible: ["N2.6-X01.X01"]
        case .neverCheckUserPresence: ["N2.6-X02.X02"]
        case .noRuntimeCheck: ["N3.2-AC01.V2"]
        case .revokeBySignalOnly: ["N3.2-AC01.V1"]
        case .neverSignalUnknown: ["N3.2-AC02.V1"]
        case .unknownOnRevoked: ["N3.2-AC02.V2"]
        case .unknownOnRestricted: ["N3.2-AC02.V3"]
        case .unknownOnVerificationFailure: ["N3.2-AC02.V4", "N3.2-AC02.V5"]
        case .unknownOnNetworkOrCancel: ["N3.2-AC02.V6", "N3.2-AC02.V7"]
        case .unknownOnCancelLater: ["N3.2-AC02.V7"]
        case .unknownOnLookupFailure: ["N3.2-AC02.V8"]
        case .reconcileRevokedUnauthenticated: ["N3.2-AC02.V2"]
        case .noReconcileAfterCreate: ["N3.2-AC03.V1"]
        case .reconcileAfterFailedCreate: ["N3.2-AC03.V2"]
        case .noReconcileAfterRevoke: ["N3.2-AC03.V3"]
        case .noReconcileOnRefresh: ["N3.2-AC03.V4"]
        case .reconcileUnauthenticated: ["N3.2-AC03.V5"]
        case .noCoalescing: ["N3.2-AC03.V6"]
        case .coalesceWithFirstState: ["N3.2-AC03.V6"]
        case .sendPartialList: ["N3.2-AC04.V1", "N3.2-AC04.V2"]
        case .emptyListOnError: ["N3.2-AC04.V3"]
        case .trustStaleCache: ["N3.2-AC04.V4"]
        case .neverSendEmptyList: ["N3.2-AC04.V5"]
        case .includeRevokedInList: ["N3.2-AC04.V6"]
        case .ignoreRateLimit: ["N3.2-AC05.V1"]
        case .retryEarly: ["N3.2-AC05.V2"]
        case .retryStalePayload: ["N3.2-AC05.V3"]
        case .rateBudgetPerType: ["N3.2-AC05.V4"]
        case .updaterOn262: ["N3.2-AC06.V1"]
        case .dataManagerOn260: ["N3.2-AC06.V2"]
        case .androidWrongRequestType: ["N3.2-AC06.V3"]
        case .userDetailsViaUpdater: ["N3.2-AC06.V4"]
        case .signalPrimaryRPID, .signalOriginAsRPID, .unknownSignalPrimaryRPID: ["N3.2-AC07.V1"]
        case .claimProviderRemoval, .claimProviderUpdateScreen: ["N3.2-AC08.V1"]
        case .appleBase64TextData: ["N3.2-AC09.V1"]
        case .androidStandardBase64: ["N3.2-AC09.V2"]
        case .accountIDAsSignalUserHandle: ["N3.2-AC09.V4"]
        case .androidJoinedIDList: ["N3.2-AC09.V2", "N3.2-AC09.V3"]
        case .renameSignalUnconfirmed: ["N3.2-AC10.V3"]
        case .renameBlankUnchangedField: ["N3.2-AC10.V1"]
        case .renameReconcilesEmpty: ["N3.2-AC10.V2"]
        }
    }

    /// What the mutant gets wrong, in one sentence.
    public var summary: String {
        switch self {
        case .upgradeBeforeSecondFactor: "asks for the conditional registration as soon as the password is accepted"
        case .upgradeAfterFailedSecondFactor: "asks for the conditional registration after any second-factor attempt, even a wrong or expired one"
        case .upgradeAfterRecovery: "treats a lower-assurance recovery sign-in as qualifying"
        case .neverUpgrade: "never asks for a conditional registration"
        case .appleStandardStyle: "leaves the Apple request style at standard"
        case .androidNotConditional: "creates a modal Android request (isConditional false) that prefers immediately available credentials"
        case .modalFallbackWithoutAPI: "falls back to a modal registration where the conditional API is missing"
        case .staleAccountOptions: "builds options from the first account signed in during the app's life"
        case .accountIDAsUserHandle: "uses the product account id as the WebAuthn user handle"
        case .noExclusionList: "sends no exclusion list"
        case .excludeFirstOnly: "excludes only the first known credential"
        case .appleNoExclusion: "never sets excludedCredentials on Apple requests"
        case .delayedUpgrade: "asks for the registration 10 minutes after the sign-in, when the autofill context no longer applies"
        case .doubleRequest: "issues the conditional request twice"
        case .retryAfterNoCreate: "retries after the credential manager answers no-create"
        case .errorOnNoCreate: "shows an error when the credential manager answers no-create"
        case .giveUpAfterNoCreate: "never asks again after one no-create"
        case .ownConfirmationScreen: "shows its own confirmation screen after an automatic upgrade"
        case .silentUnexpectedFailure: "swallows unexpected conditional-create failures without telemetry"
        case .lateResponseToCurrentAccount: "attaches a late registration response to whichever account is signed in"
        case .lateResponseToOriginalAccount: "accepts a late registration response for the account that asked for it"
        case .requireUserVerification: "requires UV for every registration"
        case .requireUserPresence: "requires UP for every registration"
        case .rejectBackupEligible: "rejects registrations whose backup-eligible flag is set"
        case .neverCheckUserPresence: "never checks UP, even for modal options"
        case .noRuntimeCheck: "calls the signal API without checking that the OS and library offer it"
        case .revokeBySignalOnly: "where signals exist, 'revokes' a passkey by signalling and never revokes it on the server"
        case .neverSignalUnknown: "never sends the unknown-credential signal"
        case .unknownOnRevoked: "sends the unknown-credential signal for a known but revoked credential"
        case .unknownOnRestricted: "sends the unknown-credential signal when the account is restricted"
        case .unknownOnVerificationFailure: "sends the unknown-credential signal on an invalid signature or an expired challenge"
        case .unknownOnNetworkOrCancel: "sends the unknown-credential signal after a network error or a cancellation"
        case .unknownOnCancelLater: "sends the unknown-credential signal 30 seconds after a cancelled sign-in, from a timer"
        case .unknownOnLookupFailure: "treats a failed credential lookup as proof that the id is unknown"
        case .reconcileRevokedUnauthenticated: "sends the account's accepted list to a client that is not signed in after a revoked passkey was presented"
        case .noReconcileAfterCreate: "does not reconcile after a successful creation"
        case .reconcileAfterFailedCreate: "reconciles after a failed creation"
        case .noReconcileAfterRevoke: "does not reconcile after a revocation"
        case .noReconcileOnRefresh: "does not reconcile at the documented refresh point"
        case .reconcileUnauthenticated: "reconciles at the refresh point while signed out"
        case .noCoalescing: "keeps one pending reconciliation per trigger instead of coalescing pending work"
        case .coalesceWithFirstState: "coalesces but sends the list captured at the first trigger"
        case .sendPartialList: "sends whatever part of the list it could assemble"
        case .emptyListOnError: "sends an empty list when the credential query times out"
        case .trustStaleCache: "sends the cached list without checking that it is current"
        case .neverSendEmptyList: "never sends an empty list, even for a confirmed zero-credential account"
        case .includeRevokedInList: "lists revoked credentials as accepted"
        case .ignoreRateLimit: "sends Android signals without keeping to ten calls in 120 seconds"
        case .retryEarly: "retries a rate-limited signal after one second instead of retryMillis"
        case .retryStalePayload: "retries a rate-limited signal with its original, stale payload"
        case .rateBudgetPerType: "keeps a separate ten-call budget for each signal type"
        case .updaterOn262: "uses the deprecated ASCredentialUpdater on 26.2 and later"
        case .dataManagerOn260: "uses ASCredentialDataManager on 26.0 and 26.1, where it does not exist"
        case .androidWrongRequestType: "sends Android signals with a request type the library does not know"
        case .userDetailsViaUpdater: "sends user-details signals through the deprecated ASCredentialUpdater on 26.2 and later"
        case .signalPrimaryRPID: "sends every signal with the primary RP ID, whatever the credential's RP"
        case .signalOriginAsRPID: "sends the origin (https://…) instead of the RP ID"
        case .unknownSignalPrimaryRPID: "sends unknown-credential signals with the primary RP ID, whatever the credential's RP"
        case .claimProviderRemoval: "tells the user the passkey was removed from the device once a signal is accepted"
        case .claimProviderUpdateScreen: "shows a screen saying the device's passkeys were updated once a signal is accepted"
        case .appleBase64TextData: "passes the base64url text's bytes instead of the raw ids to Apple's report methods"
        case .androidStandardBase64: "encodes Android signal ids with padded standard base64"
        case .accountIDAsSignalUserHandle: "signals the product account id as the user handle"
        case .androidJoinedIDList: "sends allAcceptedCredentialIds as one comma-joined string instead of an array"
        case .renameSignalUnconfirmed: "sends the metadata signal before the server confirmed the rename"
        case .renameBlankUnchangedField: "sends an empty value for the field that did not change"
        case .renameReconcilesEmpty: "follows a rename with an empty accepted-credentials list"
        }
    }

    /// Whether the mutant's defect can show under a conforming design: a mutant of the retry
    /// path has nothing to break in a design that drops rate-limited signals.
    public func applies(to design: ReferenceDesign) -> Bool {
        switch self {
        case .retryEarly, .retryStalePayload: design.rateLimited == .retry
        default: true
        }
    }
}
