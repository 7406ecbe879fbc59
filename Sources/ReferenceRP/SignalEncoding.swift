import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

/// Builds signal requests in the representation each platform requires: raw `Data` for Apple's
/// report methods, unpadded base64url in Android's JSON.
struct SignalEncoding: Sendable {
    let interface: SignalScheduler.Interface
    let decisions: Decisions.Encoding
    /// Second-form mutants' representations (`Mutants+EncodingForms.swift`); the default is the conforming one.
    var forms = EncodingForms()
    /// How lists and JSON are written (F-format).
    var format = WireFormat()

    func rpID(_ rpID: String) -> String { decisions.rpID(rpID) }

    /// An id as Android JSON text (unpadded base64url).
    func text(_ data: Data) -> String { decisions.androidID(data) }

    /// An id as Apple `Data` (the raw bytes).
    func bytes(_ data: Data) -> Data { decisions.appleID(data) }

    func userHandle(_ account: Server.Account) -> Data { decisions.userHandle(account) }

    /// The user handle as Apple `Data`.
    func appleUserHandle(_ account: Server.Account) -> Data { forms.appleUserHandle(bytes(userHandle(account))) }

    /// The user handle as Android's `userId` text.
    func androidUserID(_ account: Server.Account) -> JSONValue { .string(forms.androidUserID(account, text(userHandle(account)))) }

    var appleInterface: AppleSignalInterface {
        interface == .appleUpdater ? .credentialUpdater : .credentialDataManager
    }

    func android(_ type: String, _ members: [String: JSONValue]) -> SignalRequest {
        SignalRequest.android(AndroidSignalRequest(type: decisions.androidType(type), requestJson: format.options(members)))
    }

    /// The Android request type an intent is sent as, for the rate budget's bookkeeping.
    static func androidType(of intent: SignalScheduler.Intent) -> String {
        switch intent {
        case .unknown: AndroidSignalRequest.unknownCredentialType
        case .userDetails: AndroidSignalRequest.currentUserDetailsType
        case .resend(let request): request.androidRequest?.type ?? "resend"
        case .reconcile, .fixedList: AndroidSignalRequest.allAcceptedCredentialsType
        }
    }

    func unknown(rpID: String, credentialID: Data) -> SignalRequest {
        if interface == .android {
            return android(AndroidSignalRequest.unknownCredentialType, ["rpId": .string(self.rpID(rpID)), "credentialId": .string(text(credentialID))])
        }
        return SignalRequest.apple(
            AppleSignalReport(
                interface: appleInterface, method: .reportUnknownPublicKeyCredential,
                relyingPartyIdentifier: self.rpID(rpID), credentialID: bytes(credentialID)))
    }

    func allAccepted(account: Server.Account, ids serverOrder: [Data]) -> SignalRequest {
        let ids = format.order(serverOrder)
        if interface == .android {
            return android(
                AndroidSignalRequest.allAcceptedCredentialsType,
                [
                    "rpId": .string(rpID(account.rpID)), "userId": androidUserID(account),
                    "allAcceptedCredentialIds": decisions.joinsAndroidIDList
                        ? .string(ids.map(text).joined(separator: ",")) : .array(ids.map { .string(text($0)) }),
                ])
        }
        return SignalRequest.apple(
            AppleSignalReport(
                interface: appleInterface, method: .reportAllAcceptedPublicKeyCredentials,
                relyingPartyIdentifier: rpID(account.rpID), userHandle: appleUserHandle(account),
                acceptedCredentialIDs: forms.appleAcceptedIDs(ids.map(bytes))))
    }

    /// The current name fields; `nil` where the platform has nothing to report (Apple carries the name only).
    func userDetails(account: Server.Account, nameChanged: Bool, displayNameChanged: Bool) -> SignalRequest? {
        let blank = decisions.blanksUnchangedField
        if interface == .android {
            return android(
                AndroidSignalRequest.currentUserDetailsType,
                [
                    "rpId": .string(rpID(account.rpID)), "userId": androidUserID(account),
                    "name": .string(blank && !nameChanged ? "" : account.name),
                    "displayName": .string(blank && !displayNameChanged ? "" : account.displayName),
                ])
        }
        guard nameChanged || blank else { return nil }
        return SignalRequest.apple(
            AppleSignalReport(
                interface: appleInterface, method: .reportPublicKeyCredentialUpdate,
                relyingPartyIdentifier: rpID(account.rpID), userHandle: appleUserHandle(account),
                newName: blank && !nameChanged ? "" : account.name))
    }

    /// The fields of a successful assertion, whichever platform.
    static func assertion(_ outcome: PlatformOutcome) -> (
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?
    )? {
        let text: String
        switch outcome {
        case .appleAssertion(let apple):
            return (apple.credentialID, apple.rawClientDataJSON, apple.rawAuthenticatorData, apple.signature, apple.userID)
        case .androidAuthentication(let json), .webAuthentication(let json): text = json
        case .androidRegistration, .appleRegistration, .webRegistration, .signalAccepted, .failure: return nil
        }
        guard let json = try? JSONValue.parse(Data(text.utf8)),
            let id = json["rawId"]?.stringValue.flatMap(Base64URL.decodeIfValid),
            let response = json["response"],
            let clientData = response["clientDataJSON"]?.stringValue.flatMap(Base64URL.decodeIfValid),
            let authenticatorData = response["authenticatorData"]?.stringValue.flatMap(Base64URL.decodeIfValid),
            let signature = response["signature"]?.stringValue.flatMap(Base64URL.decodeIfValid)
        else { return nil }
        return (id, clientData, authenticatorData, signature, response["userHandle"]?.stringValue.flatMap(Base64URL.decodeIfValid))
    }
}
