import ConformanceModel
import Foundation
import WebAuthn

extension PlatformSimulator {
    /// Answers a passkey sign-in request at virtual time `now`.
    public mutating func get(_ request: GetCredentialRequest, now: Int64) -> (PlatformOutcome, [Note]) {
        var notes: [Note] = []
        guard request.platform == target.platform else {
            notes.append(Note(kind: .unsupportedCall, text: "a request for the wrong platform on \(target.id)"))
            return (.failure(PlatformFamilies.wrongPlatform), notes)
        }
        let family = self.family
        let read: AssertionRequestView
        switch family.readAssertionRequest(request) {
        case .failure(let error):
            notes.append(Note(kind: .malformedRequest, text: error.message))
            return (.failure(error), notes)
        case .success(let view):
            read = view
        }
        let (rpID, challenge, allowed) = (read.rpID, read.challenge, read.allowedCredentials)
        notes.append(Note(kind: .uiShown, text: "the passkey sign-in sheet is shown"))
        let plan = provider.nextAssertion
        provider.nextAssertion = nil
        let chosenID: Data
        var invalidSignature = false
        var foreignOrigin = false
        var foreignRPID = false
        var malformed = false
        switch plan {
        case .cancel:
            notes.append(Note(kind: .decision, text: "the user cancelled the sheet"))
            return (.failure(family.getError(.cancelled)), notes)
        case .use(let id):
            chosenID = id
        case .invalidSignature(let id):
            chosenID = id
            invalidSignature = true
        case .foreignOrigin(let id):
            chosenID = id
            foreignOrigin = true
        case .foreignRPID(let id):
            chosenID = id
            foreignRPID = true
        case .malformedAuthenticatorData(let id):
            chosenID = id
            malformed = true
        case nil:
            guard
                let first = provider.passkeys.first(where: {
                    $0.rpID == rpID && $0.visibility == .visible && (allowed.isEmpty || allowed.contains($0.credentialID))
                })
            else {
                notes.append(Note(kind: .decision, text: "no visible passkey for \(rpID)"))
                return (.failure(family.getError(.noCredential)), notes)
            }
            chosenID = first.credentialID
        }
        guard let index = provider.passkeys.firstIndex(where: { $0.credentialID == chosenID && $0.rpID == rpID && $0.visibility == .visible }) else {
            notes.append(Note(kind: .decision, text: "the chosen passkey is not offered (hidden, removed or for another RP)"))
            return (.failure(family.getError(.noCredential)), notes)
        }
        let passkey = provider.passkeys[index]
        let flags = provider.flagsOverride ?? ProviderState.Flags(userPresent: true, userVerified: true, backupEligible: true, backedUp: true)
        let clientDataJSON = CollectedClientData(
            type: .get, challenge: challenge, origin: foreignOrigin ? Self.foreignOrigin(rpID: rpID) : origin(rpID: rpID)
        ).jsonBytes
        guard let credential = authenticator.credential(id: chosenID) else {
            notes.append(Note(kind: .decision, text: "the provider lost the key of this passkey"))
            return (.failure(family.getError(.noCredential)), notes)
        }
        let assertion: VirtualAuthenticator.Assertion
        do {
            assertion = try authenticator.getAssertion(
                credential: credential, clientDataHash: SHA256.hash(clientDataJSON),
                flags: flags.authenticatorFlags,
                fault: invalidSignature ? .signatureOverOtherData : foreignRPID ? .rpId(Self.foreignRPID(rpID: rpID)) : nil)
        } catch {
            return (.failure(family.getError(.unknown("\(error)"))), notes)
        }
        // A malformed response: the authenticator data stops inside its RP ID hash.
        let authenticatorData = malformed ? Data(assertion.authenticatorData.prefix(Self.malformedAuthenticatorDataLength)) : assertion.authenticatorData
        let made = MadeAssertion(
            credentialID: chosenID, userHandle: passkey.userHandle, clientDataJSON: clientDataJSON,
            authenticatorData: authenticatorData, signature: assertion.signature)
        return (family.assertionOutcome(made), notes)
    }
}

extension PlatformSimulator {
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
