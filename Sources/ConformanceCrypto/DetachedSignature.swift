#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The signature algorithms of detached signatures (an evidence bundle's manifest).
public enum SignatureAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// ECDSA on P-256 over SHA-256, DER-encoded signatures.
    case ecdsaP256SHA256 = "ecdsa-p256-sha256"
    /// Ed25519 (RFC 8032), 64-byte signatures.
    case ed25519
}

/// A private key read from PEM, ECDSA P-256 or Ed25519, that makes detached signatures.
///
/// Accepts PKCS#8 (`BEGIN PRIVATE KEY`) for both algorithms and SEC 1 (`BEGIN EC PRIVATE KEY`) for
/// P-256, unencrypted; the key is parsed by libcrypto or CryptoKit each time it is used, so the
/// value holds only the PEM text.
public struct PEMSigningKey: Sendable, Hashable {
    /// The key's algorithm.
    public let algorithm: SignatureAlgorithm
    let pem: String

    /// Reads a private key from its PEM text.
    ///
    /// - Throws: `CryptoError.backendFailure` naming what is wrong (not PEM, encrypted, another
    ///   algorithm or curve).
    public init(pem: String) throws(CryptoError) {
        algorithm = try SignatureBackend.privateKeyAlgorithm(pem: pem)
        self.pem = pem
    }

    /// Generates a fresh key (for tests and first-time setup).
    public static func generate(_ algorithm: SignatureAlgorithm) throws(CryptoError) -> PEMSigningKey {
        try PEMSigningKey(pem: SignatureBackend.generatePrivateKeyPEM(algorithm))
    }

    /// The private key as PKCS#8 PEM.
    public var pemRepresentation: String { pem }

    /// The matching public key.
    public func publicKey() throws(CryptoError) -> PEMPublicKey {
        try PEMPublicKey(pem: SignatureBackend.publicKeyPEM(privatePEM: pem))
    }

    /// A detached signature of `message`: DER for ECDSA (randomized nonce), 64 bytes for Ed25519.
    public func sign(_ message: Data) throws(CryptoError) -> Data {
        try SignatureBackend.sign(privatePEM: pem, message: message)
    }
}

/// A public key read from PEM (`BEGIN PUBLIC KEY`, a SubjectPublicKeyInfo), ECDSA P-256 or
/// Ed25519, that checks detached signatures.
public struct PEMPublicKey: Sendable, Hashable {
    /// The key's algorithm.
    public let algorithm: SignatureAlgorithm
    /// The key as PEM text.
    public let pemRepresentation: String

    /// Reads a public key from its PEM text.
    ///
    /// - Throws: `CryptoError.backendFailure` naming what is wrong.
    public init(pem: String) throws(CryptoError) {
        algorithm = try SignatureBackend.publicKeyAlgorithm(pem: pem)
        pemRepresentation = pem
    }

    /// Whether `signature` is a valid signature of `message` under this key; a malformed signature
    /// is simply invalid.
    public func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        SignatureBackend.verify(publicPEM: pemRepresentation, signature: signature, message: message)
    }
}
