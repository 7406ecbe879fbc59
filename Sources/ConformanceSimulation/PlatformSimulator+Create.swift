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

    /// A request reduced by a reader outside this module (a real platform's backend).
    public init(
        rpID: String, userHandle: Data, userName: String, displayName: String?, challenge: Data, excludedCredentials: [Data]?, conditional: Bool,
        userVerification: String
    ) {
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.displayName = displayName
        self.challenge = challenge
        self.excludedCredentials = excludedCredentials
        self.conditional = conditional
        self.userVerification = userVerification
    }

    /// Reads a request as its platform family does; the error names the offending field when it
    /// is malformed.
    public static func read(_ request: CreateCredentialRequest) -> Result<RegistrationView, PlatformError> {
        PlatformFamilies.simulation(of: request.platform).readRegistration(request)
    }
}

extension PlatformSimulator {
    /// Answers a registration request at virtual time `now`. `read` is the request already read
    /// (`RegistrationView.read`), when the caller has read it: Android's is parsed JSON.
    public mutating func create(
        _ request: CreateCredentialRequest, read: Result<RegistrationView, PlatformError>? = nil, now: Int64
    ) -> (PlatformOutcome, [Note]) {
        var notes: [Note] = []
        guard request.platform == target.platform else {
            let written = PlatformFamilies.simulation(of: request.platform).displayName
            notes.append(Note(kind: .unsupportedCall, text: "a \(written) request on the \(target.platform.rawValue) target \(target.id)"))
            return (.failure(PlatformFamilies.wrongPlatform), notes)
        }
        let family = self.family
        if let refusal = family.unavailableAPI(of: request, on: target) {
            notes.append(refusal.note)
            return (.failure(refusal.error), notes)
        }
        func refused(_ refusal: CreateRefusal) -> PlatformOutcome { .failure(family.createError(refusal, on: target)) }
        let view: RegistrationView
        switch read ?? family.readRegistration(request) {
        case .failure(let error):
            notes.append(Note(kind: .malformedRequest, text: error.message))
            return (.failure(error), notes)
        case .success(let read):
            view = read
        }
        // Deciding (the provider model), then fulfilling (the virtual authenticator's bytes).
        switch provider.decideRegistration(view, target: target, associatedRPIDs: associatedRPIDs, now: now, notes: &notes) {
        case .refuse(let refusal): return (refused(refusal), notes)
        case .fail(let error): return (.failure(error), notes)
        case .make(let flags): return (makeRegistration(view, flags: flags), notes)
        }
    }

    /// Makes the credential, stores it in the provider and builds the family's success result.
    mutating func makeRegistration(_ view: RegistrationView, flags: ProviderState.Flags) -> PlatformOutcome {
        let family = self.family
        var challenge = view.challenge
        if provider.nextRegistrationAnswersOtherChallenge {
            // Every byte inverted: a challenge of the same length that the server never issued.
            provider.nextRegistrationAnswersOtherChallenge = false
            challenge = Data(view.challenge.map { ~$0 })
        }
        let reusedID = provider.nextRegistrationReusesCredentialID
        provider.nextRegistrationReusesCredentialID = nil
        let clientDataJSON = CollectedClientData(type: .create, challenge: challenge, origin: origin(rpID: view.rpID)).jsonBytes
        let registration: VirtualAuthenticator.Registration
        do {
            registration = try authenticator.makeCredential(
                rpId: view.rpID, userHandle: view.userHandle,
                clientDataHash: SHA256.hash(clientDataJSON), flags: flags.authenticatorFlags, reusedId: reusedID)
        } catch {
            return .failure(family.createError(.unknown("\(error)"), on: target))
        }
        let credentialID = registration.credential.id
        let publicKeyInfo: Data
        do {
            publicKeyInfo = try registration.credential.publicKey.publicKey.subjectPublicKeyInfo()
        } catch {
            return .failure(family.createError(.unknown("\(error)"), on: target))
        }
        provider.passkeys.append(
            ProviderState.Passkey(
                credentialID: credentialID, rpID: view.rpID, userHandle: view.userHandle,
                userName: view.userName, displayName: view.displayName ?? view.userName,
                visibility: .visible))
        return family.registrationOutcome(
            MadeRegistration(
                credentialID: credentialID, clientDataJSON: clientDataJSON, authenticatorData: registration.authenticatorData,
                publicKeyInfo: publicKeyInfo, attestationObject: registration.attestationObject))
    }
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
