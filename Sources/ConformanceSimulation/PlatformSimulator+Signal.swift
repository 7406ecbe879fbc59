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

    /// Reads a signal as its platform family does; the error names the offending member as the
    /// platform library would.
    public static func read(_ request: SignalRequest) -> Result<SignalView, PlatformError> {
        PlatformFamilies.simulation(of: request.platform).readSignal(request)
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

    /// Answers a signal at virtual time `now`: availability and the platform's own limits (the
    /// family of the request decides both), validation, then the provider's silent action. The app learns only that the platform accepted the request.
    /// `read` is the signal already read (`SignalView.read`), when the caller has read it.
    public mutating func signal(_ request: SignalRequest, read: Result<SignalView, PlatformError>? = nil, now: Int64) -> (PlatformOutcome, [Note]) {
        var notes: [Note] = []
        let family = PlatformFamilies.simulation(of: request.platform)
        let (refusal, admitted) = family.admitSignal(request, on: target, provider: &provider, now: now)
        if let refusal {
            notes.append(refusal.note)
            return (.failure(refusal.error), notes)
        }
        notes += admitted
        if provider.failSignals {
            notes.append(Note(kind: .decision, text: "the platform failed to pass the signal on (the scenario makes every signal fail)"))
            return (.failure(family.signalFailure()), notes)
        }
        let view: SignalView
        switch read ?? family.readSignal(request) {
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
            let error = family.signalSecurityError(message)
            return (.failure(error), notes)
        }
        applyToProvider(view, notes: &notes)
        return (.signalAccepted, notes)
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
