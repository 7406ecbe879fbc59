/// The choices of the automatic upgrade (N2.6) that the criteria documents leave to the relying
/// party, each a range `selftest --designs random:N` samples (see `ReferenceDesign+Knobs.swift`).
extension ReferenceDesign {
    /// The spelling an Android app's telemetry uses for a failure class (F-telemetry).
    package enum AndroidFailureSpelling: String, Sendable, Hashable, CaseIterable {
        /// The exception's simple name, its `type` and more (the reference's record).
        case everything
        /// The exception's simple class name (with the DOM error's name for a DOM exception).
        case className = "class-name"
        /// The exception's qualified class name (with the DOM error's qualified class).
        case qualifiedClassName = "qualified-class-name"
        /// The exception's `type` constant alone (a custom exception's is the provider's own type).
        case typeConstant = "type-constant"
    }

    /// The spelling an Apple app's telemetry uses for a failure class (F-telemetry).
    package enum AppleFailureSpelling: String, Sendable, Hashable, CaseIterable {
        /// The error's name, domain and code (the reference's record).
        case everything
        /// The code's case name alone (`failed`).
        case caseName = "case-name"
        /// `ASAuthorizationError.Code.<case>`.
        case qualifiedCaseName = "qualified-case-name"
        /// The error domain and the numeric code, as two attributes.
        case domainAndCode = "domain-and-code"
    }

    /// An opaque WebAuthn user handle (F-handle).
    package enum UserHandleForm: String, Sendable, Hashable, CaseIterable {
        case random16 = "random-16-bytes"
        case random32 = "random-32-bytes"
        case random64 = "random-64-bytes"
        /// A random (version 4) UUID's 16 bytes.
        case uuid
        /// A server-side random token kept as its base64url text.
        case randomText = "random-text"
    }

    /// The product's own account ids (F-handle).
    package enum AccountIDForm: String, Sendable, Hashable, CaseIterable {
        /// `acct-000001`.
        case prefixed
        /// A short number of three digits.
        case shortNumeric = "short-numeric"
        /// A random UUID in text.
        case uuid
    }

    /// What the app shows once a sign-in completes (F-words): none of it claims anything about a passkey.
    package enum AfterSignInUI: String, Sendable, Hashable, CaseIterable {
        case nothing
        /// A message: "Welcome back, <name>."
        case welcomeMessage = "welcome-message"
        /// A confirmation of the sign-in: "You are signed in."
        case signedInConfirmation = "signed-in-confirmation"
        /// The home screen.
        case homeScreen = "home-screen"
    }

    /// The manual creation nudge after a no-create (F-nudge): it offers, and only the user starts it.
    package enum Nudge: String, Sendable, Hashable, CaseIterable {
        case none
        /// A message inviting the user to create a passkey in the settings.
        case message
        /// A screen offering passkey creation, which the user may choose or leave.
        case screen
    }

    /// Where a stale registration response is refused (F-stale).
    package enum StaleResponseHandling: String, Sendable, Hashable, CaseIterable {
        /// The app discards it.
        case appDiscards = "app-discards"
        /// The app sends it at once and the server refuses it: its session ended or was superseded.
        case serverRefuses = "server-refuses"
        /// The app keeps it and sends it at the next sign-in; the server refuses it then.
        case serverRefusesAtNextSignIn = "server-refuses-at-next-sign-in"
    }
}
