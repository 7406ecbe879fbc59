@testable import PasskeyConformanceProtocol
import Foundation
import Testing

/// The project's one JSON reader: what it accepts, what it refuses and where, and that building a
/// value and only validating walk the same grammar.
@Suite("Strict JSON reader")
struct StrictJSONTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Parses with both entry points; they must agree on the error.
    static func refusal(_ bytes: [UInt8], maximumDepth: Int = JSONReader.defaultMaximumDepth) -> JSONSyntaxError? {
        var parseError: JSONSyntaxError?
        var validateError: JSONSyntaxError?
        do { _ = try JSONValue.parse(bytes, maximumDepth: maximumDepth) } catch { parseError = error }
        do { _ = try JSONReader.validate(bytes, maximumDepth: maximumDepth) } catch { validateError = error }
        #expect(parseError == validateError, "parse: \(String(describing: parseError)); validate: \(String(describing: validateError))")
        return parseError
    }

    static let deep128 = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    static let deep129 = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)

    @Test(
        "Well-formed texts are read into the values they stand for",
        arguments: [
            ("null", JSONValue.null), ("true", .bool(true)), (" false ", .bool(false)), ("0", .number(0)), ("-0", .number(0)),
            ("-1.5e3", .number(-1500)), ("1E+2", .number(100)), ("0.25", .number(0.25)), ("123456789012", .number(123_456_789_012)),
            ("1e-400", .number(0)), (#""a\"\\\/\b\f\n\r\t""#, .string("a\"\\/\u{8}\u{C}\n\r\t")),
            (#""\u00e9\uD83D\uDE00""#, .string("é😀")), ("\"é😀\"", .string("é😀")), ("[]", .array([])), ("{}", .object([:])),
            (#" [1, "two", [null], {"k": false}] "#, .array([.number(1), .string("two"), .array([.null]), .object(["k": .bool(false)])])),
            (#"{"a":1,"A":2,"b":{"a":1}}"#, .object(["a": .number(1), "A": .number(2), "b": .object(["a": .number(1)])])),
            ("\r\n\t{\"a\" :\n[ ]\t}\n", .object(["a": .array([])])),
        ])
    func accepted(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(Self.bytes(text)) == expected)
        #expect(try JSONValue.parse(Data(text.utf8)) == expected)
        #expect(Self.refusal(Self.bytes(text)) == nil)
    }

    @Test("Nesting up to the documented limit of 128 levels is read; one level more is refused at its bracket")
    func depth() throws {
        #expect(JSONReader.defaultMaximumDepth == 128)
        #expect(Self.refusal(Self.bytes(Self.deep128)) == nil)
        let error = try #require(Self.refusal(Self.bytes(Self.deep129)))
        #expect(error.offset == 128 && error.kind == .tooDeep(limit: 128))
        let shallow = try #require(Self.refusal(Self.bytes("[[[]]]"), maximumDepth: 2))
        #expect(shallow.offset == 2 && shallow.message == "arrays and objects nested deeper than 2 levels")
    }

    @Test(
        "Each rule refuses its breaches at the offending byte, with a message saying what is wrong",
        arguments: [
            // Repeated member names, in any object, however spelled.
            (#"{"a":1,"a":2}"#, 7, #"duplicate member name "a" in one object"#),
            (#"{"a":1,"\u0061":2}"#, 7, #"duplicate member name "a""#),
            (#"{"x":{"b":1,"b":2}}"#, 12, #"duplicate member name "b""#),
            (#"[{"k":true},{"k":true,"k":false}]"#, 22, #"duplicate member name "k""#),
            (#"{"\u00e9":1,"e\u0301":2}"#, 12, "duplicate member name"),
            (#"{"K":1,"\u212A":2}"#, 7, "duplicate member name"),
            // Leading zeros.
            ("01", 0, "leading zero in a number"), ("[-012]", 2, "leading zero in a number"), (#"{"a":00}"#, 5, "leading zero in a number"),
            // Trailing commas.
            ("[1,2,]", 4, "trailing comma before ']'"), (#"{"a":1,}"#, 6, "trailing comma before '}'"), ("[,]", 1, "expected a value, found ','"),
            // Control characters in strings.
            ("\"a\tb\"", 2, "unescaped control character U+0009 in a string"), ("[\"line\nbreak\"]", 6, "unescaped control character U+000A"),
            ("\"\u{0}\"", 1, "unescaped control character U+0000"),
            // Lone surrogates.
            (#""\uD800""#, 1, #"lone surrogate \uD800"#), (#""\uDC00""#, 1, #"lone surrogate \uDC00: a low surrogate must follow"#),
            (#""\uD800\u0041""#, 1, "lone surrogate"), (#"["x\uD83Dy"]"#, 3, "lone surrogate"), (#""\uD83D\uD83D""#, 1, "lone surrogate"),
            // Anything after the value.
            ("{} x", 3, "unexpected 'x' after the JSON value"), ("1 2", 2, "unexpected '2' after the JSON value"),
            ("nullx", 4, "after the JSON value"), ("[1]]", 3, "unexpected ']' after the JSON value"),
            // Numbers no Double holds.
            ("1e400", 0, "beyond the range"), ("[-1e999]", 1, "beyond the range"),
            // The rest of the grammar.
            ("", 0, "expected a JSON value, found an empty text"), ("   ", 3, "found only whitespace"),
            ("tru", 0, "unknown word"), ("'a'", 0, "expected a value"), ("[1 2]", 3, "expected ',' or ']' after an array element, found '2'"),
            (#"{"a" 1}"#, 5, "expected ':' after a member name, found '1'"), ("{1:2}", 1, "expected a member name (a string), found '1'"),
            ("-", 1, "expected a digit after '-', found the end of the input"), ("1.", 2, "expected a digit after the decimal point"),
            ("1e", 2, "expected a digit in the exponent"), (".5", 0, "expected a value, found '.'"), ("+1", 0, "expected a value, found '+'"),
            ("NaN", 0, "expected a value"), (#""\x""#, 1, "invalid escape: a backslash followed by 'x'"),
            (#""\u12G4""#, 1, "invalid \\u escape"), (#""abc"#, 4, "unterminated string: the string opened at byte 0"),
            ("[", 1, "expected a value, found the end of the input"), (#"{"a":1"#, 6, "expected ',' or '}' after an object member, found the end"),
        ])
    func refused(text: String, offset: Int, fragment: String) throws {
        let error = try #require(Self.refusal(Self.bytes(text)), "accepted: \(text)")
        #expect(error.offset == offset, "\(error)")
        #expect(error.message.contains(fragment), "\(error)")
        #expect(error.description.hasPrefix("JSON error at byte \(offset) (line 1, column \(offset + 1)): "))
    }

    @Test("Repeated names, depth and range are told apart from other syntax errors")
    func kinds() throws {
        #expect(Self.refusal(Self.bytes(#"{"a":{"b":1,"b":2}}"#))?.kind == .duplicateMember(name: "b", nesting: 2))
        #expect(Self.refusal(Self.bytes(#"{"a":1,"a":2}"#))?.kind == .duplicateMember(name: "a", nesting: 1))
        #expect(Self.refusal(Self.bytes("1e400"))?.kind == .numberOutOfRange)
        #expect(Self.refusal(Self.bytes("01"))?.kind == .syntax)
    }

    @Test("Repeats are found in large objects and in objects nested while many names are open")
    func manyNames() throws {
        let members = (0..<40).map { #""m\#($0)":\#($0)"# }
        let large = "{" + members.joined(separator: ",") + "}"
        #expect(Self.refusal(Self.bytes(large)) == nil)
        let repeated = "{" + members.joined(separator: ",") + #","m7":0}"#
        let error = try #require(Self.refusal(Self.bytes(repeated)))
        #expect(error.offset == repeated.utf8.count - 7 && error.kind == .duplicateMember(name: "m7", nesting: 1), "\(error)")
        // Five levels of fifteen names each: more names open at once than the checking path keeps
        // in its scratch memory, with the repeat in the innermost object.
        func level(_ depth: Int, _ inner: String) -> String {
            "{" + (0..<15).map { #""n\#(depth)_\#($0)":0"# }.joined(separator: ",") + #","inner":"# + inner + "}"
        }
        let innermost = #"{"a":1,"b":2,"c":3,"b":4}"#
        let nested = (0..<5).reversed().reduce(innermost) { level($1, $0) }
        let deepError = try #require(Self.refusal(Self.bytes(nested)))
        #expect(deepError.kind == .duplicateMember(name: "b", nesting: 6), "\(deepError)")
        #expect(Self.refusal(Self.bytes((0..<5).reversed().reduce(#"{"a":1,"b":2}"#) { level($1, $0) })) == nil)
    }

    @Test(
        "Bytes that are not UTF-8 are refused where the bad byte is",
        arguments: [
            ([0x22, 0xFF, 0x22], 1, "byte 0xFF cannot start a character"), ([0x22, 0xC3, 0x22], 2, "byte 0x22 cannot follow 0xC3"),
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 2, "byte 0xA0 cannot follow 0xED"), ([0x22, 0xC0, 0xAF, 0x22], 1, "byte 0xC0 cannot start"),
            ([0x22, 0xF0, 0x9F, 0x98], 4, "the input ends inside a character"), ([0xEF, 0xBB, 0xBF, 0x31], 0, "expected a value, found byte 0xEF"),
        ] as [([UInt8], Int, String)])
    func notUTF8(bytes: [UInt8], offset: Int, fragment: String) throws {
        let error = try #require(Self.refusal(bytes))
        #expect(error.offset == offset && error.message.contains(fragment), "\(error)")
    }

    @Test("Errors on later lines name the line and the column")
    func lineAndColumn() throws {
        let error = try #require(Self.refusal(Self.bytes("{\n  \"a\": 1,\n  \"a\": 2\n}")))
        #expect(error.offset == 14 && error.line == 3 && error.column == 3)
        #expect(error.description == #"JSON error at byte 14 (line 3, column 3): duplicate member name "a" in one object"#)
        let end = try #require(Self.refusal(Self.bytes("[1,\n2,\n")))
        #expect(end.offset == 7 && end.line == 3 && end.column == 1)
    }

    @Test("Validation reports the members of the outermost object by byte range, and the value's kind")
    func topLevelMembers() throws {
        let bytes = Self.bytes(#" {"b" : [1,{"z":2}], "a":{"x":"y"} } "#)
        var members: [(String, String)] = []
        let kind = try JSONReader.validate(bytes) { name, value in
            members.append((String(decoding: bytes[name], as: UTF8.self), String(decoding: bytes[value], as: UTF8.self)))
        }
        #expect(kind == .object)
        #expect(members.map(\.0) == [#""b""#, #""a""#])
        #expect(members.map(\.1) == [#"[1,{"z":2}]"#, #"{"x":"y"}"#])
        #expect(try JSONReader.validate(Self.bytes(#"[{"a":1}]"#)) { _, _ in Issue.record("not the outermost object") } == .array)
        #expect(try JSONReader.validate(Self.bytes(#""s""#)) == .string)
        #expect(try JSONReader.validate(Self.bytes("-1")) == .number)
    }

    @Test("A string literal at a byte range is decoded, and anything else is not a string")
    func stringAtRange() {
        let bytes = Self.bytes(#"["a\u0062c\n", 7, "\uD800"]"#)
        #expect(JSONReader.string(in: bytes, at: 1..<13) == "abc\n")
        #expect(JSONReader.string(in: bytes, at: 15..<16) == nil)
        #expect(JSONReader.string(in: bytes, at: 1..<12) == nil)
        #expect(JSONReader.string(in: bytes, at: 18..<26) == nil)
        #expect(JSONReader.string(in: bytes, at: 20..<40) == nil)
    }

    static let roundTripValues: [JSONValue] = [
        .null, .bool(true), .bool(false), .number(0), .number(-42), .number(3.25), .number(1e300), .number(-2.5e-8),
        .string(""), .string("quote \" backslash \\ slash / controls \u{1}\u{1F}\u{7F} tab\t"), .string("é 😀 \u{FFFF} \u{10FFFF}"),
        .array([]), .array([.null, .number(1), .string("x"), .array([.bool(false)])]), .object([:]),
        .object(["a": .array([.object(["b": .null])]), "é": .bool(true), "": .string("empty name")]),
    ]

    @Test("Every kind of value survives encoding and strict reading", arguments: roundTripValues)
    func roundTrip(value: JSONValue) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        #expect(try JSONValue.parse(data) == value, "\(String(decoding: data, as: UTF8.self))")
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        #expect(try JSONValue.parse(try encoder.encode(value)) == value)
    }
}
