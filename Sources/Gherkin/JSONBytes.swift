// A growing UTF-8 buffer with the JSON primitives the NDJSON printer needs.

/// UTF-8 bytes of JSON text being written, and the few primitives the Gherkin messages are made of:
/// literal punctuation and keys, escaped strings, and integers.
///
/// Strings are escaped as `JSONEncoder` escapes them with `.withoutEscapingSlashes`: `"` and `\`
/// with a backslash, backspace, form feed, newline, carriage return and tab by their short
/// escapes, the other control characters below U+0020 as `\u00XX` (lowercase hex), and every
/// other character as its raw UTF-8 bytes.
///
/// When the buffer grows past ``flushThreshold`` at the end of a message, ``endLine()`` hands it to
/// the sink and starts again, so output leaves in large chunks and memory stays bounded.
struct JSONBytes {
    /// The bytes written since the last flush.
    private(set) var bytes: [UInt8] = []
    /// Where full chunks go; `nil` to keep everything in ``bytes``.
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    /// The size at which ``endLine()`` flushes to the sink.
    let flushThreshold: Int

    /// Creates a buffer that keeps everything, or one that passes chunks of about
    /// `flushThreshold` bytes to `sink`.
    init(flushThreshold: Int = 1 << 20, sink: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        self.sink = sink
        self.flushThreshold = flushThreshold
        bytes.reserveCapacity(sink == nil ? 4096 : flushThreshold + flushThreshold / 4)
    }

    /// Appends literal text (punctuation and keys, already valid JSON).
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends one ASCII byte.
    @inline(__always)
    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Appends a string's UTF-8 bytes unchanged (for the token format, which is not JSON).
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends a string as a quoted, escaped JSON string.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in appendQuoted(utf8) }
    }

    /// Appends a decimal integer.
    mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits, more than enough
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// Ends a line and flushes if the buffer has grown past the threshold.
    mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        if sink != nil && bytes.count >= flushThreshold { flush() }
    }

    /// Passes whatever is buffered to the sink (nothing happens without a sink).
    mutating func flush() {
        guard let sink, !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { sink($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    // MARK: Escaping

    /// What each byte below 0x80 needs: 0 nothing, 1 a short escape, 2 a `\u00XX` escape.
    private static let escapeClass: [UInt8] = (0..<128).map { byte -> UInt8 in
        switch byte {
        case 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x22, 0x5C: 1
        case 0..<0x20: 2
        default: 0
        }
    }

    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = utf8.count
        Self.escapeClass.withUnsafeBufferPointer { classes in
            while index < count {
                let byte = utf8[index]
                if byte >= 0x80 || classes[Int(byte)] == 0 {
                    index += 1
                    continue
                }
                if runStart < index {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                }
                appendEscape(byte)
                index += 1
                runStart = index
            }
        }
        if runStart < count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        let short: UInt8
        switch byte {
        case 0x22: short = UInt8(ascii: "\"")
        case 0x5C: short = UInt8(ascii: "\\")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        default:
            let hex: StaticString = "0123456789abcdef"
            raw("\\u00")
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0xF)])
            return
        }
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(short)
    }
}
