import ConformanceModel

/// Read helpers for the tests: the payload of one case of an outcome, `nil` for any other case.
extension PlatformOutcome {
    /// The Android registration response JSON.
    var registrationJSON: String? {
        if case .androidRegistration(let json) = self { json } else { nil }
    }
    /// The Android authentication response JSON.
    var authenticationJSON: String? {
        if case .androidAuthentication(let json) = self { json } else { nil }
    }
    /// The Apple registration.
    var appleRegistrationResult: AppleRegistration? {
        if case .appleRegistration(let registration) = self { registration } else { nil }
    }
    /// The Apple assertion.
    var appleAssertionResult: AppleAssertion? {
        if case .appleAssertion(let assertion) = self { assertion } else { nil }
    }
}
