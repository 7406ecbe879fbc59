import ConformanceModel
import Foundation

/// The simulated credential manager (provider) of one test case: saved passwords, passkeys, the
/// autofill context and the user's settings, plus the scenario's instructions for the next operations.
public struct ProviderState: Sendable {
    /// A password the credential manager has saved.
    public struct SavedPassword: Sendable, Hashable {
        /// The account's sign-in name.
        public var username: String
        /// The RP ID the password is saved for.
        public var rpID: String

        /// A saved password of `username` for `rpID`.
        public init(username: String, rpID: String) {
            self.username = username
            self.rpID = rpID
        }
    }

    /// What the credential manager does with a passkey after a signal.
    public enum Visibility: String, Sendable, Hashable, Codable {
        /// `visible`: offered to the user; `hidden`: kept but not offered; `removed`: deleted.
        case visible, hidden, removed
    }

    /// A passkey the credential manager holds.
    public struct Passkey: Sendable, Hashable {
        /// The credential id, as raw bytes.
        public var credentialID: Data
        /// The RP ID the passkey is scoped to.
        public var rpID: String
        /// The WebAuthn user handle stored with the passkey.
        public var userHandle: Data
        /// The account name the credential manager shows; current-user-details signals update it.
        public var userName: String
        /// The display name the credential manager shows; current-user-details signals update it.
        public var displayName: String
        /// Whether the passkey is still offered, after any signals.
        public var visibility: Visibility
    }

    /// The last password autofill: whose password, for which RP, when.
    public struct Autofill: Sendable, Hashable {
        /// The sign-in name whose password was autofilled.
        public var username: String
        /// The RP ID the password was autofilled for.
        public var rpID: String
        /// The virtual time of the autofill, in milliseconds since the test case started.
        public var atMillis: Int64
        /// Creates the record of an autofill.
        public init(username: String, rpID: String, atMillis: Int64) {
            self.username = username
            self.rpID = rpID
            self.atMillis = atMillis
        }
    }

    /// How the provider treats signals: it may act or not, and never tells the app which.
    public enum SignalPolicy: String, Sendable, Hashable {
        /// `hide`: hide the passkeys a signal rules out; `remove`: delete them; `ignore`: do nothing.
        case hide, remove, ignore
    }

    /// How the credential manager answers every conditional registration request, whatever its
    /// state would decide: the one platform decision a counterfactual run of a scenario changes.
    public enum ConditionalAnswer: String, Sendable, Hashable {
        /// `create`: a passkey is created without UI; `decline`: the expected no-create, silently.
        case create, decline
    }

    /// Authenticator data flags for the credentials the provider makes (`nil`: the platform's own choice).
    public struct Flags: Sendable, Hashable {
        /// The UP flag: the user was present.
        public var userPresent: Bool
        /// The UV flag: the user was verified.
        public var userVerified: Bool
        /// The BE flag: the credential may be backed up (synced).
        public var backupEligible: Bool
        /// The BS flag: the credential is backed up now.
        public var backedUp: Bool

        /// Flags as the authenticator reports them.
        public init(userPresent: Bool, userVerified: Bool, backupEligible: Bool, backedUp: Bool) {
            self.userPresent = userPresent
            self.userVerified = userVerified
            self.backupEligible = backupEligible
            self.backedUp = backedUp
        }
    }

    /// How the next passkey sign-in goes.
    public enum AssertionPlan: Sendable, Hashable {
        /// The user picks this credential (by credential id) and the authenticator signs correctly.
        case use(Data)
        /// The user picks this credential but the signature is invalid.
        case invalidSignature(Data)
        /// The user picks this credential, but the response names an origin the app is not
        /// associated with (as a response relayed from another app or site would): a response every
        /// server refuses for its origin (WebAuthn Level 3, §7.2), whatever the credential.
        case foreignOrigin(Data)
        /// The user picks this credential, but its authenticator data names another RP ID (its
        /// hash), correctly signed: a response every server refuses for its RP ID (WebAuthn Level 3,
        /// §7.2 step 15), whatever the credential.
        case foreignRPID(Data)
        /// The user picks this credential, but the response's authenticator data is cut short: a
        /// malformed response every server refuses before it can judge the signature.
        case malformedAuthenticatorData(Data)
        /// The user cancels the sheet.
        case cancel
    }

    /// The passwords the credential manager has saved.
    public var savedPasswords: [SavedPassword] = []
    /// The most recent password autofill; a conditional registration needs a recent one for the same account.
    public var lastAutofill: Autofill?
    /// The user switched automatic passkey creation off (Google Password Manager setting).
    public var automaticCreationOff = false
    /// Every passkey the credential manager holds, hidden and removed ones included.
    public var passkeys: [Passkey] = []
    /// Hold every registration response until the scenario releases it.
    public var holdRegistrations = false
    /// Hold every assertion response until the scenario releases it.
    public var holdAssertions = false
    /// Hold the platform's answer to every signal until the scenario releases it: the signal is
    /// passed on, and the app learns nothing of it until then (N3.2: "never block a UI flow on the result").
    public var holdSignals = false
    /// The platform fails every signal it would otherwise pass on, with the family's generic signal
    /// failure (Apple `ASAuthorizationError.failed`, Android `SignalCredentialUnknownException`).
    public var failSignals = false
    /// The provider fulfils modal registration requests without showing its sheet.
    public var createsWithoutUI = false
    /// The user cancels the next modal registration sheet.
    public var cancelNextModal = false
    /// The next registration response answers another challenge than its request's, one the
    /// server never issued (used once): a response every server refuses (WebAuthn Level 3, §7.1),
    /// whatever its flags.
    public var nextRegistrationAnswersOtherChallenge = false
    /// Gives the next registration this credential id instead of a new one (used once): a faulty or
    /// hostile credential manager reusing an id the server may already hold.
    public var nextRegistrationReusesCredentialID: Data?
    /// Flags to use in place of the platform's own for every registration and assertion while set.
    public var flagsOverride: Flags?
    /// How the next passkey sign-in goes (used once); `nil`: the first visible passkey the request allows.
    public var nextAssertion: AssertionPlan?
    /// What the provider does with the passkeys a signal rules out; hiding by default.
    public var signalPolicy: SignalPolicy = .hide
    /// The answer to every conditional registration request, ahead of every other decision of the
    /// provider (`nil`: the provider decides as its state says). Set only for a counterfactual run.
    public var conditionalAnswer: ConditionalAnswer?
    /// The failure the credential manager answers the next conditional registration with (used once).
    public var nextConditionalCreateFailure: CreateFailureClass?
    /// Force a rate-limit exception with this `retryMillis` on the next Android signal.
    public var forcedRateLimitRetryMillis: Int64?
    /// Times of the Android signal calls the platform accepted, for its own rate limit.
    public var androidSignalTimes: [Int64] = []

    /// How long the credential manager keeps its recent-autofill context: a conditional registration
    /// within this window after the autofill of the same account's saved password can qualify.
    ///
    /// A knob of the simulated provider, within `autofillWindowRange`, 5 minutes unless a scenario
    /// sets another (`the credential manager keeps its autofill context for {int} second(s)`). N2.6
    /// ties "promptly" to this context ("while the credential provider's recent autofill context can
    /// still apply"), so the harness judges "promptly" by this window and no shorter number of its own.
    public var autofillWindowMillis: Int64 = ProviderState.defaultAutofillWindowMillis

    /// The provider's recent-autofill window unless a scenario sets another: 5 minutes.
    public static let defaultAutofillWindowMillis: Int64 = 5 * 60_000

    /// The windows a simulated provider may keep its autofill context for: 1 to 30 minutes.
    ///
    /// No platform documents a number (Chrome's guidance says only that the password "was used
    /// recently"). The lower bound is long enough for a sign-in to complete its second factor after
    /// the autofill, which N2.6-AC01 requires before the request; a provider that forgot sooner could
    /// not serve the upgrade the criterion describes. The upper bound keeps "recent" recent: past half
    /// an hour a user has long moved on from the sign-in.
    public static let autofillWindowRange: ClosedRange<Int64> = 60_000...30 * 60_000

    /// Creates an empty provider: no passwords, no passkeys, default settings.
    public init() {}

    /// The visible passkeys for an RP and user handle.
    public func visiblePasskeys(rpID: String, userHandle: Data) -> [Passkey] {
        passkeys.filter { $0.rpID == rpID && $0.userHandle == userHandle && $0.visibility == .visible }
    }
}
