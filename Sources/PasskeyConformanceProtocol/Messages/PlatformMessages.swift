#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The operating-system family of a target.
public enum PlatformFamily: String, Sendable, Hashable, ProtocolEnum {
    /// iOS, iPadOS, macOS and visionOS with AuthenticationServices.
    case apple
    /// Android with androidx.credentials.
    case android
    /// A web browser's WebAuthn API (`navigator.credentials`, the static `PublicKeyCredential`
    /// methods), driven for real in a browser the harness starts.
    case web
}

// MARK: - Registration (create)

/// A registration request as the relying party hands it to the platform: the Android, Apple or web
/// form, matching the target's platform.
///
/// On the wire it is an object with exactly one member, `android`, `apple` or `web` (see
/// `PlatformMessages+Codable.swift`); a value with both or neither does not decode.
public enum CreateCredentialRequest: Sendable, Hashable {
    /// Android: `CreatePublicKeyCredentialRequest` passed to `CredentialManager.createCredential()`.
    case android(AndroidCreatePublicKeyCredentialRequest)
    /// Apple: `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest` performed by an authorization controller.
    case apple(AppleRegistrationRequest)

    /// Web: `navigator.credentials.create({publicKey, mediation})` of a page.
    case web(WebCreateRequest)
    /// The platform the request is written for.
    public var platform: PlatformFamily {
        switch self {
        case .android: .android
        case .apple: .apple
        case .web: .web
        }
    }
    /// The Android request, or `nil` for an Apple one (a read helper; decide by platform with `switch`).
    public var androidRequest: AndroidCreatePublicKeyCredentialRequest? {
        if case .android(let request) = self { request } else { nil }
    }
    /// The Apple request, or `nil` for an Android one (a read helper; decide by platform with `switch`).
    public var appleRequest: AppleRegistrationRequest? {
        if case .apple(let request) = self { request } else { nil }
    }
}

/// The fields of androidx.credentials `CreatePublicKeyCredentialRequest` (1.6.0).
public struct AndroidCreatePublicKeyCredentialRequest: Sendable, Codable, Hashable {
    /// `PublicKeyCredentialCreationOptions` as JSON, the WebAuthn JSON encoding.
    public var requestJson: String
    /// `isConditional`: create opportunistically, without UI (1.6.0 and later).
    public var isConditional: Bool
    /// `preferImmediatelyAvailableCredentials`: when no provider on the device can create the passkey,
    /// fail at once instead of falling back to remote options such as another device.
    public var preferImmediatelyAvailableCredentials: Bool
    /// `isAutoSelectAllowed`: when only one way to create the passkey is available, the platform may
    /// take it without letting the user choose.
    public var isAutoSelectAllowed: Bool
    /// `origin`, set only by privileged callers such as browsers.
    public var origin: String?

    /// Creates the request with its JSON and flags; the flags other than `isConditional` default to `false`.
    public init(
        requestJson: String, isConditional: Bool, preferImmediatelyAvailableCredentials: Bool = false,
        isAutoSelectAllowed: Bool = false, origin: String? = nil
    ) {
        self.requestJson = requestJson
        self.isConditional = isConditional
        self.preferImmediatelyAvailableCredentials = preferImmediatelyAvailableCredentials
        self.isAutoSelectAllowed = isAutoSelectAllowed
        self.origin = origin
    }
}

/// The request styles of `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest.RequestStyle`.
public enum AppleRequestStyle: String, Sendable, Hashable, ProtocolEnum {
    /// `.standard`: the system shows its registration sheet.
    case standard
    /// `.conditional` (iOS 18, macOS 15): opportunistic, no UI.
    case conditional
}

/// The fields of `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`.
public struct AppleRegistrationRequest: Sendable, Codable, Hashable {
    /// `relyingPartyIdentifier` of the provider that made the request.
    public var relyingPartyIdentifier: String
    /// `challenge` bytes.
    public var challenge: Data
    /// `name`: the account name.
    public var name: String
    /// `userID`: the WebAuthn user handle bytes.
    public var userID: Data
    /// `displayName`, if set.
    public var displayName: String?
    /// `requestStyle` (iOS 18+); `nil` when the app did not set it (then `.standard`).
    public var requestStyle: AppleRequestStyle?
    /// `excludedCredentials` ids (iOS 17.4+); `nil` when the app did not set the property.
    public var excludedCredentials: [Data]?
    /// `userVerificationPreference`: `preferred`, `required` or `discouraged`.
    public var userVerificationPreference: String

    /// Creates the request; `requestStyle` and `excludedCredentials` stay unset unless given, and user
    /// verification is `preferred`.
    public init(
        relyingPartyIdentifier: String, challenge: Data, name: String, userID: Data, displayName: String? = nil,
        requestStyle: AppleRequestStyle? = nil, excludedCredentials: [Data]? = nil, userVerificationPreference: String = "preferred"
    ) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
        self.name = name
        self.userID = userID
        self.displayName = displayName
        self.requestStyle = requestStyle
        self.excludedCredentials = excludedCredentials
        self.userVerificationPreference = userVerificationPreference
    }
}

// MARK: - Assertion (get)

/// A passkey sign-in request as the relying party hands it to the platform: the Android or the
/// Apple form; on the wire an object with exactly one member, `android` or `apple`.
public enum GetCredentialRequest: Sendable, Hashable {
    /// Android: `GetCredentialRequest` with one `GetPublicKeyCredentialOption(requestJson)`.
    case android(AndroidGetPublicKeyCredentialOption)
    /// Apple: `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`.
    case apple(AppleAssertionRequest)

    /// Web: `navigator.credentials.get({publicKey, mediation})` of a page.
    case web(WebGetRequest)
    /// The platform the request is written for.
    public var platform: PlatformFamily {
        switch self {
        case .android: .android
        case .apple: .apple
        case .web: .web
        }
    }
    /// The Android option, or `nil` for an Apple request (a read helper; decide by platform with `switch`).
    public var androidRequest: AndroidGetPublicKeyCredentialOption? {
        if case .android(let request) = self { request } else { nil }
    }
    /// The Apple request, or `nil` for an Android one (a read helper; decide by platform with `switch`).
    public var appleRequest: AppleAssertionRequest? {
        if case .apple(let request) = self { request } else { nil }
    }
}

/// The fields of androidx.credentials `GetPublicKeyCredentialOption`.
public struct AndroidGetPublicKeyCredentialOption: Sendable, Codable, Hashable {
    /// `PublicKeyCredentialRequestOptions` as JSON.
    public var requestJson: String
    /// Creates the option with its request JSON.
    public init(requestJson: String) { self.requestJson = requestJson }
}

/// The fields of `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`.
public struct AppleAssertionRequest: Sendable, Codable, Hashable {
    /// The RP ID of the provider that made the request.
    public var relyingPartyIdentifier: String
    /// The challenge bytes the server issued (base64url on the wire).
    public var challenge: Data
    /// `allowedCredentials` ids; empty for a discoverable-credential request.
    public var allowedCredentials: [Data]
    /// `userVerificationPreference`: `preferred`, `required` or `discouraged`.
    public var userVerificationPreference: String

    /// Creates the request; by default it allows any discoverable credential and prefers user verification.
    public init(relyingPartyIdentifier: String, challenge: Data, allowedCredentials: [Data] = [], userVerificationPreference: String = "preferred") {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
        self.allowedCredentials = allowedCredentials
        self.userVerificationPreference = userVerificationPreference
    }
}

// MARK: - Signals

/// A signal as the relying party hands it to the platform: the Android or the Apple form; on the
/// wire an object with exactly one member, `android` or `apple`.
public enum SignalRequest: Sendable, Hashable {
    /// Android: a `SignalCredentialStateRequest` subclass passed to `CredentialManager.signalCredentialState()`.
    case android(AndroidSignalRequest)
    /// Apple: one report method of `ASCredentialDataManager` or `ASCredentialUpdater`.
    case apple(AppleSignalReport)

    /// Web: one of the static signal methods of `PublicKeyCredential`, called by a page.
    case web(WebSignalRequest)
    /// The platform the signal is written for.
    public var platform: PlatformFamily {
        switch self {
        case .android: .android
        case .apple: .apple
        case .web: .web
        }
    }
    /// The Android signal, or `nil` for an Apple one (a read helper; decide by platform with `switch`).
    public var androidRequest: AndroidSignalRequest? {
        if case .android(let request) = self { request } else { nil }
    }
    /// The Apple report, or `nil` for an Android one (a read helper; decide by platform with `switch`).
    public var appleRequest: AppleSignalReport? {
        if case .apple(let request) = self { request } else { nil }
    }
}

/// An androidx.credentials signal request: its type constant and its JSON.
public struct AndroidSignalRequest: Sendable, Codable, Hashable {
    /// The request class's type, e.g. `androidx.credentials.SIGNAL_UNKNOWN_CREDENTIAL_STATE_REQUEST_TYPE`.
    public var type: String
    /// The request JSON (`rpId`, `credentialId`, `userId`, `allAcceptedCredentialIds`, `name`, `displayName`).
    public var requestJson: String

    /// The type of `SignalUnknownCredentialRequest`: the server does not know `credentialId` for `rpId`.
    public static let unknownCredentialType = "androidx.credentials.SIGNAL_UNKNOWN_CREDENTIAL_STATE_REQUEST_TYPE"
    /// The type of `SignalAllAcceptedCredentialIdsRequest`: the full list of the user's valid credential ids.
    public static let allAcceptedCredentialsType = "androidx.credentials.SIGNAL_ALL_ACCEPTED_CREDENTIALS_REQUEST_TYPE"
    /// The type of `SignalCurrentUserDetailsRequest`: the account's current `name` and `displayName`.
    public static let currentUserDetailsType = "androidx.credentials.SIGNAL_CURRENT_USER_DETAILS_STATE_REQUEST_TYPE"

    /// Creates a signal request with its type constant and JSON.
    public init(type: String, requestJson: String) {
        self.type = type
        self.requestJson = requestJson
    }
}

/// The Apple class that carries signal reports.
public enum AppleSignalInterface: String, Sendable, Hashable, ProtocolEnum {
    /// `ASCredentialUpdater`: 26.0, deprecated in 26.2.
    case credentialUpdater = "ASCredentialUpdater"
    /// `ASCredentialDataManager`: 26.2 and later.
    case credentialDataManager = "ASCredentialDataManager"
}

/// The report methods shared by `ASCredentialUpdater` and `ASCredentialDataManager`.
public enum AppleSignalMethod: String, Sendable, Hashable, ProtocolEnum {
    /// Reports a credential id the server does not know (`relyingPartyIdentifier`, `credentialID`).
    case reportUnknownPublicKeyCredential
    /// Reports every credential id the server accepts for a user (`userHandle`, `acceptedCredentialIDs`).
    case reportAllAcceptedPublicKeyCredentials
    /// Reports a user's new account name (`userHandle`, `newName`).
    case reportPublicKeyCredentialUpdate
    /// Reports that the account no longer uses its password (`relyingPartyIdentifier` as domain, `userName`).
    case reportUnusedPasswordCredential
}

/// One call of an Apple signal report method with its raw arguments.
public struct AppleSignalReport: Sendable, Codable, Hashable {
    /// The class the app called the report method on.
    public var interface: AppleSignalInterface
    /// The report method the app called.
    public var method: AppleSignalMethod
    /// `relyingPartyIdentifier` (or `domain` for the unused-password report).
    public var relyingPartyIdentifier: String
    /// `credentialID` of `reportUnknownPublicKeyCredential`.
    public var credentialID: Data?
    /// `userHandle` of the accepted-list and update reports.
    public var userHandle: Data?
    /// `acceptedCredentialIDs` of `reportAllAcceptedPublicKeyCredentials`.
    public var acceptedCredentialIDs: [Data]?
    /// `newName` of `reportPublicKeyCredentialUpdate`.
    public var newName: String?
    /// `userName` of `reportUnusedPasswordCredential`.
    public var userName: String?

    /// Creates a report with the arguments its method takes; the others stay `nil`.
    public init(
        interface: AppleSignalInterface, method: AppleSignalMethod, relyingPartyIdentifier: String, credentialID: Data? = nil,
        userHandle: Data? = nil, acceptedCredentialIDs: [Data]? = nil, newName: String? = nil, userName: String? = nil
    ) {
        self.interface = interface
        self.method = method
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.acceptedCredentialIDs = acceptedCredentialIDs
        self.newName = newName
        self.userName = userName
    }
}

// MARK: - Outcomes

/// How a platform operation ended, delivered to the relying party with
/// `RelyingPartySession.platformCompleted(operation:outcome:)` (`session.platformCompleted` on the wire).
///
/// On the wire an object with exactly one member, named after the case (see
/// `PlatformMessages+Codable.swift`).
public enum PlatformOutcome: Sendable, Hashable {
    /// Android `CreatePublicKeyCredentialResponse.registrationResponseJson` (`androidRegistrationResponseJson`).
    case androidRegistration(responseJson: String)
    /// Android `PublicKeyCredential.authenticationResponseJson` of a `GetCredentialResponse`
    /// (`androidAuthenticationResponseJson`).
    case androidAuthentication(responseJson: String)
    /// Apple `ASAuthorizationPlatformPublicKeyCredentialRegistration` (`appleRegistration`).
    case appleRegistration(AppleRegistration)
    /// Apple `ASAuthorizationPlatformPublicKeyCredentialAssertion` (`appleAssertion`).
    case appleAssertion(AppleAssertion)
    /// The JSON of the `PublicKeyCredential` a page's `create` resolved with (`toJSON()`:
    /// `RegistrationResponseJSON`), as the browser made it (`webRegistrationResponseJson`).
    case webRegistration(responseJson: String)
    /// The JSON of the `PublicKeyCredential` a page's `get` resolved with (`AuthenticationResponseJSON`)
    /// (`webAuthenticationResponseJson`).
    case webAuthentication(responseJson: String)
    /// A signal the platform accepted; says nothing about what any provider did (`signalAccepted: true`).
    case signalAccepted
    /// The exception (Android) or error (Apple) the call ended with (`error`).
    case failure(PlatformError)

    /// The error of a failed outcome, `nil` otherwise (a read helper).
    public var error: PlatformError? {
        if case .failure(let error) = self { error } else { nil }
    }
    /// Whether the outcome is an accepted signal.
    public var isSignalAccepted: Bool {
        if case .signalAccepted = self { true } else { false }
    }
}

/// The raw fields of an Apple platform registration.
public struct AppleRegistration: Sendable, Codable, Hashable {
    /// The new credential's id, as raw bytes (base64url on the wire).
    public var credentialID: Data
    /// The clientDataJSON bytes the authenticator signed over (type `webauthn.create`).
    public var rawClientDataJSON: Data
    /// The CBOR attestation object (`none` format) holding the authenticator data and the public key.
    public var rawAttestationObject: Data
    /// Creates a registration result from its raw fields.
    public init(credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAttestationObject = rawAttestationObject
    }
}

/// The raw fields of an Apple platform assertion.
public struct AppleAssertion: Sendable, Codable, Hashable {
    /// The id of the credential that signed, as raw bytes (base64url on the wire).
    public var credentialID: Data
    /// The user handle stored with the passkey, as raw bytes.
    public var userID: Data
    /// The clientDataJSON bytes (type `webauthn.get`).
    public var rawClientDataJSON: Data
    /// The authenticator data: RP ID hash, flags and signature counter.
    public var rawAuthenticatorData: Data
    /// The DER-encoded ES256 signature over the authenticator data followed by the SHA-256 of the clientDataJSON.
    public var signature: Data
    /// Creates an assertion result from its raw fields.
    public init(credentialID: Data, userID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data, signature: Data) {
        self.credentialID = credentialID
        self.userID = userID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAuthenticatorData = rawAuthenticatorData
        self.signature = signature
    }
}
