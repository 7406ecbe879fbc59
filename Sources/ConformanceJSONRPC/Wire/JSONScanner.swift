/// A strict, allocation-free validator of one JSON text (RFC 8259) that records where the members
/// of a JSON-RPC envelope are.
///
/// It is the first of two phases: the scanner checks the whole line and locates `id`, `method`,
/// `params`, `result` and `error` as byte ranges; the typed payload is then decoded from its range
/// alone by the caller that knows its type. Nothing is decoded twice.
struct JSONScanner {
    /// Why a line is not what it must be.
    enum Failure: Error, Equatable {
        /// Not JSON at all.
        case malformed(String)
        /// JSON, but not a JSON object.
        case notAnObject
        /// An object that repeats a member name.
        case duplicateMember(String)
    }

    /// The maximum nesting of arrays and objects.
    static let maximumDepth = 128

    private let bytes: [UInt8]
    private var index: Int
    private let end: Int

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.index = 0
        self.end = bytes.count
    }

    /// Where the members of a JSON-RPC envelope are; other members are validated and ignored.
    struct Envelope {
        var jsonrpc: Range<Int>?
        var id: Range<Int>?
        var method: Range<Int>?
        var params: Range<Int>?
        var result: Range<Int>?
        var error: Range<Int>?
    }

    /// Validates `bytes` as one JSON object and locates the members of a JSON-RPC envelope.
    static func envelope(of bytes: [UInt8]) throws(Failure) -> Envelope {
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        guard scanner.index < scanner.end else { throw .malformed("empty message") }
        let isObject = scanner.bytes[scanner.index] == UInt8(ascii: "{")
        var envelope = Envelope()
        if isObject {
            try scanner.scanObject(depth: 1, envelope: &envelope, record: true)
        } else {
            try scanner.scanValue(depth: 0)
        }
        scanner.skipWhitespace()
        guard scanner.index == scanner.end else { throw .malformed("extra characters after the JSON value at byte \(scanner.index)") }
        guard isObject else { throw .notAnObject }
        if bytes.contains(where: { $0 >= 0x80 }) {
            guard String(validating: bytes, as: UTF8.self) != nil else { throw .malformed("not UTF-8") }
        }
        return envelope
    }

    /// The string a JSON string literal at `range` stands for (escapes resolved), or `nil` if the
    /// range is not a string.
    static func string(in bytes: [UInt8], at range: Range<Int>) -> String? {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\""), bytes[range.upperBound - 1] == UInt8(ascii: "\"") else { return nil }
        let inner = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var position = inner.startIndex
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll(keepingCapacity: true)
        }
        var pendingHigh: UInt32?
        while position < inner.endIndex {
            let byte = inner[position]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                position += 1
                continue
            }
            flush()
            let escape = inner[position + 1]
            position += 2
            var code: UInt32
            switch escape {
            case UInt8(ascii: "n"): code = 0x0A
            case UInt8(ascii: "t"): code = 0x09
            case UInt8(ascii: "r"): code = 0x0D
            case UInt8(ascii: "b"): code = 0x08
            case UInt8(ascii: "f"): code = 0x0C
            case UInt8(ascii: "u"):
                code = UInt32(hexValue(inner[position..<(position + 4)]))
                position += 4
            default: code = UInt32(escape)
            }
            if (0xD800...0xDBFF).contains(code) {
                pendingHigh = code
                continue
            }
            if let high = pendingHigh, (0xDC00...0xDFFF).contains(code) {
                code = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
            }
            pendingHigh = nil
            scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
        }
        flush()
        return String(scalars)
    }

    private static func hexValue(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { value, digit in
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return value * 16 + Int(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return value * 16 + Int(digit - UInt8(ascii: "a") + 10)
            default: return value * 16 + Int(digit - UInt8(ascii: "A") + 10)
            }
        }
    }

    // MARK: - Grammar

    private mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func failure(_ what: String) -> Failure {
        .malformed("\(what) at byte \(index)")
    }

    private mutating func scanValue(depth: Int) throws(Failure) {
        skipWhitespace()
        guard index < end else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            var nested = Envelope()
            try scanObject(depth: depth + 1, envelope: &nested, record: false)
        case UInt8(ascii: "["): try scanArray(depth: depth + 1)
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "t"): try scanLiteral("true")
        case UInt8(ascii: "f"): try scanLiteral("false")
        case UInt8(ascii: "n"): try scanLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        default: throw failure("unexpected character")
        }
    }

    /// Scans an object; with `record`, notes in `envelope` where its known members are.
    private mutating func scanObject(depth: Int, envelope: inout Envelope, record: Bool) throws(Failure) {
        guard depth <= Self.maximumDepth else { throw failure("nesting too deep") }
        index += 1
        skipWhitespace()
        if index < end && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let nameStart = index
            try scanString()
            let nameRange = nameStart..<index
            skipWhitespace()
            guard index < end, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            let valueStart = index
            try scanValue(depth: depth)
            if record {
                try Self.record(name: bytes[(nameRange.lowerBound + 1)..<(nameRange.upperBound - 1)], value: valueStart..<index, in: &envelope)
            }
            skipWhitespace()
            guard index < end else { throw failure("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            } else {
                throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func scanArray(depth: Int) throws(Failure) {
        guard depth <= Self.maximumDepth else { throw failure("nesting too deep") }
        index += 1
        skipWhitespace()
        if index < end && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try scanValue(depth: depth)
            skipWhitespace()
            guard index < end else { throw failure("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return
            } else {
                throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func scanString() throws(Failure) {
        index += 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < end else { throw failure("unterminated escape") }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard index + 6 <= end, bytes[(index + 2)..<(index + 6)].allSatisfy(Self.isHexDigit) else {
                        throw failure("bad \\u escape")
                    }
                    index += 6
                default:
                    throw failure("bad escape")
                }
                continue
            }
            index += 1
        }
        throw failure("unterminated string")
    }

    private static func record(name: ArraySlice<UInt8>, value: Range<Int>, in envelope: inout Envelope) throws(Failure) {
        func set(_ member: inout Range<Int>?, _ text: String) throws(Failure) {
            guard member == nil else { throw .duplicateMember(text) }
            member = value
        }
        switch name.count {
        case 2 where name.elementsEqual("id".utf8): try set(&envelope.id, "id")
        case 5 where name.elementsEqual("error".utf8): try set(&envelope.error, "error")
        case 6 where name.elementsEqual("method".utf8): try set(&envelope.method, "method")
        case 6 where name.elementsEqual("params".utf8): try set(&envelope.params, "params")
        case 6 where name.elementsEqual("result".utf8): try set(&envelope.result, "result")
        case 7 where name.elementsEqual("jsonrpc".utf8): try set(&envelope.jsonrpc, "jsonrpc")
        default: return
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private mutating func scanLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= end else { throw failure("unexpected end") }
        let matches = literal.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw failure("unexpected character") }
        index += count
    }

    private mutating func scanNumber() throws(Failure) {
        func digits() -> Int {
            let start = index
            while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end else { throw failure("bad number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw failure("bad number")
        }
        if index < end && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("bad number") }
        }
        if index < end && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < end && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw failure("bad number") }
        }
    }
}
