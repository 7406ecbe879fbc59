import ConformanceModel
import Foundation
import WebAuthn

/// The web family: a page's `navigator.credentials.create` and `get` and the static signal methods
/// of `PublicKeyCredential`, as a browser answers them.
///
/// On a web target the browser itself fulfils every call (`ConformanceBrowser`); this family reads
/// the calls the page made (the options as WebAuthn JSON, `mediation`), names the `DOMException`
/// each refusal is, and writes the results as the page's `PublicKeyCredential.toJSON()`. Errors
/// are `DOMException`s: a name and a message (`PlatformError.general`). There is no rate limit.
public struct WebSimulation: PlatformFamilySimulation {
    /// Creates the family.
    public init() {}

    /// `.web`.
    public var family: PlatformFamily { .web }
    /// `web`.
    public var displayName: String { "web" }

    /// `https://` and the RP ID: the page's origin when the RP ID is its host.
    public func origin(rpID: String) -> String { "https://\(rpID)" }

    /// A `DOMException` with its name and message.
    public static func domException(_ name: String, _ message: String) -> PlatformError {
        .general(name: name, message: message)
    }

    // MARK: Registration

    /// Conditional mediation on a browser without conditional creation: such a browser does not
    /// know the member and shows its modal sheet instead, which the page's instrumentation notes
    /// (the refusal here is for a simulated run only).
    public func unavailableAPI(of request: CreateCredentialRequest, on target: Target) -> PlatformRefusal? {
        guard case .web(let web) = request, web.mediation == "conditional", !target.has(.conditionalCreateAPI) else { return nil }
        return PlatformRefusal(
            note: PlatformSimulator.Note(kind: .unsupportedCall, text: "this browser has no conditional creation (mediation \"conditional\" on create)"),
            error: Self.domException("NotSupportedError", "conditional mediation is not supported for create"))
    }

    /// Reads `publicKeyJson` as `PublicKeyCredentialCreationOptionsJSON`; the RP ID is the page's
    /// host when the options name none. A malformed member is a `TypeError` that names it.
    public func readRegistration(_ request: CreateCredentialRequest) -> Result<RegistrationView, PlatformError> {
        guard case .web(let web) = request else { return .failure(PlatformFamilies.wrongPlatform) }
        var json = (try? JSONValue.parse(Data(web.publicKeyJson.utf8))) ?? .null
        if case .object(var members) = json, members["rp"]?["id"] == nil {
            var rp: [String: JSONValue] = [:]
            if case .object(let written)? = members["rp"] { rp = written }
            rp["id"] = .string(URL(string: web.origin)?.host ?? web.origin)
            members["rp"] = .object(rp)
            json = .object(members)
        }
        let android = AndroidCreatePublicKeyCredentialRequest(requestJson: Wire.jsonString(json), isConditional: web.mediation == "conditional")
        return AndroidSimulation().readRegistration(.android(android)).mapError { error in
            Self.domException("TypeError", error.message.replacingOccurrences(of: "requestJson: ", with: "publicKey: "))
        }
    }

    /// The browser's `DOMException`s: `SecurityError` for an RP ID the page's origin may not use,
    /// `InvalidStateError` for an excluded credential, `ConstraintError` for user verification a
    /// conditional create cannot collect, and `NotAllowedError` for everything the browser does
    /// not tell apart (declined, unsupported, cancelled).
    public func createError(_ refusal: CreateRefusal, on target: Target) -> PlatformError {
        switch refusal {
        case .notAssociated: Self.domException("SecurityError", "the RP ID is not a registrable suffix of the page's origin")
        case .conditionalUnsupported, .declined:
            Self.domException("NotAllowedError", "The operation either timed out or was not allowed.")
        case .userVerificationRequired: Self.domException("ConstraintError", "a conditional create cannot require user verification")
        case .excluded:
            Self.domException(
                "InvalidStateError",
                "The user attempted to register an authenticator that contains one of the credentials already registered with the relying party.")
        case .cancelled: Self.domException("NotAllowedError", "The operation either timed out or was not allowed.")
        case .unknown(let message): Self.domException("UnknownError", message)
        }
    }

    /// `PublicKeyCredential.toJSON()` of a registration: `RegistrationResponseJSON`.
    public func registrationOutcome(_ made: MadeRegistration) -> PlatformOutcome {
        guard case .androidRegistration(let json) = AndroidSimulation().registrationOutcome(made) else { return .failure(Self.unknown) }
        return .webRegistration(responseJson: json)
    }

    /// The `rawId` of a `webRegistration`'s JSON, when it parses.
    public func createdCredentialID(in outcome: PlatformOutcome) -> Data? {
        guard case .webRegistration(let text) = outcome, let json = try? JSONValue.parse(Data(text.utf8)) else { return nil }
        return (json["rawId"] ?? json["id"])?.stringValue.flatMap(Base64URL.decodeIfValid)
    }

    /// The classes a page's conditional create fails with: `NotAllowedError` is the expected no-op
    /// (the browser answers a declined, unsupported or cancelled request alike); every other
    /// `DOMException` is recorded.
    public var createFailureClasses: [CreateFailureClass] {
        [
            CreateFailureClass("NotAllowedError", .web, createError(.declined, on: TargetCatalog.web[0]), .silent),
            CreateFailureClass("InvalidStateError", .web, createError(.excluded, on: TargetCatalog.web[0]), .recorded),
            CreateFailureClass("AbortError", .web, Self.domException("AbortError", "The operation was aborted."), .recorded),
            CreateFailureClass("ConstraintError", .web, createError(.userVerificationRequired, on: TargetCatalog.web[0]), .recorded),
            CreateFailureClass("SecurityError", .web, createError(.notAssociated, on: TargetCatalog.web[0]), .recorded),
            CreateFailureClass("UnknownError", .web, Self.unknown, .recorded),
        ]
    }

    static let unknown = domException("UnknownError", "the authenticator failed")

    /// The `DOMException`'s name, alone or as `DOMException` and the name.
    public func telemetrySpellings(of failure: CreateFailureClass) -> [[String]] {
        [[failure.error.name], ["DOMException", failure.error.name], ["DOMException: " + failure.error.name]]
    }

    // MARK: Sign-in

    /// Reads `publicKeyJson` as `PublicKeyCredentialRequestOptionsJSON`; the RP ID is the page's
    /// host when the options name none.
    public func readAssertionRequest(_ request: GetCredentialRequest) -> Result<AssertionRequestView, PlatformError> {
        guard case .web(let web) = request else { return .failure(PlatformFamilies.wrongPlatform) }
        guard let json = try? JSONValue.parse(Data(web.publicKeyJson.utf8)),
            let challenge = json["challenge"]?.stringValue.flatMap(Base64URL.decodeIfValid), !challenge.isEmpty
        else {
            return .failure(Self.domException("TypeError", "publicKey needs a challenge"))
        }
        let rpID = json["rpId"]?.stringValue ?? URL(string: web.origin)?.host ?? web.origin
        let allowed = (json["allowCredentials"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue.flatMap(Base64URL.decodeIfValid) }
        return .success(AssertionRequestView(rpID: rpID, challenge: challenge, allowedCredentials: allowed))
    }

    /// `NotAllowedError` for a cancelled sheet and for no matching passkey alike (the browser does
    /// not tell the page which).
    public func getError(_ refusal: GetRefusal) -> PlatformError {
        switch refusal {
        case .cancelled, .noCredential: Self.domException("NotAllowedError", "The operation either timed out or was not allowed.")
        case .unknown(let message): Self.domException("UnknownError", message)
        }
    }

    /// `PublicKeyCredential.toJSON()` of an assertion: `AuthenticationResponseJSON`.
    public func assertionOutcome(_ made: MadeAssertion) -> PlatformOutcome {
        guard case .androidAuthentication(let json) = AndroidSimulation().assertionOutcome(made) else { return .failure(Self.unknown) }
        return .webAuthentication(responseJson: json)
    }

    // MARK: Signals

    /// The signal methods exist where the target has signals; there is no rate limit.
    public func admitSignal(
        _ request: SignalRequest, on target: Target, provider: inout ProviderState, now: Int64
    ) -> (PlatformRefusal?, [PlatformSimulator.Note]) {
        guard target.platform == .web, target.has(.signals) else {
            return (
                PlatformRefusal(
                    note: .init(kind: .unsupportedCall, text: "this browser has no signal methods on PublicKeyCredential"),
                    error: Self.domException("TypeError", "PublicKeyCredential has no such method")), []
            )
        }
        return (nil, [])
    }

    /// A page's signal as the Android request with the same members (the options of the signal
    /// methods are the members of Android's request JSON); `nil` for another family's signal.
    public static func androidEquivalent(_ request: SignalRequest) -> AndroidSignalRequest? {
        android(request)?.0.androidRequest
    }

    /// The signal as its Android equivalent, with the interface the page called.
    static func android(_ request: SignalRequest) -> (SignalRequest, interface: String)? {
        guard case .web(let web) = request else { return nil }
        let type =
            switch web.method {
            case .signalUnknownCredential: AndroidSignalRequest.unknownCredentialType
            case .signalAllAcceptedCredentials: AndroidSignalRequest.allAcceptedCredentialsType
            case .signalCurrentUserDetails: AndroidSignalRequest.currentUserDetailsType
            }
        return (.android(AndroidSignalRequest(type: type, requestJson: web.optionsJson)), "PublicKeyCredential.\(web.method.rawValue)")
    }

    /// Reads the options as the browser does; a missing or mistyped member is a `TypeError`.
    public func readSignal(_ request: SignalRequest) -> Result<SignalView, PlatformError> {
        guard let (android, interface) = Self.android(request) else { return .failure(PlatformFamilies.wrongPlatform) }
        return AndroidSimulation().readSignal(android)
            .map { view in
                var view = view
                view.interface = interface
                return view
            }
            .mapError { error in
                Self.domException("TypeError", error.message.replacingOccurrences(of: "Structural/type validation failed for JSON: ", with: "options: "))
            }
    }

    /// `SecurityError` with its message.
    public func signalSecurityError(_ message: String) -> PlatformError { Self.domException("SecurityError", message) }

    /// `UnknownError`: the browser could not pass the signal on.
    public func signalFailure() -> PlatformError { Self.domException("UnknownError", "the signal could not be passed to the credential manager") }

    /// The method's kind and the options' `rpId`, `name` and `displayName` as written.
    public func signalSummary(_ request: SignalRequest) -> SignalSummary {
        guard let (android, interface) = Self.android(request) else { return SignalSummary(kind: nil, interface: "?") }
        var summary = AndroidSimulation().signalSummary(android)
        summary.interface = interface
        return summary
    }

    /// `userId` and `allAcceptedCredentialIds` compared with the server's as base64url text.
    public func identityProblems(of request: SignalRequest, kind: SignalView.Kind?, userHandle: Data, acceptedCredentialIDs: [Data]) -> [String] {
        guard let (android, _) = Self.android(request) else { return [] }
        return AndroidSimulation().identityProblems(of: android, kind: kind, userHandle: userHandle, acceptedCredentialIDs: acceptedCredentialIDs)
    }

    /// `userId` read every way a page may have written it.
    public func userHandleCandidates(of request: SignalRequest) -> [Data] {
        guard let (android, _) = Self.android(request) else { return [] }
        return AndroidSimulation().userHandleCandidates(of: android)
    }
}
