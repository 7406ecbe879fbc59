// Every platform difference of the WebAuthn module lives in this file: CryptoKit on Apple
// platforms, OpenSSL 3.0 libcrypto (EVP interfaces) elsewhere.

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(CryptoKit)
    import CryptoKit

    /// The cryptography used by the module, implemented with CryptoKit.
    enum CryptoBackend {
        static func sha256(_ data: Data) -> Data {
            Data(CryptoKit.SHA256.hash(data: data))
        }

        static func randomBytes(count: Int) -> Data {
            var generator = SystemRandomNumberGenerator()
            return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        }

        /// The public point of `scalar`, or nil when the scalar is not a valid private key.
        static func publicPoint(forScalar scalar: Data) throws(CryptoError) -> (x: Data, y: Data)? {
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: scalar) else { return nil }
            let raw = key.publicKey.rawRepresentation
            return (Data(raw.prefix(32)), Data(raw.suffix(32)))
        }

        static func isPointOnCurve(x: Data, y: Data) -> Bool {
            (try? P256.Signing.PublicKey(rawRepresentation: x + y)) != nil
        }

        static func sign(scalar: Data, message: Data) throws(CryptoError) -> Data {
            do {
                let key = try P256.Signing.PrivateKey(rawRepresentation: scalar)
                return try key.signature(for: message).derRepresentation
            } catch {
                throw CryptoError(.backendFailure("CryptoKit: \(error)"))
            }
        }

        static func verify(x: Data, y: Data, derSignature: Data, message: Data) -> Bool {
            guard let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                let signature = try? P256.Signing.ECDSASignature(derRepresentation: derSignature)
            else { return false }
            return key.isValidSignature(signature, for: message)
        }

        /// The coordinates of a P-256 key in DER SubjectPublicKeyInfo form, or nil when the bytes are not one.
        static func publicPoint(subjectPublicKeyInfo der: Data) -> (x: Data, y: Data)? {
            guard let key = try? P256.Signing.PublicKey(derRepresentation: der) else { return nil }
            let raw = key.rawRepresentation
            return (Data(raw.prefix(32)), Data(raw.suffix(32)))
        }
    }

#else
    import CLibCrypto
    import Synchronization

    /// The cryptography used by the module, implemented with OpenSSL 3.0 libcrypto.
    ///
    /// Keys are rebuilt from their raw scalar or point for each operation, so the public value
    /// types hold only bytes and no library handles. Every handle is freed on every path.
    enum CryptoBackend {
        /// SHA-256 fetched from the default provider once: with `EVP_sha256()` every digest fetches
        /// it again. A fetched algorithm is immutable and may be used from any thread.
        nonisolated(unsafe) private static let sha256Algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

        static func sha256(_ data: Data) -> Data {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            let ok = withBytes(data) { pointer, count in
                EVP_Digest(pointer, count, &digest, &length, sha256Algorithm ?? EVP_sha256(), nil)
            }
            // SHA-256 over memory cannot fail short of memory exhaustion, which Swift treats as fatal too.
            precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed: \(drainErrors())")
            return Data(digest)
        }

        static func randomBytes(count: Int) -> Data {
            guard count > 0 else { return Data() }
            var bytes = [UInt8](repeating: 0, count: count)
            let ok = RAND_bytes(&bytes, Int32(count))
            precondition(ok == 1, "RAND_bytes failed: \(drainErrors())")
            return Data(bytes)
        }

        /// The P-256 group, built once and used under its lock: building it computes its Montgomery
        /// constants (a modular inversion each time), which took most of the library's time in
        /// explore's key derivations (perf, 2,000 histories).
        private static let p256 = Mutex<OpaquePointer?>(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1))

        /// The public point of `scalar`, or nil when the scalar is 0 or not below the group order.
        static func publicPoint(forScalar scalar: Data) throws(CryptoError) -> (x: Data, y: Data)? {
            try p256.withLock { group throws(CryptoError) -> (x: Data, y: Data)? in
                guard let group else { throw failure("EC_GROUP_new_by_curve_name") }
                return try publicPoint(forScalar: scalar, on: group)
            }
        }

        private static func publicPoint(forScalar scalar: Data, on group: OpaquePointer) throws(CryptoError) -> (x: Data, y: Data)? {
            guard let privateNumber = bigNumber(scalar) else { throw failure("BN_bin2bn") }
            defer { BN_clear_free(privateNumber) }
            guard let order = EC_GROUP_get0_order(group) else { throw failure("EC_GROUP_get0_order") }
            if BN_is_zero(privateNumber) == 1 || BN_cmp(privateNumber, order) >= 0 { return nil }
            guard let point = EC_POINT_new(group) else { throw failure("EC_POINT_new") }
            defer { EC_POINT_free(point) }
            guard EC_POINT_mul(group, point, privateNumber, nil, nil, nil) == 1 else { throw failure("EC_POINT_mul") }
            var encoded = [UInt8](repeating: 0, count: 65)
            let written = EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, &encoded, 65, nil)
            guard written == 65, encoded[0] == 0x04 else { throw failure("EC_POINT_point2oct") }
            return (Data(encoded[1..<33]), Data(encoded[33..<65]))
        }

        static func isPointOnCurve(x: Data, y: Data) -> Bool {
            p256.withLock { group in group.map { isPointOnCurve(x: x, y: y, on: $0) } ?? false }
        }

        private static func isPointOnCurve(x: Data, y: Data, on group: OpaquePointer) -> Bool {
            guard let point = EC_POINT_new(group) else { return false }
            defer { EC_POINT_free(point) }
            let encoded = [0x04] + [UInt8](x) + [UInt8](y)
            let decoded = EC_POINT_oct2point(group, point, encoded, encoded.count, nil)
            defer { ERR_clear_error() }
            return decoded == 1 && EC_POINT_is_on_curve(group, point, nil) == 1
        }

        /// Signs with ECDSA over SHA-256 (DER), through an `EC_KEY` on the shared group: building an
        /// `EVP_PKEY` from the scalar (`EVP_PKEY_fromdata`) rebuilds the group from its name and
        /// costs more than the signature (see the shim).
        static func sign(scalar: Data, message: Data) throws(CryptoError) -> Data {
            guard scalar.count == 32 else { throw CryptoError(.invalidLength(expected: 32, actual: scalar.count)) }
            let digest = [UInt8](sha256(message))
            let scalarBytes = [UInt8](scalar)
            let key = try p256.withLock { group throws(CryptoError) -> OpaquePointer in
                guard let group else { throw failure("EC_GROUP_new_by_curve_name") }
                guard let key = clibcrypto_p256_private_key(group, scalarBytes) else { throw failure("EC_KEY_set_private_key") }
                return key
            }
            defer { clibcrypto_p256_private_key_free(key) }
            var signature = [UInt8](repeating: 0, count: 80)
            var length: UInt32 = 0
            guard clibcrypto_ecdsa_sign_digest(key, digest, &signature, &length) == 1, length > 0 else { throw failure("ECDSA_sign") }
            return Data(signature.prefix(Int(length)))
        }

        static func verify(x: Data, y: Data, derSignature: Data, message: Data) -> Bool {
            defer { ERR_clear_error() }
            var point = [UInt8]([0x04])
            point.append(contentsOf: x)
            point.append(contentsOf: y)
            guard let key = publicKey(point: point) else { return false }
            defer { EVP_PKEY_free(key) }
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, sha256Algorithm ?? EVP_sha256(), nil, key) == 1 else { return false }
            let signature = [UInt8](derSignature)
            let result = withBytes(message) { pointer, count in
                EVP_DigestVerify(context, signature, signature.count, pointer, count)
            }
            return result == 1
        }

        /// A P-256 key holding the group and no point, built once: a public key is a copy of it with
        /// its point set (`EVP_PKEY_set1_encoded_public_key`), a sixth of the cost of building one
        /// from parameters, which finds the group by name each time. Copied under its lock.
        private static let publicKeyTemplate = Mutex<OpaquePointer?>(makeTemplate())

        /// The template's domain parameters: the group's name only.
        private static func makeTemplate() -> OpaquePointer? {
            // OSSL_PARAM_BLD keeps the name and value by reference until OSSL_PARAM_BLD_to_param, so
            // both live in buffers freed on return. Names from core_names.h: OSSL_PKEY_PARAM_GROUP_NAME.
            let groupKey = strdup("group")
            let groupName = strdup("prime256v1")
            defer {
                free(groupKey)
                free(groupName)
            }
            guard let groupKey, let groupName, let builder = OSSL_PARAM_BLD_new() else { return nil }
            defer { OSSL_PARAM_BLD_free(builder) }
            guard OSSL_PARAM_BLD_push_utf8_string(builder, groupKey, groupName, 0) == 1, let parameters = OSSL_PARAM_BLD_to_param(builder) else {
                return nil
            }
            defer { OSSL_PARAM_free(parameters) }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return nil }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, clibcrypto_selection_parameters(), parameters) == 1 else {
                return nil
            }
            return key
        }

        /// A public key for an uncompressed point (65 bytes), or nil when the point is not one on
        /// P-256. The caller frees it with `EVP_PKEY_free`.
        private static func publicKey(point: [UInt8]) -> OpaquePointer? {
            let copy = publicKeyTemplate.withLock { template in template.flatMap { EVP_PKEY_dup($0) } }
            guard let key = copy else { return nil }
            guard EVP_PKEY_set1_encoded_public_key(key, point, point.count) == 1 else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }

        /// The coordinates of a P-256 key in DER SubjectPublicKeyInfo form (`d2i_PUBKEY`), or nil when the
        /// bytes are not exactly one such structure for an EC key on prime256v1.
        static func publicPoint(subjectPublicKeyInfo der: Data) -> (x: Data, y: Data)? {
            defer { ERR_clear_error() }
            let bytes = [UInt8](der)
            guard !bytes.isEmpty else { return nil }
            let parsed: (key: OpaquePointer?, consumed: Int) = bytes.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                let key = d2i_PUBKEY(nil, &cursor, buffer.count)
                return (key, cursor.map { $0 - buffer.baseAddress! } ?? 0)
            }
            guard let key = parsed.key else { return nil }
            defer { EVP_PKEY_free(key) }
            guard parsed.consumed == bytes.count, EVP_PKEY_is_a(key, "EC") == 1 else { return nil }
            // Parameter names from core_names.h: OSSL_PKEY_PARAM_GROUP_NAME, OSSL_PKEY_PARAM_PUB_KEY.
            var group = [CChar](repeating: 0, count: 64)
            var groupLength = 0
            guard EVP_PKEY_get_utf8_string_param(key, "group", &group, group.count, &groupLength) == 1,
                String(decoding: group.prefix(groupLength).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
            else { return nil }
            var point = [UInt8](repeating: 0, count: 65)
            var pointLength = 0
            guard EVP_PKEY_get_octet_string_param(key, "pub", &point, point.count, &pointLength) == 1,
                pointLength == 65, point[0] == 0x04
            else { return nil }
            return (Data(point[1..<33]), Data(point[33..<65]))
        }

        // MARK: Helpers

        /// A new BIGNUM holding the big-endian `bytes`; free it with `BN_clear_free`.
        private static func bigNumber(_ bytes: Data) -> OpaquePointer? {
            let array = [UInt8](bytes)
            return BN_bin2bn(array, Int32(array.count), nil)
        }

        /// Calls `body` with a non-null pointer to the bytes of `data` (a dummy byte when empty).
        private static func withBytes<R>(_ data: Data, _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
            let array = data.isEmpty ? [UInt8(0)] : [UInt8](data)
            return array.withUnsafeBufferPointer { body($0.baseAddress!, data.count) }
        }

        private static func failure(_ function: String) -> CryptoError {
            CryptoError(.backendFailure("\(function) failed: \(drainErrors())"))
        }

        /// Empties libcrypto's thread-local error queue and returns its entries as text.
        private static func drainErrors() -> String {
            var messages: [String] = []
            while true {
                let code = ERR_get_error()
                if code == 0 { break }
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            return messages.isEmpty ? "no detail from libcrypto" : messages.joined(separator: "; ")
        }
    }
#endif
