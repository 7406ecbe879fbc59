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
        guard associatedRPIDs.contains(view.rpID) else {
            notes.append(Note(kind: .decision, text: "RP ID \(view.rpID) is not associated with the app"))
            return (refused(.notAssociated), notes)
        }
        let holdsExcluded = (view.excludedCredentials ?? []).contains { id in
            provider.passkeys.contains { $0.credentialID == id && $0.rpID == view.rpID && $0.visibility == .visible }
        }
        if view.conditional {
            switch provider.conditionalAnswer {
            case .decline?:
                notes.append(Note(kind: .decision, text: "declined silently, as this counterfactual run has every conditional request declined"))
                return (refused(.declined), notes)
            case .create?:
                let flags = provider.flagsOverride ?? ProviderState.Flags(userPresent: false, userVerified: false, backupEligible: true, backedUp: true)
                notes.append(
                    Note(
                        kind: .decision,
                        text: "created a passkey for \(view.userName) without UI, as this counterfactual run has every conditional request succeed"))
                return (makeRegistration(view, flags: flags), notes)
            case nil:
                break
            }
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
                return (refused(.conditionalUnsupported(target.provider)), notes)
            }
            if view.userVerification == "required" {
                // WebAuthn L3: a conditional create that requires user verification the client cannot
                // collect fails with ConstraintError; no provider collects it without UI
                // (Documentation/platform-fidelity.md, F3).
                notes.append(Note(kind: .decision, text: "refused without UI: a conditional request cannot require user verification"))
                return (refused(.userVerificationRequired), notes)
            }
            if provider.automaticCreationOff {
                notes.append(Note(kind: .decision, text: "declined silently: the user switched automatic passkey creation off"))
                return (refused(.declined), notes)
            }
            guard let autofill = provider.lastAutofill, autofill.username == view.userName, autofill.rpID == view.rpID,
                now - autofill.atMillis <= provider.autofillWindowMillis
            else {
                let what = provider.lastAutofill.map { "the last autofill was \($0.username) at \($0.atMillis) ms" } ?? "no password was autofilled"
                notes.append(Note(kind: .decision, text: "declined silently: no recent autofill of \(view.userName)'s saved password (\(what))"))
                return (refused(.declined), notes)
            }
            if holdsExcluded {
                notes.append(Note(kind: .decision, text: "declined: the provider holds an excluded credential"))
                return (refused(.excluded), notes)
            }
            if !provider.visiblePasskeys(rpID: view.rpID, userHandle: view.userHandle).isEmpty {
                notes.append(Note(kind: .decision, text: "declined silently: the provider already holds a passkey for this account"))
                return (refused(.declined), notes)
            }
            let flags = provider.flagsOverride ?? ProviderState.Flags(userPresent: false, userVerified: false, backupEligible: true, backedUp: true)
            notes.append(Note(kind: .decision, text: "created a passkey for \(view.userName) without UI"))
            return (makeRegistration(view, flags: flags), notes)
        }
        if provider.createsWithoutUI {
            notes.append(Note(kind: .decision, text: "the provider fulfils the modal request without showing UI"))
        } else {
            notes.append(Note(kind: .uiShown, text: "the registration sheet is shown for \(view.userName)"))
        }
        if holdsExcluded {
            notes.append(Note(kind: .decision, text: "the user confirmed; the provider holds an excluded credential"))
            return (refused(.excluded), notes)
        }
        if provider.cancelNextModal {
            provider.cancelNextModal = false
            notes.append(Note(kind: .decision, text: "the user cancelled the sheet"))
            return (refused(.cancelled), notes)
        }
        let flags = provider.flagsOverride ?? ProviderState.Flags(userPresent: true, userVerified: true, backupEligible: true, backedUp: true)
        notes.append(Note(kind: .decision, text: "the user confirmed; created a passkey for \(view.userName)"))
        return (makeRegistration(view, flags: flags), notes)
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
