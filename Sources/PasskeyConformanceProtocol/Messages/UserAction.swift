#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Something the user does in the app: one case per kind of action, with the arguments that kind takes.
///
/// On the wire an object with `kind` and the case's arguments as members (see `Kind`); an optional
/// argument that is `nil` is left out. Decoding ignores members the kind does not take.
public enum UserAction: Sendable, Hashable {
    /// Sign in with username and password (autofilled or typed: the app cannot tell).
    case passwordSignIn(username: String, password: String)
    /// Answer the second-factor challenge; the argument says how the answer turns out.
    case secondFactor(SecondFactorOutcome)
    /// Lower-assurance account recovery sign-in of the account `username`.
    case recoverySignIn(username: String)
    /// Magic link, one-time code or federated sign-in (`method`) of the account `username`.
    case alternativeSignIn(username: String, method: AlternativeSignInMethod)
    /// Sign in with a passkey on the sign-in screen of `rpID` (`nil`: the primary RP); `username` is
    /// the account the user started from, when there is one. The app asks the platform for an assertion.
    case passkeySignIn(username: String?, rpID: String?)
    /// Sign out of the active account.
    case signOut
    /// Switch the app to another account, signing in to it with its password.
    case switchAccount(username: String, password: String)
    /// Create a passkey explicitly from the app's settings (modal request).
    case createPasskey
    /// Revoke a passkey of the active account, named by its raw credential id bytes (base64url on the wire).
    case revokePasskey(credentialID: Data)
    /// Change the account's name and/or display name (`nil`: unchanged); `confirmed` says whether the
    /// server accepts the change.
    case rename(newName: String?, newDisplayName: String?, confirmed: Bool)
    /// The app's documented authenticated refresh point (e.g. returning to the foreground).
    case refresh
    /// Open the passkey management screen.
    case managePasskeys
    /// The app process is stopped and started again: what it held in memory is gone; the server's
    /// state and the session the app persists stay.
    case relaunch

    /// The kinds of action, as `kind` names them on the wire; each case notes the arguments it takes.
    public enum Kind: String, Sendable, Hashable, ProtocolEnum {
        /// `username`, `password`.
        case passwordSignIn = "password-sign-in"
        /// `secondFactor`.
        case secondFactor = "second-factor"
        /// `username`.
        case recoverySignIn = "recovery-sign-in"
        /// `username`, `method`.
        case alternativeSignIn = "alternative-sign-in"
        /// `username?`, `rpID?`.
        case passkeySignIn = "passkey-sign-in"
        /// No arguments.
        case signOut = "sign-out"
        /// `username`, `password`.
        case switchAccount = "switch-account"
        /// No arguments.
        case createPasskey = "create-passkey"
        /// `credentialID`.
        case revokePasskey = "revoke-passkey"
        /// `newName?`, `newDisplayName?`, `confirmed`.
        case rename
        /// No arguments.
        case refresh
        /// No arguments.
        case managePasskeys = "manage-passkeys"
        /// No arguments.
        case relaunch
    }

    /// The kind of the action.
    public var kind: Kind {
        switch self {
        case .passwordSignIn: .passwordSignIn
        case .secondFactor: .secondFactor
        case .recoverySignIn: .recoverySignIn
        case .alternativeSignIn: .alternativeSignIn
        case .passkeySignIn: .passkeySignIn
        case .signOut: .signOut
        case .switchAccount: .switchAccount
        case .createPasskey: .createPasskey
        case .revokePasskey: .revokePasskey
        case .rename: .rename
        case .refresh: .refresh
        case .managePasskeys: .managePasskeys
        case .relaunch: .relaunch
        }
    }

    /// The account the action names, if it names one (a read helper for logs and descriptions).
    public var username: String? {
        switch self {
        case .passwordSignIn(let username, _), .switchAccount(let username, _), .recoverySignIn(let username),
            .alternativeSignIn(let username, _):
            username
        case .passkeySignIn(let username, _):
            username
        case .secondFactor, .signOut, .createPasskey, .revokePasskey, .rename, .refresh, .managePasskeys, .relaunch:
            nil
        }
    }
}

extension UserAction: Codable {
    /// The members of an action on the wire.
    private enum CodingKeys: String, CodingKey {
        case kind, username, rpID, password, secondFactor, method, credentialID, newName, newDisplayName, confirmed
    }

    /// Decodes an action from `kind` and the arguments that kind takes; a missing required argument
    /// is a `DecodingError` naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .passwordSignIn:
            self = .passwordSignIn(
                username: try container.decode(String.self, forKey: .username),
                password: try container.decode(String.self, forKey: .password))
        case .secondFactor:
            self = .secondFactor(try container.decode(SecondFactorOutcome.self, forKey: .secondFactor))
        case .recoverySignIn:
            self = .recoverySignIn(username: try container.decode(String.self, forKey: .username))
        case .alternativeSignIn:
            self = .alternativeSignIn(
                username: try container.decode(String.self, forKey: .username),
                method: try container.decode(AlternativeSignInMethod.self, forKey: .method))
        case .passkeySignIn:
            self = .passkeySignIn(
                username: try container.decodeIfPresent(String.self, forKey: .username),
                rpID: try container.decodeIfPresent(String.self, forKey: .rpID))
        case .signOut: self = .signOut
        case .switchAccount:
            self = .switchAccount(
                username: try container.decode(String.self, forKey: .username),
                password: try container.decode(String.self, forKey: .password))
        case .createPasskey: self = .createPasskey
        case .revokePasskey:
            self = .revokePasskey(credentialID: try container.decode(Data.self, forKey: .credentialID))
        case .rename:
            self = .rename(
                newName: try container.decodeIfPresent(String.self, forKey: .newName),
                newDisplayName: try container.decodeIfPresent(String.self, forKey: .newDisplayName),
                confirmed: try container.decode(Bool.self, forKey: .confirmed))
        case .refresh: self = .refresh
        case .managePasskeys: self = .managePasskeys
        case .relaunch: self = .relaunch
        }
    }

    /// Encodes `kind` and the case's arguments; a `nil` optional argument is left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .passwordSignIn(let username, let password), .switchAccount(let username, let password):
            try container.encode(username, forKey: .username)
            try container.encode(password, forKey: .password)
        case .secondFactor(let outcome):
            try container.encode(outcome, forKey: .secondFactor)
        case .recoverySignIn(let username):
            try container.encode(username, forKey: .username)
        case .alternativeSignIn(let username, let method):
            try container.encode(username, forKey: .username)
            try container.encode(method, forKey: .method)
        case .passkeySignIn(let username, let rpID):
            try container.encodeIfPresent(username, forKey: .username)
            try container.encodeIfPresent(rpID, forKey: .rpID)
        case .revokePasskey(let credentialID):
            try container.encode(credentialID, forKey: .credentialID)
        case .rename(let newName, let newDisplayName, let confirmed):
            try container.encodeIfPresent(newName, forKey: .newName)
            try container.encodeIfPresent(newDisplayName, forKey: .newDisplayName)
            try container.encode(confirmed, forKey: .confirmed)
        case .signOut, .createPasskey, .refresh, .managePasskeys, .relaunch:
            break
        }
    }
}
