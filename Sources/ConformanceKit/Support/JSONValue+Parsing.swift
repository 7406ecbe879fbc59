import Foundation

extension JSONValue {
    /// A JSON text that is not well formed, with the byte offset of the problem.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The 0-based byte offset where the problem was found.
        public var offset: Int
        /// What is wrong there.
        public var message: String
        /// The offset and the message, for logs.
        public var description: String { "JSON error at byte \(offset): \(message)" }
    }

    /// Parses JSON text directly into a value (RFC 8259), without the throwing probes of `Decodable`.
    ///
    /// - Parameter rejectingDuplicateKeys: make a member name that repeats within one object an
    ///   error at the repeated name's offset (RFC 8259 leaves such objects' meaning open; for files a
    ///   user writes, where the first or the last value silently winning would mislead, it is an error).
    public static func parse(_ data: Data, maximumDepth: Int = 512, rejectingDuplicateKeys: Bool = false) throws(ParseError) -> JSONValue {
        var parser = Parser(bytes: [UInt8](data), maximumDepth: maximumDepth)
        parser.rejectsDuplicateKeys = rejectingDuplicateKeys
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected bytes after the value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        let maximumDepth: Int
        var index = 0
        var rejectsDuplicateKeys = false

        init(bytes: [UInt8], maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        func error(_ message: String) -> ParseError { ParseError(offset: index, message: message) }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ text: String, _ value: JSONValue) throws(ParseError) -> JSONValue {
            let expected = Array(text.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("expected \(text)")
            }
            index += expected.count
            return value
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
            guard index < bytes.count else { throw error("unexpected end of input") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: JSONValue] = [:]
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                    let keyOffset = index
                    let key = try string()
                    if rejectsDuplicateKeys, members[key] != nil {
                        throw ParseError(offset: keyOffset, message: "duplicate member name \"\(String(key.prefix(60)))\" in one object")
                    }
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    index += 1
                    skipWhitespace()
                    members[key] = try value(depth: depth + 1)
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unexpected end of input in an object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                    throw error("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONValue] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                while true {
                    skipWhitespace()
                    elements.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("unexpected end of input in an array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                    throw error("expected ',' or ']'")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return .number(try number())
            }
        }

        mutating func number() throws(ParseError) -> Double {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > digits else { throw error("expected a value") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let fraction = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > fraction else { throw error("expected digits after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let exponent = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > exponent else { throw error("expected digits in the exponent") }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { throw error("number out of range") }
            return value
        }

        mutating func string() throws(ParseError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            var text = ""
            func flush(_ end: Int) { text += String(decoding: bytes[run..<end], as: UTF8.self) }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(index)
                    index += 1
                    return text
                }
                if byte < 0x20 { throw error("control character in a string") }
                if byte == UInt8(ascii: "\\") {
                    flush(index)
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): text += "\""
                    case UInt8(ascii: "\\"): text += "\\"
                    case UInt8(ascii: "/"): text += "/"
                    case UInt8(ascii: "b"): text += "\u{8}"
                    case UInt8(ascii: "f"): text += "\u{C}"
                    case UInt8(ascii: "n"): text += "\n"
                    case UInt8(ascii: "r"): text += "\r"
                    case UInt8(ascii: "t"): text += "\t"
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800...0xDBFF).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        scalars = String.UnicodeScalarView()
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                        text += String(scalars)
                    default: throw error("invalid escape")
                    }
                    run = index
                    continue
                }
                index += 1
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw error("invalid \\u escape")
            }
            index += 4
            return code
        }
    }
}
