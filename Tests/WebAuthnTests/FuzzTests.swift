import Foundation
import Testing
@testable import WebAuthn

/// Seeded fuzzing: random and mutated inputs must never crash a parser, and whatever the CBOR
/// decoder accepts must re-encode to bytes that decode to the same canonical form.
@Suite("Fuzzing")
struct FuzzTests {
    /// Valid inputs to mutate: a COSE key, authenticator data with attested credential data, an
    /// attestation object, nested CBOR and client data JSON.
    static func corpus() throws -> [Data] {
        let key = try P256SigningKey(seed: Data("fuzz".utf8))
        let cose = COSEKey(publicKey: key.publicKey).bytes
        let authenticatorData = AuthenticatorData(
            rpIdHash: SHA256.hash(Data("example.com".utf8)), flags: [.userPresent], signCount: 7,
            attestedCredentialData: .init(aaguid: Data(count: 16), credentialId: Data(repeating: 9, count: 16), credentialPublicKey: cose),
            extensions: ["credProtect": 2]
        ).bytes
        let nested: CBOR = [1: [2, ["x": .bytes(Data([1, 2])), "y": .float(1.5)]], -5: .tagged(24, .text("ü")), "z": [.null, .undefined, true]]
        return [
            cose, authenticatorData, AttestationObject.none(authenticatorData: authenticatorData).bytes, nested.encoded,
            CollectedClientData(type: .get, challenge: Data([1, 2, 3]), origin: "https://a.example").jsonBytes,
        ]
    }

    /// Runs every parser on `input`; only crashes can fail here, plus the CBOR round-trip property.
    static func exercise(_ input: Data) throws {
        if let value = try? CBOR.decode(input) {
            let canonical = value.encoded
            let again = try CBOR.decode(canonical, options: .init(requireCanonical: true))
            #expect(again.encoded == canonical, "round trip changed \(input.hex)")
        }
        _ = try? CBOR.decodePrefix(input)
        _ = try? CBOR.decode(input, options: .init(maximumDepth: 3, requireCanonical: true))
        _ = try? AuthenticatorData(bytes: input)
        _ = try? AttestationObject(bytes: input)
        _ = try? COSEKey(decoding: input)
        _ = try? CollectedClientData(jsonBytes: input)
        _ = try? Base64URL.decode(String(decoding: input, as: UTF8.self))
    }

    @Test func randomInputsNeverCrash() throws {
        var generator = SeededGenerator(seed: 0x5EED_0001)
        // Bias towards heads with long arguments and container types.
        let interesting: [UInt8] = [0x18, 0x19, 0x1A, 0x1B, 0x1F, 0x5B, 0x7B, 0x9B, 0xBB, 0x9F, 0xBF, 0xFF, 0xF8, 0xF9, 0xFA, 0xFB, 0x81, 0xA1, 0xC1]
        var accepted = 0
        for _ in 0..<3000 {
            let length = Int.random(in: 0...48, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator) ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            if (try? CBOR.decode(Data(bytes))) != nil { accepted += 1 }
            try Self.exercise(Data(bytes))
        }
        // Some inputs must decode, or the round-trip property above was never checked.
        #expect(accepted > 30 && accepted < 2970, "accepted \(accepted) of 3000")
    }

    @Test func mutatedValidInputsNeverCrash() throws {
        var generator = SeededGenerator(seed: 0x5EED_0002)
        let corpus = try Self.corpus()
        var accepted = 0
        for round in 0..<4000 {
            var bytes = [UInt8](corpus[round % corpus.count])
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                switch Int.random(in: 0..<5, using: &generator) {
                case 0 where !bytes.isEmpty:
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
                case 1 where !bytes.isEmpty:
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                case 2:
                    bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
                case 3:
                    bytes.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
                default:
                    if !bytes.isEmpty { bytes.remove(at: Int.random(in: 0..<bytes.count, using: &generator)) }
                }
            }
            if (try? CBOR.decode(Data(bytes))) != nil { accepted += 1 }
            try Self.exercise(Data(bytes))
        }
        // The mutations must reach both outcomes, or the fuzzer is not exercising the decoder.
        #expect(accepted > 100 && accepted < 3900, "accepted \(accepted) of 4000")
    }
}
