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

        static func sign(scalar: Data, publicKey: P256PublicKey, message: Data) throws(CryptoError) -> Data {
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
    /// Keys are rebuilt from their raw scalar or point for each operation (`EVP_PKEY_fromdata`), so
    /// the public value types hold only bytes and no library handles. Every handle is freed on
    /// every path.
    enum CryptoBackend {
        static func sha256(_ data: Data) -> Data {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            let ok = withBytes(data) { pointer, count in
                EVP_Digest(pointer, count, &digest, &length, EVP_sha256(), nil)
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

        static func sign(scalar: Data, publicKey: P256PublicKey, message: Data) throws(CryptoError) -> Data {
            let key = try makeKey(privateScalar: scalar, publicPoint: publicKey.uncompressedPoint)
            defer { EVP_PKEY_free(key) }
            guard let context = EVP_MD_CTX_new() else { throw failure("EVP_MD_CTX_new") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw failure("EVP_DigestSignInit") }
            var length = 0
            let sized = withBytes(message) { pointer, count in
                EVP_DigestSign(context, nil, &length, pointer, count)
            }
            guard sized == 1, length > 0 else { throw failure("EVP_DigestSign (size)") }
            var signature = [UInt8](repeating: 0, count: length)
            let signed = withBytes(message) { pointer, count in
                EVP_DigestSign(context, &signature, &length, pointer, count)
            }
            guard signed == 1 else { throw failure("EVP_DigestSign") }
            return Data(signature.prefix(length))
        }

        static func verify(x: Data, y: Data, derSignature: Data, message: Data) -> Bool {
            defer { ERR_clear_error() }
            var point = Data([0x04])
            point.append(x)
            point.append(y)
            guard let key = try? makeKey(privateScalar: nil, publicPoint: point) else { return false }
            defer { EVP_PKEY_free(key) }
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
            let signature = [UInt8](derSignature)
            let result = withBytes(message) { pointer, count in
                EVP_DigestVerify(context, signature, signature.count, pointer, count)
            }
            return result == 1
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

        /// Builds an EC `EVP_PKEY` on P-256 from a public point and, optionally, a private scalar.
        /// The caller frees the result with `EVP_PKEY_free`.
        private static func makeKey(privateScalar: Data?, publicPoint: Data) throws(CryptoError) -> OpaquePointer {
            // OSSL_PARAM_BLD keeps the key names, the group name and the point by reference until
            // OSSL_PARAM_BLD_to_param (and the parameter array keeps the key names), so all of them
            // live in buffers allocated here and freed on return, not in temporary Swift bridges.
            // Names from core_names.h: OSSL_PKEY_PARAM_GROUP_NAME, _PUB_KEY, _PRIV_KEY.
            let groupKey = cString("group")
            let groupName = cString("prime256v1")
            let publicKeyName = cString("pub")
            let privateKeyName = cString("priv")
            let point = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(publicPoint.count, 1))
            _ = point.initialize(from: publicPoint)
            defer {
                for name in [groupKey, groupName, publicKeyName, privateKeyName] { name.deallocate() }
                point.deallocate()
            }
            guard let builder = OSSL_PARAM_BLD_new() else { throw failure("OSSL_PARAM_BLD_new") }
            defer { OSSL_PARAM_BLD_free(builder) }
            guard OSSL_PARAM_BLD_push_utf8_string(builder, groupKey, groupName, 0) == 1 else {
                throw failure("OSSL_PARAM_BLD_push_utf8_string(group)")
            }
            guard OSSL_PARAM_BLD_push_octet_string(builder, publicKeyName, point.baseAddress, publicPoint.count) == 1 else {
                throw failure("OSSL_PARAM_BLD_push_octet_string(pub)")
            }
            // The builder also keeps a reference to the BIGNUM until OSSL_PARAM_BLD_to_param copies it.
            var privateNumber: OpaquePointer?
            defer { if let privateNumber { BN_clear_free(privateNumber) } }
            if let privateScalar {
                guard let number = bigNumber(privateScalar) else { throw failure("BN_bin2bn") }
                privateNumber = number
                guard OSSL_PARAM_BLD_push_BN(builder, privateKeyName, number) == 1 else {
                    throw failure("OSSL_PARAM_BLD_push_BN(priv)")
                }
            }
            guard let parameters = OSSL_PARAM_BLD_to_param(builder) else { throw failure("OSSL_PARAM_BLD_to_param") }
            defer { OSSL_PARAM_free(parameters) }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw failure("EVP_PKEY_CTX_new_from_name") }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_fromdata_init(context) == 1 else { throw failure("EVP_PKEY_fromdata_init") }
            let selection = privateScalar == nil ? clibcrypto_selection_public_key() : clibcrypto_selection_keypair()
            var key: OpaquePointer?
            guard EVP_PKEY_fromdata(context, &key, selection, parameters) == 1, let key else {
                throw failure("EVP_PKEY_fromdata")
            }
            return key
        }

        /// A NUL-terminated copy of `text` that stays valid until `deallocate()`.
        private static func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
            let characters = Array(text.utf8CString)
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: characters.count)
            pointer.initialize(from: characters, count: characters.count)
            return pointer
        }

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
