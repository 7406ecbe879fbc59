import ConformanceModel
import Foundation
import WebAuthn

extension PlatformSimulator {
    static let getCancelled = PlatformError(
        name: "GetCredentialCancellationException",
        type: "android.credentials.GetCredentialException.TYPE_USER_CANCELED",
        message: "the user cancelled the sign-in sheet")
    static let noCredential = PlatformError(
        name: "NoCredentialException",
        type: "android.credentials.GetCredentialException.TYPE_NO_CREDENTIAL",
        message: "no passkey is available for this request")

    /// Answers a passkey sign-in request at virtual time `now`.
    public mutating func get(_ request: GetCredentialRequest, now: Int64) -> (PlatformOutcome, [Note]) {
        var notes: [Note] = []
        let isAndroid = request.platform == .android
        guard request.platform == target.platform else {
            notes.append(Note(kind: .unsupportedCall, text: "a request for the wrong platform on \(target.id)"))
            return (.failure(PlatformError(name: "UnsupportedPlatform", message: "request for the wrong platform")), notes)
        }
        let rpID: String
        let challenge: Data
        let allowed: [Data]
        switch request {
        case .android(let android):
            let json: JSONValue
            do {
                json = try JSONValue.parse(Data(android.requestJson.utf8))
            } catch {
                let failure = PlatformError(name: "IllegalArgumentException", message: "requestJson: is not valid JSON: \(error)")
                notes.append(Note(kind: .malformedRequest, text: failure.message))
                return (.failure(failure), notes)
            }
            guard let id = json["rpId"]?.stringValue,
                let challengeText = json["challenge"]?.stringValue, let decoded = Base64URL.decodeIfValid(challengeText), !decoded.isEmpty
            else {
                let error = PlatformError(name: "IllegalArgumentException", message: "requestJson: needs rpId and a base64url challenge")
                notes.append(Note(kind: .malformedRequest, text: error.message))
                return (.failure(error), notes)
            }
            rpID = id
            challenge = decoded
            allowed = (json["allowCredentials"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue.flatMap(Base64URL.decodeIfValid) }
        case .apple(let apple):
            rpID = apple.relyingPartyIdentifier
            challenge = apple.challenge
            allowed = apple.allowedCredentials
        }
        notes.append(Note(kind: .uiShown, text: "the passkey sign-in sheet is shown"))
        let plan = provider.nextAssertion
        provider.nextAssertion = nil
        let chosenID: Data
        var invalidSignature = false
        switch plan {
        case .cancel:
            notes.append(Note(kind: .decision, text: "the user cancelled the sheet"))
            return (.failure(isAndroid ? Self.getCancelled : Self.appleCanceled), notes)
        case .use(let id):
            chosenID = id
        case .invalidSignature(let id):
            chosenID = id
            invalidSignature = true
        case nil:
            guard
                let first = provider.passkeys.first(where: {
                    $0.rpID == rpID && $0.visibility == .visible && (allowed.isEmpty || allowed.contains($0.credentialID))
                })
            else {
                notes.append(Note(kind: .decision, text: "no visible passkey for \(rpID)"))
                return (.failure(isAndroid ? Self.noCredential : Self.appleCanceled), notes)
            }
            chosenID = first.credentialID
        }
        guard let index = provider.passkeys.firstIndex(where: { $0.credentialID == chosenID && $0.rpID == rpID && $0.visibility == .visible }) else {
            notes.append(Note(kind: .decision, text: "the chosen passkey is not offered (hidden, removed or for another RP)"))
            return (.failure(isAndroid ? Self.noCredential : Self.appleCanceled), notes)
        }
        let passkey = provider.passkeys[index]
        let flags = provider.flagsOverride ?? ProviderState.Flags(userPresent: true, userVerified: true, backupEligible: true, backedUp: true)
        let clientDataJSON = CollectedClientData(type: .get, challenge: challenge, origin: origin(rpID: rpID)).jsonBytes
        guard let credential = authenticator.credential(id: chosenID) else {
            notes.append(Note(kind: .decision, text: "the provider lost the key of this passkey"))
            return (.failure(isAndroid ? Self.noCredential : Self.appleCanceled), notes)
        }
        let assertion: VirtualAuthenticator.Assertion
        do {
            assertion = try authenticator.getAssertion(
                credential: credential, clientDataHash: SHA256.hash(clientDataJSON),
                flags: flags.authenticatorFlags, fault: invalidSignature ? .signatureOverOtherData : nil)
        } catch {
            return (.failure(PlatformError(name: isAndroid ? "GetCredentialUnknownException" : "ASAuthorizationError.unknown", message: "\(error)")), notes)
        }
        let made = (clientDataJSON: clientDataJSON, authenticatorData: assertion.authenticatorData, signature: assertion.signature)
        if isAndroid {
            let json: JSONValue = .object([
                "id": .string(Base64URL.encode(chosenID)),
                "rawId": .string(Base64URL.encode(chosenID)),
                "type": .string("public-key"),
                "authenticatorAttachment": .string("platform"),
                "clientExtensionResults": .object([:]),
                "response": .object([
                    "clientDataJSON": .string(Base64URL.encode(made.clientDataJSON)),
                    "authenticatorData": .string(Base64URL.encode(made.authenticatorData)),
                    "signature": .string(Base64URL.encode(made.signature)),
                    "userHandle": .string(Base64URL.encode(passkey.userHandle)),
                ]),
            ])
            return (.androidAuthentication(responseJson: Wire.jsonString(json)), notes)
        }
        return (
            .appleAssertion(
                AppleAssertion(
                    credentialID: chosenID, userID: passkey.userHandle, rawClientDataJSON: made.clientDataJSON,
                    rawAuthenticatorData: made.authenticatorData, signature: made.signature)), notes
        )
    }
}
