import Foundation
import WebAuthn

/// What the platform's answer to a sign-in or a registration carries, read alike for every family:
/// the credential id, the client data and the authenticator data. The path proofs read it to tell
/// which assertion or registration the app received and what it says about itself.
struct ResponseReading {
    /// The credential the response is for.
    var credentialID: Data
    /// The client data, when it parses.
    var clientData: CollectedClientData?
    /// The authenticator data, when it parses.
    var authenticatorData: AuthenticatorData?

    /// Reads a successful sign-in or registration outcome; `nil` for any other outcome.
    init?(_ outcome: PlatformOutcome) {
        switch outcome {
        case .appleAssertion(let assertion):
            self.init(credentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON, authenticatorData: assertion.rawAuthenticatorData)
        case .appleRegistration(let registration):
            let attestation = try? AttestationObject(bytes: registration.rawAttestationObject)
            self.init(
                credentialID: registration.credentialID, clientDataJSON: registration.rawClientDataJSON, authenticatorData: attestation?.authenticatorData)
        case .androidAuthentication(let text), .androidRegistration(let text), .webAuthentication(let text), .webRegistration(let text):
            guard let json = try? JSONValue.parse(Data(text.utf8)), let id = (json["rawId"] ?? json["id"])?.stringValue.flatMap(Base64URL.decodeIfValid)
            else { return nil }
            let response = json["response"]
            self.init(
                credentialID: id, clientDataJSON: response?["clientDataJSON"]?.stringValue.flatMap(Base64URL.decodeIfValid),
                authenticatorData: response?["authenticatorData"]?.stringValue.flatMap(Base64URL.decodeIfValid))
        default:
            return nil
        }
    }

    private init(credentialID: Data, clientDataJSON: Data?, authenticatorData: Data?) {
        self.credentialID = credentialID
        clientData = clientDataJSON.flatMap { try? CollectedClientData(jsonBytes: $0) }
        self.authenticatorData = authenticatorData.flatMap { try? AuthenticatorData(bytes: $0) }
    }

    /// The UP, UV, BE and BS flags as the scenarios write them (`UP=0 UV=0 BE=1 BS=1`), or `?`.
    var flagsText: String {
        guard let flags = authenticatorData?.flags else { return "?" }
        return World.text(
            ProviderState.Flags(
                userPresent: flags.contains(.userPresent), userVerified: flags.contains(.userVerified),
                backupEligible: flags.contains(.backupEligible), backedUp: flags.contains(.backupState)))
    }
}

extension PlatformOperation {
    /// What the platform answered, read; `nil` for a failure or a signal.
    var response: ResponseReading? { ResponseReading(outcome) }
}
