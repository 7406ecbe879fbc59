#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization

/// A failure reported by the platform's cryptography library.
///
/// Raised for invalid key material (a scalar out of range, a point not on the curve) and for
/// internal failures of libcrypto or CryptoKit. Signature verification never throws: an invalid
/// signature is `false`.
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A coordinate or scalar does not have the required length.
        case invalidLength(expected: Int, actual: Int)
        /// The private scalar is zero or not below the P-256 group order.
        case scalarOutOfRange
        /// The coordinates are not a point on the P-256 curve.
        case pointNotOnCurve
        /// The bytes are not a DER SubjectPublicKeyInfo of a P-256 key.
        case malformedSubjectPublicKeyInfo
        /// The cryptography library failed; the associated text is its own diagnostic.
        case backendFailure(String)
    }

    /// What went wrong.
    public let kind: Kind

    /// Creates an error of the given kind.
    public init(_ kind: Kind) { self.kind = kind }

    /// A one-line human-readable explanation.
    public var description: String {
        switch kind {
        case let .invalidLength(expected, actual): "expected \(expected) bytes, got \(actual)"
        case .scalarOutOfRange: "the private scalar is not in the range [1, n-1] of P-256"
        case .pointNotOnCurve: "the coordinates are not a point on the P-256 curve"
        case .malformedSubjectPublicKeyInfo: "the bytes are not a DER SubjectPublicKeyInfo of a P-256 key"
        case let .backendFailure(text): "cryptography library failure: \(text)"
        }
    }
}

/// The SHA-256 hash function (FIPS 180-4), computed by libcrypto or CryptoKit.
public enum SHA256 {
    /// Returns the 32-byte SHA-256 digest of `data`.
    public static func hash(_ data: Data) -> Data {
        CryptoBackend.sha256(data)
    }
}

/// Cryptographically secure random bytes from the platform's generator.
public enum SecureRandom {
    /// Returns `count` random bytes (libcrypto `RAND_bytes` on Linux, the system generator on
    /// Apple platforms). `count` must not be negative.
    public static func bytes(count: Int) -> Data {
        precondition(count >= 0, "SecureRandom.bytes(count:) needs a count >= 0")
        return CryptoBackend.randomBytes(count: count)
    }
}

/// A P-256 (secp256r1) public key given by its affine coordinates.
///
/// Construction validates that the point lies on the curve, so every value of this type is a
/// usable ES256 verification key.
public struct P256PublicKey: Sendable, Hashable {
    /// The x coordinate, 32 bytes big-endian.
    public let x: Data
    /// The y coordinate, 32 bytes big-endian.
    public let y: Data

    /// Creates a key from 32-byte big-endian coordinates.
    ///
    /// - Throws: `CryptoError` with `.invalidLength` or `.pointNotOnCurve`.
    public init(x: Data, y: Data) throws(CryptoError) {
        guard x.count == 32 else { throw CryptoError(.invalidLength(expected: 32, actual: x.count)) }
        guard y.count == 32 else { throw CryptoError(.invalidLength(expected: 32, actual: y.count)) }
        guard CryptoBackend.isPointOnCurve(x: Data(x), y: Data(y)) else { throw CryptoError(.pointNotOnCurve) }
        self.x = Data(x)
        self.y = Data(y)
    }

    /// A point the library computed from a private scalar: on the curve by construction.
    init(computedX x: Data, y: Data) {
        self.x = x
        self.y = y
    }

    /// The SEC 1 uncompressed encoding `04 || x || y` (65 bytes).
    public var uncompressedPoint: Data {
        var point = Data([0x04])
        point.append(x)
        point.append(y)
        return point
    }

    /// Reads a key from its DER SubjectPublicKeyInfo (the form WebAuthn's `getPublicKey()` and the
    /// `publicKey` member of a registration response carry).
    ///
    /// The bytes must be exactly one SubjectPublicKeyInfo with the `id-ecPublicKey` algorithm on the
    /// `prime256v1` curve (RFC 5480); the library parses them.
    ///
    /// - Throws: `CryptoError` with `.malformedSubjectPublicKeyInfo`.
    public init(subjectPublicKeyInfo der: Data) throws(CryptoError) {
        guard let (x, y) = CryptoBackend.publicPoint(subjectPublicKeyInfo: Data(der)) else {
            throw CryptoError(.malformedSubjectPublicKeyInfo)
        }
        try self.init(x: x, y: y)
    }

    /// The key as a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7 with the RFC 5480 EC algorithm and
    /// named curve); the form WebAuthn L3 gives RPs in `publicKey`.
    ///
    /// For a P-256 key with its point uncompressed the structure is a fixed 26-byte header (the
    /// algorithm identifier and the BIT STRING's length) before `04 || x || y`: the bytes the
    /// platforms' libraries write (a test checks them against an independent encoder), without
    /// their encoder lookup on every call.
    ///
    /// - Throws: never; kept throwing for the callers written against the library encoder.
    public func subjectPublicKeyInfo() throws(CryptoError) -> Data {
        Self.subjectPublicKeyInfoHeader + uncompressedPoint
    }

    /// `SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (0 unused bits, 65 bytes) }`
    /// up to the point.
    static let subjectPublicKeyInfoHeader = Data([
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03,
        0x42, 0x00,
    ])

    /// Returns whether `derSignature` is a valid ECDSA-SHA256 signature of `message` under this key.
    ///
    /// The signature must be an ASN.1 DER `Ecdsa-Sig-Value` (as WebAuthn ES256 requires);
    /// malformed encodings are simply invalid.
    public func isValidSignature(_ derSignature: Data, for message: Data) -> Bool {
        CryptoBackend.verify(x: x, y: y, derSignature: Data(derSignature), message: Data(message))
    }
}

/// A P-256 private key that signs with ECDSA-SHA256 and produces DER signatures.
///
/// Keys can be derived deterministically from a seed so that test runs are reproducible; the
/// signatures themselves use the library's randomized nonces.
public struct P256SigningKey: Sendable, Hashable {
    /// The private scalar, 32 bytes big-endian, in [1, n-1].
    let scalar: Data
    /// The public key, once computed.
    private let point: PublicPoint

    /// The matching public key. It is computed on first use (a scalar multiplication, the
    /// costliest step of making a key), so a key that only signs never pays for it.
    public var publicKey: P256PublicKey { point.key(of: scalar) }

    /// The order n of the P-256 group, big-endian: a private scalar lies in [1, n-1].
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// Creates the key whose private scalar is `privateScalar` (32 bytes big-endian).
    ///
    /// - Throws: `CryptoError` with `.invalidLength` or `.scalarOutOfRange`.
    public init(privateScalar: Data) throws(CryptoError) {
        guard privateScalar.count == 32 else {
            throw CryptoError(.invalidLength(expected: 32, actual: privateScalar.count))
        }
        let scalar = Data(privateScalar)
        guard scalar.contains(where: { $0 != 0 }), scalar.lexicographicallyPrecedes(Self.order) else {
            throw CryptoError(.scalarOutOfRange)
        }
        self.scalar = scalar
        point = PublicPoint()
    }

    /// Keys are equal when their scalars are (the public key follows from the scalar).
    public static func == (lhs: P256SigningKey, rhs: P256SigningKey) -> Bool { lhs.scalar == rhs.scalar }

    /// Hashes the scalar.
    public func hash(into hasher: inout Hasher) { hasher.combine(scalar) }
}

/// The public point of one signing key, computed at most once, by whichever copy of the key
/// asks first.
private final class PublicPoint: Sendable {
    private let computed = Mutex<P256PublicKey?>(nil)

    func key(of scalar: Data) -> P256PublicKey {
        computed.withLock { computed in
            if let computed { return computed }
            // The scalar was checked to lie in [1, n-1], so the library has a point for it; only
            // its own failure (out of memory) could stop it, which Swift treats as fatal too.
            guard let (x, y) = try? CryptoBackend.publicPoint(forScalar: scalar) else {
                preconditionFailure("the P-256 public point of a valid scalar could not be computed")
            }
            let key = P256PublicKey(computedX: x, y: y)
            computed = key
            return key
        }
    }
}

extension P256SigningKey {

    /// Derives a key deterministically from `seed` (any length, typically 32 bytes).
    ///
    /// The candidate scalar is `SHA-256(seed || counter)` with a 4-byte big-endian counter
    /// starting at 0; the first candidate in [1, n-1] is used (a rejection happens with
    /// probability about 2^-32). The same seed always gives the same key on every platform.
    ///
    /// - Throws: `CryptoError.backendFailure` if the library fails.
    public init(seed: Data) throws(CryptoError) {
        var counter: UInt32 = 0
        while true {
            var input = Data(seed)
            input.append(contentsOf: withUnsafeBytes(of: counter.bigEndian) { Array($0) })
            do {
                try self.init(privateScalar: SHA256.hash(input))
                return
            } catch  where error.kind == .scalarOutOfRange {
                counter &+= 1
            }
        }
    }

    /// Generates a fresh key from secure random bytes.
    public static func generate() throws(CryptoError) -> P256SigningKey {
        try P256SigningKey(seed: SecureRandom.bytes(count: 32))
    }

    /// The 32-byte big-endian private scalar (for tests that need to export the key).
    public var privateScalar: Data { scalar }

    /// Signs `message` with ECDSA over SHA-256 and returns the ASN.1 DER signature.
    ///
    /// The nonce is chosen by the library (randomized), so two signatures of one message differ.
    ///
    /// - Throws: `CryptoError.backendFailure` if the library fails.
    public func sign(_ message: Data) throws(CryptoError) -> Data {
        try CryptoBackend.sign(scalar: scalar, message: Data(message))
    }
}
