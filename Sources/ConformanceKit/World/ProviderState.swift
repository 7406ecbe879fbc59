import Foundation

/// The simulated credential manager (provider) of one test case: saved passwords, passkeys, the
/// autofill context and the user's settings, plus the scenario's instructions for the next operations.
public struct ProviderState: Sendable {
    /// A password the credential manager has saved.
    public struct SavedPassword: Sendable, Hashable {
        public var username: String
        public var rpID: String
    }

    /// What the credential manager does with a passkey after a signal.
    public enum Visibility: String, Sendable, Hashable, Codable {
        case visible, hidden, removed
    }

    /// A passkey the credential manager holds.
    public struct Passkey: Sendable, Hashable {
        public var credentialID: Data
        public var rpID: String
        public var userHandle: Data
        public var userName: String
        public var displayName: String
        public var visibility: Visibility
    }

    /// The last password autofill: whose password, for which RP, when.
    public struct Autofill: Sendable, Hashable {
        public var username: String
        public var rpID: String
        public var atMillis: Int64
        public init(username: String, rpID: String, atMillis: Int64) {
            self.username = username
            self.rpID = rpID
            self.atMillis = atMillis
        }
    }

    /// How the provider treats signals: it may act or not, and never tells the app which.
    public enum SignalPolicy: String, Sendable, Hashable {
        case hide, remove, ignore
    }

    /// Authenticator data flags for the credentials the provider makes (`nil`: the platform's own choice).
    public struct Flags: Sendable, Hashable {
        public var userPresent: Bool
        public var userVerified: Bool
        public var backupEligible: Bool
        public var backedUp: Bool
    }

    /// How the next passkey sign-in goes.
    public enum AssertionPlan: Sendable, Hashable {
        /// The user picks this credential (by credential id) and the authenticator signs correctly.
        case use(Data)
        /// The user picks this credential but the signature is invalid.
        case invalidSignature(Data)
        /// The user cancels the sheet.
        case cancel
    }

    public var savedPasswords: [SavedPassword] = []
    public var lastAutofill: Autofill?
    /// The user switched automatic passkey creation off (Google Password Manager setting).
    public var automaticCreationOff = false
    public var passkeys: [Passkey] = []
    /// Hold every registration response until the scenario releases it.
    public var holdRegistrations = false
    /// Hold every assertion response until the scenario releases it.
    public var holdAssertions = false
    /// The provider fulfils modal registration requests without showing its sheet.
    public var createsWithoutUI = false
    /// The user cancels the next modal registration sheet.
    public var cancelNextModal = false
    public var flagsOverride: Flags?
    public var nextAssertion: AssertionPlan?
    public var signalPolicy: SignalPolicy = .hide
    /// Force a rate-limit exception with this `retryMillis` on the next Android signal.
    public var forcedRateLimitRetryMillis: Int64?
    /// Times of every Android signal call, for the platform's own rate limit.
    public var androidSignalTimes: [Int64] = []

    /// How long an autofill counts as recent for a conditional registration (the harness's model; no
    /// platform documents a number).
    public static let autofillRecencyMillis: Int64 = 5 * 60 * 1000

    public init() {}

    /// The visible passkeys for an RP and user handle.
    public func visiblePasskeys(rpID: String, userHandle: Data) -> [Passkey] {
        passkeys.filter { $0.rpID == rpID && $0.userHandle == userHandle && $0.visibility == .visible }
    }
}
