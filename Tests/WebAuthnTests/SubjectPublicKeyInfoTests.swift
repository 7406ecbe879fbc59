import Foundation
import Testing
@testable import WebAuthn

/// The DER SubjectPublicKeyInfo of a P-256 key, as WebAuthn L3 puts it in a registration response's
/// `publicKey`: written by the module, read by the platform's library, checked against a known answer and
/// against Python's `cryptography`.
@Suite("SubjectPublicKeyInfo")
struct SubjectPublicKeyInfoTests {
    /// SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (0 unused bits) 04 || x || y } (RFC 5480).
    static let prefix = "3059301306072a8648ce3d020106082a8648ce3d03010703420004"

    @Test("The generator point encodes to the RFC 5480 structure")
    func knownAnswer() throws {
        let key = try P256PublicKey(x: CryptoTests.generatorX, y: CryptoTests.generatorY)
        let der = try key.subjectPublicKeyInfo()
        #expect(der.count == 91)
        #expect(der.hex == Self.prefix + CryptoTests.generatorX.hex + CryptoTests.generatorY.hex)
    }

    @Test("Export and import give back the key", arguments: 0..<8)
    func roundTrip(_ index: Int) throws {
        let key = try P256SigningKey(seed: Data("spki-\(index)".utf8)).publicKey
        #expect(try P256PublicKey(subjectPublicKeyInfo: try key.subjectPublicKeyInfo()) == key)
    }

    @Test("Bytes that are not exactly one P-256 SubjectPublicKeyInfo are refused")
    func malformed() throws {
        let good = try P256PublicKey(x: CryptoTests.generatorX, y: CryptoTests.generatorY).subjectPublicKeyInfo()
        var notOnCurve = good
        notOnCurve[notOnCurve.count - 1] ^= 0x01
        // The same structure naming secp384r1 (1.3.132.0.34) instead of prime256v1.
        let otherCurve = Data(hex: "3056301006072a8648ce3d020106052b81040022034200") + Data([0x04]) + CryptoTests.generatorX + CryptoTests.generatorY
        for bytes in [Data(), Data([0x30, 0x00]), good.dropLast(), good + Data([0x00]), notOnCurve, otherCurve, CryptoTests.generatorX] {
            #expect(throws: CryptoError.self, "\(bytes.hex)") { try P256PublicKey(subjectPublicKeyInfo: bytes) }
        }
    }

    @Test("Python's cryptography reads our encoding and we read its encoding", .enabled(if: PythonChecker.isAvailable, PythonChecker.skipNote))
    func crossCheck() throws {
        let key = try P256SigningKey(seed: Data("spki-python".utf8)).publicKey
        let script = """
            import sys
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric import ec
            ours = serialization.load_der_public_key(bytes.fromhex(sys.argv[1]))
            assert isinstance(ours.curve, ec.SECP256R1)
            numbers = ours.public_numbers()
            print(format(numbers.x, "064x") + format(numbers.y, "064x"))
            theirs = ec.EllipticCurvePublicNumbers(int(sys.argv[2], 16), int(sys.argv[3], 16), ec.SECP256R1()).public_key()
            print(theirs.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo).hex())
            """
        let (status, output) = try PythonChecker.run(["-c", script, try key.subjectPublicKeyInfo().hex, key.x.hex, key.y.hex])
        #expect(status == 0)
        let lines = output.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "python printed: \(output)")
        #expect(lines[0] == key.x.hex + key.y.hex)
        #expect(try P256PublicKey(subjectPublicKeyInfo: Data(hex: lines[1])) == key)
    }
}
