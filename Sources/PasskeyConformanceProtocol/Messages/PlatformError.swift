#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An error a platform call ended with: an Android exception, an Apple `NSError`, or an error that
/// carries only a name and a message (an API missing on the target, a malformed request, a request
/// written for another platform).
///
/// On the wire it is one flat object, the same for every case: `name` and `message`, with `type`
/// and `retryMillis` for an Android exception, `domain` and `code` for an Apple error. Which case
/// a value is follows from its members alone, so a value read from the wire equals the value
/// written (see `PlatformError+Codable.swift`).
public enum PlatformError: Sendable, Hashable, Error {
    /// An Android exception with its `type` string.
    case android(AndroidCredentialException)
    /// An Apple `NSError` with its domain and code.
    case apple(AppleAuthorizationError)
    /// An error with only a name and a message, of no platform's own taxonomy.
    case general(name: String, message: String)

    /// The Android exception class (`CreateCredentialNoCreateOptionException`), Apple's
    /// `ASAuthorizationError.<code>`, or the general error's name.
    public var name: String {
        switch self {
        case .android(let exception): exception.name
        case .apple(let error): error.name
        case .general(let name, _): name
        }
    }
    /// A human-readable message.
    public var message: String {
        switch self {
        case .android(let exception): exception.message
        case .apple(let error): error.message
        case .general(_, let message): message
        }
    }
    /// The Android exception's `type` string, `nil` for any other error (a read helper).
    public var type: String? {
        if case .android(let exception) = self { exception.type } else { nil }
    }
    /// Android `SignalCredentialRateLimitExceededException.retryMillis`, `nil` for any other error (a read helper).
    public var retryMillis: Int64? {
        if case .android(let exception) = self { exception.retryMillis } else { nil }
    }
    /// The Apple error domain, `nil` for any other error (a read helper).
    public var domain: String? {
        if case .apple(let error) = self { error.domain } else { nil }
    }
    /// The Apple error code (`ASAuthorizationError.Code` raw value), `nil` for any other error (a read helper).
    public var code: Int? {
        if case .apple(let error) = self { error.code } else { nil }
    }
    /// The platform family whose taxonomy the error belongs to; `nil` for a general error.
    public var family: PlatformFamily? {
        switch self {
        case .android: .android
        case .apple: .apple
        case .general: nil
        }
    }
}

/// An androidx.credentials exception: its class, its `type` constant and its message.
public struct AndroidCredentialException: Sendable, Hashable {
    /// The exception class (`CreateCredentialNoCreateOptionException`).
    public var name: String
    /// The exception's `type` string.
    public var type: String
    /// A human-readable message.
    public var message: String
    /// `SignalCredentialRateLimitExceededException.retryMillis`; `nil` for every other exception.
    public var retryMillis: Int64?

    /// Creates an exception from its class, type and message.
    public init(name: String, type: String, message: String, retryMillis: Int64? = nil) {
        self.name = name
        self.type = type
        self.message = message
        self.retryMillis = retryMillis
    }
}

/// An AuthenticationServices `NSError`: its name, domain, code and message.
public struct AppleAuthorizationError: Sendable, Hashable {
    /// `ASAuthorizationError.<code name>`.
    public var name: String
    /// The error domain (`com.apple.AuthenticationServices.AuthorizationError`).
    public var domain: String
    /// The error code (`ASAuthorizationError.Code` raw value).
    public var code: Int
    /// A human-readable message.
    public var message: String

    /// Creates an error from its name, domain, code and message.
    public init(name: String, domain: String, code: Int, message: String) {
        self.name = name
        self.domain = domain
        self.code = code
        self.message = message
    }
}
