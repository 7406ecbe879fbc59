import ConformanceModel
import Foundation

/// The credential manager's decisions, apart from what fulfils them: given the request as read,
/// the target and the moment, what the provider model does (refuse with which class, or make a
/// passkey with which flags; which passkey a sign-in uses and what the scenario changes about the
/// response). `PlatformSimulator` fulfils a decision with the family's simulation and the virtual
/// authenticator; a backend over a real platform keeps these decisions for what the platform
/// leaves to its credential manager (a conditional create's silent decision) and lets the
/// platform fulfil.
///
/// A decision may use up the scenario's one-shot settings (a forced failure, a cancelled sheet),
/// so it is taken once per request.
extension ProviderState {
    /// What the provider does with a registration request.
    public enum RegistrationDecision: Sendable, Hashable {
        /// It refuses, with the family's error for the refusal.
        case refuse(CreateRefusal)
        /// It fails with this error, as the scenario asked.
        case fail(PlatformError)
        /// It makes a passkey whose authenticator data carries these flags.
        case make(Flags)
    }

    /// Decides a registration request read as `view` on `target`, for an app associated with
    /// `associatedRPIDs`, at virtual time `now`; what it decided is added to `notes`.
    public mutating func decideRegistration(
        _ view: RegistrationView, target: Target, associatedRPIDs: [String], now: Int64, notes: inout [PlatformSimulator.Note]
    ) -> RegistrationDecision {
        typealias Note = PlatformSimulator.Note
        guard associatedRPIDs.contains(view.rpID) else {
            notes.append(Note(kind: .decision, text: "RP ID \(view.rpID) is not associated with the app"))
            return .refuse(.notAssociated)
        }
        let holdsExcluded = (view.excludedCredentials ?? []).contains { id in
            passkeys.contains { $0.credentialID == id && $0.rpID == view.rpID && $0.visibility == .visible }
        }
        if view.conditional {
            switch conditionalAnswer {
            case .decline?:
                notes.append(Note(kind: .decision, text: "declined silently, as this counterfactual run has every conditional request declined"))
                return .refuse(.declined)
            case .create?:
                notes.append(
                    Note(
                        kind: .decision,
                        text: "created a passkey for \(view.userName) without UI, as this counterfactual run has every conditional request succeed"))
                return .make(flagsOverride ?? Self.conditionalFlags)
            case nil:
                break
            }
            if let failure = nextConditionalCreateFailure {
                nextConditionalCreateFailure = nil
                notes.append(Note(kind: .decision, text: "failed as the scenario asked: \(failure.id)"))
                return .fail(failure.error)
            }
            if !target.has(.conditionalCreate) {
                notes.append(
                    Note(
                        kind: .decision,
                        text:
                            "the provider (\(target.provider.rawValue), Play services \(target.playServicesVersion ?? "-")) does not support conditional creation"
                    ))
                return .refuse(.conditionalUnsupported(target.provider))
            }
            if view.userVerification == "required" {
                // WebAuthn L3: a conditional create that requires user verification the client cannot
                // collect fails with ConstraintError; no provider collects it without UI
                // (Documentation/platform-fidelity.md, F3).
                notes.append(Note(kind: .decision, text: "refused without UI: a conditional request cannot require user verification"))
                return .refuse(.userVerificationRequired)
            }
            if automaticCreationOff {
                notes.append(Note(kind: .decision, text: "declined silently: the user switched automatic passkey creation off"))
                return .refuse(.declined)
            }
            guard let autofill = lastAutofill, autofill.username == view.userName, autofill.rpID == view.rpID,
                now - autofill.atMillis <= autofillWindowMillis
            else {
                let what = lastAutofill.map { "the last autofill was \($0.username) at \($0.atMillis) ms" } ?? "no password was autofilled"
                notes.append(Note(kind: .decision, text: "declined silently: no recent autofill of \(view.userName)'s saved password (\(what))"))
                return .refuse(.declined)
            }
            if holdsExcluded {
                notes.append(Note(kind: .decision, text: "declined: the provider holds an excluded credential"))
                return .refuse(.excluded)
            }
            if !visiblePasskeys(rpID: view.rpID, userHandle: view.userHandle).isEmpty {
                notes.append(Note(kind: .decision, text: "declined silently: the provider already holds a passkey for this account"))
                return .refuse(.declined)
            }
            notes.append(Note(kind: .decision, text: "created a passkey for \(view.userName) without UI"))
            return .make(flagsOverride ?? Self.conditionalFlags)
        }
        if createsWithoutUI {
            notes.append(Note(kind: .decision, text: "the provider fulfils the modal request without showing UI"))
        } else {
            notes.append(Note(kind: .uiShown, text: "the registration sheet is shown for \(view.userName)"))
        }
        if holdsExcluded {
            notes.append(Note(kind: .decision, text: "the user confirmed; the provider holds an excluded credential"))
            return .refuse(.excluded)
        }
        if cancelNextModal {
            cancelNextModal = false
            notes.append(Note(kind: .decision, text: "the user cancelled the sheet"))
            return .refuse(.cancelled)
        }
        notes.append(Note(kind: .decision, text: "the user confirmed; created a passkey for \(view.userName)"))
        return .make(flagsOverride ?? Self.modalFlags)
    }

    /// The flags of a passkey made without UI: no user presence or verification, backed up.
    public static let conditionalFlags = Flags(userPresent: false, userVerified: false, backupEligible: true, backedUp: true)
    /// The flags of a passkey made or used through the platform's sheet: present, verified, backed up.
    public static let modalFlags = Flags(userPresent: true, userVerified: true, backupEligible: true, backedUp: true)

    /// What the provider does with a passkey sign-in request.
    public enum AssertionDecision: Sendable, Hashable {
        /// It refuses, with the family's error for the refusal.
        case refuse(GetRefusal)
        /// It answers with this passkey, with these flags, changed as the scenario's plan asks.
        case use(Passkey, flags: Flags, change: ResponseChange?)
    }

    /// What the scenario changes about a sign-in's response (`AssertionPlan`).
    public enum ResponseChange: Sendable, Hashable {
        /// The signature is over other data.
        case invalidSignature
        /// The client data names an origin the app is not associated with.
        case foreignOrigin
        /// The authenticator data names another RP ID.
        case foreignRPID
        /// The authenticator data is cut short.
        case malformedAuthenticatorData
    }

    /// Decides a passkey sign-in request read as `read`; what it decided is added to `notes`.
    public mutating func decideAssertion(_ read: AssertionRequestView, notes: inout [PlatformSimulator.Note]) -> AssertionDecision {
        typealias Note = PlatformSimulator.Note
        let (rpID, allowed) = (read.rpID, read.allowedCredentials)
        notes.append(Note(kind: .uiShown, text: "the passkey sign-in sheet is shown"))
        let plan = nextAssertion
        nextAssertion = nil
        let chosenID: Data
        var change: ResponseChange?
        switch plan {
        case .cancel:
            notes.append(Note(kind: .decision, text: "the user cancelled the sheet"))
            return .refuse(.cancelled)
        case .use(let id):
            chosenID = id
        case .invalidSignature(let id):
            (chosenID, change) = (id, .invalidSignature)
        case .foreignOrigin(let id):
            (chosenID, change) = (id, .foreignOrigin)
        case .foreignRPID(let id):
            (chosenID, change) = (id, .foreignRPID)
        case .malformedAuthenticatorData(let id):
            (chosenID, change) = (id, .malformedAuthenticatorData)
        case nil:
            guard
                let first = passkeys.first(where: {
                    $0.rpID == rpID && $0.visibility == .visible && (allowed.isEmpty || allowed.contains($0.credentialID))
                })
            else {
                notes.append(Note(kind: .decision, text: "no visible passkey for \(rpID)"))
                return .refuse(.noCredential)
            }
            chosenID = first.credentialID
        }
        guard let passkey = passkeys.first(where: { $0.credentialID == chosenID && $0.rpID == rpID && $0.visibility == .visible }) else {
            notes.append(Note(kind: .decision, text: "the chosen passkey is not offered (hidden, removed or for another RP)"))
            return .refuse(.noCredential)
        }
        return .use(passkey, flags: flagsOverride ?? Self.modalFlags, change: change)
    }
}

extension ProviderState {
    /// The origin of a relayed response (`AssertionPlan.foreignOrigin`): a site the app is not
    /// associated with, whatever the RP ID.
    public static func foreignOrigin(rpID: String) -> String { "https://relay.\(rpID).invalid" }

    /// The RP ID a response of `AssertionPlan.foreignRPID` names in its authenticator data: another
    /// RP's, never one of the app's.
    public static func foreignRPID(rpID: String) -> String { "other.\(rpID).invalid" }

    /// How many bytes of authenticator data a malformed response (`AssertionPlan.malformedAuthenticatorData`)
    /// keeps: fewer than the 37 bytes every authenticator data has (RP ID hash, flags, counter).
    public static let malformedAuthenticatorDataLength = 20
}
