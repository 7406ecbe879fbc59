import ConformanceModel
import Foundation

/// One platform family as the simulated platform sees it: how its requests are read, which API
/// each target of the family has, which errors and results its calls end with. The simulator
/// (`PlatformSimulator`) owns what every family shares (the provider's decisions, the authenticator,
/// the transcript notes) and asks the family of each call for the rest; the steps ask it what a
/// request of the family says.
///
/// Each family lives in its own folder (`Apple/`, `Android/`) and is named in `PlatformFamilies`
/// (its list and its look-up by family). `Documentation/platform-seam.md` says what a new family adds.
public protocol PlatformFamilySimulation: Sendable {
    /// The family this simulates.
    var family: PlatformFamily { get }
    /// The family's name in transcript notes (`Apple`, `Android`).
    var displayName: String { get }

    /// The origin the platform writes into clientDataJSON for an RP ID.
    func origin(rpID: String) -> String

    // MARK: Registration

    /// The refusal of a registration request that uses an API the target lacks, checked before the
    /// request is read; `nil` when the target has every API the request uses.
    func unavailableAPI(of request: CreateCredentialRequest, on target: Target) -> PlatformRefusal?
    /// Reads a registration request of the family; the error names the offending field.
    func readRegistration(_ request: CreateCredentialRequest) -> Result<RegistrationView, PlatformError>
    /// The error the family's platform answers a refused registration with.
    func createError(_ refusal: CreateRefusal, on target: Target) -> PlatformError
    /// The family's result of a successful registration.
    func registrationOutcome(_ made: MadeRegistration) -> PlatformOutcome
    /// The credential id in one of the family's registration results; `nil` for any other outcome.
    func createdCredentialID(in outcome: PlatformOutcome) -> Data?
    /// The failure classes of a conditional registration the family's platforms report.
    var createFailureClasses: [CreateFailureClass] { get }
    /// Every spelling under which a telemetry record names one of the family's failure classes
    /// (see `CreateFailureClass.telemetrySpellings`).
    func telemetrySpellings(of failure: CreateFailureClass) -> [[String]]

    // MARK: Sign-in

    /// Reads a passkey sign-in request of the family.
    func readAssertionRequest(_ request: GetCredentialRequest) -> Result<AssertionRequestView, PlatformError>
    /// The error the family's platform answers a refused sign-in with.
    func getError(_ refusal: GetRefusal) -> PlatformError
    /// The family's result of a successful sign-in.
    func assertionOutcome(_ made: MadeAssertion) -> PlatformOutcome

    // MARK: Signals

    /// The refusal of a signal whose interface the target lacks, or that the platform's own limits
    /// refuse (Android's rate limit); an admitted call counts towards those limits.
    func admitSignal(_ request: SignalRequest, on target: Target, provider: inout ProviderState, now: Int64) -> (PlatformRefusal?, [PlatformSimulator.Note])
    /// Reads a signal of the family; the error names the offending member as the platform library would.
    func readSignal(_ request: SignalRequest) -> Result<SignalView, PlatformError>
    /// The error the family's platform answers a signal whose RP ID is not a domain with.
    func signalSecurityError(_ message: String) -> PlatformError
    /// The error the family's platform answers a signal with when it fails to pass it on.
    func signalFailure() -> PlatformError
    /// What a signal of the family says as written, read leniently: for checks that look at every
    /// call, the refused ones too.
    func signalSummary(_ request: SignalRequest) -> SignalSummary
    /// What differs between the user handle and accepted credential ids a signal carries and the
    /// server's, each in a sentence; empty when they are exact.
    func identityProblems(of request: SignalRequest, kind: SignalView.Kind?, userHandle: Data, acceptedCredentialIDs: [Data]) -> [String]
    /// The bytes a signal's user handle may stand for, read every way an app may have written it.
    func userHandleCandidates(of request: SignalRequest) -> [Data]
}

/// Every platform family the simulation knows, and the one of a call or a target.
public enum PlatformFamilies {
    /// The families the harness simulates whole, Android first (the order of the failure-class
    /// catalogue).
    public static let all: [any PlatformFamilySimulation] = [AndroidSimulation(), AppleSimulation()]
    /// Every family, the simulated ones and those a real platform fulfils (the web), whose calls
    /// the harness reads.
    public static let readers: [any PlatformFamilySimulation] = all + [WebSimulation()]

    /// The simulation of a family.
    public static func simulation(of family: PlatformFamily) -> any PlatformFamilySimulation {
        switch family {
        case .apple: AppleSimulation()
        case .android: AndroidSimulation()
        case .web: WebSimulation()
        }
    }

    /// The credential id a successful registration produced, read by the family whose result it is.
    public static func createdCredentialID(in outcome: PlatformOutcome) -> Data? {
        readers.lazy.compactMap { $0.createdCredentialID(in: outcome) }.first
    }

    /// The error of a request written for another family than the one that reads it.
    static let wrongPlatform = PlatformError.general(name: "UnsupportedPlatform", message: "request for the wrong platform")
}

/// A call the platform refuses before the provider sees it: the note for the transcript and the
/// error the app receives.
public struct PlatformRefusal: Sendable, Hashable {
    /// What the simulator noticed, for the transcript.
    public var note: PlatformSimulator.Note
    /// The error the app receives.
    public var error: PlatformError

    /// A refusal with its note and error.
    public init(note: PlatformSimulator.Note, error: PlatformError) {
        self.note = note
        self.error = error
    }
}

/// Why the provider refused a registration; each family answers with its own error.
public enum CreateRefusal: Sendable, Hashable {
    /// The RP ID is not associated with the app.
    case notAssociated
    /// The provider does not fulfil conditional requests (of which kind of provider).
    case conditionalUnsupported(Target.Provider)
    /// A conditional request that requires user verification.
    case userVerificationRequired
    /// The provider declined a conditional request silently (ineligible).
    case declined
    /// The provider holds an excluded credential.
    case excluded
    /// The user cancelled the registration sheet.
    case cancelled
    /// The authenticator failed (the message says how).
    case unknown(String)
}

/// Why a passkey sign-in failed; each family answers with its own error.
public enum GetRefusal: Sendable, Hashable {
    /// The user cancelled the sign-in sheet.
    case cancelled
    /// No passkey the request allows is offered.
    case noCredential
    /// The authenticator failed (the message says how).
    case unknown(String)
}

/// A passkey sign-in request reduced to what the provider looks at.
public struct AssertionRequestView: Sendable, Hashable {
    /// The RP ID the request is for.
    public var rpID: String
    /// The challenge bytes the server issued.
    public var challenge: Data
    /// The credential ids the request allows; empty for a discoverable-credential request.
    public var allowedCredentials: [Data]

    /// A view of a request's RP ID, challenge and allowed credentials.
    public init(rpID: String, challenge: Data, allowedCredentials: [Data]) {
        self.rpID = rpID
        self.challenge = challenge
        self.allowedCredentials = allowedCredentials
    }
}

/// A credential the provider made, in the raw forms a family's result carries.
public struct MadeRegistration: Sendable, Hashable {
    /// The new credential's id.
    public var credentialID: Data
    /// The clientDataJSON bytes (type `webauthn.create`).
    public var clientDataJSON: Data
    /// The authenticator data.
    public var authenticatorData: Data
    /// The credential's public key as a SubjectPublicKeyInfo.
    public var publicKeyInfo: Data
    /// The CBOR attestation object (`none` format).
    public var attestationObject: Data

    /// Creates the value from its raw parts.
    public init(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, publicKeyInfo: Data, attestationObject: Data) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.publicKeyInfo = publicKeyInfo
        self.attestationObject = attestationObject
    }
}

/// An assertion the provider made, in the raw forms a family's result carries.
public struct MadeAssertion: Sendable, Hashable {
    /// The id of the credential that signed.
    public var credentialID: Data
    /// The user handle stored with the passkey.
    public var userHandle: Data
    /// The clientDataJSON bytes (type `webauthn.get`).
    public var clientDataJSON: Data
    /// The authenticator data.
    public var authenticatorData: Data
    /// The DER-encoded ES256 signature.
    public var signature: Data

    /// Creates the value from its raw parts.
    public init(credentialID: Data, userHandle: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data) {
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
    }
}

/// What a signal says as written, whether or not the platform accepted it.
public struct SignalSummary: Sendable, Hashable {
    /// What the signal tells the credential manager; `nil` for a request type the library does not know.
    public var kind: SignalView.Kind?
    /// The interface the app called (`signalCredentialState`, `ASCredentialDataManager`, …).
    public var interface: String
    /// The RP ID as written, if it can be read.
    public var rpID: String?
    /// The new account name of a user-details signal, if it can be read.
    public var name: String?
    /// The new display name of a user-details signal, if the family's signals carry one and it can be read.
    public var displayName: String?

    /// A summary with what could be read.
    public init(kind: SignalView.Kind?, interface: String, rpID: String? = nil, name: String? = nil, displayName: String? = nil) {
        self.kind = kind
        self.interface = interface
        self.rpID = rpID
        self.name = name
        self.displayName = displayName
    }
}
