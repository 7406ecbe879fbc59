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
/// the sink and starts again, so output leaves in large chunks and memory stays bounded. The
/// buffer is raw memory, so appending is a bounds check and a copy.
final class JSONBytes {
    /// The buffer: `count` bytes written since the last flush, room for `capacity`.
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Where full chunks go; `nil` to keep everything.
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    /// The size at which ``endLine()`` flushes to the sink.
    let flushThreshold: Int

    /// Creates a buffer that keeps everything, or one that passes chunks of about
    /// `flushThreshold` bytes to `sink`.
    init(flushThreshold: Int = 1 << 20, sink: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        self.sink = sink
        self.flushThreshold = flushThreshold
        // A chunk rarely overshoots the threshold by more than one line; very large thresholds grow on demand.
        capacity = sink == nil ? 4096 : min(max(flushThreshold, 1), 1 << 24) + 4096
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written since the last flush.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends raw bytes.
    @inline(__always)
    private func append(_ source: UnsafePointer<UInt8>, _ length: Int) {
        reserve(length)
        (base + count).update(from: source, count: length)
        count += length
    }

    /// Appends literal text (punctuation and keys, already valid JSON).
    @inline(__always)
    func raw(_ text: StaticString) { append(text.utf8Start, text.utf8CodeUnitCount) }

    /// Appends one ASCII byte.
    @inline(__always)
    func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    /// Appends a string's UTF-8 bytes unchanged (for the token format, which is not JSON).
    func text(_ value: String) {
        var value = value
        value.withUTF8 { if let start = $0.baseAddress { append(start, $0.count) } }
    }

    /// Appends a string as a quoted, escaped JSON string.
    func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in appendQuoted(utf8) }
    }

    /// Appends a decimal integer.
    func int(_ value: Int) {
        if value >= 0 && value < 10 {
            byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        reserve(21)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        var digits = 0
        var rest = magnitude
        repeat {
            digits += 1
            rest /= 10
        } while rest > 0
        var index = count + digits - 1
        repeat {
            base[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
        count += digits
    }

    /// Ends a line and flushes if the buffer has grown past the threshold.
    func endLine() {
        byte(UInt8(ascii: "\n"))
        if sink != nil && count >= flushThreshold { flush() }
    }

    /// Passes whatever is buffered to the sink (nothing happens without a sink).
    func flush() {
        guard let sink, count > 0 else { return }
        sink(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    // MARK: Escaping

    /// What each byte needs: 0 nothing, 1 a short escape, 2 a `\u00XX` escape.
    private static let escapeClass: [UInt8] = (0..<256).map { byte -> UInt8 in
        switch byte {
        case 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x22, 0x5C: 1
        case 0..<0x20: 2
        default: 0
        }
    }

    private func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        // At most 6 bytes per input byte (`\u00XX`), plus the quotes.
        reserve(utf8.count * 6 + 2)
        base[count] = UInt8(ascii: "\"")
        count += 1
        guard let source = utf8.baseAddress else {
            base[count] = UInt8(ascii: "\"")
            count += 1
            return
        }
        var runStart = 0
        var index = 0
        let length = utf8.count
        Self.escapeClass.withUnsafeBufferPointer { classes in
            while index < length {
                let byte = source[index]
                if classes[Int(byte)] == 0 {
                    index += 1
                    continue
                }
                if runStart < index {
                    (base + count).update(from: source + runStart, count: index - runStart)
                    count += index - runStart
                }
                appendEscape(byte)
                index += 1
                runStart = index
            }
        }
        if runStart < length {
            (base + count).update(from: source + runStart, count: length - runStart)
            count += length - runStart
        }
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// Writes the escape of `byte`; room has been reserved.
    @inline(__always)
    private func appendEscape(_ byte: UInt8) {
        base[count] = UInt8(ascii: "\\")
        switch byte {
        case 0x22: base[count + 1] = UInt8(ascii: "\"")
        case 0x5C: base[count + 1] = UInt8(ascii: "\\")
        case 0x08: base[count + 1] = UInt8(ascii: "b")
        case 0x0C: base[count + 1] = UInt8(ascii: "f")
        case 0x0A: base[count + 1] = UInt8(ascii: "n")
        case 0x0D: base[count + 1] = UInt8(ascii: "r")
        case 0x09: base[count + 1] = UInt8(ascii: "t")
        default:
            let hex: StaticString = "0123456789abcdef"
            base[count + 1] = UInt8(ascii: "u")
            base[count + 2] = UInt8(ascii: "0")
            base[count + 3] = UInt8(ascii: "0")
            base[count + 4] = hex.utf8Start[Int(byte >> 4)]
            base[count + 5] = hex.utf8Start[Int(byte & 0xF)]
            count += 6
            return
        }
        count += 2
    }
}
