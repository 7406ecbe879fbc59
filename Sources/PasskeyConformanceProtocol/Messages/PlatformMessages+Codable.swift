#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The wire forms of the "one of" platform messages. Each is an object whose single member names
// the case: `{"android":{…}}`, `{"apple":{…}}` or `{"web":{…}}` for the requests, and one of eight members for an
// outcome. A member whose value is `null` counts as absent, as it does for every optional member
// of the protocol; a value with more than one member, or none, does not decode.

/// The members of a platform request on the wire.
enum PlatformRequestKey: String, CodingKey, CaseIterable {
    case android, apple, web
}

/// A platform request: one case per platform, on the wire an object whose one member names it.
protocol OnePlatformRequest: Codable {
    associatedtype Android: Codable
    associatedtype Apple: Codable
    associatedtype Web: Codable
    /// The Android case.
    static func android(_ request: Android) -> Self
    /// The Apple case.
    static func apple(_ request: Apple) -> Self
    /// The web case.
    static func web(_ request: Web) -> Self
    /// The one member the request is written as.
    var member: (key: PlatformRequestKey, value: any Encodable) { get }
}

extension OnePlatformRequest {
    /// Decodes `{"android":{…}}`, `{"apple":{…}}` or `{"web":{…}}`; more than one or none is a
    /// `DecodingError` that says so.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PlatformRequestKey.self)
        var found: [(PlatformRequestKey, Self)] = []
        if let value = try container.decodeIfPresent(Android.self, forKey: .android) { found.append((.android, .android(value))) }
        if let value = try container.decodeIfPresent(Apple.self, forKey: .apple) { found.append((.apple, .apple(value))) }
        if let value = try container.decodeIfPresent(Web.self, forKey: .web) { found.append((.web, .web(value))) }
        guard found.count == 1, let request = found.first?.1 else {
            func list(_ names: [String], _ last: String) -> String {
                names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " \(last) " + (names.last ?? "")
            }
            let description =
                found.isEmpty
                ? "the request carries none of " + list(PlatformRequestKey.allCases.map { "\"\($0.stringValue)\"" }, "or") + "; exactly one is required"
                : "the request carries " + (found.count == 2 ? "both " : "") + list(found.map { "\"\($0.0.stringValue)\"" }, "and")
                    + "; exactly one is allowed"
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: container.codingPath, debugDescription: description))
        }
        self = request
    }

    /// Encodes the request as an object with its one platform member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PlatformRequestKey.self)
        try container.encode(member.value, forKey: member.key)
    }
}

extension CreateCredentialRequest: OnePlatformRequest {
    var member: (key: PlatformRequestKey, value: any Encodable) {
        switch self {
        case .android(let request): (.android, request)
        case .apple(let request): (.apple, request)
        case .web(let request): (.web, request)
        }
    }
}

extension GetCredentialRequest: OnePlatformRequest {
    var member: (key: PlatformRequestKey, value: any Encodable) {
        switch self {
        case .android(let request): (.android, request)
        case .apple(let request): (.apple, request)
        case .web(let request): (.web, request)
        }
    }
}

extension SignalRequest: OnePlatformRequest {
    var member: (key: PlatformRequestKey, value: any Encodable) {
        switch self {
        case .android(let request): (.android, request)
        case .apple(let request): (.apple, request)
        case .web(let request): (.web, request)
        }
    }
}

extension PlatformOutcome: Codable {
    /// The members of an outcome on the wire, one per case.
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case androidRegistrationResponseJson, androidAuthenticationResponseJson, appleRegistration, appleAssertion, webRegistrationResponseJson
        case webAuthenticationResponseJson, signalAccepted, error
    }

    /// Decodes an outcome from its one member; more than one member, none, or `signalAccepted`
    /// other than `true` is a `DecodingError` that says so.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var found: [(CodingKeys, PlatformOutcome)] = []
        if let json = try container.decodeIfPresent(String.self, forKey: .androidRegistrationResponseJson) {
            found.append((.androidRegistrationResponseJson, .androidRegistration(responseJson: json)))
        }
        if let json = try container.decodeIfPresent(String.self, forKey: .androidAuthenticationResponseJson) {
            found.append((.androidAuthenticationResponseJson, .androidAuthentication(responseJson: json)))
        }
        if let registration = try container.decodeIfPresent(AppleRegistration.self, forKey: .appleRegistration) {
            found.append((.appleRegistration, .appleRegistration(registration)))
        }
        if let assertion = try container.decodeIfPresent(AppleAssertion.self, forKey: .appleAssertion) {
            found.append((.appleAssertion, .appleAssertion(assertion)))
        }
        if let json = try container.decodeIfPresent(String.self, forKey: .webRegistrationResponseJson) {
            found.append((.webRegistrationResponseJson, .webRegistration(responseJson: json)))
        }
        if let json = try container.decodeIfPresent(String.self, forKey: .webAuthenticationResponseJson) {
            found.append((.webAuthenticationResponseJson, .webAuthentication(responseJson: json)))
        }
        if let accepted = try container.decodeIfPresent(Bool.self, forKey: .signalAccepted) {
            guard accepted else {
                throw DecodingError.dataCorruptedError(
                    forKey: .signalAccepted, in: container,
                    debugDescription: "signalAccepted must be true; a refused signal is an \"error\"")
            }
            found.append((.signalAccepted, .signalAccepted))
        }
        if let error = try container.decodeIfPresent(PlatformError.self, forKey: .error) {
            found.append((.error, .failure(error)))
        }
        guard found.count == 1, let outcome = found.first?.1 else {
            let names = CodingKeys.allCases.map { "\"\($0.stringValue)\"" }.joined(separator: ", ")
            let what = found.isEmpty ? "none of" : "\(found.count) of"
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "the outcome carries \(what) \(names); exactly one is required"))
        }
        self = outcome
    }

    /// Encodes the outcome as an object with its one member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .androidRegistration(let json): try container.encode(json, forKey: .androidRegistrationResponseJson)
        case .androidAuthentication(let json): try container.encode(json, forKey: .androidAuthenticationResponseJson)
        case .appleRegistration(let registration): try container.encode(registration, forKey: .appleRegistration)
        case .appleAssertion(let assertion): try container.encode(assertion, forKey: .appleAssertion)
        case .webRegistration(let json): try container.encode(json, forKey: .webRegistrationResponseJson)
        case .webAuthentication(let json): try container.encode(json, forKey: .webAuthenticationResponseJson)
        case .signalAccepted: try container.encode(true, forKey: .signalAccepted)
        case .failure(let error): try container.encode(error, forKey: .error)
        }
    }
}
