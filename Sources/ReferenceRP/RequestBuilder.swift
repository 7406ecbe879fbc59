import ConformanceModel
import ConformanceSimulation
import Foundation
import WebAuthn

/// Turns server options into the platform's request shapes, and platform results back into bytes.
struct RequestBuilder: Sendable {
    let device: DeviceInfo
    let decisions: Decisions.Options
    /// How lists and JSON are written (F-format).
    var format = WireFormat()

    /// The exclusion list: every credential of the account, in the design's order.
    func excluded(_ ids: [Data]) -> [Data]? { decisions.excluded(format.order(ids), device.platform) }

    func registration(_ options: Server.RegistrationOptions, conditional: Bool) -> CreateCredentialRequest {
        switch device.platform {
        case .apple:
            let style: AppleRequestStyle?
            if conditional {
                style = decisions.appleConditionalStyle
            } else {
                style = nil
            }
            let exclusion = excluded(options.excluded)
            return CreateCredentialRequest.apple(
                AppleRegistrationRequest(
                    relyingPartyIdentifier: options.rpID, challenge: options.challenge, name: options.userName, userID: options.userHandle,
                    displayName: options.displayName, requestStyle: style, excludedCredentials: exclusion, userVerificationPreference: "preferred"))
        case .android, .web:
            var json: [String: JSONValue] = [
                "challenge": .string(Base64URL.encode(options.challenge)),
                "rp": .object(["id": .string(options.rpID), "name": .string("Example")]),
                "user": .object([
                    "id": .string(Base64URL.encode(options.userHandle)),
                    "name": .string(options.userName),
                    "displayName": .string(options.displayName),
                ]),
                "pubKeyCredParams": .array([.object(["type": .string("public-key"), "alg": .number(-7)])]),
                "authenticatorSelection": .object([
                    "residentKey": .string("required"), "requireResidentKey": .bool(true), "userVerification": .string("preferred"),
                ]),
                "attestation": .string("none"),
                "timeout": .number(60_000),
            ]
            if let ids = excluded(options.excluded) {
                json["excludeCredentials"] = .array(ids.map { .object(["type": .string("public-key"), "id": .string(Base64URL.encode($0))]) })
            }
            if device.platform == .web {
                // A page passes the same options, with `mediation` beside them.
                return .web(
                    WebCreateRequest(
                        publicKeyJson: format.options(json, extras: WireFormat.ignoredOptionMembers), mediation: conditional ? "conditional" : nil,
                        origin: "https://\(options.rpID)"))
            }
            let notConditional = decisions.androidModal
            return CreateCredentialRequest.android(
                AndroidCreatePublicKeyCredentialRequest(
                    requestJson: format.options(json, extras: WireFormat.ignoredOptionMembers), isConditional: conditional && !notConditional,
                    preferImmediatelyAvailableCredentials: conditional && notConditional))
        }
    }

    /// The client data and attestation object of a successful registration, whichever platform.
    static func registrationResponse(_ outcome: PlatformOutcome) -> (clientDataJSON: Data, attestationObject: Data)? {
        let text: String
        switch outcome {
        case .appleRegistration(let apple): return (apple.rawClientDataJSON, apple.rawAttestationObject)
        case .androidRegistration(let json), .webRegistration(let json): text = json
        case .androidAuthentication, .appleAssertion, .webAuthentication, .signalAccepted, .failure: return nil
        }
        guard let json = try? JSONValue.parse(Data(text.utf8)),
            let clientData = json["response"]?["clientDataJSON"]?.stringValue.flatMap(Base64URL.decodeIfValid),
            let attestation = json["response"]?["attestationObject"]?.stringValue.flatMap(Base64URL.decodeIfValid)
        else { return nil }
        return (clientData, attestation)
    }

    /// The platform's "nothing was created, as expected" answers to a conditional request.
    static func isExpectedNoCreate(_ error: PlatformError) -> Bool {
        // Android's explicit no-op; Apple's cancellation and documented eligibility outcomes
        // (canceled, matchedExcludedCredential, deviceNotConfiguredForPasskeyCreation).
        error.name == "CreateCredentialNoCreateOptionException"
            || (error.domain == "com.apple.AuthenticationServices.AuthorizationError" && [1001, 1006, 1010].contains(error.code ?? 0))
    }

    /// The user cancelled a sheet.
    static func isCancellation(_ error: PlatformError) -> Bool {
        error.name.hasSuffix("CancellationException") || (error.domain == "com.apple.AuthenticationServices.AuthorizationError" && error.code == 1001)
    }
}
