#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The base64url encoding of RFC 4648 §5 as WebAuthn uses it: URL-safe alphabet, no padding.
///
/// Decoding is strict: it accepts only the unpadded form (`=` is rejected), rejects characters
/// outside `A–Z a–z 0–9 - _` (including whitespace and the `+ /` of plain base64), rejects
/// lengths that no byte string produces (a length of 1 modulo 4), and rejects non-canonical
/// final characters whose unused low bits are not zero. So every byte string has exactly one
/// accepted text, which makes challenge comparisons exact.
public enum Base64URL {
    /// Why a string is not canonical unpadded base64url.
    public enum DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The character at `offset` (in Unicode scalars) is not in the base64url alphabet.
        case invalidCharacter(Character, offset: Int)
        /// The length modulo 4 is 1, which no byte string encodes to.
        case impossibleLength(Int)
        /// The final character carries non-zero bits that no encoder would produce.
        case nonZeroTrailingBits

        /// A one-line human-readable explanation.
        public var description: String {
            switch self {
            case let .invalidCharacter(character, offset):
                "invalid base64url character \(String(reflecting: String(character))) at offset \(offset)"
                    + (character == "=" ? " (padding is not accepted)" : "")
            case let .impossibleLength(length):
                "length \(length) is impossible for unpadded base64url (length mod 4 is 1)"
            case .nonZeroTrailingBits:
                "the last character has non-zero unused bits (not the canonical encoding)"
            }
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `data` as unpadded base64url.
    public static func encode(_ data: Data) -> String {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String in
            let length = (bytes.count * 4 + 2) / 3
            return String(unsafeUninitializedCapacity: max(length, 1)) { output in
                var (index, written) = (0, 0)
                func put(_ group: UInt32, _ shift: UInt32) {
                    output[written] = alphabet[Int(group >> shift & 0x3F)]
                    written += 1
                }
                while index + 3 <= bytes.count {
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                    put(group, 18)
                    put(group, 12)
                    put(group, 6)
                    put(group, 0)
                    index += 3
                }
                switch bytes.count - index {
                case 1:
                    let group = UInt32(bytes[index]) << 16
                    put(group, 18)
                    put(group, 12)
                case 2:
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                    put(group, 18)
                    put(group, 12)
                    put(group, 6)
                default:
                    break
                }
                return written
            }
        }
    }

    /// Decodes canonical unpadded base64url.
    ///
    /// - Throws: `Base64URL.DecodingError` describing the first problem found.
    public static func decode(_ text: String) throws(DecodingError) -> Data {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard let value = sextet(Unicode.Scalar(byte)) else {
                // Only ASCII is valid: name the offending character by its offset in scalars.
                for (offset, scalar) in text.unicodeScalars.enumerated() where sextet(scalar) == nil {
                    throw .invalidCharacter(Character(scalar), offset: offset)
                }
                preconditionFailure("a byte outside the alphabet belongs to a scalar outside it")
            }
            sextets.append(value)
        }
        guard sextets.count % 4 != 1 else { throw .impossibleLength(sextets.count) }
        var output: [UInt8] = []
        output.reserveCapacity(sextets.count * 3 / 4)
        var index = 0
        while index + 4 <= sextets.count {
            let group =
                UInt32(sextets[index]) << 18 | UInt32(sextets[index + 1]) << 12
                | UInt32(sextets[index + 2]) << 6 | UInt32(sextets[index + 3])
            output.append(UInt8(group >> 16 & 0xFF))
            output.append(UInt8(group >> 8 & 0xFF))
            output.append(UInt8(group & 0xFF))
            index += 4
        }
        switch sextets.count - index {
        case 2:
            guard sextets[index + 1] & 0x0F == 0 else { throw .nonZeroTrailingBits }
            output.append(sextets[index] << 2 | sextets[index + 1] >> 4)
        case 3:
            guard sextets[index + 2] & 0x03 == 0 else { throw .nonZeroTrailingBits }
            output.append(sextets[index] << 2 | sextets[index + 1] >> 4)
            output.append(sextets[index + 1] << 4 | sextets[index + 2] >> 2)
        default:
            break
        }
        return Data(output)
    }

    /// Decodes canonical unpadded base64url, or returns nil when `text` is not such an encoding.
    public static func decodeIfValid(_ text: String) -> Data? {
        try? decode(text)
    }

    private static func sextet(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x41...0x5A: UInt8(scalar.value - 0x41)
        case 0x61...0x7A: UInt8(scalar.value - 0x61 + 26)
        case 0x30...0x39: UInt8(scalar.value - 0x30 + 52)
        case 0x2D: 62
        case 0x5F: 63
        default: nil
        }
    }
}
