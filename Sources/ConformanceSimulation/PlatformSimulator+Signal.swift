import ConformanceModel
import Foundation
import WebAuthn

/// A signal reduced to its meaning, whichever platform it came from.
public struct SignalView: Sendable, Hashable, Codable {
    /// What a signal tells the credential manager.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The server does not know a credential id.
        case unknownCredential = "unknown-credential"
        /// The complete list of credential ids the server accepts for a user.
        case allAcceptedCredentials = "all-accepted-credentials"
        /// A user's current name and display name.
        case currentUserDetails = "current-user-details"
        /// The account no longer uses its password (Apple only).
        case unusedPassword = "unused-password"
    }

    /// The kind an Android request type stands for, or `nil` for a type the library does not know.
    public static func kind(androidType: String) -> Kind? {
        switch androidType {
        case AndroidSignalRequest.unknownCredentialType: .unknownCredential
        case AndroidSignalRequest.allAcceptedCredentialsType: .allAcceptedCredentials
        case AndroidSignalRequest.currentUserDetailsType: .currentUserDetails
        default: nil
        }
    }

    /// The kind an Apple report method stands for.
    public static func kind(appleMethod: AppleSignalMethod) -> Kind {
        switch appleMethod {
        case .reportUnknownPublicKeyCredential: .unknownCredential
        case .reportAllAcceptedPublicKeyCredentials: .allAcceptedCredentials
        case .reportPublicKeyCredentialUpdate: .currentUserDetails
        case .reportUnusedPasswordCredential: .unusedPassword
        }
    }
    /// What the signal says.
    public var kind: Kind
    /// `signalCredentialState`, `ASCredentialDataManager` or `ASCredentialUpdater`.
    public var interface: String
    /// The RP ID the signal names (Android `rpId`, Apple `relyingPartyIdentifier` or domain).
    public var rpID: String
    /// The unknown credential's id (`unknownCredential` only).
    public var credentialID: Data?
    /// The user handle the signal is about (accepted-list and user-details signals).
    public var userHandle: Data?
    /// Every credential id the server accepts for the user (`allAcceptedCredentials` only).
    public var acceptedCredentialIDs: [Data]?
    /// The new account name (user details), or the user name of an unused password.
    public var name: String?
    /// The new display name (Android user details only; Apple reports carry no display name).
    public var displayName: String?

    /// Reads a signal; the error names the offending member as the platform library would.
    public static func read(_ request: SignalRequest) -> Result<SignalView, PlatformError> {
        switch request {
        case .android(let android): readAndroid(android)
        case .apple(let apple): readApple(apple)
        }
    }

    static func illegal(_ message: String) -> PlatformError {
        PlatformError(name: "IllegalArgumentException", message: "Structural/type validation failed for JSON: \(message)")
    }

    static func readAndroid(_ request: AndroidSignalRequest) -> Result<SignalView, PlatformError> {
        let json: JSONValue
        do {
            json = try JSONValue.parse(Data(request.requestJson.utf8))
        } catch {
            return .failure(illegal("requestJson is not a JSON object (not valid JSON: \(error))"))
        }
        guard case .object = json else { return .failure(illegal("requestJson is not a JSON object")) }
        func string(_ key: String) -> Result<String, PlatformError> {
            guard let value = json[key] else { return .failure(illegal("missing key \"\(key)\"")) }
            guard let text = value.stringValue else { return .failure(illegal("\"\(key)\" is not a string")) }
            return .success(text)
        }
        func base64url(_ key: String) -> Result<Data, PlatformError> {
            string(key).flatMap { text in
                Base64URL.decodeIfValid(text).map { .success($0) } ?? .failure(illegal("\"\(key)\" is not base64url: \(text.prefix(40))"))
            }
        }
        let rpID: String
        switch string("rpId") {
        case .failure(let error): return .failure(error)
        case .success(let value): rpID = value
        }
        switch kind(androidType: request.type) {
        case .unknownCredential:
            return base64url("credentialId").map {
                SignalView(kind: .unknownCredential, interface: "signalCredentialState", rpID: rpID, credentialID: $0)
            }
        case .allAcceptedCredentials:
            return base64url("userId").flatMap { userID in
                guard let list = json["allAcceptedCredentialIds"] else { return .failure(illegal("missing key \"allAcceptedCredentialIds\"")) }
                guard let items = list.arrayValue else { return .failure(illegal("\"allAcceptedCredentialIds\" is not an array")) }
                var ids: [Data] = []
                for (index, item) in items.enumerated() {
                    guard let text = item.stringValue, let id = Base64URL.decodeIfValid(text) else {
                        return .failure(illegal("allAcceptedCredentialIds[\(index)] is not a base64url string"))
                    }
                    ids.append(id)
                }
                return .success(
                    SignalView(kind: .allAcceptedCredentials, interface: "signalCredentialState", rpID: rpID, userHandle: userID, acceptedCredentialIDs: ids))
            }
        case .currentUserDetails:
            return base64url("userId").flatMap { userID in
                string("name").flatMap { name in
                    string("displayName").map { displayName in
                        SignalView(
                            kind: .currentUserDetails, interface: "signalCredentialState", rpID: rpID, userHandle: userID, name: name, displayName: displayName)
                    }
                }
            }
        case .unusedPassword, nil:
            return .failure(illegal("unknown signal request type \"\(request.type)\""))
        }
    }

    static func readApple(_ report: AppleSignalReport) -> Result<SignalView, PlatformError> {
        let failed = PlatformSimulator.appleFailed
        func invalid(_ message: String) -> Result<SignalView, PlatformError> {
            .failure(PlatformError(name: failed.name, domain: failed.domain, code: failed.code, message: message))
        }
        guard !report.relyingPartyIdentifier.isEmpty else { return invalid("relyingPartyIdentifier is empty") }
        let interface = report.interface.rawValue
        switch report.method {
        case .reportUnknownPublicKeyCredential:
            guard let id = report.credentialID, !id.isEmpty else { return invalid("credentialID is missing") }
            return .success(SignalView(kind: .unknownCredential, interface: interface, rpID: report.relyingPartyIdentifier, credentialID: id))
        case .reportAllAcceptedPublicKeyCredentials:
            guard let handle = report.userHandle, !handle.isEmpty else { return invalid("userHandle is missing") }
            guard let accepted = report.acceptedCredentialIDs else { return invalid("acceptedCredentialIDs is missing") }
            return .success(
                SignalView(
                    kind: .allAcceptedCredentials, interface: interface, rpID: report.relyingPartyIdentifier,
                    userHandle: handle, acceptedCredentialIDs: accepted))
        case .reportPublicKeyCredentialUpdate:
            guard let handle = report.userHandle, !handle.isEmpty else { return invalid("userHandle is missing") }
            guard let name = report.newName else { return invalid("newName is missing") }
            return .success(SignalView(kind: .currentUserDetails, interface: interface, rpID: report.relyingPartyIdentifier, userHandle: handle, name: name))
        case .reportUnusedPasswordCredential:
            return .success(SignalView(kind: .unusedPassword, interface: interface, rpID: report.relyingPartyIdentifier, name: report.userName))
        }
    }
}

extension PlatformSimulator {
    /// Whether `text` is a plausible RP ID: a domain name, not an origin or a URL.
    public static func isDomain(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, text.count <= 253 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D }
        }
    }

    /// Answers a signal at virtual time `now`: availability, validation, the Android rate limit, then
    /// the provider's silent action. The app learns only that the platform accepted the request.
    public mutating func signal(_ request: SignalRequest, now: Int64) -> (PlatformOutcome, [Note]) {
        var notes: [Note] = []
        switch request {
        case .android:
            guard target.platform == .android, target.has(.signalCredentialState) else {
                notes.append(
                    Note(
                        kind: .unsupportedCall,
                        text: "signalCredentialState is not available on \(target.id) (needs Android 15+ and androidx.credentials 1.6.0)"))
                return (.failure(PlatformError(name: "NoSuchMethodError", message: "CredentialManager.signalCredentialState is not available")), notes)
            }
            if let forced = provider.forcedRateLimitRetryMillis {
                provider.forcedRateLimitRetryMillis = nil
                notes.append(Note(kind: .decision, text: "rate limit exceeded (forced by the scenario), retryMillis \(forced)"))
                return (.failure(Self.rateLimited(retryMillis: forced)), notes)
            }
            // The platform's window counts the calls it accepted; a refused call is not counted, so an
            // app that waits exactly retryMillis gets through.
            let windowStart = now - Self.androidSignalWindowMillis
            let accepted = provider.androidSignalTimes.filter { $0 > windowStart }.sorted()
            if accepted.count >= Self.androidSignalLimit {
                let retry = max(1, accepted[accepted.count - Self.androidSignalLimit] + Self.androidSignalWindowMillis - now)
                notes.append(Note(kind: .decision, text: "rate limit exceeded: \(accepted.count) calls accepted in the last 120 s, retryMillis \(retry)"))
                return (.failure(Self.rateLimited(retryMillis: retry)), notes)
            }
            provider.androidSignalTimes.append(now)
        case .apple(let apple):
            guard target.platform == .apple else {
                notes.append(Note(kind: .unsupportedCall, text: "an Apple report on \(target.id)"))
                return (.failure(PlatformError(name: "UnsupportedPlatform", message: "request for the wrong platform")), notes)
            }
            switch apple.interface {
            case .credentialUpdater:
                guard target.has(.credentialUpdater) || target.has(.credentialDataManager) else {
                    notes.append(Note(kind: .unsupportedCall, text: "ASCredentialUpdater is not available on Apple \(target.osVersion) (26.0 and later)"))
                    return (.failure(PlatformError(name: "UnavailableAPI", message: "ASCredentialUpdater requires 26.0")), notes)
                }
                if target.has(.credentialDataManager) {
                    notes.append(
                        Note(kind: .deprecatedCall, text: "ASCredentialUpdater is deprecated on Apple \(target.osVersion); ASCredentialDataManager replaces it")
                    )
                }
            case .credentialDataManager:
                guard target.has(.credentialDataManager) else {
                    notes.append(Note(kind: .unsupportedCall, text: "ASCredentialDataManager is not available on Apple \(target.osVersion) (26.2 and later)"))
                    return (.failure(PlatformError(name: "UnavailableAPI", message: "ASCredentialDataManager requires 26.2")), notes)
                }
            }
        }
        let view: SignalView
        switch SignalView.read(request) {
        case .failure(let error):
            notes.append(Note(kind: .malformedRequest, text: error.message))
            return (.failure(error), notes)
        case .success(let read):
            view = read
        }
        guard Self.isDomain(view.rpID) else {
            // WebAuthn's RP ID validation ends in SecurityError for anything that is not a domain.
            let message = "rpId \"\(view.rpID.prefix(80))\" is not a domain name (an origin, URL or host alias in place of the RP ID)"
            notes.append(Note(kind: .malformedRequest, text: message))
            let error =
                switch request {
                case .android:
                    PlatformError(
                        name: "SignalCredentialSecurityException", type: "androidx.credentials.SignalCredentialStateException.TYPE_SECURITY",
                        message: "SecurityError: " + message)
                case .apple:
                    PlatformError(name: "ASAuthorizationError.failed", domain: Self.appleErrorDomain, code: 1004, message: "SecurityError: " + message)
                }
            return (.failure(error), notes)
        }
        applyToProvider(view, notes: &notes)
        return (.signalAccepted, notes)
    }

    static func rateLimited(retryMillis: Int64) -> PlatformError {
        PlatformError(
            name: "SignalCredentialRateLimitExceededException",
            type: "androidx.credentials.SignalCredentialStateException.RATE_LIMIT_EXCEEDED",
            message: "signalCredentialState was called too often", retryMillis: retryMillis)
    }

    /// What the provider does with an accepted signal, per its policy; recorded for the transcript only.
    mutating func applyToProvider(_ view: SignalView, notes: inout [Note]) {
        let policy = provider.signalPolicy
        func act(_ index: Int, _ reason: String) {
            switch policy {
            case .ignore: notes.append(Note(kind: .decision, text: "the provider took no action (\(reason))"))
            case .hide:
                provider.passkeys[index].visibility = .hidden
                notes.append(Note(kind: .decision, text: "the provider hid passkey \(Base64URL.encode(provider.passkeys[index].credentialID)) (\(reason))"))
            case .remove:
                provider.passkeys[index].visibility = .removed
                notes.append(Note(kind: .decision, text: "the provider removed passkey \(Base64URL.encode(provider.passkeys[index].credentialID)) (\(reason))"))
            }
        }
        switch view.kind {
        case .unknownCredential:
            for index in provider.passkeys.indices
            where provider.passkeys[index].rpID == view.rpID && provider.passkeys[index].credentialID == view.credentialID {
                act(index, "unknown credential")
            }
        case .allAcceptedCredentials:
            let accepted = Set(view.acceptedCredentialIDs ?? [])
            for index in provider.passkeys.indices where provider.passkeys[index].rpID == view.rpID && provider.passkeys[index].userHandle == view.userHandle {
                if accepted.contains(provider.passkeys[index].credentialID) {
                    if policy != .ignore, provider.passkeys[index].visibility == .hidden { provider.passkeys[index].visibility = .visible }
                } else if provider.passkeys[index].visibility == .visible {
                    act(index, "not in the accepted list")
                }
            }
        case .currentUserDetails:
            guard policy != .ignore else {
                notes.append(Note(kind: .decision, text: "the provider took no action (user details)"))
                return
            }
            for index in provider.passkeys.indices where provider.passkeys[index].rpID == view.rpID && provider.passkeys[index].userHandle == view.userHandle {
                if let name = view.name { provider.passkeys[index].userName = name }
                if let displayName = view.displayName { provider.passkeys[index].displayName = displayName }
            }
        case .unusedPassword:
            break
        }
    }
}
