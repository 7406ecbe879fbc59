/// One deliberate defect of the reference relying party. Each breaks exactly one thing, named by
/// the verify item of the criteria checklist that should catch it.
public enum Mutation: String, Sendable, Hashable, CaseIterable, Identifiable {
    // N2.6-AC01
    case upgradeBeforeSecondFactor = "upgrade-before-second-factor"
    case upgradeAfterFailedSecondFactor = "upgrade-after-failed-second-factor"
    case upgradeAfterRecovery = "upgrade-after-recovery"
    case neverUpgrade = "never-upgrade"
    // N2.6-AC02
    case appleStandardStyle = "apple-standard-style"
    case androidNotConditional = "android-not-conditional"
    case modalFallbackWithoutAPI = "modal-fallback-without-api"
    // N2.6-AC03
    case staleAccountOptions = "stale-account-options"
    case accountIDAsUserHandle = "account-id-as-user-handle"
    // N2.6-AC04
    case noExclusionList = "no-exclusion-list"
    case excludeFirstOnly = "exclude-first-only"
    case appleNoExclusion = "apple-no-exclusion"
    // N2.6-AC05
    case delayedUpgrade = "delayed-upgrade"
    case doubleRequest = "double-request"
    case retryAfterNoCreate = "retry-after-no-create"
    case errorOnNoCreate = "error-on-no-create"
    case giveUpAfterNoCreate = "give-up-after-no-create"
    case ownConfirmationScreen = "own-confirmation-screen"
    case silentUnexpectedFailure = "silent-unexpected-failure"
    // N2.6-AC06
    case lateResponseToCurrentAccount = "late-response-to-current-account"
    case lateResponseToOriginalAccount = "late-response-to-original-account"
    // N2.6-X01, X02
    case requireUserVerification = "require-user-verification"
    case requireUserPresence = "require-user-presence"
    case rejectBackupEligible = "reject-backup-eligible"
    case neverCheckUserPresence = "never-check-user-presence"

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
        case .delayedUpgrade: "asks for the registration 30 seconds after the sign-in"
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
        }
    }
}
