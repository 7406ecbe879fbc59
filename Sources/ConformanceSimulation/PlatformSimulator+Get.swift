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
        let (rpID, challenge) = (read.rpID, read.challenge)
        // Deciding (the provider model), then fulfilling (the virtual authenticator's bytes).
        let passkey: ProviderState.Passkey
        let flags: ProviderState.Flags
        let change: ProviderState.ResponseChange?
        switch provider.decideAssertion(read, notes: &notes) {
        case .refuse(let refusal): return (.failure(family.getError(refusal)), notes)
        case .use(let chosen, let chosenFlags, let chosenChange): (passkey, flags, change) = (chosen, chosenFlags, chosenChange)
        }
        let chosenID = passkey.credentialID
        let (invalidSignature, foreignOrigin) = (change == .invalidSignature, change == .foreignOrigin)
        let (foreignRPID, malformed) = (change == .foreignRPID, change == .malformedAuthenticatorData)
        let clientDataJSON = CollectedClientData(
            type: .get, challenge: challenge, origin: foreignOrigin ? ProviderState.foreignOrigin(rpID: rpID) : origin(rpID: rpID)
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
                fault: invalidSignature ? .signatureOverOtherData : foreignRPID ? .rpId(ProviderState.foreignRPID(rpID: rpID)) : nil)
        } catch {
            return (.failure(family.getError(.unknown("\(error)"))), notes)
        }
        // A malformed response: the authenticator data stops inside its RP ID hash.
        let authenticatorData =
            malformed ? Data(assertion.authenticatorData.prefix(ProviderState.malformedAuthenticatorDataLength)) : assertion.authenticatorData
        let made = MadeAssertion(
            credentialID: chosenID, userHandle: passkey.userHandle, clientDataJSON: clientDataJSON,
            authenticatorData: authenticatorData, signature: assertion.signature)
        return (family.assertionOutcome(made), notes)
    }
}
