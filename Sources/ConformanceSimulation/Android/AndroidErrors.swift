import ConformanceModel

extension AndroidSimulation {
    /// An exception with its class, `type` constant and message.
    static func exception(_ name: String, type: String, _ message: String) -> PlatformError {
        .android(AndroidCredentialException(name: name, type: type, message: message))
    }

    static let noCreateOption = exception(
        "CreateCredentialNoCreateOptionException", type: "android.credentials.CreateCredentialException.TYPE_NO_CREATE_OPTIONS",
        "no create option is available for this conditional request")
    static let createUnsupported = exception(
        "CreateCredentialUnsupportedException", type: "androidx.credentials.TYPE_CREATE_CREDENTIAL_UNSUPPORTED_EXCEPTION",
        "the credential provider does not support conditional creation")
    static let createCancelled = exception(
        "CreateCredentialCancellationException", type: "android.credentials.CreateCredentialException.TYPE_USER_CANCELED",
        "the user cancelled the registration sheet")
    /// A `CreatePublicKeyCredentialDomException` carrying the DOM error `domError`: its type is the
    /// DOM exception prefix, a slash and the DOM error's own type (`…TYPE_INVALID_STATE_ERROR`).
    static func domException(_ domError: String, _ message: String) -> PlatformError {
        exception(
            "CreatePublicKeyCredentialDomException",
            type: domPrefix + "/androidx.credentials.TYPE_\(CreateFailureClass.constantName(ofDOMError: domError))_ERROR", "\(domError): \(message)")
    }

    static let invalidState = domException("InvalidStateError", "the provider holds an excluded credential")
    static let securityError = domException("SecurityError", "the app is not associated with this RP ID")
    /// Android's answer to a conditional request whose `requestJson` requires user verification.
    static let conditionalConstraintError = domException("ConstraintError", "a conditional request cannot require user verification")
    static let getCancelled = exception(
        "GetCredentialCancellationException", type: "android.credentials.GetCredentialException.TYPE_USER_CANCELED",
        "the user cancelled the sign-in sheet")
    static let noCredential = exception(
        "NoCredentialException", type: "android.credentials.GetCredentialException.TYPE_NO_CREDENTIAL",
        "no passkey is available for this request")

    private static func dom(_ name: String, _ message: String) -> CreateFailureClass {
        CreateFailureClass("CreatePublicKeyCredentialDomException \(name)", .android, domException(name, message), .recorded, domError: name)
    }

    /// Android's failure classes of a conditional registration.
    public var createFailureClasses: [CreateFailureClass] {
        [
            CreateFailureClass("CreateCredentialNoCreateOptionException", .android, Self.noCreateOption, .silent),
            CreateFailureClass("CreateCredentialUnsupportedException", .android, Self.createUnsupported, .recorded),
            CreateFailureClass(
                "CreateCredentialProviderConfigurationException", .android,
                Self.exception(
                    "CreateCredentialProviderConfigurationException", type: "androidx.credentials.TYPE_CREATE_CREDENTIAL_PROVIDER_CONFIGURATION_EXCEPTION",
                    "the credential provider is not configured (a dependency or the provider service is missing)"), .recorded),
            Self.dom("NotAllowedError", "the provider did not allow the request"),
            Self.dom("InvalidStateError", "the provider refused the request in its current state"),
            Self.dom("AbortError", "the request was aborted"),
            Self.dom("ConstraintError", "a requirement of the request cannot be met"),
            CreateFailureClass(
                "CreateCredentialUnknownException", .android,
                Self.exception(
                    "CreateCredentialUnknownException", type: "android.credentials.CreateCredentialException.TYPE_UNKNOWN",
                    "the provider failed for an unknown reason"), .recorded),
            CreateFailureClass(
                "CreateCredentialCustomException", .android,
                Self.exception("CreateCredentialCustomException", type: "com.example.provider.STORAGE_FULL", "a provider-specific failure"), .recorded),
        ]
    }

    private static let package = "androidx.credentials.exceptions."
    private static let domPrefix = "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_DOM_EXCEPTION"

    /// `type` constants other androidx releases used for the same class.
    private static let earlierTypes: [String: [String]] = [
        "CreateCredentialUnknownException": ["androidx.credentials.TYPE_CREATE_CREDENTIAL_UNKNOWN_EXCEPTION"],
        "CreateCredentialCancellationException": ["androidx.credentials.TYPE_CREATE_CREDENTIAL_CANCELLATION_EXCEPTION"],
        "CreateCredentialInterruptedException": ["androidx.credentials.TYPE_CREATE_CREDENTIAL_INTERRUPTED_EXCEPTION"],
    ]

    /// The exception's class name (simple or qualified), its `type` constant (a custom exception's is
    /// the provider's own type), and for a `CreatePublicKeyCredentialDomException` the DOM error
    /// besides (its name, qualified class or `type` constant, in the forms androidx releases have
    /// used), or the exception's whole type.
    public func telemetrySpellings(of failure: CreateFailureClass) -> [[String]] {
        let error = failure.error
        var classNames = [error.name, Self.package + error.name]
        guard let domError = failure.domError else {
            let types = (error.type.map { [$0] } ?? []) + (Self.earlierTypes[error.name] ?? [])
            return (classNames + types).map { [$0] }
        }
        // The DOM error's own type: `TYPE_<NAME>_ERROR` in earlier releases, `TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_<NAME>_ERROR` now.
        let constant = CreateFailureClass.constantName(ofDOMError: domError)
        let domTypes = ["androidx.credentials.TYPE_\(constant)_ERROR", "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_\(constant)_ERROR"]
        let wholeTypes = Set((error.type.map { [$0] } ?? []) + domTypes.flatMap { [Self.domPrefix + "/" + $0, Self.domPrefix + $0] }).sorted()
        classNames.append(Self.package + "publickeycredential." + error.name)
        let domNames = [domError, Self.package + "domerrors." + domError] + domTypes
        return wholeTypes.map { [$0] } + domTypes.map { [$0] } + classNames.flatMap { name in domNames.map { [name, $0] } }
    }
}
