import ConformanceModel
import Foundation

/// The Apple family: AuthenticationServices on iOS, iPadOS, macOS and visionOS.
///
/// Registration is `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest` with its
/// `requestStyle` (iOS and iPadOS 18, macOS 15, visionOS 2); sign-in its assertion request; signals
/// the report methods of `ASCredentialUpdater` (26.0, deprecated in 26.2) and
/// `ASCredentialDataManager` (26.2). Errors are `NSError`s of the `ASAuthorizationError` domain.
public struct AppleSimulation: PlatformFamilySimulation {
    /// Creates the family.
    public init() {}

    /// `.apple`.
    public var family: PlatformFamily { .apple }
    /// `Apple`.
    public var displayName: String { "Apple" }

    /// `https://` and the RP ID: the origin AuthenticationServices writes for an associated domain.
    public func origin(rpID: String) -> String { "https://\(rpID)" }

    // MARK: Registration

    /// A request that sets `requestStyle` on an OS below the family's floor for it.
    public func unavailableAPI(of request: CreateCredentialRequest, on target: Target) -> PlatformRefusal? {
        guard case .apple(let apple) = request, apple.requestStyle != nil, !target.hasConditionalRequestStyle else { return nil }
        // Judged by OS family and version: the floors differ by family (iOS 18, macOS 15, visionOS 2).
        let family = target.osFamily
        return PlatformRefusal(
            note: PlatformSimulator.Note(
                kind: .unsupportedCall,
                text:
                    "requestStyle is not available on \(family.displayName) \(target.osVersion) (\(family.displayName) \(family.conditionalRequestStyleFloor ?? "-") and later)"
            ),
            error: .general(name: "UnavailableAPI", message: "requestStyle requires iOS and iPadOS 18, macOS 15 or visionOS 2"))
    }

    /// Reads the request's fields; an empty RP identifier, name or challenge, or a user ID outside
    /// 1 to 64 bytes, is `ASAuthorizationError.failed`.
    public func readRegistration(_ request: CreateCredentialRequest) -> Result<RegistrationView, PlatformError> {
        guard case .apple(let request) = request else { return .failure(PlatformFamilies.wrongPlatform) }
        guard !request.relyingPartyIdentifier.isEmpty, !request.name.isEmpty, !request.challenge.isEmpty,
            (1...64).contains(request.userID.count)
        else {
            return .failure(Self.failed("the registration request needs an RP identifier, a name, a challenge and a user ID of 1 to 64 bytes"))
        }
        return .success(
            RegistrationView(
                rpID: request.relyingPartyIdentifier, userHandle: request.userID, userName: request.name,
                displayName: request.displayName, challenge: request.challenge,
                excludedCredentials: request.excludedCredentials, conditional: request.requestStyle == .conditional,
                userVerification: request.userVerificationPreference))
    }

    /// Apple's codes: `canceled` for a declined or cancelled request, `matchedExcludedCredential`,
    /// `failed` for an unassociated RP ID or a conditional request requiring user verification.
    public func createError(_ refusal: CreateRefusal, on target: Target) -> PlatformError {
        switch refusal {
        case .notAssociated: Self.appleFailed
        case .conditionalUnsupported, .declined: Self.appleDeclined
        case .userVerificationRequired: Self.appleConditionalUVRequired
        case .excluded: Self.appleMatchedExcluded
        case .cancelled: Self.appleCanceled
        case .unknown(let message): .general(name: "ASAuthorizationError.unknown", message: message)
        }
    }

    /// `ASAuthorizationPlatformPublicKeyCredentialRegistration`'s raw fields.
    public func registrationOutcome(_ made: MadeRegistration) -> PlatformOutcome {
        .appleRegistration(
            AppleRegistration(credentialID: made.credentialID, rawClientDataJSON: made.clientDataJSON, rawAttestationObject: made.attestationObject))
    }

    /// The `credentialID` of an `appleRegistration`.
    public func createdCredentialID(in outcome: PlatformOutcome) -> Data? {
        if case .appleRegistration(let registration) = outcome { registration.credentialID } else { nil }
    }

    // MARK: Sign-in

    /// The request's own fields: nothing to parse.
    public func readAssertionRequest(_ request: GetCredentialRequest) -> Result<AssertionRequestView, PlatformError> {
        guard case .apple(let apple) = request else { return .failure(PlatformFamilies.wrongPlatform) }
        return .success(AssertionRequestView(rpID: apple.relyingPartyIdentifier, challenge: apple.challenge, allowedCredentials: apple.allowedCredentials))
    }

    /// `canceled` for a cancelled sheet and for no offered passkey alike: Apple tells the app no more.
    public func getError(_ refusal: GetRefusal) -> PlatformError {
        switch refusal {
        case .cancelled, .noCredential: Self.appleCanceled
        case .unknown(let message): .general(name: "ASAuthorizationError.unknown", message: message)
        }
    }

    /// `ASAuthorizationPlatformPublicKeyCredentialAssertion`'s raw fields.
    public func assertionOutcome(_ made: MadeAssertion) -> PlatformOutcome {
        .appleAssertion(
            AppleAssertion(
                credentialID: made.credentialID, userID: made.userHandle, rawClientDataJSON: made.clientDataJSON,
                rawAuthenticatorData: made.authenticatorData, signature: made.signature))
    }

    // MARK: Signals

    /// A report on a non-Apple target, or on an interface the OS version lacks, is refused;
    /// `ASCredentialUpdater` where `ASCredentialDataManager` exists is noted as deprecated.
    public func admitSignal(
        _ request: SignalRequest, on target: Target, provider: inout ProviderState, now: Int64
    ) -> (PlatformRefusal?, [PlatformSimulator.Note]) {
        guard case .apple(let apple) = request, target.platform == .apple else {
            return (
                PlatformRefusal(note: .init(kind: .unsupportedCall, text: "an Apple report on \(target.id)"), error: PlatformFamilies.wrongPlatform), []
            )
        }
        switch apple.interface {
        case .credentialUpdater:
            guard target.has(.credentialUpdater) || target.has(.credentialDataManager) else {
                return (
                    PlatformRefusal(
                        note: .init(kind: .unsupportedCall, text: "ASCredentialUpdater is not available on Apple \(target.osVersion) (26.0 and later)"),
                        error: .general(name: "UnavailableAPI", message: "ASCredentialUpdater requires 26.0")), []
                )
            }
            if target.has(.credentialDataManager) {
                return (
                    nil,
                    [.init(kind: .deprecatedCall, text: "ASCredentialUpdater is deprecated on Apple \(target.osVersion); ASCredentialDataManager replaces it")]
                )
            }
        case .credentialDataManager:
            guard target.has(.credentialDataManager) else {
                return (
                    PlatformRefusal(
                        note: .init(kind: .unsupportedCall, text: "ASCredentialDataManager is not available on Apple \(target.osVersion) (26.2 and later)"),
                        error: .general(name: "UnavailableAPI", message: "ASCredentialDataManager requires 26.2")), []
                )
            }
        }
        return (nil, [])
    }

    /// The SecurityError of a report whose relying party identifier is not a domain: `failed`.
    public func signalSecurityError(_ message: String) -> PlatformError {
        .apple(AppleAuthorizationError(name: "ASAuthorizationError.failed", domain: Self.errorDomain, code: 1004, message: "SecurityError: " + message))
    }

    /// `ASAuthorizationError.failed`: the system failed to accept the update.
    public func signalFailure() -> PlatformError {
        .apple(
            AppleAuthorizationError(
                name: "ASAuthorizationError.failed", domain: Self.errorDomain, code: 1004, message: "the system failed to accept the update"))
    }
}
