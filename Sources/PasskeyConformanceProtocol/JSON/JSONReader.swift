/// The project's one JSON reader: RFC 8259 read strictly, with every refusal a `JSONSyntaxError`
/// that names the byte offset, line and column of the problem.
///
/// Beyond the grammar of RFC 8259 (which already excludes leading zeros, trailing commas, unescaped
/// control characters in strings and anything after the value), it refuses:
/// - an object that repeats a member name (RFC 8259 leaves the meaning of such an object open; the
///   harness never guesses which value counts). Names are compared as Swift strings, so two
///   spellings of one string (`"a"` and `"\u0061"`, or canonically equivalent Unicode) are the same;
/// - a `\u` escape of a lone surrogate (a high one not followed by a low one, or a low one alone);
/// - bytes that are not UTF-8;
/// - arrays and objects nested more than `maximumDepth` levels (`defaultMaximumDepth`, 128);
/// - a number too large in magnitude for a `Double`.
///
/// It reads a text either into a `JSONValue` (`JSONValue.parse`) or, without building anything, only
/// to check it and locate the members of the outermost object (`validate`), which is how the JSON-RPC
/// transport reads its envelopes. Both walk the same grammar below.
public enum JSONReader {
    /// The deepest nesting of arrays and objects accepted by default: 128 levels (an outermost
    /// `[` or `{` is level 1). An opening bracket beyond it is an error at its offset.
    public static let defaultMaximumDepth = 128

    /// The shape of a JSON value.
    public enum ValueKind: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool
        /// A number.
        case number
        /// A string.
        case string
        /// An array.
        case array
        /// An object.
        case object
    }

    /// Reads one JSON text into a value.
    public static func value(of bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = defaultMaximumDepth) throws(JSONSyntaxError) -> JSONValue {
        var cursor = JSONCursor<JSONBuilding>(bytes: bytes, maximumDepth: maximumDepth)
        return try cursor.text().value
    }

    /// Checks that `bytes` hold one strict JSON text, without building its value, and returns the
    /// value's shape. When that value is an object, `topLevelMember` is called for each member in
    /// order with the byte ranges of its name (quotes included) and of its value.
    public static func validate(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth,
        topLevelMember: (_ name: Range<Int>, _ value: Range<Int>) -> Void = { _, _ in }
    ) throws(JSONSyntaxError) -> ValueKind {
        let result: Result<ValueKind, JSONSyntaxError> = withoutActuallyEscaping(topLevelMember) { member in
            bytes.withUnsafeBufferPointer { buffer in
                withUnsafeTemporaryAllocation(of: JSONCursor<JSONValidating>.Name.self, capacity: 64) { names in
                    var cursor = JSONCursor<JSONValidating>(bytes: buffer, maximumDepth: maximumDepth)
                    cursor.topLevelMember = member
                    cursor.names = names.baseAddress
                    cursor.nameCapacity = names.count
                    do throws(JSONSyntaxError) {
                        return .success(try cursor.text().kind)
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }
        return try result.get()
    }

    /// The string a JSON string literal at `range` of `bytes` stands for, escapes resolved; `nil`
    /// unless the range holds exactly one valid string literal.
    public static func string(in bytes: [UInt8], at range: Range<Int>) -> String? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty, bytes[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor<JSONBuilding>(bytes: buffer, maximumDepth: 0)
            cursor.index = range.lowerBound
            cursor.end = range.upperBound
            guard let shape = try? cursor.scanString(), cursor.index == range.upperBound else { return nil }
            return cursor.decodeString(range.lowerBound, range.upperBound, shape)
        }
    }
}

/// Whether a `JSONCursor` builds values or only checks the text: a type rather than a flag, so that
/// the checking cursor is compiled without the building code.
protocol JSONCursorMode {
    /// Whether values are built.
    static var builds: Bool { get }
}

/// `JSONValue.parse`: values are built.
enum JSONBuilding: JSONCursorMode {
    static var builds: Bool { true }
}

/// `JSONReader.validate`: the text is only checked.
enum JSONValidating: JSONCursorMode {
    static var builds: Bool { false }
}

/// The grammar of `JSONReader`: a cursor over the bytes of one text.
struct JSONCursor<Mode: JSONCursorMode> {
    /// What a scanned string literal holds, so that a plain one is neither decoded nor compared slowly.
    struct StringShape {
        /// It contains a backslash escape.
        var escaped = false
        /// It contains bytes above 0x7F.
        var nonASCII = false
        /// ASCII without escapes: equal names are equal bytes.
        var plain: Bool { !escaped && !nonASCII }
    }

    /// A member name met while validating (names are checked for repeats without being decoded).
    struct Name {
        var start: Int
        var end: Int
        var shape: StringShape
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var end: Int
    let maximumDepth: Int
    /// Whether values are built (`JSONValue.parse`) or only checked (`validate`).
    var builds: Bool { Mode.builds }
    /// The names of the objects being validated, innermost last: `nameCount` of at most
    /// `nameCapacity`, in scratch memory of `validate` (no allocation for ordinary texts).
    var names: UnsafeMutablePointer<Name>?
    var nameCount = 0
    var nameCapacity = 0
    /// Told of each member of the outermost object while validating.
    var topLevelMember: ((Range<Int>, Range<Int>) -> Void)?

    /// Objects with more members than this, or met when the scratch memory for names is full, check
    /// repeats with a hash set rather than by comparing pairs.
    static var linearNameLimit: Int { 16 }

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.end = bytes.count
        self.maximumDepth = maximumDepth
    }

    // MARK: - Errors

    func fail(_ message: String, at offset: Int? = nil, _ kind: JSONSyntaxError.Kind = .syntax) -> JSONSyntaxError {
        .located(kind, at: offset ?? index, in: bytes, message)
    }

    /// The byte at the cursor as a message names it.
    var found: String { index < end ? JSONSyntaxError.describe(bytes[index]) : "the end of the input" }

    // MARK: - Structure

    /// One whole text: a value between optional whitespace, and nothing else.
    mutating func text() throws(JSONSyntaxError) -> (value: JSONValue, kind: JSONReader.ValueKind) {
        skipWhitespace()
        guard index < end else { throw fail("expected a JSON value, found \(index == 0 ? "an empty text" : "only whitespace")") }
        let kind: JSONReader.ValueKind =
            switch bytes[index] {
            case UInt8(ascii: "{"): .object
            case UInt8(ascii: "["): .array
            case UInt8(ascii: "\""): .string
            case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
            case UInt8(ascii: "n"): .null
            default: .number
            }
        let value = try value(depth: 0)
        skipWhitespace()
        guard index == end else { throw fail("unexpected \(found) after the JSON value") }
        return (value, kind)
    }

    mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The value at the cursor, inside `depth` levels of arrays and objects. While validating, the
    /// value returned is a placeholder.
    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < end else { throw fail("expected a value, found the end of the input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""):
            let start = index
            let shape = try scanString()
            return builds ? .string(decodeString(start, index, shape)) : .null
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("expected a value, found \(found)")
        }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= maximumDepth else { throw fail("arrays and objects nested deeper than \(maximumDepth) levels", .tooDeep(limit: maximumDepth)) }
        index += 1
        skipWhitespace()
        var members: [String: JSONValue] = [:]
        if index < end, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        let firstName = nameCount
        var nameSet: Set<String>?
        defer { nameCount = firstName }
        while true {
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name (a string), found \(found)") }
            let nameStart = index
            let shape = try scanString()
            var key = ""
            if builds {
                key = decodeString(nameStart, index, shape)
                if members[key] != nil { throw duplicate(key, at: nameStart, nesting: depth) }
            } else {
                try checkUnique(Name(start: nameStart, end: index, shape: shape), from: firstName, set: &nameSet, nesting: depth)
            }
            let nameEnd = index
            skipWhitespace()
            guard index < end, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name, found \(found)") }
            index += 1
            skipWhitespace()
            let valueStart = index
            let member = try value(depth: depth)
            if builds { members[key] = member }
            if depth == 1, let topLevelMember { topLevelMember(nameStart..<nameEnd, valueStart..<index) }
            skipWhitespace()
            guard index < end else { throw fail("expected ',' or '}' after an object member, found the end of the input") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                let comma = index
                index += 1
                skipWhitespace()
                if index < end, bytes[index] == UInt8(ascii: "}") { throw fail("trailing comma before '}'", at: comma) }
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default:
                throw fail("expected ',' or '}' after an object member, found \(found)")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= maximumDepth else { throw fail("arrays and objects nested deeper than \(maximumDepth) levels", .tooDeep(limit: maximumDepth)) }
        index += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if index < end, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            let element = try value(depth: depth)
            if builds { elements.append(element) }
            skipWhitespace()
            guard index < end else { throw fail("expected ',' or ']' after an array element, found the end of the input") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                let comma = index
                index += 1
                skipWhitespace()
                if index < end, bytes[index] == UInt8(ascii: "]") { throw fail("trailing comma before ']'", at: comma) }
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default:
                throw fail("expected ',' or ']' after an array element, found \(found)")
            }
        }
    }

    // MARK: - Repeated names

    func duplicate(_ name: String, at offset: Int, nesting: Int) -> JSONSyntaxError {
        fail("duplicate member name \"\(String(name.prefix(60)))\" in one object", at: offset, .duplicateMember(name: name, nesting: nesting))
    }

    /// Refuses `name` if the object whose names start at `first` already has it, else records it.
    mutating func checkUnique(_ name: Name, from first: Int, set: inout Set<String>?, nesting: Int) throws(JSONSyntaxError) {
        if set == nil, nameCount - first >= Self.linearNameLimit || nameCount == nameCapacity {
            set = Set((first..<nameCount).map { decodeString(names![$0].start, names![$0].end, names![$0].shape) })
        }
        if set != nil {
            let text = decodeString(name.start, name.end, name.shape)
            guard set!.insert(text).inserted else { throw duplicate(text, at: name.start, nesting: nesting) }
            return
        }
        var other = first
        while other < nameCount {
            if sameName(names![other], name) { throw duplicate(decodeString(name.start, name.end, name.shape), at: name.start, nesting: nesting) }
            other += 1
        }
        names![nameCount] = name
        nameCount += 1
    }

    func sameName(_ a: Name, _ b: Name) -> Bool {
        let length = a.end - a.start
        var sameBytes = length == b.end - b.start
        var offset = 0
        while sameBytes, offset < length {
            sameBytes = bytes[a.start + offset] == bytes[b.start + offset]
            offset += 1
        }
        if sameBytes || (a.shape.plain && b.shape.plain) { return sameBytes }
        return decodeString(a.start, a.end, a.shape) == decodeString(b.start, b.end, b.shape)
    }

    // MARK: - Scalars

    mutating func literal(_ text: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let start = index
        let matches = text.withUTF8Buffer { expected in
            expected.indices.allSatisfy { start + $0 < end && bytes[start + $0] == expected[$0] }
        }
        guard matches else { throw fail("expected a value, found an unknown word (only true, false and null are literals)") }
        index += text.utf8CodeUnitCount
        return value
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    mutating func skipDigits() {
        while index < end, Self.isDigit(bytes[index]) { index += 1 }
    }

    /// A number: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?. While validating, only a
    /// number that might not fit a `Double` (an exponent or over 300 digits) is converted.
    mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            guard index < end, Self.isDigit(bytes[index]) else { throw fail("expected a digit after '-', found \(found)") }
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < end, Self.isDigit(bytes[index]) { throw fail("leading zero in a number", at: index - 1) }
        } else {
            skipDigits()
        }
        var scientific = false
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < end, Self.isDigit(bytes[index]) else { throw fail("expected a digit after the decimal point, found \(found)") }
            skipDigits()
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            scientific = true
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < end, Self.isDigit(bytes[index]) else { throw fail("expected a digit in the exponent, found \(found)") }
            skipDigits()
        }
        guard builds || scientific || index - start > 300 else { return .null }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw fail("the number \(text.prefix(40)) is beyond the range of a 64-bit floating-point number", at: start, .numberOutOfRange)
        }
        return .number(value)
    }
}
