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
            members = try Members(plain: jsonBytes) ?? JSONDecoder().decode(Members.self, from: jsonBytes)
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
        // The common case, nothing to escape, without walking the text scalar by scalar.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { return "\"" + string + "\"" }
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
    struct Members: Decodable, Equatable {
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

        /// The members of the plain client data a client writes: one object whose members are
        /// ASCII strings without escapes, booleans or null, every known member of its type and the
        /// required ones present, each name once. `nil` for anything else, which `JSONDecoder`
        /// then reads (with its errors); bytes read here give what `JSONDecoder` gives.
        init?(plain bytes: Data) {
            enum Value {
                case string(String)
                case bool(Bool)
                case null
            }
            var found: [String: Value] = [:]
            let parsed: Bool = bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
                var index = 0
                func skipSpace() { while index < raw.count, [0x20, 0x09, 0x0A, 0x0D].contains(raw[index]) { index += 1 } }
                func expect(_ byte: UInt8) -> Bool {
                    skipSpace()
                    guard index < raw.count, raw[index] == byte else { return false }
                    index += 1
                    return true
                }
                func string() -> String? {
                    guard expect(0x22) else { return nil }
                    let start = index
                    while index < raw.count, raw[index] != 0x22 {
                        // Escapes, control characters and non-ASCII bytes are left to JSONDecoder.
                        guard raw[index] >= 0x20, raw[index] < 0x80, raw[index] != 0x5C else { return nil }
                        index += 1
                    }
                    guard index < raw.count else { return nil }
                    defer { index += 1 }
                    return String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<index]), as: UTF8.self)
                }
                func literal(_ word: String) -> Bool {
                    let utf8 = Array(word.utf8)
                    guard index + utf8.count <= raw.count, raw[index..<index + utf8.count].elementsEqual(utf8) else { return false }
                    index += utf8.count
                    return true
                }
                guard expect(0x7B) else { return false }
                skipSpace()
                if index < raw.count, raw[index] == 0x7D {
                    index += 1
                } else {
                    while true {
                        guard let name = string(), found[name] == nil, expect(0x3A) else { return false }
                        skipSpace()
                        guard index < raw.count else { return false }
                        if raw[index] == 0x22 {
                            guard let value = string() else { return false }
                            found[name] = .string(value)
                        } else if literal("true") {
                            found[name] = .bool(true)
                        } else if literal("false") {
                            found[name] = .bool(false)
                        } else if literal("null") {
                            found[name] = .null
                        } else {
                            return false
                        }
                        skipSpace()
                        guard index < raw.count, raw[index] == 0x2C else { break }
                        index += 1
                    }
                    guard expect(0x7D) else { return false }
                }
                skipSpace()
                return index == raw.count
            }
            guard parsed, case .string(let type)? = found["type"], case .string(let challenge)? = found["challenge"],
                case .string(let origin)? = found["origin"]
            else { return nil }
            switch found["crossOrigin"] {
            case nil: crossOrigin = nil
            case .bool(let value)?: crossOrigin = value
            default: return nil
            }
            switch found["topOrigin"] {
            case nil: topOrigin = nil
            case .string(let value)?: topOrigin = value
            default: return nil
            }
            (self.type, self.challenge, self.origin) = (type, challenge, origin)
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
