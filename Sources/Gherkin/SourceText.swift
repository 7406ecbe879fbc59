// The source as UTF-8 bytes cut into lines, with the whitespace rules the reference uses.

/// One line of the source: a byte range without its line break.
struct SourceLine: Sendable {
    /// The 1-based line number.
    let number: Int
    /// The first byte of the line.
    let start: Int
    /// One past the last byte, line break and carriage returns before it excluded.
    let end: Int
    /// The first byte that is not whitespace (`end` for a blank line).
    let trimmedStart: Int
    /// The number of leading whitespace scalars (for a blank line, counting its line break too).
    let indent: Int

    /// Whether the line holds whitespace only.
    var isEmpty: Bool { trimmedStart == end }
}

/// The source text as UTF-8 bytes, cut into lines.
///
/// Lines end at `\n` only; carriage returns right before it are dropped (so CRLF files read like
/// LF files) and a lone `\r` stays inside its line. A final line break does not start another line.
/// Whitespace is what Python's `str.isspace` accepts, the rule of the reference implementation.
struct SourceText: Sendable {
    let bytes: [UInt8]
    let lines: [SourceLine]

    init(_ source: String) {
        var bytes = Array(source.utf8)
        // A byte order mark is not part of the text.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = bytes
        var lines: [SourceLine] = []
        lines.reserveCapacity(bytes.count / 24 + 1)
        var start = 0
        let count = bytes.count
        bytes.withUnsafeBufferPointer { buffer in
            while start < count {
                let end = Self.lineBreak(in: buffer, from: start)
                let next = end + 1
                var contentEnd = end
                while contentEnd > start && buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                var position = start
                var indent = 0
                while position < contentEnd {
                    let length = Self.whitespaceLength(buffer, at: position, end: contentEnd)
                    if length == 0 { break }
                    position += length
                    indent += 1
                }
                if position == contentEnd {
                    // The reference counts the line break (and carriage returns) of a blank line
                    // as indentation; it shows in the column of a blank Markdown feature line.
                    indent += (end - contentEnd) + (end < count ? 1 : 0)
                }
                lines.append(
                    SourceLine(number: lines.count + 1, start: start, end: contentEnd, trimmedStart: position, indent: indent))
                start = next
            }
        }
        self.lines = lines
    }

    /// The offset of the next `\n` at or after `start`, or the buffer's count if there is none.
    /// Eight bytes at a time: line breaks are rare, so most words are skipped whole.
    @inline(__always)
    static func lineBreak(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let count = buffer.count
        guard let base = buffer.baseAddress else { return count }
        var position = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let breaks: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        while position + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let x = word ^ breaks
            let zeros = (x &- ones) & ~x & highs
            if zeros != 0 { return position + zeros.trailingZeroBitCount >> 3 }
            position += 8
        }
        while position < count && buffer[position] != 0x0A { position += 1 }
        return position
    }

    /// The byte length of the whitespace scalar at `position`, or 0 if there is none.
    @inline(__always)
    static func whitespaceLength(_ b: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> Int {
        let c = b[position]
        if c < 0x80 {
            return (c == 0x20 || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F)) ? 1 : 0
        }
        if c == 0xC2, position + 1 < end {
            let d = b[position + 1]
            return (d == 0x85 || d == 0xA0) ? 2 : 0
        }
        guard position + 2 < end else { return 0 }
        let d = b[position + 1]
        let e = b[position + 2]
        switch c {
        case 0xE1: return (d == 0x9A && e == 0x80) ? 3 : 0
        case 0xE2:
            if d == 0x80 { return (e <= 0x8A && e >= 0x80) || e == 0xA8 || e == 0xA9 || e == 0xAF ? 3 : 0 }
            return (d == 0x81 && e == 0x9F) ? 3 : 0
        case 0xE3: return (d == 0x80 && e == 0x80) ? 3 : 0
        default: return 0
        }
    }

    /// The byte length of the whitespace scalar at `position` (below `end`), or 0.
    @inline(__always)
    func whitespaceLength(at position: Int, end: Int) -> Int {
        bytes.withUnsafeBufferPointer { Self.whitespaceLength($0, at: position, end: end) }
    }

    /// The end of `start..<end` once trailing whitespace is removed.
    func trimmedEnd(_ start: Int, _ end: Int) -> Int {
        bytes.withUnsafeBufferPointer { b in
            // Fast path: ASCII at the end.
            var last = end
            while last > start {
                let c = b[last - 1]
                if c >= 0x80 { break }
                if c == 0x20 || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F) {
                    last -= 1
                } else {
                    return last
                }
            }
            if last == start { return start }
            var position = start
            var lastContentEnd = start
            while position < end {
                let length = Self.whitespaceLength(b, at: position, end: end)
                if length > 0 {
                    position += length
                } else {
                    position += Self.scalarLength(b[position])
                    lastContentEnd = min(position, end)
                }
            }
            return lastContentEnd
        }
    }

    /// The start of `start..<end` once leading whitespace is removed.
    func trimmedStart(_ start: Int, _ end: Int) -> Int {
        bytes.withUnsafeBufferPointer { b in
            var position = start
            while position < end {
                let length = Self.whitespaceLength(b, at: position, end: end)
                if length == 0 { break }
                position += length
            }
            return position
        }
    }

    /// The byte length of the UTF-8 sequence that starts with `lead`.
    @inline(__always)
    static func scalarLength(_ lead: UInt8) -> Int {
        if lead < 0xC0 { return 1 }
        if lead < 0xE0 { return 2 }
        if lead < 0xF0 { return 3 }
        return 4
    }

    /// The number of Unicode scalars in `start..<end`.
    func scalarCount(_ start: Int, _ end: Int) -> Int {
        bytes.withUnsafeBufferPointer { b in
            var count = 0
            var i = start
            while i < end {
                if b[i] & 0xC0 != 0x80 { count += 1 }
                i += 1
            }
            return count
        }
    }

    /// The byte offset `scalars` Unicode scalars after `start` (bounded by `end`).
    func offset(_ start: Int, scalars: Int, end: Int) -> Int {
        var position = start
        var remaining = scalars
        while remaining > 0 && position < end {
            position += Self.scalarLength(bytes[position])
            remaining -= 1
        }
        return min(position, end)
    }

    /// The bytes `start..<end` as a string.
    @inline(__always)
    func string(_ start: Int, _ end: Int) -> String {
        if start >= end { return "" }
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    /// The bytes from `start` to `end`, trimmed on both sides, as a string.
    func trimmedString(_ start: Int, _ end: Int) -> String {
        let s = trimmedStart(start, end)
        return string(s, trimmedEnd(s, end))
    }

    /// Whether the bytes at `position` begin with `prefix` (without passing `end`).
    @inline(__always)
    func hasPrefix(_ prefix: [UInt8], at position: Int, end: Int) -> Bool {
        if end - position < prefix.count { return false }
        return bytes.withUnsafeBufferPointer { b in
            var i = 0
            for byte in prefix {
                if b[position + i] != byte { return false }
                i += 1
            }
            return true
        }
    }
}
