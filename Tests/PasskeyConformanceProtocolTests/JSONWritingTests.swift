import Foundation
import Testing

@testable import PasskeyConformanceProtocol

/// The direct writer of JSON values writes exactly what `JSONEncoder` writes with the wire's
/// settings, and leaves the numbers it does not format to the encoder.
@Suite("JSON value writing")
struct JSONWritingTests {
    /// The encoder's text for a value.
    static func encoded(_ value: JSONValue) throws -> String {
        String(decoding: try Wire.encoder().encode(value), as: UTF8.self)
    }

    /// A small deterministic generator (xorshift64*), so that a failure names a reproducible value.
    struct Draws {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Int((state &* 0x2545_F491_4F6C_DD1D) % UInt64(bound))
        }
    }

    static let pieces = [
        "a", "Z", "_", "-", "é", "e", "/", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1}", "\u{1F}", "\u{7F}", "\u{2028}", "😀", " ", "9", "10",
    ]

    static func string(_ draws: inout Draws) -> String {
        (0..<draws.next(6)).map { _ in pieces[draws.next(pieces.count)] }.joined()
    }

    static func value(_ draws: inout Draws, depth: Int) -> JSONValue {
        switch draws.next(depth > 3 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(draws.next(2) == 0)
        case 2: return .number([0, -0.0, 1, -7, 60_000, 9_007_199_254_740_991, -9_007_199_254_740_991][draws.next(7)])
        case 3: return .string(string(&draws))
        case 4: return .array((0..<draws.next(4)).map { _ in value(&draws, depth: depth + 1) })
        default:
            return .object(
                Dictionary((0..<draws.next(5)).map { _ in (string(&draws), value(&draws, depth: depth + 1)) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    @Test("random values of every kind read the same as JSONEncoder writes them")
    func matchesTheEncoder() throws {
        var draws = Draws(state: 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<2_000 {
            let value = Self.value(&draws, depth: 0)
            let direct = try #require(value.compactText())
            #expect(direct == (try Self.encoded(value)))
        }
    }

    @Test("numbers that are not whole, or too large, are left to the encoder and still written alike")
    func otherNumbersGoThroughTheEncoder() throws {
        for number in [0.1, 1.5e-7, 1e20, 9_007_199_254_740_992, -2.5] {
            let value = JSONValue.object(["n": .number(number), "s": .string("x")])
            #expect(value.compactText() == nil)
            #expect(Wire.jsonString(value) == (try Self.encoded(value)))
        }
        #expect(Wire.jsonString(.number(.infinity)) == "null")
    }
}
