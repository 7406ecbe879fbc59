import Foundation
import Testing
@testable import WebAuthn

@Suite("COSE keys")
struct COSEKeyTests {
    static let key = try! P256SigningKey(privateScalar: Data(count: 31) + Data([1])).publicKey

    @Test func encodesCanonicalES256Bytes() {
        let bytes = COSEKey(publicKey: Self.key).bytes
        #expect(bytes.count == 77)
        #expect(bytes.hex == "a5010203262001215820" + CryptoTests.generatorX.hex + "225820" + CryptoTests.generatorY.hex)
    }

    @Test func fixedLayoutIsTheCBORMapEncoding() throws {
        for seed in 0..<16 {
            let key = try P256SigningKey(seed: Data("cose-\(seed)".utf8)).publicKey
            let cose = COSEKey(publicKey: key)
            #expect(cose.bytes == cose.item.encoded)
        }
    }

    @Test func roundTrips() throws {
        let cose = COSEKey(publicKey: Self.key)
        #expect(try COSEKey(decoding: cose.bytes) == cose)
    }

    @Test func acceptsNonCanonicalOrder() throws {
        let reordered: CBOR = [-3: .bytes(Self.key.y), -2: .bytes(Self.key.x), -1: 1, 3: -7, 1: 2]
        var bytes = Data([0xA5])
        for pair in reordered.mapValue! { bytes += pair.key.encoded + pair.value.encoded }
        #expect(try COSEKey(decoding: bytes).publicKey == Self.key)
    }

    static func map(replacing label: Int64, with value: CBOR?) -> CBOR {
        var pairs = COSEKey(publicKey: key).item.mapValue!
        if let value {
            pairs = pairs.map { $0.key == .integer(label) ? CBOR.Pair($0.key, value) : $0 }
        } else {
            pairs.removeAll { $0.key == .integer(label) }
        }
        return .map(pairs)
    }

    static let invalid: [(String, CBOR, COSEKey.DecodingError)] = [
        ("not a map", [1, 2], .notAMap(found: "array")),
        ("kty OKP", map(replacing: 1, with: 1), .unexpectedValue(label: 1, found: "1")),
        ("alg RS256", map(replacing: 3, with: -257), .unexpectedValue(label: 3, found: "-257")),
        ("crv P-384", map(replacing: -1, with: 2), .unexpectedValue(label: -1, found: "2")),
        ("alg as text", map(replacing: 3, with: "ES256"), .unexpectedValue(label: 3, found: "\"ES256\"")),
        ("missing kty", map(replacing: 1, with: nil), .missingParameter(label: 1)),
        ("missing alg", map(replacing: 3, with: nil), .missingParameter(label: 3)),
        ("missing y", map(replacing: -3, with: nil), .missingParameter(label: -3)),
        ("short x", map(replacing: -2, with: .bytes(Data(count: 31))), .invalidCoordinateLength(label: -2, length: 31)),
        ("x as text", map(replacing: -2, with: "x"), .unexpectedValue(label: -2, found: "text string")),
        ("point off curve", map(replacing: -3, with: .bytes(Data(count: 32))), .pointNotOnCurve),
        ("extra kid", .map(COSEKey(publicKey: key).item.mapValue! + [CBOR.Pair(2, .bytes(Data([1])))]), .unexpectedParameter("2")),
        ("text label", .map(COSEKey(publicKey: key).item.mapValue! + [CBOR.Pair("kty", 2)]), .unexpectedParameter("\"kty\"")),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidKeys(name: String, item: CBOR, error: COSEKey.DecodingError) {
        #expect(throws: error, "\(name)") { try COSEKey(decoding: item.encoded) }
    }

    @Test func rejectsMalformedCBOR() {
        let truncated = COSEKey(publicKey: Self.key).bytes.dropLast()
        #expect(throws: COSEKey.DecodingError.malformedCBOR(.init(.lengthExceedsInput(declared: 32, remaining: 31), offset: 43))) {
            try COSEKey(decoding: Data(truncated))
        }
    }

    @Test func errorsExplainTheParameter() {
        #expect(
            COSEKey.DecodingError.unexpectedValue(label: 3, found: "-257").description
                == "COSE key parameter 3 (alg) has unsupported value -257; ES256 needs kty 2, alg -7, crv 1")
    }
}
