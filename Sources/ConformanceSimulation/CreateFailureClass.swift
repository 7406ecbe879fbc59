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

    /// Every failure class the simulation can produce, family by family (Android first).
    public static let all: [CreateFailureClass] = PlatformFamilies.readers.flatMap(\.createFailureClasses)

    /// The class with a name, if there is one.
    public static func named(_ id: String) -> CreateFailureClass? { all.first { $0.id == id } }

    /// Every spelling under which a telemetry record names this class: each entry is a set of values
    /// that must all appear among the record's attribute values (compared whole, never as
    /// substrings); any one entry suffices.
    ///
    /// The spellings are the platforms' own, and each family gives its own
    /// (`PlatformFamilySimulation.telemetrySpellings(of:)`): on Android the exception's class name,
    /// its `type` constant and the DOM error; on Apple the error domain with the numeric code, the
    /// code alone, or the code's case name.
    public var telemetrySpellings: [[String]] {
        PlatformFamilies.simulation(of: platform).telemetrySpellings(of: self)
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
