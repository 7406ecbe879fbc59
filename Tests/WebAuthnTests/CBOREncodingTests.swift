import Foundation
import Testing
@testable import WebAuthn

@Suite("CBOR encoding")
struct CBOREncodingTests {
    /// Examples from RFC 8949 Appendix A; each is also the canonical form.
    static let rfcExamples: [(CBOR, String)] = [
        (0, "00"), (23, "17"), (24, "1818"), (100, "1864"), (1000, "1903e8"), (1_000_000, "1a000f4240"),
        (1_000_000_000_000, "1b000000e8d4a51000"), (.unsigned(.max), "1bffffffffffffffff"),
        (-1, "20"), (-10, "29"), (-100, "3863"), (-1000, "3903e7"), (.negative(.max), "3bffffffffffffffff"),
        (.float(0.0), "f90000"), (.float(-0.0), "f98000"), (.float(1.0), "f93c00"), (.float(1.1), "fb3ff199999999999a"),
        (.float(1.5), "f93e00"), (.float(65504.0), "f97bff"), (.float(100_000.0), "fa47c35000"),
        (.float(3.4028234663852886e+38), "fa7f7fffff"), (.float(1.0e+300), "fb7e37e43c8800759c"),
        (.float(5.960464477539063e-8), "f90001"), (.float(0.00006103515625), "f90400"), (.float(-4.0), "f9c400"),
        (.float(-4.1), "fbc010666666666666"), (.float(.infinity), "f97c00"), (.float(.nan), "f97e00"),
        (.float(-.infinity), "f9fc00"),
        (false, "f4"), (true, "f5"), (.null, "f6"), (.undefined, "f7"),
        (.bytes(Data()), "40"), (.bytes(Data([1, 2, 3, 4])), "4401020304"),
        ("", "60"), ("a", "6161"), ("IETF", "6449455446"), ("\"\\", "62225c"), ("\u{00fc}", "62c3bc"), ("\u{6c34}", "63e6b0b4"),
        ([], "80"), ([1, 2, 3], "83010203"), ([1, [2, 3], [4, 5]], "8301820203820405"),
        (.array((1...25).map { CBOR.integer($0) }), "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        ([:], "a0"), ([1: 2, 3: 4], "a201020304"), (["a": 1, "b": [2, 3]], "a26161016162820203"),
        (.tagged(1, 1_363_896_240), "c11a514b67b0"),
    ]

    @Test(arguments: rfcExamples)
    func encodesRFC8949Examples(value: CBOR, hex: String) throws {
        #expect(value.encoded.hex == hex)
        let decoded = try CBOR.decode(Data(hex: hex), options: .init(requireCanonical: true))
        #expect(decoded.encoded.hex == hex)
        if case let .float(number) = value, number.isNaN { return }
        #expect(decoded == value)
    }

    @Test func sortsMapKeysByEncodedBytes() {
        let map: CBOR = ["b": 1, -1: 2, "a": 3, 10: 4, .bytes(Data([0])): 5, 1: 6]
        // 01 < 0a < 20 < 41 00 < 61 61 < 61 62
        #expect(map.encoded.hex == "a6" + "0106" + "0a04" + "2002" + "410005" + "616103" + "616201")
    }

    @Test func sortsCOSEKeyLabelsLikeCTAP2() {
        let map: CBOR = [-3: 5, -2: 4, -1: 3, 3: 2, 1: 1]
        #expect(map.encoded.hex == "a5" + "0101" + "0302" + "2003" + "2104" + "2205")
    }

    @Test func usesShortestArgumentsAtEveryBoundary() {
        let cases: [(UInt64, String)] = [
            (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65535, "19ffff"),
            (65536, "1a00010000"), (0xFFFF_FFFF, "1affffffff"), (0x1_0000_0000, "1b0000000100000000"),
        ]
        for (value, hex) in cases {
            #expect(CBOR.unsigned(value).encoded.hex == hex)
            // Major type 1 shares the argument; only the high nibble changes from 1 to 3.
            #expect(CBOR.negative(value).encoded.hex == "3" + hex.dropFirst())
        }
    }

    @Test func integerHelpersCoverTheInt64Range() {
        #expect(CBOR.integer(.min) == .negative(UInt64(Int64.max)))
        #expect(CBOR.integer(.min).integerValue == .min)
        #expect(CBOR.integer(.max).integerValue == .max)
        #expect(CBOR.unsigned(.max).integerValue == nil)
        #expect(CBOR.negative(.max).integerValue == nil)
    }

    @Test func writesLongStringLengths() {
        let bytes = Data(repeating: 0xAB, count: 300)
        #expect(CBOR.bytes(bytes).encoded.prefix(3).hex == "59012c")
        #expect(CBOR.text(String(repeating: "x", count: 24)).encoded.prefix(2).hex == "7818")
    }
}
