import ConformanceModel
import Foundation
import WebAuthn

/// The Android family: androidx.credentials' `CredentialManager` with a credential provider.
///
/// Registration is `CreatePublicKeyCredentialRequest` with its WebAuthn `requestJson` and
/// `isConditional` (androidx.credentials 1.6.0); sign-in a `GetPublicKeyCredentialOption`; signals
/// `signalCredentialState` (Android 15, androidx.credentials 1.6.0) under a rate limit of
/// `AndroidSimulation.signalLimit` calls per `signalWindowMillis`. Results are WebAuthn JSON;
/// errors are exceptions with a `type` string.
public struct AndroidSimulation: PlatformFamilySimulation {
    /// Creates the family.
    public init() {}

    /// `.android`.
    public var family: PlatformFamily { .android }
    /// `Android`.
    public var displayName: String { "Android" }

    /// Calls per window of the signal rate limit.
    public static let signalLimit = 10
    /// The signal rate window.
    public static let signalWindowMillis: Int64 = 120_000

    /// The app's `android:apk-key-hash:` origin, whatever the RP ID.
    public func origin(rpID: String) -> String { Target.androidAppOrigin }

    // MARK: Registration

    /// `isConditional` with a library version that lacks it.
    public func unavailableAPI(of request: CreateCredentialRequest, on target: Target) -> PlatformRefusal? {
        guard case .android(let android) = request, android.isConditional, !target.has(.conditionalCreateAPI) else { return nil }
        return PlatformRefusal(
            note: PlatformSimulator.Note(
                kind: .unsupportedCall, text: "isConditional does not exist in androidx.credentials \(target.credentialsLibraryVersion ?? "?")"),
            error: .general(name: "NoSuchMethodError", message: "CreatePublicKeyCredentialRequest has no isConditional parameter in this library version"))
    }

    /// The exceptions of GPM and of third-party providers: a third-party provider without conditional
    /// support creates nothing, as for any other ineligibility; Google Password Manager before Play
    /// services 25.13 reports it unsupported.
    public func createError(_ refusal: CreateRefusal, on target: Target) -> PlatformError {
        switch refusal {
        case .notAssociated: Self.securityError
        case .conditionalUnsupported(let provider): provider == .thirdParty ? Self.noCreateOption : Self.createUnsupported
        case .userVerificationRequired: Self.conditionalConstraintError
        case .declined: Self.noCreateOption
        case .excluded: Self.invalidState
        case .cancelled: Self.createCancelled
        case .unknown(let message): .general(name: "CreateCredentialUnknownException", message: message)
        }
    }

    /// `CreatePublicKeyCredentialResponse.registrationResponseJson`: WebAuthn L3
    /// `RegistrationResponseJSON` with every member of `AuthenticatorAttestationResponseJSON`
    /// (Documentation/platform-fidelity.md, F1).
    public func registrationOutcome(_ made: MadeRegistration) -> PlatformOutcome {
        let response: [String: JSONValue] = [
            "clientDataJSON": .string(Base64URL.encode(made.clientDataJSON)),
            "authenticatorData": .string(Base64URL.encode(made.authenticatorData)),
            "transports": .array([.string("internal"), .string("hybrid")]),
            "publicKey": .string(Base64URL.encode(made.publicKeyInfo)),
            "publicKeyAlgorithm": .number(Double(COSEKey.algorithmES256)),
            "attestationObject": .string(Base64URL.encode(made.attestationObject)),
        ]
        return .androidRegistration(responseJson: Self.credentialJSON(made.credentialID, response: response))
    }

    /// The `rawId` of an `androidRegistration`'s response JSON, when it parses.
    public func createdCredentialID(in outcome: PlatformOutcome) -> Data? {
        guard case .androidRegistration(let text) = outcome, let json = try? JSONValue.parse(Data(text.utf8)) else { return nil }
        return (json["rawId"] ?? json["id"])?.stringValue.flatMap(Base64URL.decodeIfValid)
    }

    // MARK: Sign-in

    /// Parses `requestJson`: it needs `rpId` and a base64url challenge.
    public func readAssertionRequest(_ request: GetCredentialRequest) -> Result<AssertionRequestView, PlatformError> {
        guard case .android(let android) = request else { return .failure(PlatformFamilies.wrongPlatform) }
        let json: JSONValue
        do {
            json = try JSONValue.parse(Data(android.requestJson.utf8))
        } catch {
            return .failure(Self.illegalRequestJSON("is not valid JSON: \(error)"))
        }
        guard let rpID = json["rpId"]?.stringValue,
            let challengeText = json["challenge"]?.stringValue, let challenge = Base64URL.decodeIfValid(challengeText), !challenge.isEmpty
        else {
            return .failure(Self.illegalRequestJSON("needs rpId and a base64url challenge"))
        }
        let allowed = (json["allowCredentials"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue.flatMap(Base64URL.decodeIfValid) }
        return .success(AssertionRequestView(rpID: rpID, challenge: challenge, allowedCredentials: allowed))
    }

    /// `GetCredentialCancellationException` or `NoCredentialException`.
    public func getError(_ refusal: GetRefusal) -> PlatformError {
        switch refusal {
        case .cancelled: Self.getCancelled
        case .noCredential: Self.noCredential
        case .unknown(let message): .general(name: "GetCredentialUnknownException", message: message)
        }
    }

    /// `PublicKeyCredential.authenticationResponseJson`: WebAuthn `AuthenticationResponseJSON`.
    public func assertionOutcome(_ made: MadeAssertion) -> PlatformOutcome {
        let response: [String: JSONValue] = [
            "clientDataJSON": .string(Base64URL.encode(made.clientDataJSON)),
            "authenticatorData": .string(Base64URL.encode(made.authenticatorData)),
            "signature": .string(Base64URL.encode(made.signature)),
            "userHandle": .string(Base64URL.encode(made.userHandle)),
        ]
        return .androidAuthentication(responseJson: Self.credentialJSON(made.credentialID, response: response))
    }

    /// A platform credential's JSON as Credential Manager returns it: the credential's id twice
    /// (`id`, `rawId`), its type and attachment, no extension results, and `response`.
    static func credentialJSON(_ credentialID: Data, response: [String: JSONValue]) -> String {
        Wire.jsonString(
            .object([
                "id": .string(Base64URL.encode(credentialID)),
                "rawId": .string(Base64URL.encode(credentialID)),
                "type": .string("public-key"),
                "authenticatorAttachment": .string("platform"),
                "clientExtensionResults": .object([:]),
                "response": .object(response),
            ]))
    }

    // MARK: Signals

    /// `signalCredentialState` exists from Android 15 with androidx.credentials 1.6.0; the platform
    /// counts the calls it accepted in the last `signalWindowMillis` and refuses the call that would
    /// exceed `signalLimit` (a refused call is not counted, so an app that waits exactly
    /// `retryMillis` gets through).
    public func admitSignal(
        _ request: SignalRequest, on target: Target, provider: inout ProviderState, now: Int64
    ) -> (PlatformRefusal?, [PlatformSimulator.Note]) {
        guard target.platform == .android, target.has(.signalCredentialState) else {
            return (
                PlatformRefusal(
                    note: .init(
                        kind: .unsupportedCall,
                        text: "signalCredentialState is not available on \(target.id) (needs Android 15+ and androidx.credentials 1.6.0)"
                    ),
                    error: .general(name: "NoSuchMethodError", message: "CredentialManager.signalCredentialState is not available")), []
            )
        }
        if let forced = provider.forcedRateLimitRetryMillis {
            provider.forcedRateLimitRetryMillis = nil
            return (
                PlatformRefusal(
                    note: .init(kind: .decision, text: "rate limit exceeded (forced by the scenario), retryMillis \(forced)"),
                    error: Self.rateLimited(retryMillis: forced)), []
            )
        }
        let windowStart = now - Self.signalWindowMillis
        let accepted = provider.androidSignalTimes.filter { $0 > windowStart }.sorted()
        if accepted.count >= Self.signalLimit {
            let retry = max(1, accepted[accepted.count - Self.signalLimit] + Self.signalWindowMillis - now)
            return (
                PlatformRefusal(
                    note: .init(kind: .decision, text: "rate limit exceeded: \(accepted.count) calls accepted in the last 120 s, retryMillis \(retry)"),
                    error: Self.rateLimited(retryMillis: retry)), []
            )
        }
        provider.androidSignalTimes.append(now)
        return (nil, [])
    }

    /// `SignalCredentialUnknownException`: the platform could not pass the signal on.
    public func signalFailure() -> PlatformError {
        .android(
            AndroidCredentialException(
                name: "SignalCredentialUnknownException", type: "androidx.credentials.SignalCredentialStateException.TYPE_UNKNOWN",
                message: "the signal could not be passed to a provider"))
    }

    /// `SignalCredentialSecurityException` with the SecurityError's message.
    public func signalSecurityError(_ message: String) -> PlatformError {
        .android(
            AndroidCredentialException(
                name: "SignalCredentialSecurityException", type: "androidx.credentials.SignalCredentialStateException.TYPE_SECURITY",
                message: "SecurityError: " + message))
    }

    static func rateLimited(retryMillis: Int64) -> PlatformError {
        .android(
            AndroidCredentialException(
                name: "SignalCredentialRateLimitExceededException",
                type: "androidx.credentials.SignalCredentialStateException.RATE_LIMIT_EXCEEDED",
                message: "signalCredentialState was called too often", retryMillis: retryMillis))
    }
}
