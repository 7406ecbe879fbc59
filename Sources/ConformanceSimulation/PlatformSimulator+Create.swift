import ConformanceModel
import Foundation
import WebAuthn

/// A registration request reduced to what the provider looks at, whichever platform it came from.
public struct RegistrationView: Sendable, Hashable {
    /// The RP ID the credential is to be scoped to (`rp.id`, or Apple's `relyingPartyIdentifier`).
    public var rpID: String
    /// The WebAuthn user handle, 1 to 64 bytes (`user.id`, or Apple's `userID`).
    public var userHandle: Data
    /// The account name (`user.name`, or Apple's `name`).
    public var userName: String
    /// The display name, if the request carries one.
    public var displayName: String?
    /// The challenge bytes the server issued.
    public var challenge: Data
    /// The exclusion input; `nil` when the request has none.
    public var excludedCredentials: [Data]?
    /// Whether the request is conditional (Android `isConditional`, Apple `requestStyle` `.conditional`).
    public var conditional: Bool
    /// The user-verification preference: `preferred` (when absent), `required` or `discouraged`.
    public var userVerification: String

    /// Reads a request; returns a message naming the offending field when it is malformed.
    public static func read(_ request: CreateCredentialRequest) -> Result<RegistrationView, PlatformError> {
        switch request {
        case .android(let android): readAndroid(android)
        case .apple(let apple): readApple(apple)
        }
    }

    static func illegal(_ message: String) -> PlatformError {
        PlatformError(name: "IllegalArgumentException", message: "requestJson: \(message)")
    }

    static func readAndroid(_ request: AndroidCreatePublicKeyCredentialRequest) -> Result<RegistrationView, PlatformError> {
        guard !request.requestJson.isEmpty else { return .failure(illegal("is empty")) }
        let json: JSONValue
        do {
            json = try JSONValue.parse(Data(request.requestJson.utf8))
        } catch {
            return .failure(illegal("is not valid JSON: \(error)"))
        }
        guard case .object = json else { return .failure(illegal("is not a JSON object")) }
        guard let userName = json["user"]?["name"]?.stringValue, !userName.isEmpty else {
            return .failure(illegal("lacks user.name"))
        }
        guard let userIDText = json["user"]?["id"]?.stringValue else { return .failure(illegal("lacks user.id")) }
        guard let userHandle = Base64URL.decodeIfValid(userIDText) else { return .failure(illegal("user.id is not base64url")) }
        guard (1...64).contains(userHandle.count) else {
            return .failure(illegal("user.id must be 1 to 64 bytes, found \(userHandle.count)"))
        }
        guard let challengeText = json["challenge"]?.stringValue, let challenge = Base64URL.decodeIfValid(challengeText), !challenge.isEmpty else {
            return .failure(illegal("challenge is missing or not base64url"))
        }
        guard let rpID = json["rp"]?["id"]?.stringValue, !rpID.isEmpty else { return .failure(illegal("lacks rp.id")) }
        var excluded: [Data]?
        if let list = json["excludeCredentials"] {
            guard let items = list.arrayValue else { return .failure(illegal("excludeCredentials is not an array")) }
            var ids: [Data] = []
            for (index, item) in items.enumerated() {
                guard let text = item["id"]?.stringValue, let id = Base64URL.decodeIfValid(text) else {
                    return .failure(illegal("excludeCredentials[\(index)].id is missing or not base64url"))
                }
                ids.append(id)
            }
            excluded = ids
        }
        let verification = json["authenticatorSelection"]?["userVerification"]?.stringValue ?? "preferred"
        return .success(
            RegistrationView(
                rpID: rpID, userHandle: userHandle, userName: userName,
                displayName: json["user"]?["displayName"]?.stringValue, challenge: challenge,
                excludedCredentials: excluded, conditional: request.isConditional, userVerification: verification))
    }

    static func readApple(_ request: AppleRegistrationRequest) -> Result<RegistrationView, PlatformError> {
        let failed = PlatformSimulator.appleFailed
        guard !request.relyingPartyIdentifier.isEmpty, !request.name.isEmpty, !request.challenge.isEmpty,
            (1...64).contains(request.userID.count)
        else {
            return .failure(
                PlatformError(
                    name: failed.name, domain: failed.domain, code: failed.code,
                    message: "the registration request needs an RP identifier, a name, a challenge and a user ID of 1 to 64 bytes"))
        }
        return .success(
            RegistrationView(
                rpID: request.relyingPartyIdentifier, userHandle: request.userID, userName: request.name,
                displayName: request.displayName, challenge: request.challenge,
                excludedCredentials: request.excludedCredentials, conditional: request.requestStyle == .conditional,
                userVerification: request.userVerificationPreference))
    }
}

extension PlatformSimulator {
    /// Answers a registration request at virtual time `now`.
    public mutating func create(_ request: CreateCredentialRequest, now: Int64) -> (PlatformOutcome, [Note]) {
        var notes: [Note] = []
        let isAndroid = request.platform == .android
        guard request.platform == target.platform else {
            let written = isAndroid ? "Android" : "Apple"
            notes.append(Note(kind: .unsupportedCall, text: "a \(written) request on the \(target.platform.rawValue) target \(target.id)"))
            return (.failure(PlatformError(name: "UnsupportedPlatform", message: "request for the wrong platform")), notes)
        }
        if case .android(let android) = request, android.isConditional, !target.has(.conditionalCreateAPI) {
            notes.append(Note(kind: .unsupportedCall, text: "isConditional does not exist in androidx.credentials \(target.credentialsLibraryVersion ?? "?")"))
            return (
                .failure(
                    PlatformError(name: "NoSuchMethodError", message: "CreatePublicKeyCredentialRequest has no isConditional parameter in this library version")
                ), notes
            )
        }
        if case .apple(let apple) = request, apple.requestStyle != nil, !target.hasConditionalRequestStyle {
            // Judged by OS family and version: the floors differ by family (iOS 18, macOS 15, visionOS 2).
            let family = target.osFamily
            notes.append(
                Note(
                    kind: .unsupportedCall,
                    text:
                        "requestStyle is not available on \(family.displayName) \(target.osVersion) (\(family.displayName) \(family.conditionalRequestStyleFloor ?? "-") and later)"
                ))
            return (.failure(PlatformError(name: "UnavailableAPI", message: "requestStyle requires iOS and iPadOS 18, macOS 15 or visionOS 2")), notes)
        }
        let view: RegistrationView
        switch RegistrationView.read(request) {
        case .failure(let error):
            notes.append(Note(kind: .malformedRequest, text: error.message))
            return (.failure(error), notes)
        case .success(let read):
            view = read
        }
        guard associatedRPIDs.contains(view.rpID) else {
            notes.append(Note(kind: .decision, text: "RP ID \(view.rpID) is not associated with the app"))
            return (.failure(isAndroid ? Self.securityError : Self.appleFailed), notes)
        }
        let holdsExcluded = (view.excludedCredentials ?? []).contains { id in
            provider.passkeys.contains { $0.credentialID == id && $0.rpID == view.rpID && $0.visibility == .visible }
        }
        if view.conditional {
            if let failure = provider.nextConditionalCreateFailure {
                provider.nextConditionalCreateFailure = nil
                notes.append(Note(kind: .decision, text: "failed as the scenario asked: \(failure.id)"))
                return (.failure(failure.error), notes)
            }
            if !target.has(.conditionalCreate) {
                notes.append(
                    Note(
                        kind: .decision,
                        text:
                            "the provider (\(target.provider.rawValue), Play services \(target.playServicesVersion ?? "-")) does not support conditional creation"
                    ))
                // A third-party provider without conditional support creates nothing, as for any other
                // ineligibility; Google Password Manager before Play services 25.13 reports it unsupported.
                let android = target.provider == .thirdParty ? Self.noCreateOption : Self.createUnsupported
                return (.failure(isAndroid ? android : Self.appleDeclined), notes)
            }
            if view.userVerification == "required" {
                // WebAuthn L3: a conditional create that requires user verification the client cannot
                // collect fails with ConstraintError; no provider collects it without UI
                // (Documentation/platform-fidelity.md, F3).
                notes.append(Note(kind: .decision, text: "refused without UI: a conditional request cannot require user verification"))
                return (.failure(isAndroid ? Self.conditionalConstraintError : Self.appleConditionalUVRequired), notes)
            }
            if provider.automaticCreationOff {
                notes.append(Note(kind: .decision, text: "declined silently: the user switched automatic passkey creation off"))
                return (.failure(isAndroid ? Self.noCreateOption : Self.appleDeclined), notes)
            }
            guard let autofill = provider.lastAutofill, autofill.username == view.userName, autofill.rpID == view.rpID,
                now - autofill.atMillis <= ProviderState.autofillRecencyMillis
            else {
                let what = provider.lastAutofill.map { "the last autofill was \($0.username) at \($0.atMillis) ms" } ?? "no password was autofilled"
                notes.append(Note(kind: .decision, text: "declined silently: no recent autofill of \(view.userName)'s saved password (\(what))"))
                return (.failure(isAndroid ? Self.noCreateOption : Self.appleDeclined), notes)
            }
            if holdsExcluded {
                notes.append(Note(kind: .decision, text: "declined: the provider holds an excluded credential"))
                return (.failure(isAndroid ? Self.invalidState : Self.appleMatchedExcluded), notes)
            }
            if !provider.visiblePasskeys(rpID: view.rpID, userHandle: view.userHandle).isEmpty {
                notes.append(Note(kind: .decision, text: "declined silently: the provider already holds a passkey for this account"))
                return (.failure(isAndroid ? Self.noCreateOption : Self.appleDeclined), notes)
            }
            let flags = provider.flagsOverride ?? ProviderState.Flags(userPresent: false, userVerified: false, backupEligible: true, backedUp: true)
            notes.append(Note(kind: .decision, text: "created a passkey for \(view.userName) without UI"))
            return (makeRegistration(view, flags: flags, android: isAndroid), notes)
        }
        if provider.createsWithoutUI {
            notes.append(Note(kind: .decision, text: "the provider fulfils the modal request without showing UI"))
        } else {
            notes.append(Note(kind: .uiShown, text: "the registration sheet is shown for \(view.userName)"))
        }
        if holdsExcluded {
            notes.append(Note(kind: .decision, text: "the user confirmed; the provider holds an excluded credential"))
            return (.failure(isAndroid ? Self.invalidState : Self.appleMatchedExcluded), notes)
        }
        if provider.cancelNextModal {
            provider.cancelNextModal = false
            notes.append(Note(kind: .decision, text: "the user cancelled the sheet"))
            return (.failure(isAndroid ? Self.createCancelled : Self.appleCanceled), notes)
        }
        let flags = provider.flagsOverride ?? ProviderState.Flags(userPresent: true, userVerified: true, backupEligible: true, backedUp: true)
        notes.append(Note(kind: .decision, text: "the user confirmed; created a passkey for \(view.userName)"))
        return (makeRegistration(view, flags: flags, android: isAndroid), notes)
    }

    /// Makes the credential, stores it in the provider and builds the platform's success result.
    mutating func makeRegistration(_ view: RegistrationView, flags: ProviderState.Flags, android: Bool) -> PlatformOutcome {
        let clientDataJSON = CollectedClientData(type: .create, challenge: view.challenge, origin: origin(rpID: view.rpID)).jsonBytes
        let registration: VirtualAuthenticator.Registration
        do {
            registration = try authenticator.makeCredential(
                rpId: view.rpID, userHandle: view.userHandle,
                clientDataHash: SHA256.hash(clientDataJSON), flags: flags.authenticatorFlags)
        } catch {
            return .failure(PlatformError(name: android ? "CreateCredentialUnknownException" : "ASAuthorizationError.unknown", message: "\(error)"))
        }
        let credentialID = registration.credential.id
        let publicKeyInfo: Data
        do {
            publicKeyInfo = try registration.credential.publicKey.publicKey.subjectPublicKeyInfo()
        } catch {
            return .failure(PlatformError(name: android ? "CreateCredentialUnknownException" : "ASAuthorizationError.unknown", message: "\(error)"))
        }
        provider.passkeys.append(
            ProviderState.Passkey(
                credentialID: credentialID, rpID: view.rpID, userHandle: view.userHandle,
                userName: view.userName, displayName: view.displayName ?? view.userName,
                visibility: .visible))
        if android {
            // WebAuthn L3 `RegistrationResponseJSON` with every member of
            // `AuthenticatorAttestationResponseJSON` (Documentation/platform-fidelity.md, F1).
            let json: JSONValue = .object([
                "id": .string(Base64URL.encode(credentialID)),
                "rawId": .string(Base64URL.encode(credentialID)),
                "type": .string("public-key"),
                "authenticatorAttachment": .string("platform"),
                "clientExtensionResults": .object([:]),
                "response": .object([
                    "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
                    "authenticatorData": .string(Base64URL.encode(registration.authenticatorData)),
                    "transports": .array([.string("internal"), .string("hybrid")]),
                    "publicKey": .string(Base64URL.encode(publicKeyInfo)),
                    "publicKeyAlgorithm": .number(Double(COSEKey.algorithmES256)),
                    "attestationObject": .string(Base64URL.encode(registration.attestationObject)),
                ]),
            ])
            return .androidRegistration(responseJson: Wire.jsonString(json))
        }
        return .appleRegistration(
            AppleRegistration(
                credentialID: credentialID, rawClientDataJSON: clientDataJSON,
                rawAttestationObject: registration.attestationObject))
    }
}

extension PlatformSimulator {
    /// Android's answer to a conditional request whose `requestJson` requires user verification:
    /// `CreatePublicKeyCredentialDomException` with the DOM `ConstraintError`, whose type is the DOM
    /// exception prefix, a slash and `ConstraintError`'s own type.
    static let conditionalConstraintError = androidCreateError(
        "CreatePublicKeyCredentialDomException",
        type: "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_DOM_EXCEPTION/androidx.credentials.TYPE_CONSTRAINT_ERROR",
        "ConstraintError: a conditional request cannot require user verification")
    /// Apple's answer to a `.conditional` request with `userVerificationPreference = .required`. Apple
    /// documents only that a conditional request whose conditions are not met returns an error without
    /// UI; which code is not documented, so the simulation answers `failed`, the code for a request the
    /// system refuses as invalid, which an app must not take for the user's ineligibility.
    static let appleConditionalUVRequired = appleError(1004, "failed", "a conditional registration request cannot require user verification")
}

extension ProviderState.Flags {
    /// The authenticator-data flags these stand for.
    var authenticatorFlags: AuthenticatorData.Flags {
        var flags: AuthenticatorData.Flags = []
        if userPresent { flags.insert(.userPresent) }
        if userVerified { flags.insert(.userVerified) }
        if backupEligible { flags.insert(.backupEligible) }
        if backedUp { flags.insert(.backupState) }
        return flags
    }
}
