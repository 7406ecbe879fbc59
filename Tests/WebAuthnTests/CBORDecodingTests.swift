import Foundation
import Testing
@testable import WebAuthn

@Suite("CBOR decoding")
struct CBORDecodingTests {
    typealias Kind = CBOR.DecodingError.Kind

    static let malformed: [(String, Kind, Int)] = [
        ("", .unexpectedEnd, 0),
        ("18", .unexpectedEnd, 1),
        ("1903", .unexpectedEnd, 2),
        ("811901", .unexpectedEnd, 3),
        ("4401", .lengthExceedsInput(declared: 4, remaining: 1), 0),
        ("830102", .lengthExceedsInput(declared: 3, remaining: 2), 0),
        ("a20102", .lengthExceedsInput(declared: 2, remaining: 2), 0),
        ("5bffffffffffffffff", .lengthExceedsInput(declared: .max, remaining: 0), 0),
        ("7b7fffffffffffffff00", .lengthExceedsInput(declared: UInt64(Int64.max), remaining: 1), 0),
        ("9bffffffffffffffff00", .lengthExceedsInput(declared: .max, remaining: 1), 0),
        ("bbffffffffffffffff0000", .lengthExceedsInput(declared: .max, remaining: 2), 0),
        ("0102", .trailingBytes(count: 1), 1),
        ("a0ff", .trailingBytes(count: 1), 1),
        ("5f4101ff", .indefiniteLength, 0),
        ("7f6161ff", .indefiniteLength, 0),
        ("9f01ff", .indefiniteLength, 0),
        ("bf0102ff", .indefiniteLength, 0),
        ("8201bf0102ff", .indefiniteLength, 2),
        ("ff", .unexpectedBreak, 0),
        ("1f", .unexpectedBreak, 0),
        ("3f", .unexpectedBreak, 0),
        ("df", .unexpectedBreak, 0),
        ("1c", .reservedAdditionalInformation(28), 0),
        ("5d", .reservedAdditionalInformation(29), 0),
        ("fe", .reservedAdditionalInformation(30), 0),
        ("6361c3", .lengthExceedsInput(declared: 3, remaining: 2), 0),
        ("62c328", .invalidUTF8, 0),
        ("8161ff", .invalidUTF8, 1),
        ("e0", .unsupportedSimpleValue(0), 0),
        ("f3", .unsupportedSimpleValue(19), 0),
        ("f820", .unsupportedSimpleValue(32), 0),
        ("f810", .malformedSimpleValue(16), 0),
        ("a201020103", .duplicateMapKey, 3),
        ("a261610161610a", .duplicateMapKey, 4),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedInput(hex: String, kind: Kind, offset: Int) {
        #expect(throws: CBOR.DecodingError(kind, offset: offset)) { try CBOR.decode(Data(hex: hex)) }
    }

    @Test func limitsNestingDepth() throws {
        let nested17 = Data(repeating: 0x81, count: 17) + Data([0x00])
        #expect(throws: CBOR.DecodingError(.nestingTooDeep(limit: 16), offset: 16)) { try CBOR.decode(nested17) }
        let nested16 = Data(repeating: 0x81, count: 16) + Data([0x00])
        #expect(try CBOR.decode(nested16).encoded == nested16)
        let tags = Data(repeating: 0xC1, count: 3) + Data([0x00])
        #expect(throws: CBOR.DecodingError(.nestingTooDeep(limit: 2), offset: 2)) {
            try CBOR.decode(tags, options: .init(maximumDepth: 2))
        }
        // A deep input far beyond any stack limit is rejected, not a crash.
        let deep = Data(repeating: 0x81, count: 100_000)
        #expect(throws: CBOR.DecodingError(.nestingTooDeep(limit: 16), offset: 16)) { try CBOR.decode(deep) }
    }

    static let nonCanonical: [(String, Kind, Int, CBOR)] = [
        ("1805", .nonShortestArgument, 0, 5),
        ("190005", .nonShortestArgument, 0, 5),
        ("3800", .nonShortestArgument, 0, -1),
        ("5801ff", .nonShortestArgument, 0, .bytes(Data([0xFF]))),
        ("a203040102", .unsortedMapKeys, 3, [3: 4, 1: 2]),
        ("a2616201616102", .unsortedMapKeys, 4, ["b": 1, "a": 2]),
        ("fa3f800000", .nonShortestFloat, 0, .float(1.0)),
        ("fb3ff8000000000000", .nonShortestFloat, 0, .float(1.5)),
    ]

    @Test(arguments: nonCanonical)
    func canonicalModeRejectsWhatLenientModeAccepts(hex: String, kind: Kind, offset: Int, value: CBOR) throws {
        #expect(try CBOR.decode(Data(hex: hex)) == value)
        #expect(throws: CBOR.DecodingError(kind, offset: offset)) {
            try CBOR.decode(Data(hex: hex), options: .init(requireCanonical: true))
        }
    }

    @Test func keepsMapOrderOfTheInput() throws {
        let value = try CBOR.decode(Data(hex: "a203040102"))
        #expect(value.mapValue?.map(\.key) == [3, 1])
        #expect(value[1] == 2)
        #expect(value[7] == nil)
    }

    @Test func decodePrefixReportsTheLengthUsed() throws {
        let (value, length) = try CBOR.decodePrefix(Data(hex: "a10102ffee"))
        #expect(value == [1: 2])
        #expect(length == 3)
    }

    @Test func errorDescriptionsNameTheOffset() {
        let error = CBOR.DecodingError(.indefiniteLength, offset: 2)
        #expect(error.description == "CBOR error at byte 2: indefinite-length item (CTAP2 allows definite lengths only)")
    }
}
