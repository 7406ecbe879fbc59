import Foundation

/// One step `explore` can take, with its arguments as values.
///
/// Histories are generated, checked and shrunk as these values; each is bound to a definition of
/// the step library by its pattern and arguments (``binding``) and rendered as the library's
/// Gherkin sentence (``sentence``) only for what a person reads: the report's history and the
/// regression scenario.
public enum ExploreStep: Sendable, Hashable {
    // MARK: The Background

    /// `an account "alice" with the sign-in policy "password only"`.
    case account(String, policy: String)
    /// `the credential manager holds a saved password for "alice"`.
    case savedPassword(String)
    /// `"alice" has 2 passkeys in the credential manager`.
    case providerPasskeys(String, count: Int)
    /// `"alice" has a revoked passkey in the credential manager`.
    case revokedProviderPasskey(String)
    /// `the credential manager holds a passkey for "alice" that the server does not know`.
    case passkeyUnknownToServer(String)

    // MARK: User actions

    /// A password sign-in of an account, with the password the step names.
    case signIn(String, password: Password)
    /// A switch to another account, with the password the step names (autofilled or typed).
    case switchAccount(String, password: Password)
    /// `the user answers the second factor "correct"` (or `"wrong"`, `"expired"`).
    case secondFactor(String)
    /// `the user signs in as "alice" through account recovery`.
    case recoverySignIn(String)
    /// `the user signs in as "alice" through "a magic link"` (or another non-password method).
    case alternativeSignIn(String, method: String)
    /// `the user signs out`.
    case signOut
    /// `the app is relaunched`.
    case relaunch
    /// `the app reaches its refresh point`.
    case refreshPoint
    /// `the user revokes a passkey of "alice"`.
    case revokePasskey(String)
    /// A passkey sign-in, with the passkey the step names.
    case passkeySignIn(Passkey)
    /// `the user cancels the passkey sign-in for "alice"`.
    case cancelPasskeySignIn(String)
    /// `the user changes the account's name to "…" and its display name to "…"`.
    case rename(name: String, displayName: String)
    /// `the user creates a passkey from the app's settings`: an explicit (modal) creation.
    case createPasskeyFromSettings

    // MARK: The platform and time

    /// `the credential manager holds every registration response until it is released`.
    case holdRegistrationResponses
    /// `the first held registration response is released`.
    case releaseFirstHeldResponse
    /// `the credential manager fails the next conditional registration with "…"` (a failure class id).
    case failNextRegistration(String)
    /// `the platform rejects the next signal with a rate limit of 60 seconds`.
    case rateLimitNextSignal(seconds: Int)
    /// `the authenticator reports the flags "UP=0 UV=0 BE=1 BS=1"`: every later creation answers with them.
    case authenticatorFlags(String)
    /// `the credential manager holds every signal's answer until it is released`.
    case holdSignals
    /// `the platform fails every signal`.
    case failSignals
    /// `the server's answer to the app's next request is lost after the server committed it`.
    case loseNextAnswer
    /// `30 seconds pass`, `1 second passes`, `2 minutes pass`.
    case timePasses(TimeSpan)
    /// `the app has nothing left scheduled`.
    case quiescence

    /// The password a sign-in or switch step uses.
    public enum Password: Sendable, Hashable {
        /// `with the autofilled password`.
        case autofilled
        /// `typing the password by hand`.
        case typed
        /// `with the password saved for "bob"` (sign-in only).
        case savedFor(String)
    }

    /// The passkey a passkey sign-in step presents.
    public enum Passkey: Sendable, Hashable {
        /// `the user signs in with a passkey of "alice"`.
        case of(String)
        /// `the user signs in with the passkey the server does not know`.
        case unknownToServer
        /// `the user signs in with the revoked passkey`.
        case revoked
        /// `the user signs in with a passkey of "alice" whose signature is invalid`.
        case invalidSignature(String)
    }

    /// A span of virtual time as a step states it: an amount of seconds or minutes, in the
    /// sentence form it was written in (`1 second passes` and `1 seconds pass` are both sentences
    /// of the library, and a history reads as it was drawn).
    public struct TimeSpan: Sendable, Hashable {
        /// The unit of the amount.
        public enum Unit: Sendable, Hashable {
            case second, minute
        }

        /// How many units pass.
        public var amount: Int
        /// Seconds or minutes.
        public var unit: Unit
        /// Whether the sentence uses the singular form (`1 minute passes`) rather than the plural
        /// one (`N minutes pass`).
        public var singular: Bool

        /// A span in the plural form (`N seconds pass`, `N minutes pass`), as histories draw them.
        public static func seconds(_ amount: Int) -> TimeSpan { TimeSpan(amount: amount, unit: .second, singular: false) }
        /// A span of minutes in the plural form.
        public static func minutes(_ amount: Int) -> TimeSpan { TimeSpan(amount: amount, unit: .minute, singular: false) }

        /// The span of `seconds`, in whole minutes where it can, singular for one unit.
        public static func natural(seconds: Int) -> TimeSpan {
            if seconds >= 60, seconds % 60 == 0 { return TimeSpan(amount: seconds / 60, unit: .minute, singular: seconds == 60) }
            return TimeSpan(amount: seconds, unit: .second, singular: seconds == 1)
        }

        /// The span in seconds.
        public var totalSeconds: Int { unit == .minute ? amount * 60 : amount }
    }
}

extension ExploreStep {
    /// The step's Gherkin sentence, as the library reads it.
    public var sentence: String {
        switch self {
        case .account(let alias, let policy): "an account \"\(alias)\" with the sign-in policy \"\(policy)\""
        case .savedPassword(let alias): "the credential manager holds a saved password for \"\(alias)\""
        case .providerPasskeys(let alias, let count): "\"\(alias)\" has \(count) passkey\(count == 1 ? "" : "s") in the credential manager"
        case .revokedProviderPasskey(let alias): "\"\(alias)\" has a revoked passkey in the credential manager"
        case .passkeyUnknownToServer(let alias): "the credential manager holds a passkey for \"\(alias)\" that the server does not know"
        case .signIn(let alias, .autofilled): "the user signs in as \"\(alias)\" with the autofilled password"
        case .signIn(let alias, .typed): "the user signs in as \"\(alias)\" typing the password by hand"
        case .signIn(let alias, .savedFor(let other)): "the user signs in as \"\(alias)\" with the password saved for \"\(other)\""
        case .switchAccount(let alias, .typed): "the user switches to \"\(alias)\" typing the password by hand"
        case .switchAccount(let alias, _): "the user switches to \"\(alias)\" with the autofilled password"
        case .secondFactor(let answer): "the user answers the second factor \"\(answer)\""
        case .recoverySignIn(let alias): "the user signs in as \"\(alias)\" through account recovery"
        case .alternativeSignIn(let alias, let method): "the user signs in as \"\(alias)\" through \"\(method)\""
        case .signOut: "the user signs out"
        case .relaunch: "the app is relaunched"
        case .refreshPoint: "the app reaches its refresh point"
        case .revokePasskey(let alias): "the user revokes a passkey of \"\(alias)\""
        case .passkeySignIn(.of(let alias)): "the user signs in with a passkey of \"\(alias)\""
        case .passkeySignIn(.unknownToServer): "the user signs in with the passkey the server does not know"
        case .passkeySignIn(.revoked): "the user signs in with the revoked passkey"
        case .passkeySignIn(.invalidSignature(let alias)): "the user signs in with a passkey of \"\(alias)\" whose signature is invalid"
        case .cancelPasskeySignIn(let alias): "the user cancels the passkey sign-in for \"\(alias)\""
        case .rename(let name, let displayName): "the user changes the account's name to \"\(name)\" and its display name to \"\(displayName)\""
        case .createPasskeyFromSettings: "the user creates a passkey from the app's settings"
        case .holdRegistrationResponses: "the credential manager holds every registration response until it is released"
        case .releaseFirstHeldResponse: "the first held registration response is released"
        case .failNextRegistration(let failure): "the credential manager fails the next conditional registration with \"\(failure)\""
        case .rateLimitNextSignal(let seconds): "the platform rejects the next signal with a rate limit of \(seconds) seconds"
        case .authenticatorFlags(let flags): "the authenticator reports the flags \"\(flags)\""
        case .holdSignals: "the credential manager holds every signal's answer until it is released"
        case .failSignals: "the platform fails every signal"
        case .loseNextAnswer: "the server's answer to the app's next request is lost after the server committed it"
        case .timePasses(let span):
            switch (span.unit, span.singular) {
            case (.second, false): "\(span.amount) seconds pass"
            case (.second, true): "\(span.amount) second passes"
            case (.minute, false): "\(span.amount) minutes pass"
            case (.minute, true): "\(span.amount) minute passes"
            }
        case .quiescence: "the app has nothing left scheduled"
        }
    }

    /// The library definition the step runs, by its identity, and the arguments it reads from the
    /// sentence.
    public var binding: (definition: StepDefinition.ID, arguments: [String]) {
        switch self {
        case .account(let alias, let policy): (.account, [alias, policy])
        case .savedPassword(let alias): (.savedPassword, [alias])
        case .providerPasskeys(let alias, let count): (.providerPasskeys, [alias, String(count)])
        case .revokedProviderPasskey(let alias): (.revokedProviderPasskey, [alias])
        case .passkeyUnknownToServer(let alias): (.passkeyUnknownToServer, [alias])
        case .signIn(let alias, .autofilled): (.signInAutofilled, [alias])
        case .signIn(let alias, .typed): (.signInTyped, [alias])
        case .signIn(let alias, .savedFor(let other)): (.signInWithAnothersPassword, [alias, other])
        case .switchAccount(let alias, .typed): (.switchAccountTyped, [alias])
        case .switchAccount(let alias, _): (.switchAccountAutofilled, [alias])
        case .secondFactor(let answer): (.secondFactor, [answer])
        case .recoverySignIn(let alias): (.recoverySignIn, [alias])
        case .alternativeSignIn(let alias, let method): (.alternativeSignIn, [alias, method])
        case .signOut: (.signOut, [])
        case .relaunch: (.relaunch, [])
        case .refreshPoint: (.refreshPoint, [])
        case .revokePasskey(let alias): (.revokePasskey, [alias])
        case .passkeySignIn(.of(let alias)): (.passkeySignIn, [alias])
        case .passkeySignIn(.unknownToServer): (.passkeySignInUnknownToServer, [])
        case .passkeySignIn(.revoked): (.passkeySignInRevoked, [])
        case .passkeySignIn(.invalidSignature(let alias)): (.passkeySignInInvalidSignature, [alias])
        case .cancelPasskeySignIn(let alias): (.cancelPasskeySignIn, [alias])
        case .rename(let name, let displayName): (.rename, [name, displayName])
        case .createPasskeyFromSettings: (.createPasskeyFromSettings, [])
        case .holdRegistrationResponses: (.holdRegistrationResponses, [])
        case .releaseFirstHeldResponse: (.releaseFirstHeldResponse, [])
        case .failNextRegistration(let failure): (.failNextRegistration, [failure])
        case .rateLimitNextSignal(let seconds): (.rateLimitNextSignal, [String(seconds)])
        case .authenticatorFlags(let flags): (.authenticatorFlags, [flags])
        case .holdSignals: (.holdSignals, [])
        case .failSignals: (.failSignals, [])
        case .loseNextAnswer: (.loseNextAnswer, [])
        case .timePasses(let span):
            switch (span.unit, span.singular) {
            case (.second, false): (.secondsPass, [String(span.amount)])
            case (.second, true): (.secondPasses, [String(span.amount)])
            case (.minute, false): (.minutesPass, [String(span.amount)])
            case (.minute, true): (.minutePasses, [String(span.amount)])
            }
        case .quiescence: (.quiescence, [])
        }
    }
}
