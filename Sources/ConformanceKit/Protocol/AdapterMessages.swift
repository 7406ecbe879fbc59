#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The version of the adapter protocol this harness speaks.
public let adapterProtocolVersion = "1.0"

/// What an adapter says about itself and the relying party it drives.
public struct AdapterDescription: Sendable, Codable, Hashable {
    /// The adapter protocol version it implements (`major.minor`).
    public var protocolVersion: String
    /// The relying party's name, e.g. `reference-rp`.
    public var name: String
    /// The relying party's version.
    public var version: String
    /// The target ids (see `TargetCatalog`) it can run on.
    public var targets: [String]
    /// The capabilities it supports (see `Capability`).
    public var capabilities: [Capability]
    /// The RP IDs the relying party is configured with; the first is the primary one.
    public var relyingPartyIDs: [String]

    public init(protocolVersion: String = adapterProtocolVersion, name: String, version: String, targets: [String],
                capabilities: [Capability], relyingPartyIDs: [String]) {
        self.protocolVersion = protocolVersion
        self.name = name
        self.version = version
        self.targets = targets
        self.capabilities = capabilities
        self.relyingPartyIDs = relyingPartyIDs
    }
}

/// A capability an adapter may declare; a scenario that needs one the adapter lacks is *not verified*.
public enum Capability: String, Sendable, Codable, Hashable, CaseIterable {
    /// Password sign-in and the automatic passkey upgrade after it.
    case conditionalCreate = "conditional-create"
    /// A second factor after the password.
    case secondFactor = "second-factor"
    /// Lower-assurance account recovery sign-in.
    case recoverySignIn = "recovery-sign-in"
    /// Magic link, one-time code and federated sign-in.
    case alternativeSignIn = "alternative-sign-in"
    /// Switching the active account.
    case accountSwitch = "account-switch"
    /// Explicit (modal) passkey creation from the app's settings.
    case explicitCreation = "explicit-creation"
    /// Passkey sign-in.
    case passkeySignIn = "passkey-sign-in"
    /// Signals to the credential manager.
    case signals = "signals"
    /// Passkey revocation.
    case revocation = "revocation"
    /// The app's documented authenticated refresh point.
    case refreshPoint = "refresh-point"
    /// Account name and display-name changes.
    case rename = "rename"
    /// Faults injected into the server's credential-list assembly and network.
    case faultInjection = "fault-injection"
}

/// The device the relying party's app runs on in one test case, as the app could read it at run time.
public struct DeviceInfo: Sendable, Codable, Hashable {
    /// Apple or Android.
    public var platform: PlatformFamily
    /// The OS version, e.g. `18.0`, `26.2` (Apple) or `15` (Android API level name).
    public var osVersion: String
    /// Android: the androidx.credentials version the app is built with.
    public var credentialsLibraryVersion: String?
    /// The origin the platform writes into clientDataJSON for this app (Android: `android:apk-key-hash:…`;
    /// Apple: `nil`, the origin is `https://` + the RP ID).
    public var appOrigin: String?

    public init(platform: PlatformFamily, osVersion: String, credentialsLibraryVersion: String? = nil, appOrigin: String? = nil) {
        self.platform = platform
        self.osVersion = osVersion
        self.credentialsLibraryVersion = credentialsLibraryVersion
        self.appOrigin = appOrigin
    }
}

/// What a new session (one test case) starts from.
public struct SessionContext: Sendable, Codable, Hashable {
    /// The test case's stable id.
    public var testCase: String
    /// The target id.
    public var target: String
    /// The device the app runs on.
    public var device: DeviceInfo
    /// The seed for anything random in the relying party (ids, challenges), so runs reproduce.
    public var seed: UInt64

    public init(testCase: String, target: String, device: DeviceInfo, seed: UInt64) {
        self.testCase = testCase
        self.target = target
        self.device = device
        self.seed = seed
    }
}

// MARK: - Fixtures

/// The sign-in policy of an account.
public enum SignInPolicy: String, Sendable, Codable, Hashable {
    case passwordOnly = "password-only"
    case passwordAndSecondFactor = "password-and-second-factor"
}

/// An account the relying party must create before the scenario starts.
public struct AccountFixture: Sendable, Codable, Hashable {
    /// The sign-in name, e.g. `alice@example.com`; the harness refers to accounts by it.
    public var username: String
    public var displayName: String
    public var password: String
    public var policy: SignInPolicy
    /// The RP ID the account's passkeys belong to; one of the adapter's `relyingPartyIDs`.
    public var rpID: String
    /// A restricted (locked, suspended) account: sign-ins are refused.
    public var restricted: Bool

    public init(username: String, displayName: String, password: String, policy: SignInPolicy, rpID: String, restricted: Bool = false) {
        self.username = username
        self.displayName = displayName
        self.password = password
        self.policy = policy
        self.rpID = rpID
        self.restricted = restricted
    }
}

/// The state of a credential record on the server.
public enum CredentialState: String, Sendable, Codable, Hashable {
    case active
    case revoked
}

/// A passkey the server must hold for an account before the scenario starts.
public struct CredentialFixture: Sendable, Codable, Hashable {
    public var username: String
    public var credentialID: Data
    /// The COSE_Key (ES256) bytes.
    public var publicKey: Data
    public var signCount: UInt32
    public var state: CredentialState

    public init(username: String, credentialID: Data, publicKey: Data, signCount: UInt32 = 0, state: CredentialState = .active) {
        self.username = username
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.signCount = signCount
        self.state = state
    }
}

// MARK: - User actions

/// The outcome of a second-factor step.
public enum SecondFactorOutcome: String, Sendable, Codable, Hashable {
    case correct
    case wrong
    case expired
}

/// A sign-in method other than a password or a passkey.
public enum AlternativeSignInMethod: String, Sendable, Codable, Hashable {
    case magicLink = "magic-link"
    case oneTimeCode = "one-time-code"
    case federated
}

/// Something the user does in the app. `kind` selects the action; the other members are its arguments.
public struct UserAction: Sendable, Codable, Hashable {
    public enum Kind: String, Sendable, Codable, Hashable {
        /// Sign in with username and password (autofilled or typed: the app cannot tell).
        case passwordSignIn = "password-sign-in"
        /// Answer the second-factor challenge (`secondFactor`).
        case secondFactor = "second-factor"
        /// Lower-assurance account recovery sign-in.
        case recoverySignIn = "recovery-sign-in"
        /// Magic link, one-time code or federated sign-in (`method`).
        case alternativeSignIn = "alternative-sign-in"
        /// Sign in with a passkey; the app asks the platform for an assertion.
        case passkeySignIn = "passkey-sign-in"
        /// Sign out of the active account.
        case signOut = "sign-out"
        /// Switch the app to another account, signing in to it with its password.
        case switchAccount = "switch-account"
        /// Create a passkey explicitly from the app's settings (modal request).
        case createPasskey = "create-passkey"
        /// Revoke a passkey of the active account (`credentialID`).
        case revokePasskey = "revoke-passkey"
        /// Change the account's name and/or display name (`newName`, `newDisplayName`); `confirmed` says
        /// whether the server accepts the change.
        case rename
        /// The app's documented authenticated refresh point (e.g. returning to the foreground).
        case refresh
        /// Open the passkey management screen.
        case managePasskeys = "manage-passkeys"
    }

    public var kind: Kind
    public var username: String?
    /// Passkey sign-in: the RP ID whose sign-in screen the user is on (`nil`: the primary RP).
    public var rpID: String?
    public var password: String?
    public var secondFactor: SecondFactorOutcome?
    public var method: AlternativeSignInMethod?
    public var credentialID: Data?
    public var newName: String?
    public var newDisplayName: String?
    public var confirmed: Bool?

    public init(_ kind: Kind, username: String? = nil, rpID: String? = nil, password: String? = nil, secondFactor: SecondFactorOutcome? = nil,
                method: AlternativeSignInMethod? = nil, credentialID: Data? = nil, newName: String? = nil,
                newDisplayName: String? = nil, confirmed: Bool? = nil) {
        self.kind = kind
        self.username = username
        self.rpID = rpID
        self.password = password
        self.secondFactor = secondFactor
        self.method = method
        self.credentialID = credentialID
        self.newName = newName
        self.newDisplayName = newDisplayName
        self.confirmed = confirmed
    }
}

/// What the app shows after a user action.
public struct ActionOutcome: Sendable, Codable, Hashable {
    public enum Status: String, Sendable, Codable, Hashable {
        /// The account is signed in with its complete policy.
        case signedIn = "signed-in"
        /// The password was accepted; a second factor is required.
        case secondFactorRequired = "second-factor-required"
        /// Signed in with lower assurance (recovery).
        case signedInLimited = "signed-in-limited"
        /// The sign-in or operation was refused.
        case rejected
        /// The action is under way (waiting for the platform).
        case pending
        /// The action completed.
        case done
    }

    public var status: Status
    public var message: String?

    public init(_ status: Status, message: String? = nil) {
        self.status = status
        self.message = message
    }
}

// MARK: - Inspections

/// A credential record as the server holds it.
public struct CredentialSnapshot: Sendable, Codable, Hashable {
    public var credentialID: Data
    public var rpID: String
    public var state: CredentialState
    public init(credentialID: Data, rpID: String, state: CredentialState) {
        self.credentialID = credentialID
        self.rpID = rpID
        self.state = state
    }
}

/// An account as the server holds it.
public struct AccountSnapshot: Sendable, Codable, Hashable {
    public var username: String
    /// The product's own account id (never to be used as a WebAuthn user handle).
    public var accountID: String
    /// The WebAuthn user handle (opaque bytes).
    public var userHandle: Data
    public var rpID: String
    public var name: String
    public var displayName: String
    public var credentials: [CredentialSnapshot]

    public init(username: String, accountID: String, userHandle: Data, rpID: String, name: String, displayName: String, credentials: [CredentialSnapshot]) {
        self.username = username
        self.accountID = accountID
        self.userHandle = userHandle
        self.rpID = rpID
        self.name = name
        self.displayName = displayName
        self.credentials = credentials
    }
}

/// The app's current session.
public struct SessionSnapshot: Sendable, Codable, Hashable {
    public enum Stage: String, Sendable, Codable, Hashable {
        case signedOut = "signed-out"
        case awaitingSecondFactor = "awaiting-second-factor"
        case signedIn = "signed-in"
        case signedInLimited = "signed-in-limited"
    }
    public var stage: Stage
    public var username: String?
    public init(stage: Stage, username: String? = nil) {
        self.stage = stage
        self.username = username
    }
}

// MARK: - Faults

/// A fault the harness injects into the relying party's server.
public struct Fault: Sendable, Codable, Hashable {
    public enum Kind: String, Sendable, Codable, Hashable {
        /// The credential store answers with only part of the account's credentials.
        case partialCredentialData = "partial-credential-data"
        /// A later page of the credential list fails to load.
        case paginationFailure = "pagination-failure"
        /// The credential list query times out.
        case credentialListTimeout = "credential-list-timeout"
        /// The credential list comes from a stale cache that misses recent changes.
        case staleCache = "stale-cache"
        /// The app's next request to its server fails with a network error.
        case networkFailure = "network-failure"
    }
    public var kind: Kind
    /// How many times the fault applies; `nil` for until cleared.
    public var count: Int?
    public init(_ kind: Kind, count: Int? = nil) {
        self.kind = kind
        self.count = count
    }
}

// MARK: - User-visible events and telemetry

/// Something the app showed the user.
public struct UIEvent: Sendable, Codable, Hashable {
    public enum Kind: String, Sendable, Codable, Hashable {
        /// An error message or alert.
        case error
        /// A confirmation screen or banner of the app's own.
        case confirmation
        /// A statement to the user, e.g. "your passkey was removed".
        case message
        /// A screen the app navigated to.
        case screen
    }
    public var kind: Kind
    public var text: String
    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }
}

/// A telemetry record of the app (unsupported platform, unexpected failure, …).
public struct TelemetryEvent: Sendable, Codable, Hashable {
    public var name: String
    public var attributes: [String: String]
    public init(_ name: String, _ attributes: [String: String] = [:]) {
        self.name = name
        self.attributes = attributes
    }
}
