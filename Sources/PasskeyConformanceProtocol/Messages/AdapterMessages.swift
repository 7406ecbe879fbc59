#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A capability an adapter may declare; a scenario that needs one the adapter lacks is *not verified*.
public enum Capability: String, Sendable, Hashable, ProtocolEnum {
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
    /// Stopping and starting the app again on the same server state.
    case relaunch = "relaunch"
    /// Faults injected into the server's credential-list assembly and network.
    case faultInjection = "fault-injection"
}

/// Something an adapter declares about its relying party's account model (not something it
/// supports, as a `Capability` is): a fixture the model cannot represent is *not verified*.
public enum Declaration: String, Sendable, Hashable, ProtocolEnum {
    /// A passkey counts as a second factor: an account that holds one must give it after its
    /// password (an MFA-style package, such as django-allauth's `allauth.mfa`). A password-only
    /// account cannot hold server-side passkeys there, so a scenario that gives it some is *not
    /// verified* rather than failed.
    case passkeySecondFactor = "passkey-second-factor"
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
    /// The OS family as sent (`osFamily` on the wire); `nil` means the platform's default family
    /// (`ios` on Apple, `android` on Android). Read `family` for the effective value.
    public var osFamily: OSFamily?
    /// Web: the browser the page runs in, as it names itself (`Chrome/156.0.7000.0`); `nil`
    /// elsewhere (protocol 1.3).
    public var browser: String?

    /// The OS family the app runs on: `osFamily`, or the platform's default when it is absent.
    public var family: OSFamily { osFamily ?? OSFamily.defaultFamily(of: platform) }

    /// Creates a device description; the Android-only members and the OS family default to `nil`.
    ///
    /// An OS family must belong to the platform (`macos` is an Apple family); a mismatch is a
    /// programming error.
    public init(
        platform: PlatformFamily, osVersion: String, credentialsLibraryVersion: String? = nil, appOrigin: String? = nil,
        osFamily: OSFamily? = nil
    ) {
        precondition(osFamily.map { $0.platform == platform } ?? true, "the OS family \(osFamily?.rawValue ?? "") is not an \(platform.rawValue) family")
        self.platform = platform
        self.osVersion = osVersion
        self.credentialsLibraryVersion = credentialsLibraryVersion
        self.appOrigin = appOrigin
        self.osFamily = osFamily
    }

    enum CodingKeys: String, CodingKey {
        case platform, osVersion, credentialsLibraryVersion, appOrigin, osFamily, browser
    }

    /// Decodes a device description; an `osFamily` of the other platform is rejected.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        platform = try container.decode(PlatformFamily.self, forKey: .platform)
        osVersion = try container.decode(String.self, forKey: .osVersion)
        credentialsLibraryVersion = try container.decodeIfPresent(String.self, forKey: .credentialsLibraryVersion)
        appOrigin = try container.decodeIfPresent(String.self, forKey: .appOrigin)
        osFamily = try container.decodeIfPresent(OSFamily.self, forKey: .osFamily)
        browser = try container.decodeIfPresent(String.self, forKey: .browser)
        if let osFamily, osFamily.platform != platform {
            throw DecodingError.dataCorruptedError(
                forKey: .osFamily, in: container,
                debugDescription: "osFamily \(osFamily.rawValue) is not an \(platform.rawValue) family")
        }
    }
}

/// The operating-system family of a device, finer than `PlatformFamily`: Apple's API floors differ by
/// family (the conditional request style needs iOS and iPadOS 18, macOS 15, visionOS 2).
public enum OSFamily: String, Sendable, Hashable, ProtocolEnum {
    /// iOS (iPhone).
    case ios
    /// iPadOS (iPad).
    case ipados
    /// macOS (Mac, including Mac Catalyst apps).
    case macos
    /// visionOS (Apple Vision Pro).
    case visionos
    /// Android.
    case android
    /// A Chromium browser (the web family).
    case chromium

    /// The platform the family belongs to.
    public var platform: PlatformFamily {
        switch self {
        case .android: .android
        case .chromium: .web
        case .ios, .ipados, .macos, .visionos: .apple
        }
    }

    /// The family a device of `platform` has when its description names none: `ios`, `android` or
    /// `chromium`.
    public static func defaultFamily(of platform: PlatformFamily) -> OSFamily {
        switch platform {
        case .android: .android
        case .apple: .ios
        case .web: .chromium
        }
    }
}

/// What a new session (one test case) starts from.
public struct SessionContext: Sendable, Codable, Hashable {
    /// The test case's stable id.
    public var testCase: String
    /// The target id.
    public var target: TargetID
    /// The device the app runs on.
    public var device: DeviceInfo
    /// The seed for anything random in the relying party (ids, challenges), so runs reproduce.
    public var seed: UInt64

    /// Creates the context of one test case on one target, with its device and seed.
    public init(testCase: String, target: TargetID, device: DeviceInfo, seed: UInt64) {
        self.testCase = testCase
        self.target = target
        self.device = device
        self.seed = seed
    }
}

// MARK: - Fixtures

/// The sign-in policy of an account.
public enum SignInPolicy: String, Sendable, Hashable, ProtocolEnum {
    /// The password alone signs the user in.
    case passwordOnly = "password-only"
    /// A second factor must follow the password before the account is fully signed in.
    case passwordAndSecondFactor = "password-and-second-factor"
}

/// An account the relying party must create before the scenario starts.
public struct AccountFixture: Sendable, Codable, Hashable {
    /// The sign-in name, e.g. `alice@example.com`; the harness refers to accounts by it.
    public var username: String
    /// The human-readable name the server stores for the account (WebAuthn `user.displayName`).
    public var displayName: String
    /// The account's password, which password sign-in actions present.
    public var password: String
    /// Whether sign-in needs a second factor after the password.
    public var policy: SignInPolicy
    /// The RP ID the account's passkeys belong to; one of the adapter's `relyingPartyIDs`.
    public var rpID: String
    /// A restricted (locked, suspended) account: sign-ins are refused.
    public var restricted: Bool

    /// Creates an account fixture; the account is unrestricted unless `restricted` is set.
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
public enum CredentialState: String, Sendable, Hashable, ProtocolEnum {
    /// The server accepts the credential for sign-in.
    case active
    /// The server keeps the record but no longer accepts the credential.
    case revoked
}

/// A passkey the server must hold for an account before the scenario starts.
public struct CredentialFixture: Sendable, Codable, Hashable {
    /// The sign-in name of the account (created by `setUp(accounts:)`) that owns the passkey.
    public var username: String
    /// The credential id as raw bytes (base64url on the wire).
    public var credentialID: Data
    /// The COSE_Key (ES256) bytes.
    public var publicKey: Data
    /// The signature counter the server stored for the credential.
    public var signCount: UInt32
    /// Whether the server accepts the credential or has revoked it.
    public var state: CredentialState

    /// Creates a passkey fixture; by default an active credential with a signature counter of 0.
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
public enum SecondFactorOutcome: String, Sendable, Hashable, ProtocolEnum {
    /// The user enters the right code in time.
    case correct
    /// The user enters a wrong code.
    case wrong
    /// The user answers after the code or challenge has expired.
    case expired
}

/// A sign-in method other than a password or a passkey.
public enum AlternativeSignInMethod: String, Sendable, Hashable, ProtocolEnum {
    /// A link sent by email that signs the user in.
    case magicLink = "magic-link"
    /// A one-time code sent to the user.
    case oneTimeCode = "one-time-code"
    /// Sign-in through an identity provider.
    case federated
}

/// What the app shows after a user action.
public struct ActionOutcome: Sendable, Codable, Hashable {
    /// Where the action left the app.
    public enum Status: String, Sendable, Hashable, ProtocolEnum {
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

    /// Where the action left the app.
    public var status: Status
    /// What the app told the user, if anything; kept for the transcript.
    public var message: String?

    /// Creates an outcome with a status and an optional message.
    public init(_ status: Status, message: String? = nil) {
        self.status = status
        self.message = message
    }
}

// MARK: - Inspections

/// A credential record as the server holds it.
public struct CredentialSnapshot: Sendable, Codable, Hashable {
    /// The credential id as raw bytes (base64url on the wire).
    public var credentialID: Data
    /// The RP ID the credential is scoped to.
    public var rpID: String
    /// Whether the server still accepts the credential.
    public var state: CredentialState
    /// Creates a snapshot of one credential record.
    public init(credentialID: Data, rpID: String, state: CredentialState) {
        self.credentialID = credentialID
        self.rpID = rpID
        self.state = state
    }
}

/// An account as the server holds it.
public struct AccountSnapshot: Sendable, Codable, Hashable {
    /// The sign-in name the harness asked about.
    public var username: String
    /// The product's own account id (never to be used as a WebAuthn user handle).
    public var accountID: String
    /// The WebAuthn user handle (opaque bytes).
    public var userHandle: Data
    /// The RP ID the account's passkeys belong to.
    public var rpID: String
    /// The account name the server puts into `user.name` of its creation options and into signals.
    public var name: String
    /// The display name the server puts into `user.displayName` and current-user-details signals.
    public var displayName: String
    /// Every credential record of the account, revoked ones included.
    public var credentials: [CredentialSnapshot]

    /// Creates a snapshot of an account with its ids, names and credential records.
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

/// The app's session and the server's record of several accounts, read in one call
/// (`session.inspect`, 1.4).
public struct StateSnapshot: Sendable, Codable, Hashable {
    /// The app's session.
    public var session: SessionSnapshot
    /// The accounts, in the order they were asked for.
    public var accounts: [AccountSnapshot]
    /// Creates a snapshot.
    public init(session: SessionSnapshot, accounts: [AccountSnapshot]) {
        self.session = session
        self.accounts = accounts
    }
}

/// The app's current session.
public struct SessionSnapshot: Sendable, Codable, Hashable {
    /// The sign-in stage of the app.
    public enum Stage: String, Sendable, Hashable, ProtocolEnum {
        /// No account is signed in.
        case signedOut = "signed-out"
        /// The password was accepted and the app waits for the second factor.
        case awaitingSecondFactor = "awaiting-second-factor"
        /// An account is signed in with its complete policy.
        case signedIn = "signed-in"
        /// An account is signed in with lower assurance (after a recovery sign-in).
        case signedInLimited = "signed-in-limited"
    }
    /// The sign-in stage the app is in.
    public var stage: Stage
    /// The account signed in, or waiting for its second factor; `nil` when signed out.
    public var username: String?
    /// Creates a snapshot of the app's session.
    public init(stage: Stage, username: String? = nil) {
        self.stage = stage
        self.username = username
    }
}

// MARK: - Faults

/// A fault the harness injects into the relying party's server.
public struct Fault: Sendable, Codable, Hashable {
    /// The ways the server or network can misbehave.
    public enum Kind: String, Sendable, Hashable, ProtocolEnum {
        /// The credential store answers with only part of the account's credentials.
        case partialCredentialData = "partial-credential-data"
        /// A later page of the credential list fails to load.
        case paginationFailure = "pagination-failure"
        /// The credential list query times out.
        case credentialListTimeout = "credential-list-timeout"
        /// The credential list comes from a stale cache that misses recent changes.
        case staleCache = "stale-cache"
        /// The app's next request that submits a platform response (a sign-in assertion or a
        /// registration) to its server for verification fails with a network error. Option
        /// fetches are not affected.
        case networkFailure = "network-failure"
        /// The server's lookup of the credential id presented in a sign-in fails (a database
        /// error or time-out), so the server cannot tell whether it holds that id.
        case credentialLookupFailure = "credential-lookup-failure"
        /// The server processes the app's next request of the kinds it applies to (a submitted
        /// sign-in assertion or registration, or a read of an account's accepted list for a
        /// reconciliation signal) and commits its effect (a session opened and its challenge spent,
        /// a passkey stored, the list read), but its answer never reaches the app: on the way back
        /// the network drops it, and the app sees a network error (1.2).
        case answerLostAfterCommit = "answer-lost-after-commit"
    }

    /// The credential-store faults a criterion names in words (`the server's credential store
    /// suffers "partial data"`), with their words: declared here, beside the kinds, so that a new
    /// store fault is one case and one entry.
    public static let storePhrases: KeyValuePairs<String, Kind> = [
        "partial data": .partialCredentialData, "a pagination failure": .paginationFailure, "a time-out": .credentialListTimeout,
        "a stale cache": .staleCache,
    ]
    /// What goes wrong.
    public var kind: Kind
    /// How many times the fault applies; `nil` for until the session ends.
    public var count: Int?
    /// Creates a fault that applies `count` times (`nil`: until the session ends).
    public init(_ kind: Kind, count: Int? = nil) {
        self.kind = kind
        self.count = count
    }
}

// MARK: - User-visible events and telemetry

/// Something the app showed the user.
public struct UIEvent: Sendable, Codable, Hashable {
    /// What sort of thing the app showed.
    public enum Kind: String, Sendable, Hashable, ProtocolEnum {
        /// An error message or alert.
        case error
        /// A confirmation screen or banner of the app's own.
        case confirmation
        /// A statement to the user, e.g. "your passkey was removed".
        case message
        /// A screen the app navigated to.
        case screen
    }
    /// What sort of thing the app showed.
    public var kind: Kind
    /// The text shown, or the screen's name for `screen`.
    public var text: String
    /// Creates an event of a kind with its text.
    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }
}

/// A telemetry record of the app (unsupported platform, unexpected failure, …).
public struct TelemetryEvent: Sendable, Codable, Hashable {
    /// The record's name, e.g. `passkey-upgrade-skipped`.
    public var name: String
    /// The record's attributes as string pairs, e.g. `reason: api-unavailable`.
    public var attributes: [String: String]
    /// Creates a telemetry record with a name and attributes.
    public init(_ name: String, _ attributes: [String: String] = [:]) {
        self.name = name
        self.attributes = attributes
    }
}
