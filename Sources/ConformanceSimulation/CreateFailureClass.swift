import ConformanceModel
/// A way a conditional registration request can fail, as the platform reports it, and how the
/// N2.6 source says an app must treat it: the expected no-op stays silent; every other class is
/// recorded in telemetry under its own name and never treated as ineligibility.
///
/// Names, types and codes follow the platforms' references (`Documentation/platform-failures.md`
/// gives each with its source). The simulated credential manager produces any of them on request.
public struct CreateFailureClass: Sendable, Hashable, Identifiable {
    /// What the app must do with the failure.
    public enum Handling: String, Sendable, Hashable {
        /// An expected no-op (ineligibility or cancellation): no user-facing error.
        case silent
        /// Recorded in the app's telemetry under its own class.
        case recorded
    }

    /// The name criterion files use: the Android exception (with the DOM error for
    /// `CreatePublicKeyCredentialDomException`) or `ASAuthorizationError.<code name>`.
    public let id: String
    /// The platform that reports it.
    public let platform: PlatformFamily
    /// The error the app receives.
    public let error: PlatformError
    /// What the app must do with it.
    public let handling: Handling
    /// The DOM error name of a `CreatePublicKeyCredentialDomException`.
    public let domError: String?

    init(_ id: String, _ platform: PlatformFamily, _ error: PlatformError, _ handling: Handling, domError: String? = nil) {
        self.id = id
        self.platform = platform
        self.error = error
        self.handling = handling
        self.domError = domError
    }

    static func dom(_ name: String, _ constant: String, _ message: String) -> CreateFailureClass {
        let type = "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_DOM_EXCEPTION/androidx.credentials.TYPE_\(constant)_ERROR"
        return CreateFailureClass(
            "CreatePublicKeyCredentialDomException \(name)", .android,
            PlatformError(name: "CreatePublicKeyCredentialDomException", type: type, message: "\(name): \(message)"), .recorded, domError: name)
    }

    static func apple(_ code: Int, _ codeName: String, _ handling: Handling, _ message: String) -> CreateFailureClass {
        CreateFailureClass("ASAuthorizationError.\(codeName)", .apple, PlatformSimulator.appleError(code, codeName, message), handling)
    }

    /// Every failure class the simulation can produce, Android first.
    public static let all: [CreateFailureClass] = [
        CreateFailureClass("CreateCredentialNoCreateOptionException", .android, PlatformSimulator.noCreateOption, .silent),
        CreateFailureClass("CreateCredentialUnsupportedException", .android, PlatformSimulator.createUnsupported, .recorded),
        CreateFailureClass(
            "CreateCredentialProviderConfigurationException", .android,
            PlatformError(
                name: "CreateCredentialProviderConfigurationException", type: "androidx.credentials.TYPE_CREATE_CREDENTIAL_PROVIDER_CONFIGURATION_EXCEPTION",
                message: "the credential provider is not configured (a dependency or the provider service is missing)"), .recorded),
        dom("NotAllowedError", "NOT_ALLOWED", "the provider did not allow the request"),
        dom("InvalidStateError", "INVALID_STATE", "the provider refused the request in its current state"),
        dom("AbortError", "ABORT", "the request was aborted"),
        dom("ConstraintError", "CONSTRAINT", "a requirement of the request cannot be met"),
        CreateFailureClass(
            "CreateCredentialUnknownException", .android,
            PlatformError(
                name: "CreateCredentialUnknownException", type: "android.credentials.CreateCredentialException.TYPE_UNKNOWN",
                message: "the provider failed for an unknown reason"), .recorded),
        CreateFailureClass(
            "CreateCredentialCustomException", .android,
            PlatformError(
                name: "CreateCredentialCustomException", type: "com.example.provider.STORAGE_FULL", message: "a provider-specific failure"), .recorded),
        apple(1001, "canceled", .silent, "the credential manager declined the conditional registration"),
        apple(1006, "matchedExcludedCredential", .silent, "the credential manager holds an excluded credential"),
        apple(1010, "deviceNotConfiguredForPasskeyCreation", .silent, "the device is not set up to create passkeys"),
        apple(1004, "failed", .recorded, "the request is invalid or the app is not associated with the RP ID"),
        apple(1002, "invalidResponse", .recorded, "the credential manager returned an invalid response"),
        apple(1003, "notHandled", .recorded, "no credential manager handled the request"),
        apple(1000, "unknown", .recorded, "the request failed for an unknown reason"),
    ]

    /// The class with a name, if there is one.
    public static func named(_ id: String) -> CreateFailureClass? { all.first { $0.id == id } }

    /// Every spelling under which a telemetry record names this class: each entry is a set of values
    /// that must all appear among the record's attribute values (compared whole, never as
    /// substrings); any one entry suffices.
    ///
    /// The spellings are the platforms' own: on Android the exception's class name (simple or
    /// qualified), its `type` constant (a custom exception's is the provider's own type), and for a
    /// `CreatePublicKeyCredentialDomException` the DOM error besides (its name, qualified class or
    /// `type` constant, in the forms androidx releases have used), or the exception's whole type;
    /// on Apple the error domain with the numeric code, the code alone, or the code's case name
    /// (bare, `ASAuthorizationError.<case>`, `ASAuthorizationError.Code.<case>`, or the
    /// Objective-C constant).
    public var telemetrySpellings: [[String]] {
        switch platform {
        case .apple: return appleSpellings
        case .android: return androidSpellings
        }
    }

    private static let androidPackage = "androidx.credentials.exceptions."
    private static let domPrefix = "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_DOM_EXCEPTION"

    /// `type` constants other androidx releases used for the same class.
    private static let earlierTypes: [String: [String]] = [
        "CreateCredentialUnknownException": ["androidx.credentials.TYPE_CREATE_CREDENTIAL_UNKNOWN_EXCEPTION"],
        "CreateCredentialCancellationException": ["androidx.credentials.TYPE_CREATE_CREDENTIAL_CANCELLATION_EXCEPTION"],
        "CreateCredentialInterruptedException": ["androidx.credentials.TYPE_CREATE_CREDENTIAL_INTERRUPTED_EXCEPTION"],
    ]

    private var androidSpellings: [[String]] {
        var classNames = [error.name, Self.androidPackage + error.name]
        guard let domError else {
            let types = (error.type.map { [$0] } ?? []) + (Self.earlierTypes[error.name] ?? [])
            return (classNames + types).map { [$0] }
        }
        // The DOM error's own type: `TYPE_<NAME>_ERROR` in earlier releases, `TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_<NAME>_ERROR` now.
        let constant = Self.constantName(ofDOMError: domError)
        let domTypes = ["androidx.credentials.TYPE_\(constant)_ERROR", "androidx.credentials.TYPE_CREATE_PUBLIC_KEY_CREDENTIAL_\(constant)_ERROR"]
        let wholeTypes = Set((error.type.map { [$0] } ?? []) + domTypes.flatMap { [Self.domPrefix + "/" + $0, Self.domPrefix + $0] }).sorted()
        classNames.append(Self.androidPackage + "publickeycredential." + error.name)
        let domNames = [domError, Self.androidPackage + "domerrors." + domError] + domTypes
        return wholeTypes.map { [$0] } + domTypes.map { [$0] } + classNames.flatMap { name in domNames.map { [name, $0] } }
    }

    private var appleSpellings: [[String]] {
        let caseName = String(id.dropFirst("ASAuthorizationError.".count))
        let names = [caseName, id, "ASAuthorizationError.Code.\(caseName)", "ASAuthorizationError" + caseName.prefix(1).uppercased() + caseName.dropFirst()]
        guard let code = error.code else { return names.map { [$0] } }
        var spellings = names.map { [$0] } + [[String(code)]]
        if let domain = error.domain {
            spellings.append([domain, String(code)])
            spellings += ["\(domain) \(code)", "\(domain):\(code)", "\(domain)/\(code)", "\(domain) Code=\(code)"].map { [$0] }
        }
        return spellings
    }

    /// `NotAllowedError` → `NOT_ALLOWED`.
    public static func constantName(ofDOMError name: String) -> String {
        let base = name.hasSuffix("Error") ? String(name.dropLast("Error".count)) : name
        var out = ""
        for character in base {
            if character.isUppercase, !out.isEmpty { out.append("_") }
            out += character.uppercased()
        }
        return out
    }
}
