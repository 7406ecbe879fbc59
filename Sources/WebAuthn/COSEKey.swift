#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An ES256 credential public key in COSE_Key form (RFC 9052/9053): EC2 key type, algorithm
/// ES256 (-7), curve P-256.
///
/// The canonical encoding is the CBOR map `{1: 2, 3: -7, -1: 1, -2: x, -3: y}`, which begins
/// `A5 01 02 03 26 20 01 21 58 20` followed by x, then `22 58 20` and y (77 bytes in all).
public struct COSEKey: Sendable, Hashable {
    /// COSE label 1, key type: EC2.
    public static let keyTypeEC2: Int64 = 2
    /// COSE label 3, algorithm: ES256 (ECDSA with SHA-256).
    public static let algorithmES256: Int64 = -7
    /// COSE label -1, curve: P-256.
    public static let curveP256: Int64 = 1

    /// The public key; its coordinates are the COSE labels -2 (x) and -3 (y).
    public let publicKey: P256PublicKey

    /// Wraps a P-256 public key.
    public init(publicKey: P256PublicKey) {
        self.publicKey = publicKey
    }

    /// Why bytes are not an acceptable ES256 COSE key.
    public enum DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The bytes are not one well-formed CBOR item.
        case malformedCBOR(CBOR.DecodingError)
        /// The item is not a map.
        case notAMap(found: String)
        /// A required parameter is absent (label given).
        case missingParameter(label: Int64)
        /// A parameter has an unexpected value or type (label and what was found).
        case unexpectedValue(label: Int64, found: String)
        /// A coordinate is not 32 bytes long.
        case invalidCoordinateLength(label: Int64, length: Int)
        /// A parameter that an ES256 credential public key must not carry (WebAuthn §6.5.1).
        case unexpectedParameter(String)
        /// The coordinates are not a point on P-256.
        case pointNotOnCurve

        /// A one-line human-readable explanation.
        public var description: String {
            switch self {
            case let .malformedCBOR(error): "COSE key is not valid CBOR: \(error)"
            case let .notAMap(found): "COSE key must be a CBOR map, found \(found)"
            case let .missingParameter(label): "COSE key lacks parameter \(label) (\(COSEKey.name(of: label)))"
            case let .unexpectedValue(label, found):
                "COSE key parameter \(label) (\(COSEKey.name(of: label))) has unsupported value \(found); ES256 needs kty 2, alg -7, crv 1"
            case let .invalidCoordinateLength(label, length):
                "COSE key coordinate \(label) (\(COSEKey.name(of: label))) is \(length) bytes, expected 32"
            case let .unexpectedParameter(label): "COSE key carries unexpected parameter \(label)"
            case .pointNotOnCurve: "COSE key coordinates are not a point on P-256"
            }
        }
    }

    /// Parses and validates an ES256 COSE key.
    ///
    /// Requires a map with exactly kty 2, alg -7, crv 1 and 32-byte x and y that form a point on
    /// P-256; any other parameter is rejected. Non-canonical CBOR is accepted (the bytes are
    /// authenticated by the signature over authenticator data, not re-encoded).
    public init(decoding bytes: Data) throws(DecodingError) {
        let item: CBOR
        do {
            item = try CBOR.decode(bytes)
        } catch {
            throw .malformedCBOR(error)
        }
        try self.init(item: item)
    }

    /// Validates an already decoded COSE key item (see `init(decoding:)`).
    public init(item: CBOR) throws(DecodingError) {
        guard let pairs = item.mapValue else { throw .notAMap(found: item.kindName) }
        let known: Set<Int64> = [1, 3, -1, -2, -3]
        for pair in pairs {
            guard let label = pair.key.integerValue, known.contains(label) else {
                throw .unexpectedParameter(COSEKey.describe(pair.key))
            }
        }
        func require(_ label: Int64) throws(DecodingError) -> CBOR {
            guard let value = item[.integer(label)] else { throw .missingParameter(label: label) }
            return value
        }
        for (label, expected) in [(1, Self.keyTypeEC2), (3, Self.algorithmES256), (-1, Self.curveP256)] as [(Int64, Int64)] {
            let value = try require(label)
            guard value.integerValue == expected else { throw .unexpectedValue(label: label, found: COSEKey.describe(value)) }
        }
        var coordinates: [Data] = []
        for label: Int64 in [-2, -3] {
            let value = try require(label)
            guard let bytes = value.bytesValue else { throw .unexpectedValue(label: label, found: value.kindName) }
            guard bytes.count == 32 else { throw .invalidCoordinateLength(label: label, length: bytes.count) }
            coordinates.append(bytes)
        }
        do {
            publicKey = try P256PublicKey(x: coordinates[0], y: coordinates[1])
        } catch {
            throw .pointNotOnCurve
        }
    }

    /// The COSE_Key map as a CBOR item.
    public var item: CBOR {
        [
            1: .integer(Self.keyTypeEC2), 3: .integer(Self.algorithmES256), -1: .integer(Self.curveP256),
            -2: .bytes(publicKey.x), -3: .bytes(publicKey.y),
        ]
    }

    /// The CTAP2 canonical encoding (77 bytes): `item.encoded`, written from its fixed layout
    /// (coordinates are always 32 bytes) without building the map.
    public var bytes: Data {
        var bytes = Data(capacity: 77)
        bytes.append(contentsOf: [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20])
        bytes.append(publicKey.x)
        bytes.append(contentsOf: [0x22, 0x58, 0x20])
        bytes.append(publicKey.y)
        return bytes
    }

    static func name(of label: Int64) -> String {
        switch label {
        case 1: "kty"
        case 3: "alg"
        case -1: "crv"
        case -2: "x"
        case -3: "y"
        default: "unknown"
        }
    }

    static func describe(_ item: CBOR) -> String {
        if let integer = item.integerValue { return String(integer) }
        if let text = item.textValue { return String(reflecting: text) }
        return item.kindName
    }
}
