import PasskeyConformanceProtocol

/// Reads the envelope of a JSON-RPC message with the project's strict JSON reader (`JSONReader`)
/// and records where its members are.
///
/// It is the first of two phases: the reader checks the whole line and locates `id`, `method`,
/// `params`, `result` and `error` as byte ranges; the typed payload is then decoded from its range
/// alone by the caller that knows its type. Nothing is decoded twice.
package struct JSONScanner {
    /// Why a line is not what it must be.
    package enum Failure: Error, Equatable {
        /// Not JSON at all (the reader's message, with the byte offset).
        case malformed(String)
        /// JSON, but not a JSON object.
        case notAnObject
        /// An object that repeats a member name.
        case duplicateMember(String)
    }

    /// The maximum nesting of arrays and objects: the reader's.
    package static let maximumDepth = JSONReader.defaultMaximumDepth

    /// Where the members of a JSON-RPC envelope are; other members are validated and ignored.
    package struct Envelope {
        package var jsonrpc: Range<Int>?
        package var id: Range<Int>?
        package var method: Range<Int>?
        package var params: Range<Int>?
        package var result: Range<Int>?
        package var error: Range<Int>?
    }

    /// Validates `bytes` as one JSON object and locates the members of a JSON-RPC envelope. A name
    /// repeated in the envelope itself is `duplicateMember`; one repeated deeper is malformed JSON.
    package static func envelope(of bytes: [UInt8]) throws(Failure) -> Envelope {
        var envelope = Envelope()
        let kind: JSONReader.ValueKind
        do {
            kind = try JSONReader.validate(bytes, maximumDepth: maximumDepth) { name, value in
                let inner = bytes[(name.lowerBound + 1)..<(name.upperBound - 1)]
                if inner.contains(UInt8(ascii: "\\")), let decoded = JSONReader.string(in: bytes, at: name) {
                    record(name: ArraySlice(decoded.utf8), value: value, in: &envelope)
                } else {
                    record(name: inner, value: value, in: &envelope)
                }
            }
        } catch {
            if case .duplicateMember(let name, nesting: 1) = error.kind { throw .duplicateMember(name) }
            throw .malformed(error.description)
        }
        guard kind == .object else { throw .notAnObject }
        return envelope
    }

    /// The string a JSON string literal at `range` stands for (escapes resolved), or `nil` if the
    /// range is not a string.
    package static func string(in bytes: [UInt8], at range: Range<Int>) -> String? {
        JSONReader.string(in: bytes, at: range)
    }

    private static func record(name: ArraySlice<UInt8>, value: Range<Int>, in envelope: inout Envelope) {
        switch name.count {
        case 2 where name.elementsEqual("id".utf8): envelope.id = value
        case 5 where name.elementsEqual("error".utf8): envelope.error = value
        case 6 where name.elementsEqual("method".utf8): envelope.method = value
        case 6 where name.elementsEqual("params".utf8): envelope.params = value
        case 6 where name.elementsEqual("result".utf8): envelope.result = value
        case 7 where name.elementsEqual("jsonrpc".utf8): envelope.jsonrpc = value
        default: return
        }
    }
}
