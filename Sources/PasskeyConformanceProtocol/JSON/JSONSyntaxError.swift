/// Why a text is not the strict JSON `JSONReader` accepts, and where: the byte offset of the problem,
/// its line and column, and a sentence saying what is wrong there.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which rule the text breaks, for callers that answer some of them differently.
    public enum Kind: Sendable, Hashable {
        /// The text breaks the grammar of RFC 8259, or is not UTF-8.
        case syntax
        /// An object repeats a member name; `nesting` is 1 for a member of the outermost object.
        case duplicateMember(name: String, nesting: Int)
        /// Arrays and objects are nested deeper than the reader's limit.
        case tooDeep(limit: Int)
        /// A number whose magnitude no `Double` holds.
        case numberOutOfRange
    }

    /// Which rule the text breaks.
    public var kind: Kind
    /// The 0-based byte offset of the problem.
    public var offset: Int
    /// The 1-based line of `offset` (lines end at line feeds).
    public var line: Int
    /// The 1-based column of `offset`, counted in bytes from the start of its line.
    public var column: Int
    /// What is wrong at `offset`.
    public var message: String

    /// Creates an error; `line` and `column` default to those of a single-line text.
    public init(_ kind: Kind = .syntax, offset: Int, line: Int = 1, column: Int? = nil, message: String) {
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column ?? offset + 1
        self.message = message
    }

    /// The place and the message, for logs and reports:
    /// `JSON error at byte 12 (line 1, column 13): expected ':' after a member name, found '1'`.
    public var description: String { "JSON error at byte \(offset) (line \(line), column \(column)): \(message)" }
}

extension JSONSyntaxError {
    /// An error at `offset` of `bytes`, with its line and column counted there.
    static func located(_ kind: Kind, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, _ message: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return JSONSyntaxError(kind, offset: offset, line: line, column: offset - lineStart + 1, message: message)
    }

    /// How a byte reads in a message: `'x'` for printable ASCII, `byte 0xFF` otherwise.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + hex(byte)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }
}
