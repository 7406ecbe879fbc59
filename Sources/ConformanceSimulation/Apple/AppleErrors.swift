import ConformanceModel

extension AppleSimulation {
    /// The domain of AuthenticationServices' authorization errors.
    public static let errorDomain = "com.apple.AuthenticationServices.AuthorizationError"

    /// An `ASAuthorizationError` with its code, the code's case name and a message.
    static func appleError(_ code: Int, _ codeName: String, _ message: String) -> PlatformError {
        .apple(AppleAuthorizationError(name: "ASAuthorizationError.\(codeName)", domain: errorDomain, code: code, message: message))
    }

    /// `failed` with a message of its own: the request is invalid.
    static func failed(_ message: String) -> PlatformError { appleError(1004, "failed", message) }

    /// Apple's answer to a declined conditional request. Which code Apple uses is not documented; the
    /// simulation answers `canceled`, the code an app must already treat as silent.
    static let appleDeclined = appleError(1001, "canceled", "the credential manager declined the conditional registration")
    static let appleCanceled = appleError(1001, "canceled", "the user cancelled the registration sheet")
    static let appleMatchedExcluded = appleError(1006, "matchedExcludedCredential", "the credential manager holds an excluded credential")
    static let appleFailed = appleError(1004, "failed", "the request is invalid or the app is not associated with the RP ID")
    /// Apple's answer to a `.conditional` request with `userVerificationPreference = .required`. Apple
    /// documents only that a conditional request whose conditions are not met returns an error without
    /// UI; which code is not documented, so the simulation answers `failed`, the code for a request the
    /// system refuses as invalid, which an app must not take for the user's ineligibility.
    static let appleConditionalUVRequired = appleError(1004, "failed", "a conditional registration request cannot require user verification")

    private static func failureClass(_ code: Int, _ codeName: String, _ handling: CreateFailureClass.Handling, _ message: String) -> CreateFailureClass {
        CreateFailureClass("ASAuthorizationError.\(codeName)", .apple, appleError(code, codeName, message), handling)
    }

    /// Apple's failure classes of a conditional registration.
    public var createFailureClasses: [CreateFailureClass] {
        [
            Self.failureClass(1001, "canceled", .silent, "the credential manager declined the conditional registration"),
            Self.failureClass(1006, "matchedExcludedCredential", .silent, "the credential manager holds an excluded credential"),
            Self.failureClass(1010, "deviceNotConfiguredForPasskeyCreation", .silent, "the device is not set up to create passkeys"),
            Self.failureClass(1004, "failed", .recorded, "the request is invalid or the app is not associated with the RP ID"),
            Self.failureClass(1002, "invalidResponse", .recorded, "the credential manager returned an invalid response"),
            Self.failureClass(1003, "notHandled", .recorded, "no credential manager handled the request"),
            Self.failureClass(1000, "unknown", .recorded, "the request failed for an unknown reason"),
        ]
    }

    /// The error domain with the numeric code, the code alone, or the code's case name (bare,
    /// `ASAuthorizationError.<case>`, `ASAuthorizationError.Code.<case>`, or the Objective-C constant).
    public func telemetrySpellings(of failure: CreateFailureClass) -> [[String]] {
        let id = failure.id
        let caseName = String(id.dropFirst("ASAuthorizationError.".count))
        let names = [caseName, id, "ASAuthorizationError.Code.\(caseName)", "ASAuthorizationError" + caseName.prefix(1).uppercased() + caseName.dropFirst()]
        guard let code = failure.error.code else { return names.map { [$0] } }
        var spellings = names.map { [$0] } + [[String(code)]]
        if let domain = failure.error.domain {
            spellings.append([domain, String(code)])
            spellings += ["\(domain) \(code)", "\(domain):\(code)", "\(domain)/\(code)", "\(domain) Code=\(code)"].map { [$0] }
        }
        return spellings
    }
}
