/// Compact JSON text of a value written directly, byte for byte as `Wire.encoder()` writes it (keys
/// sorted, slashes unescaped, whole numbers without a fraction), without an `Encoder` in between:
/// the simulated platform and the reference RP write a request or response this way on every step.
extension JSONValue {
    /// The compact text, or `nil` when a number is not a whole number below 2^53 in magnitude
    /// (such numbers are left to `JSONEncoder`'s own formatting).
    func compactText() -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        guard write(into: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value's text; `false` at a number this writer leaves to `JSONEncoder`.
    private func write(into bytes: inout [UInt8]) -> Bool {
        switch self {
        case .null: bytes += "null".utf8
        case .bool(let value): bytes += (value ? "true" : "false").utf8
        case .number(let value):
            // What `encode(to:)` writes as an Int64; anything else keeps the encoder's formatting.
            guard value.rounded() == value, abs(value) < 9_007_199_254_740_992 else { return false }
            bytes += String(Int64(value)).utf8
        case .string(let value): Self.write(value, into: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                guard value.write(into: &bytes) else { return false }
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                guard member.value.write(into: &bytes) else { return false }
            }
            bytes.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// Appends a string literal with `JSONEncoder`'s escapes: `"` and `\`, the short forms of
    /// backspace, form feed, line feed, carriage return and tab, `\u00xx` (lowercase hex) for the
    /// other control characters, and everything else as its UTF-8 bytes.
    private static func write(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case 0x08: bytes += #"\b"#.utf8
            case 0x0C: bytes += #"\f"#.utf8
            case 0x0A: bytes += #"\n"#.utf8
            case 0x0D: bytes += #"\r"#.utf8
            case 0x09: bytes += #"\t"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += #"\u00"#.utf8
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
