#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The client data of WebAuthn §5.8.1, which the client serializes as `clientDataJSON`.
public struct CollectedClientData: Sendable, Hashable {
    /// The ceremony the client data belongs to: the `type` member.
    public struct CeremonyType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The member's text.
        public let rawValue: String
        /// Creates a type from its text (any text, so unexpected values can be represented).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `webauthn.create`, a registration.
        public static let create = CeremonyType(rawValue: "webauthn.create")
        /// `webauthn.get`, an authentication.
        public static let get = CeremonyType(rawValue: "webauthn.get")
        /// The text.
        public var description: String { rawValue }
    }

    /// The ceremony type.
    public var type: CeremonyType
    /// The challenge the relying party issued (decoded from base64url).
    public var challenge: Data
    /// The caller's origin, for example `https://example.com`.
    public var origin: String
    /// Whether the call came from a cross-origin iframe; nil when the member is absent.
    public var crossOrigin: Bool?
    /// The top-level origin, present only for cross-origin calls.
    public var topOrigin: String?

    /// Creates client data.
    public init(type: CeremonyType, challenge: Data, origin: String, crossOrigin: Bool? = false, topOrigin: String? = nil) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
    }

    /// The JSON serialization in the order WebAuthn §5.8.1.1 prescribes:
    /// `{"type":…,"challenge":…,"origin":…,"crossOrigin":…[,"topOrigin":…]}`.
    ///
    /// `crossOrigin` is written as `false` when nil, as the algorithm does; strings are escaped
    /// like the spec's CCDToString (only `"`, `\` and control characters).
    public var jsonBytes: Data {
        var text = "{\"type\":" + Self.quoted(type.rawValue)
        text += ",\"challenge\":" + Self.quoted(Base64URL.encode(challenge))
        text += ",\"origin\":" + Self.quoted(origin)
        text += ",\"crossOrigin\":" + ((crossOrigin ?? false) ? "true" : "false")
        if let topOrigin { text += ",\"topOrigin\":" + Self.quoted(topOrigin) }
        text += "}"
        return Data(text.utf8)
    }

    /// SHA-256 of `jsonBytes`, the clientDataHash an authenticator receives.
    public var hash: Data { SHA256.hash(jsonBytes) }

    /// Why bytes are not acceptable client data JSON.
    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The bytes are not valid UTF-8 JSON; the text is the JSON parser's detail.
        case invalidJSON(String)
        /// The JSON is valid but not an object.
        case notAnObject
        /// A required member is absent.
        case missingMember(String)
        /// A member has the wrong JSON type (name and expected type).
        case wrongType(member: String, expected: String)
        /// The challenge member is not canonical unpadded base64url.
        case invalidChallenge(Base64URL.DecodingError)

        /// A one-line human-readable explanation.
        public var description: String {
            switch self {
            case let .invalidJSON(detail): "clientDataJSON is not valid JSON: \(detail)"
            case .notAnObject: "clientDataJSON is not a JSON object"
            case let .missingMember(name): "clientDataJSON lacks the required member \"\(name)\""
            case let .wrongType(member, expected): "clientDataJSON member \"\(member)\" must be a \(expected)"
            case let .invalidChallenge(error): "clientDataJSON challenge is not base64url: \(error)"
            }
        }
    }

    /// Parses client data JSON tolerantly, as WebAuthn asks of relying parties: members may come
    /// in any order and unknown members are ignored; `type`, `challenge` and `origin` are
    /// required strings, `crossOrigin` an optional boolean, `topOrigin` an optional string.
    public init(jsonBytes: Data) throws(ParseError) {
        let members: Members
        do {
            members = try JSONDecoder().decode(Members.self, from: jsonBytes)
        } catch let error as ParseError {
            throw error
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
            throw .notAnObject
        } catch let DecodingError.dataCorrupted(context) {
            throw .invalidJSON(context.debugDescription)
        } catch {
            throw .invalidJSON(String(describing: error))
        }
        type = CeremonyType(rawValue: members.type)
        do {
            challenge = try Base64URL.decode(members.challenge)
        } catch {
            throw .invalidChallenge(error)
        }
        origin = members.origin
        crossOrigin = members.crossOrigin
        topOrigin = members.topOrigin
    }

    private static func quoted(_ string: String) -> String {
        var output = "\""
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x00..<0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// The members read from JSON, with type errors turned into `ParseError`.
    private struct Members: Decodable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool?
        var topOrigin: String?

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            func optional<T: Decodable>(_ name: String, _ kind: T.Type, _ expected: String) throws -> T? {
                let key = Key(name)
                guard container.contains(key) else { return nil }
                if try container.decodeNil(forKey: key) { throw ParseError.wrongType(member: name, expected: expected) }
                do {
                    return try container.decode(T.self, forKey: key)
                } catch DecodingError.typeMismatch {
                    throw ParseError.wrongType(member: name, expected: expected)
                }
            }
            func required(_ name: String) throws -> String {
                guard let value = try optional(name, String.self, "string") else { throw ParseError.missingMember(name) }
                return value
            }
            type = try required("type")
            challenge = try required("challenge")
            origin = try required("origin")
            crossOrigin = try optional("crossOrigin", Bool.self, "boolean")
            topOrigin = try optional("topOrigin", String.self, "string")
        }
    }
}
