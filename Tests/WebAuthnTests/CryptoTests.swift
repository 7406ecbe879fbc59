import Foundation
import Testing
@testable import WebAuthn

@Suite("Crypto")
struct CryptoTests {
    static let generatorX = Data(hex: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
    static let generatorY = Data(hex: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
    static let order = Data(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256KnownAnswers(input: String, digest: String) {
        #expect(SHA256.hash(Data(input.utf8)).hex == digest)
    }

    @Test func sha256OfASliceHashesOnlyTheSlice() {
        let data = Data("xxabcxx".utf8)
        #expect(SHA256.hash(data[2..<5]).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func scalarOneGivesTheGenerator() throws {
        let key = try P256SigningKey(privateScalar: Data(count: 31) + Data([1]))
        #expect(key.publicKey.x == Self.generatorX)
        #expect(key.publicKey.y == Self.generatorY)
        let two = try P256SigningKey(privateScalar: Data(count: 31) + Data([2]))
        #expect(two.publicKey.x.hex == "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978")
        #expect(two.publicKey.y.hex == "07775510db8ed040293d9ac69f7430dbba7dade63ce982299e04b79d227873d1")
    }

    @Test func rejectsScalarsOutOfRange() throws {
        #expect(throws: CryptoError(.scalarOutOfRange)) { try P256SigningKey(privateScalar: Data(count: 32)) }
        #expect(throws: CryptoError(.scalarOutOfRange)) { try P256SigningKey(privateScalar: Self.order) }
        #expect(throws: CryptoError(.scalarOutOfRange)) { try P256SigningKey(privateScalar: Data(repeating: 0xFF, count: 32)) }
        #expect(throws: CryptoError(.invalidLength(expected: 32, actual: 31))) { try P256SigningKey(privateScalar: Data(count: 31)) }
        var orderMinusOne = [UInt8](Self.order)
        orderMinusOne[31] -= 1
        let last = try P256SigningKey(privateScalar: Data(orderMinusOne))
        // n - 1 is -1: its point is the generator's mirror, (Gx, p - Gy).
        #expect(last.publicKey.x == Self.generatorX)
        #expect(last.publicKey.y != Self.generatorY)
    }

    @Test func publicKeyIsComputedOnceForEveryCopy() async throws {
        let key = try P256SigningKey(seed: Data("lazy".utf8))
        let copies = Array(repeating: key, count: 16)
        // Copies read their public key at once: one computation, one value.
        let keys = await withTaskGroup(of: P256PublicKey.self) { group in
            for copy in copies { group.addTask { copy.publicKey } }
            return await group.reduce(into: [P256PublicKey]()) { $0.append($1) }
        }
        #expect(Set(keys).count == 1)
        #expect(keys.first == (try P256SigningKey(privateScalar: key.privateScalar)).publicKey)
        #expect(key == (try P256SigningKey(privateScalar: key.privateScalar)))
        #expect(key.hashValue == (try P256SigningKey(privateScalar: key.privateScalar)).hashValue)
    }

    /// The seed derivation is fixed: this vector was computed independently with Python
    /// `cryptography` as scalar = SHA-256(seed || 00000000).
    @Test func seedDerivationIsReproducible() throws {
        let key = try P256SigningKey(seed: Data("passkey-conformance".utf8))
        #expect(key.privateScalar.hex == "62083cc99bd82fd3f7acaa1412e34d21e96be0ee5576966bffdd62ce1f2a221f")
        #expect(key.publicKey.x.hex == "4991f64b17faeba8ffc4273a0acb27141fc2573d9a849e147ddf906eb4e47554")
        #expect(key.publicKey.y.hex == "380c5efa4fbce364be6df9f5f5784e8ea58aacf3e8cc625e023465d89c4335c0")
        #expect(try P256SigningKey(seed: Data("passkey-conformance".utf8)) == key)
        #expect(try P256SigningKey(seed: Data("other".utf8)) != key)
    }

    @Test func verifiesASignatureMadeByPythonCryptography() throws {
        let key = try P256PublicKey(
            x: Data(hex: "4991f64b17faeba8ffc4273a0acb27141fc2573d9a849e147ddf906eb4e47554"),
            y: Data(hex: "380c5efa4fbce364be6df9f5f5784e8ea58aacf3e8cc625e023465d89c4335c0"))
        let signature = Data(
            hex:
                "3046022100bc5a2397bd6aaa0882e3b2f43a1f7484e64fb36a88cd27aca67bb3f3a8640d1e022100b19896721d0ea7eb248e3a52d3c7a95a3628ad8aeda7aaf64d9f177953ef7083"
        )
        #expect(key.isValidSignature(signature, for: Data("hello webauthn".utf8)))
        #expect(!key.isValidSignature(signature, for: Data("hello webauthN".utf8)))
    }

    @Test func signsAndVerifies() throws {
        let key = try P256SigningKey(seed: Data("sign".utf8))
        let message = Data("authenticator data || client data hash".utf8)
        let signature = try key.sign(message)
        #expect(signature.first == 0x30 && (8...72).contains(signature.count))
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: message + Data([0])))
        var tampered = signature
        tampered[tampered.count - 1] ^= 0x01
        #expect(!key.publicKey.isValidSignature(tampered, for: message))
        #expect(!key.publicKey.isValidSignature(Data(), for: message))
        #expect(!key.publicKey.isValidSignature(Data(repeating: 0x30, count: 70), for: message))
        let other = try P256SigningKey(seed: Data("other".utf8))
        #expect(!other.publicKey.isValidSignature(signature, for: message))
        // Nonces are randomized, and both signatures verify.
        let second = try key.sign(message)
        #expect(second != signature)
        #expect(key.publicKey.isValidSignature(second, for: message))
    }

    @Test func rejectsPointsOffTheCurve() throws {
        #expect(throws: CryptoError(.pointNotOnCurve)) { try P256PublicKey(x: Self.generatorX, y: Self.generatorX) }
        #expect(throws: CryptoError(.pointNotOnCurve)) { try P256PublicKey(x: Data(count: 32), y: Data(count: 32)) }
        #expect(throws: CryptoError(.invalidLength(expected: 32, actual: 33))) {
            try P256PublicKey(x: Data(count: 33), y: Self.generatorY)
        }
        let generator = try P256PublicKey(x: Self.generatorX, y: Self.generatorY)
        #expect(generator.uncompressedPoint == Data([4]) + Self.generatorX + Self.generatorY)
    }

    @Test func randomBytesHaveTheRequestedLengthAndVary() {
        #expect(SecureRandom.bytes(count: 0).isEmpty)
        let first = SecureRandom.bytes(count: 32)
        #expect(first.count == 32)
        #expect(first != SecureRandom.bytes(count: 32))
    }
}
