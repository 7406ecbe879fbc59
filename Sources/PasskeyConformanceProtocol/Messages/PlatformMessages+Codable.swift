#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The wire forms of the "one of" platform messages. Each is an object whose single member names
// the case: `{"android":{…}}` or `{"apple":{…}}` for the requests, and one of six members for an
// outcome. A member whose value is `null` counts as absent, as it does for every optional member
// of the protocol; a value with more than one member, or none, does not decode.

/// The members of a platform request on the wire.
enum PlatformRequestKey: String, CodingKey {
    case android, apple
}

/// Reads the single platform member of a request and hands it to `android` or `apple`.
private func decodePlatformRequest<Android: Decodable, Apple: Decodable, Request>(
    from decoder: any Decoder, android: (Android) -> Request, apple: (Apple) -> Request
) throws -> Request {
    let container = try decoder.container(keyedBy: PlatformRequestKey.self)
    let androidValue = try container.decodeIfPresent(Android.self, forKey: .android)
    let appleValue = try container.decodeIfPresent(Apple.self, forKey: .apple)
    switch (androidValue, appleValue) {
    case (let androidValue?, nil): return android(androidValue)
    case (nil, let appleValue?): return apple(appleValue)
    case (.some, .some):
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: container.codingPath, debugDescription: "the request carries both \"android\" and \"apple\"; exactly one is allowed"))
    case (nil, nil):
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: container.codingPath, debugDescription: "the request carries neither \"android\" nor \"apple\"; exactly one is required"))
    }
}

/// A platform request: one case per platform, on the wire an object whose one member names it.
protocol OnePlatformRequest: Codable {
    associatedtype Android: Codable
    associatedtype Apple: Codable
    /// The Android case.
    static func android(_ request: Android) -> Self
    /// The Apple case.
    static func apple(_ request: Apple) -> Self
    /// The one member the request is written as.
    var member: (key: PlatformRequestKey, value: any Encodable) { get }
}

extension OnePlatformRequest {
    /// Decodes `{"android":{…}}` or `{"apple":{…}}`; both or neither is a `DecodingError` that says so.
    public init(from decoder: any Decoder) throws {
        self = try decodePlatformRequest(from: decoder, android: Self.android, apple: Self.apple)
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
        }
    }
}

extension GetCredentialRequest: OnePlatformRequest {
    var member: (key: PlatformRequestKey, value: any Encodable) {
        switch self {
        case .android(let request): (.android, request)
        case .apple(let request): (.apple, request)
        }
    }
}

extension SignalRequest: OnePlatformRequest {
    var member: (key: PlatformRequestKey, value: any Encodable) {
        switch self {
        case .android(let request): (.android, request)
        case .apple(let request): (.apple, request)
        }
    }
}

extension PlatformOutcome: Codable {
    /// The members of an outcome on the wire, one per case.
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case androidRegistrationResponseJson, androidAuthenticationResponseJson, appleRegistration, appleAssertion, signalAccepted, error
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
        case .signalAccepted: try container.encode(true, forKey: .signalAccepted)
        case .failure(let error): try container.encode(error, forKey: .error)
        }
    }
}
