// The platform half of DetachedSignature.swift: CryptoKit on Apple platforms, OpenSSL 3.0
// libcrypto (PEM and EVP interfaces) elsewhere.

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(CryptoKit)
    import CryptoKit

    /// Detached signatures with CryptoKit. CryptoKit reads and writes PEM for P-256 itself; an
    /// Ed25519 key's PKCS#8 and SubjectPublicKeyInfo forms (RFC 8410) are a fixed DER prefix
    /// followed by the 32 key bytes.
    enum SignatureBackend {
        private static let ed25519PrivatePrefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]
        private static let ed25519PublicPrefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]

        private static func der(_ pem: String, label: String) -> [UInt8]? {
            let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let start = lines.firstIndex(of: "-----BEGIN \(label)-----"), let end = lines.firstIndex(of: "-----END \(label)-----"), start < end else {
                return nil
            }
            return Data(base64Encoded: lines[(start + 1)..<end].joined()).map { [UInt8]($0) }
        }

        private static func pem(_ der: [UInt8], label: String) -> String {
            let text = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            return "-----BEGIN \(label)-----\n\(text)\n-----END \(label)-----\n"
        }

        private static func edPrivate(_ pem: String) -> Curve25519.Signing.PrivateKey? {
            guard let bytes = der(pem, label: "PRIVATE KEY"), bytes.count == 48, Array(bytes.prefix(16)) == ed25519PrivatePrefix else { return nil }
            return try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes.suffix(32))
        }

        private static func edPublic(_ pem: String) -> Curve25519.Signing.PublicKey? {
            guard let bytes = der(pem, label: "PUBLIC KEY"), bytes.count == 44, Array(bytes.prefix(12)) == ed25519PublicPrefix else { return nil }
            return try? Curve25519.Signing.PublicKey(rawRepresentation: bytes.suffix(32))
        }

        static func privateKeyAlgorithm(pem: String) throws(CryptoError) -> SignatureAlgorithm {
            if edPrivate(pem) != nil { return .ed25519 }
            if (try? P256.Signing.PrivateKey(pemRepresentation: pem)) != nil { return .ecdsaP256SHA256 }
            throw CryptoError(.backendFailure("not an unencrypted P-256 or Ed25519 private key in PEM"))
        }

        static func publicKeyAlgorithm(pem: String) throws(CryptoError) -> SignatureAlgorithm {
            if edPublic(pem) != nil { return .ed25519 }
            if (try? P256.Signing.PublicKey(pemRepresentation: pem)) != nil { return .ecdsaP256SHA256 }
            throw CryptoError(.backendFailure("not a P-256 or Ed25519 public key in PEM"))
        }

        static func generatePrivateKeyPEM(_ algorithm: SignatureAlgorithm) throws(CryptoError) -> String {
            switch algorithm {
            case .ecdsaP256SHA256: P256.Signing.PrivateKey().pemRepresentation
            case .ed25519: pem(ed25519PrivatePrefix + [UInt8](Curve25519.Signing.PrivateKey().rawRepresentation), label: "PRIVATE KEY")
            }
        }

        static func publicKeyPEM(privatePEM: String) throws(CryptoError) -> String {
            if let key = edPrivate(privatePEM) { return pem(ed25519PublicPrefix + [UInt8](key.publicKey.rawRepresentation), label: "PUBLIC KEY") }
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: privatePEM) else {
                throw CryptoError(.backendFailure("not an unencrypted P-256 or Ed25519 private key in PEM"))
            }
            return key.publicKey.pemRepresentation
        }

        static func sign(privatePEM: String, message: Data) throws(CryptoError) -> Data {
            do {
                if let key = edPrivate(privatePEM) { return try key.signature(for: message) }
                return try P256.Signing.PrivateKey(pemRepresentation: privatePEM).signature(for: message).derRepresentation
            } catch {
                throw CryptoError(.backendFailure("CryptoKit: \(error)"))
            }
        }

        static func verify(publicPEM: String, signature: Data, message: Data) -> Bool {
            if let key = edPublic(publicPEM) { return key.isValidSignature(signature, for: message) }
            guard let key = try? P256.Signing.PublicKey(pemRepresentation: publicPEM),
                let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return key.isValidSignature(parsed, for: message)
        }
    }

#else
    import CLibCrypto

    /// Detached signatures with OpenSSL 3.0 libcrypto: keys read with `PEM_read_bio_PrivateKey` /
    /// `PEM_read_bio_PUBKEY`, signatures made and checked with `EVP_DigestSign` / `EVP_DigestVerify`
    /// (SHA-256 for ECDSA, none for Ed25519). Every handle is freed on every path.
    enum SignatureBackend {
        /// Reads a key from PEM text through a memory BIO; the caller frees it with `EVP_PKEY_free`.
        private static func readKey(_ pem: String, isPrivate: Bool) -> OpaquePointer? {
            defer { ERR_clear_error() }
            let bytes = Array(pem.utf8)
            return bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                guard let base = buffer.baseAddress, let bio = BIO_new_mem_buf(base, Int32(buffer.count)) else { return nil }
                defer { BIO_free(bio) }
                return isPrivate ? PEM_read_bio_PrivateKey(bio, nil, nil, nil) : PEM_read_bio_PUBKEY(bio, nil, nil, nil)
            }
        }

        /// The key's algorithm, or nil for any other algorithm or curve.
        private static func algorithm(of key: OpaquePointer) -> SignatureAlgorithm? {
            if EVP_PKEY_is_a(key, "ED25519") == 1 { return .ed25519 }
            guard EVP_PKEY_is_a(key, "EC") == 1 else { return nil }
            var group = [CChar](repeating: 0, count: 64)
            var length = 0
            guard EVP_PKEY_get_utf8_string_param(key, "group", &group, group.count, &length) == 1 else { return nil }
            let name = String(decoding: group.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return name == "prime256v1" || name == "P-256" ? .ecdsaP256SHA256 : nil
        }

        private static func withKey<R>(_ pem: String, isPrivate: Bool, _ body: (OpaquePointer, SignatureAlgorithm) throws(CryptoError) -> R) throws(CryptoError)
            -> R
        {
            let kind = isPrivate ? "an unencrypted P-256 or Ed25519 private key" : "a P-256 or Ed25519 public key"
            guard let key = readKey(pem, isPrivate: isPrivate) else { throw CryptoError(.backendFailure("not \(kind) in PEM")) }
            defer { EVP_PKEY_free(key) }
            guard let algorithm = algorithm(of: key) else { throw CryptoError(.backendFailure("not \(kind): another algorithm or curve")) }
            return try body(key, algorithm)
        }

        static func privateKeyAlgorithm(pem: String) throws(CryptoError) -> SignatureAlgorithm {
            try withKey(pem, isPrivate: true) { _, algorithm in algorithm }
        }

        static func publicKeyAlgorithm(pem: String) throws(CryptoError) -> SignatureAlgorithm {
            try withKey(pem, isPrivate: false) { _, algorithm in algorithm }
        }

        /// The text a memory BIO holds.
        private static func text(of bio: OpaquePointer) -> String {
            let pending = Int(BIO_ctrl_pending(bio))
            var buffer = [UInt8](repeating: 0, count: max(pending, 1))
            let read = BIO_read(bio, &buffer, Int32(pending))
            return String(decoding: buffer.prefix(max(0, Int(read))), as: UTF8.self)
        }

        static func generatePrivateKeyPEM(_ algorithm: SignatureAlgorithm) throws(CryptoError) -> String {
            let name = algorithm == .ed25519 ? "ED25519" : "EC"
            guard let context = EVP_PKEY_CTX_new_from_name(nil, name, nil) else { throw failure("EVP_PKEY_CTX_new_from_name") }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_keygen_init(context) == 1 else { throw failure("EVP_PKEY_keygen_init") }
            if algorithm == .ecdsaP256SHA256, EVP_PKEY_CTX_set_group_name(context, "P-256") != 1 { throw failure("EVP_PKEY_CTX_set_group_name") }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen(context, &key) == 1, let key else { throw failure("EVP_PKEY_keygen") }
            defer { EVP_PKEY_free(key) }
            guard let bio = BIO_new(BIO_s_mem()) else { throw failure("BIO_new") }
            defer { BIO_free(bio) }
            guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else { throw failure("PEM_write_bio_PrivateKey") }
            return text(of: bio)
        }

        static func publicKeyPEM(privatePEM: String) throws(CryptoError) -> String {
            try withKey(privatePEM, isPrivate: true) { key, _ throws(CryptoError) in
                guard let bio = BIO_new(BIO_s_mem()) else { throw failure("BIO_new") }
                defer { BIO_free(bio) }
                guard PEM_write_bio_PUBKEY(bio, key) == 1 else { throw failure("PEM_write_bio_PUBKEY") }
                return text(of: bio)
            }
        }

        static func sign(privatePEM: String, message: Data) throws(CryptoError) -> Data {
            try withKey(privatePEM, isPrivate: true) { key, algorithm throws(CryptoError) in
                guard let context = EVP_MD_CTX_new() else { throw failure("EVP_MD_CTX_new") }
                defer { EVP_MD_CTX_free(context) }
                let digest = algorithm == .ed25519 ? nil : EVP_sha256()
                guard EVP_DigestSignInit(context, nil, digest, nil, key) == 1 else { throw failure("EVP_DigestSignInit") }
                let bytes = [UInt8](message)
                var length = 0
                guard EVP_DigestSign(context, nil, &length, bytes, bytes.count) == 1, length > 0 else { throw failure("EVP_DigestSign (size)") }
                var signature = [UInt8](repeating: 0, count: length)
                guard EVP_DigestSign(context, &signature, &length, bytes, bytes.count) == 1 else { throw failure("EVP_DigestSign") }
                return Data(signature.prefix(length))
            }
        }

        static func verify(publicPEM: String, signature: Data, message: Data) -> Bool {
            defer { ERR_clear_error() }
            let valid = try? withKey(publicPEM, isPrivate: false) { key, algorithm throws(CryptoError) -> Bool in
                guard let context = EVP_MD_CTX_new() else { return false }
                defer { EVP_MD_CTX_free(context) }
                let digest = algorithm == .ed25519 ? nil : EVP_sha256()
                guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else { return false }
                let signatureBytes = [UInt8](signature)
                let bytes = [UInt8](message)
                return EVP_DigestVerify(context, signatureBytes, signatureBytes.count, bytes, bytes.count) == 1
            }
            return valid ?? false
        }

        private static func failure(_ function: String) -> CryptoError {
            var messages: [String] = []
            while case let code = ERR_get_error(), code != 0 {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            return CryptoError(.backendFailure("\(function) failed: " + (messages.isEmpty ? "no detail from libcrypto" : messages.joined(separator: "; "))))
        }
    }
#endif
