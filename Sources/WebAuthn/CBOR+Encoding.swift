#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CBOR {
    /// The CTAP2 canonical encoding of this item.
    ///
    /// - Integers, lengths and tags use the shortest argument form.
    /// - Lengths are always definite.
    /// - Map pairs are sorted by the bytes of their encoded keys (RFC 8949 §4.2.1), which is the
    ///   CTAP2 order (major type, then length, then bytes) for integer and string keys. Pairs with
    ///   equal keys are written as given (such a map is invalid and the decoder rejects it; this
    ///   lets tests build malformed input).
    /// - Floats use the shortest of half, single and double precision that keeps the value;
    ///   every NaN is written as the half-precision quiet NaN `F9 7E 00`.
    public var encoded: Data {
        var output: [UInt8] = []
        encode(into: &output)
        return Data(output)
    }

    func encode(into output: inout [UInt8]) {
        switch self {
        case let .unsigned(value):
            Self.appendHead(major: 0, argument: value, to: &output)
        case let .negative(value):
            Self.appendHead(major: 1, argument: value, to: &output)
        case let .bytes(data):
            Self.appendHead(major: 2, argument: UInt64(data.count), to: &output)
            output.append(contentsOf: data)
        case let .text(string):
            let utf8 = Array(string.utf8)
            Self.appendHead(major: 3, argument: UInt64(utf8.count), to: &output)
            output.append(contentsOf: utf8)
        case let .array(elements):
            Self.appendHead(major: 4, argument: UInt64(elements.count), to: &output)
            for element in elements { element.encode(into: &output) }
        case let .map(pairs):
            Self.appendHead(major: 5, argument: UInt64(pairs.count), to: &output)
            let encodedPairs = pairs.map { pair -> (key: [UInt8], value: CBOR) in
                var key: [UInt8] = []
                pair.key.encode(into: &key)
                return (key, pair.value)
            }
            // A stable sort keeps pairs with equal keys in their given order.
            let sorted = encodedPairs.enumerated().sorted { lhs, rhs in
                lhs.element.key.lexicographicallyPrecedes(rhs.element.key)
                    || (lhs.element.key == rhs.element.key && lhs.offset < rhs.offset)
            }
            for (_, pair) in sorted {
                output.append(contentsOf: pair.key)
                pair.value.encode(into: &output)
            }
        case let .tagged(tag, item):
            Self.appendHead(major: 6, argument: tag, to: &output)
            item.encode(into: &output)
        case let .bool(value):
            output.append(value ? 0xF5 : 0xF4)
        case .null:
            output.append(0xF6)
        case .undefined:
            output.append(0xF7)
        case let .float(value):
            Self.appendFloat(value, to: &output)
        }
    }

    /// Appends the initial byte and the shortest argument for `major`.
    static func appendHead(major: UInt8, argument: UInt64, to output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            output.append(type | UInt8(argument))
        case 24...0xFF:
            output.append(type | 24)
            output.append(UInt8(argument))
        case 0x100...0xFFFF:
            output.append(type | 25)
            appendBigEndian(argument, byteCount: 2, to: &output)
        case 0x1_0000...0xFFFF_FFFF:
            output.append(type | 26)
            appendBigEndian(argument, byteCount: 4, to: &output)
        default:
            output.append(type | 27)
            appendBigEndian(argument, byteCount: 8, to: &output)
        }
    }

    static func appendBigEndian(_ value: UInt64, byteCount: Int, to output: inout [UInt8]) {
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(index * 8)))
        }
    }

    static func appendFloat(_ value: Double, to output: inout [UInt8]) {
        if value.isNaN {
            output.append(contentsOf: [0xF9, 0x7E, 0x00])
            return
        }
        let single = Float(value)
        guard Double(single) == value else {
            output.append(0xFB)
            appendBigEndian(value.bitPattern, byteCount: 8, to: &output)
            return
        }
        if let half = halfBits(exactly: single) {
            output.append(0xF9)
            appendBigEndian(UInt64(half), byteCount: 2, to: &output)
        } else {
            output.append(0xFA)
            appendBigEndian(UInt64(single.bitPattern), byteCount: 4, to: &output)
        }
    }

    /// The IEEE 754 binary16 bits of `value` when it is exactly representable, otherwise nil.
    static func halfBits(exactly value: Float) -> UInt16? {
        let sign: UInt16 = value.sign == .minus ? 0x8000 : 0
        let magnitude = value.magnitude
        if magnitude == 0 { return sign }
        if magnitude.isInfinite { return sign | 0x7C00 }
        guard magnitude.isNormal else { return nil }
        let exponent = Int(magnitude.exponent)
        var candidate: UInt16
        switch exponent {
        case -14...15:
            let significand = magnitude.significandBitPattern
            guard significand & 0x1FFF == 0 else { return nil }
            candidate = sign | UInt16(exponent + 15) << 10 | UInt16(significand >> 13)
        case -24 ... -15:
            // Subnormal half: value = m * 2^-24 with an integer m < 1024.
            let scaled = magnitude * Float(sign: .plus, exponent: 24, significand: 1)
            guard scaled == scaled.rounded(.towardZero), scaled < 1024 else { return nil }
            candidate = sign | UInt16(scaled)
        default:
            return nil
        }
        return halfToDouble(candidate) == Double(value) ? candidate : nil
    }

    /// The value of IEEE 754 binary16 `bits`.
    static func halfToDouble(_ bits: UInt16) -> Double {
        let negative = bits & 0x8000 != 0
        let exponent = Int(bits >> 10 & 0x1F)
        let mantissa = Int(bits & 0x3FF)
        let magnitude: Double
        switch exponent {
        case 0: magnitude = Double(sign: .plus, exponent: -24, significand: Double(mantissa))
        case 31: magnitude = mantissa == 0 ? .infinity : .nan
        default: magnitude = Double(sign: .plus, exponent: exponent - 25, significand: Double(mantissa + 1024))
        }
        return negative ? -magnitude : magnitude
    }
}
