#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - The web family's platform calls

/// A page's `navigator.credentials.create({publicKey, mediation})`, as the harness saw it in the
/// browser.
public struct WebCreateRequest: Sendable, Codable, Hashable {
    /// `publicKey` as WebAuthn JSON (`PublicKeyCredentialCreationOptionsJSON`: every buffer as
    /// base64url text).
    public var publicKeyJson: String
    /// `mediation` as the page wrote it (`conditional` for an automatic upgrade); `nil` when absent.
    public var mediation: String?
    /// The page's origin, which the browser writes into clientDataJSON.
    public var origin: String

    /// A request with its options, mediation and origin.
    public init(publicKeyJson: String, mediation: String?, origin: String) {
        self.publicKeyJson = publicKeyJson
        self.mediation = mediation
        self.origin = origin
    }
}

/// A page's `navigator.credentials.get({publicKey, mediation})`.
public struct WebGetRequest: Sendable, Codable, Hashable {
    /// `publicKey` as WebAuthn JSON (`PublicKeyCredentialRequestOptionsJSON`).
    public var publicKeyJson: String
    /// `mediation` as the page wrote it; `nil` when absent.
    public var mediation: String?
    /// The page's origin.
    public var origin: String

    /// A request with its options, mediation and origin.
    public init(publicKeyJson: String, mediation: String?, origin: String) {
        self.publicKeyJson = publicKeyJson
        self.mediation = mediation
        self.origin = origin
    }
}

/// The static signal methods of `PublicKeyCredential`.
public enum WebSignalMethod: String, Sendable, Hashable, ProtocolEnum {
    /// `signalUnknownCredential({rpId, credentialId})`.
    case signalUnknownCredential
    /// `signalAllAcceptedCredentials({rpId, userId, allAcceptedCredentialIds})`.
    case signalAllAcceptedCredentials
    /// `signalCurrentUserDetails({rpId, userId, name, displayName})`.
    case signalCurrentUserDetails
}

/// A page's call of one signal method of `PublicKeyCredential`.
public struct WebSignalRequest: Sendable, Codable, Hashable {
    /// The method the page called.
    public var method: WebSignalMethod
    /// Its options as the page passed them, as JSON (`rpId`, `credentialId`, `userId`,
    /// `allAcceptedCredentialIds`, `name`, `displayName`: base64url text where the method takes it).
    public var optionsJson: String
    /// The page's origin.
    public var origin: String

    /// A call with its method, options and origin.
    public init(method: WebSignalMethod, optionsJson: String, origin: String) {
        self.method = method
        self.optionsJson = optionsJson
        self.origin = origin
    }
}

// MARK: - The relying party's web front end

/// Where a relying party's web front end lives (`web` in `adapter.hello`'s answer, protocol 1.3):
/// the browser loads `startURL` for each test case, and every request of the page to one of
/// `origins` reaches the relying party through `session.webRequest`; every other request fails as
/// the network would.
public struct WebFrontEnd: Sendable, Codable, Hashable {
    /// The page a test case starts on, e.g. `https://login.example.com/`.
    public var startURL: String
    /// The origins the page's requests may reach, e.g. `["https://login.example.com"]`; the start
    /// URL's origin is always one of them.
    public var origins: [String]

    /// A front end at `startURL` reaching `origins`.
    public init(startURL: String, origins: [String]) {
        self.startURL = startURL
        self.origins = origins
    }
}

/// A request the relying party's page made to one of its origins (`session.webRequest`).
public struct WebRequest: Sendable, Codable, Hashable {
    /// The HTTP method.
    public var method: String
    /// The whole URL, e.g. `https://login.example.com/api/sign-in`.
    public var url: String
    /// The request body as UTF-8 text, when it has one.
    public var body: String?
    /// The `Content-Type` the page sent, when it sent one.
    public var contentType: String?

    /// A request with its method, URL, body and content type.
    public init(method: String, url: String, body: String? = nil, contentType: String? = nil) {
        self.method = method
        self.url = url
        self.body = body
        self.contentType = contentType
    }
}

/// The relying party's answer to a `WebRequest`.
public struct WebResponse: Sendable, Codable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The `Content-Type`, e.g. `text/html; charset=utf-8`.
    public var contentType: String
    /// The body as UTF-8 text.
    public var body: String

    /// An answer with a status, content type and body.
    public init(status: Int = 200, contentType: String, body: String) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
