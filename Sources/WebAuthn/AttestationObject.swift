#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The attestation object of WebAuthn §6.5: the CBOR map `{"fmt": text, "attStmt": map,
/// "authData": bytes}`.
///
/// Any format parses; `WebAuthnVerifier` accepts only `"none"`.
public struct AttestationObject: Sendable, Hashable {
    /// The attestation statement format identifier, for example `"none"` or `"packed"`.
    public var format: String
    /// The attestation statement, a CBOR map (empty for `"none"`).
    public var statement: CBOR
    /// The authenticator data bytes, kept exactly as received.
    public var authenticatorData: Data

    /// Creates an attestation object.
    public init(format: String, statement: CBOR, authenticatorData: Data) {
        self.format = format
        self.statement = statement
        self.authenticatorData = authenticatorData
    }

    /// An attestation object in the `"none"` format: `attStmt` is the empty map.
    public static func none(authenticatorData: Data) -> AttestationObject {
        AttestationObject(format: "none", statement: .map([]), authenticatorData: authenticatorData)
    }

    /// The CTAP2 canonical encoding (keys in the order fmt, attStmt, authData).
    public var bytes: Data {
        CBOR.map([
            CBOR.Pair("fmt", .text(format)), CBOR.Pair("attStmt", statement),
            CBOR.Pair("authData", .bytes(authenticatorData)),
        ]).encoded
    }

    /// Why bytes are not an acceptable attestation object.
    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The bytes are not one well-formed CBOR item.
        case malformedCBOR(CBOR.DecodingError)
        /// The item is not a map.
        case notAMap(found: String)
        /// A required member is absent.
        case missingMember(String)
        /// A member has the wrong CBOR type (name and expected kind).
        case wrongType(member: String, expected: String)
        /// A key other than fmt, attStmt and authData.
        case unexpectedMember(String)

        /// A one-line human-readable explanation.
        public var description: String {
            switch self {
            case let .malformedCBOR(error): "attestation object is not valid CBOR: \(error)"
            case let .notAMap(found): "attestation object must be a CBOR map, found \(found)"
            case let .missingMember(name): "attestation object lacks \"\(name)\""
            case let .wrongType(member, expected): "attestation object member \"\(member)\" must be a \(expected)"
            case let .unexpectedMember(name): "attestation object has unexpected member \(name)"
            }
        }
    }

    /// Parses an attestation object: exactly the members fmt (text), attStmt (map) and authData
    /// (bytes). The authenticator data is not parsed here (see `AuthenticatorData(bytes:)`).
    public init(bytes: Data) throws(ParseError) {
        let item: CBOR
        do {
            item = try CBOR.decode(bytes)
        } catch {
            throw .malformedCBOR(error)
        }
        guard let pairs = item.mapValue else { throw .notAMap(found: item.kindName) }
        for pair in pairs {
            guard let name = pair.key.textValue, ["fmt", "attStmt", "authData"].contains(name) else {
                throw .unexpectedMember(COSEKey.describe(pair.key))
            }
        }
        guard let fmt = item["fmt"] else { throw .missingMember("fmt") }
        guard let format = fmt.textValue else { throw .wrongType(member: "fmt", expected: "text string") }
        guard let statement = item["attStmt"] else { throw .missingMember("attStmt") }
        guard statement.mapValue != nil else { throw .wrongType(member: "attStmt", expected: "map") }
        guard let authData = item["authData"] else { throw .missingMember("authData") }
        guard let authenticatorData = authData.bytesValue else { throw .wrongType(member: "authData", expected: "byte string") }
        self.init(format: format, statement: statement, authenticatorData: authenticatorData)
    }
}
