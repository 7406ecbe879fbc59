/// The strings of `JSONReader`'s grammar: checking literals (escapes, surrogates, UTF-8) and decoding them.
extension JSONCursor {
    /// Checks the string literal whose opening quote is at the cursor and moves past its closing quote.
    mutating func scanString() throws(JSONSyntaxError) -> StringShape {
        let open = index
        index += 1
        var shape = StringShape()
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return shape
            } else if byte == UInt8(ascii: "\\") {
                shape.escaped = true
                try scanEscape()
            } else if byte < 0x20 {
                throw fail("unescaped control character U+00\(JSONSyntaxError.hex(byte)) in a string")
            } else if byte >= 0x80 {
                shape.nonASCII = true
                try scanUTF8()
            } else {
                index += 1
            }
        }
        throw fail("unterminated string: the string opened at byte \(open) has no closing quote")
    }

    /// Checks the escape whose backslash is at the cursor and moves past it.
    mutating func scanEscape() throws(JSONSyntaxError) {
        let backslash = index
        guard index + 1 < end else { throw fail("unterminated string: the input ends inside an escape") }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            let code = try hex4(at: backslash)
            index += 6
            if (0xD800...0xDBFF).contains(code) {
                var low: UInt32?
                if index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") { low = try hex4(at: index) }
                guard let low, (0xDC00...0xDFFF).contains(low) else {
                    throw fail(
                        "lone surrogate \\u\(Self.hexText(code)): a high surrogate must be followed by the \\u escape of a low one (DC00-DFFF)", at: backslash)
                }
                index += 6
            } else if (0xDC00...0xDFFF).contains(code) {
                throw fail("lone surrogate \\u\(Self.hexText(code)): a low surrogate must follow the \\u escape of a high one (D800-DBFF)", at: backslash)
            }
        default:
            throw fail(
                "invalid escape: a backslash followed by \(JSONSyntaxError.describe(bytes[index + 1])) (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                at: backslash)
        }
    }

    /// The code of the `\uXXXX` escape whose backslash is at `offset`.
    func hex4(at offset: Int) throws(JSONSyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for position in (offset + 2)..<(offset + 6) {
            guard position < end, let digit = Self.hexDigit(bytes[position]) else {
                throw fail("invalid \\u escape: expected four hexadecimal digits after \\u", at: offset)
            }
            code = code << 4 | digit
        }
        return code
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    static func hexText(_ code: UInt32) -> String { JSONSyntaxError.hex(UInt8(code >> 8)) + JSONSyntaxError.hex(UInt8(code & 0xFF)) }

    /// Checks the UTF-8 sequence whose lead byte (above 0x7F) is at the cursor and moves past it.
    mutating func scanUTF8() throws(JSONSyntaxError) {
        let lead = bytes[index]
        let count: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0:
            count = 3
            second = 0xA0...0xBF
        case 0xED:
            count = 3
            second = 0x80...0x9F
        case 0xE1...0xEF: count = 3
        case 0xF0:
            count = 4
            second = 0x90...0xBF
        case 0xF4:
            count = 4
            second = 0x80...0x8F
        case 0xF1...0xF3: count = 4
        default: throw fail("not UTF-8: byte 0x\(JSONSyntaxError.hex(lead)) cannot start a character")
        }
        for position in (index + 1)..<(index + count) {
            guard position < end else { throw fail("not UTF-8: the input ends inside a character", at: position) }
            let byte = bytes[position]
            guard (position == index + 1 ? second : 0x80...0xBF).contains(byte) else {
                throw fail("not UTF-8: byte 0x\(JSONSyntaxError.hex(byte)) cannot follow 0x\(JSONSyntaxError.hex(lead))", at: position)
            }
        }
        index += count
    }

    /// The string a checked literal from `start` (its opening quote) to `stop` (after its closing quote) stands for.
    func decodeString(_ start: Int, _ stop: Int, _ shape: StringShape) -> String {
        let inner = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(stop - 1)])
        guard shape.escaped else { return String(decoding: inner, as: UTF8.self) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(inner.count)
        var position = start + 1
        while position < stop - 1 {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                position += 1
                continue
            }
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var code = (try? hex4(at: position - 2)) ?? 0xFFFD
                position += 4
                if (0xD800...0xDBFF).contains(code) {
                    let low = (try? hex4(at: position)) ?? 0xDC00
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    position += 6
                }
                Unicode.UTF8.encode(Unicode.Scalar(code) ?? "\u{FFFD}") { utf8.append($0) }
            default: utf8.append(escape)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
