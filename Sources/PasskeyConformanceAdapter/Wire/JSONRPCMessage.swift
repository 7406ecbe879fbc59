#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import PasskeyConformanceProtocol

/// One JSON-RPC 2.0 message read from a line, with its payload left undecoded until the reader that
/// knows its type asks for it.
package struct JSONRPCMessage: Sendable {
    /// What the message is.
    package enum Kind: Sendable, Equatable {
        /// A call that wants an answer.
        case request
        /// A call without an id, answered by nobody.
        case notification
        /// A successful answer.
        case result
        /// A failed answer.
        case error
    }

    /// Why a line is not a JSON-RPC 2.0 message.
    package enum Failure: Error {
        /// Not JSON.
        case malformed(String)
        /// JSON, but not a valid JSON-RPC 2.0 message of this protocol.
        case invalid(String)
    }

    package let bytes: [UInt8]
    package let kind: Kind
    /// The method of a request or notification.
    package let method: String?
    /// Where the id is in `bytes` (the raw JSON, echoed verbatim in answers).
    package let idRange: Range<Int>?
    /// Where `params`, `result` or `error` is in `bytes`.
    package let payloadRange: Range<Int>?

    /// Reads one line.
    package init(line: ArraySlice<UInt8>) throws(Failure) {
        let bytes = Array(line)
        let members: JSONScanner.Envelope
        do {
            members = try JSONScanner.envelope(of: bytes)
        } catch {
            switch error {
            case .malformed(let why): throw .malformed(why)
            case .notAnObject: throw .invalid(bytes.first == UInt8(ascii: "[") ? "batches are not part of this protocol" : "a message must be a JSON object")
            case .duplicateMember(let name): throw .invalid("the member \"\(name)\" appears twice")
            }
        }
        guard let version = members.jsonrpc, bytes[version].elementsEqual(#""2.0""#.utf8) else {
            throw .invalid(#"missing "jsonrpc": "2.0""#)
        }
        self.bytes = bytes
        let id = members.id
        if let id {
            let first = bytes[id.lowerBound]
            let isNumber = first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            let isNull = first == UInt8(ascii: "n")
            guard first == UInt8(ascii: "\"") || isNumber || (isNull && members.error != nil) else {
                throw .invalid("an id must be a string or a number")
            }
        }
        if let method = members.method {
            guard let name = JSONScanner.string(in: bytes, at: method) else { throw .invalid("the method must be a string") }
            guard members.result == nil, members.error == nil else { throw .invalid("a call carries neither result nor error") }
            if let params = members.params, bytes[params.lowerBound] != UInt8(ascii: "{") {
                throw .invalid("params must be an object")
            }
            self.kind = id == nil ? .notification : .request
            self.method = name
            self.idRange = id
            self.payloadRange = members.params
        } else {
            guard let id else { throw .invalid("a message without a method must be an answer with an id") }
            switch (members.result, members.error) {
            case (let result?, nil):
                self.kind = .result
                self.payloadRange = result
            case (nil, let error?):
                self.kind = .error
                self.payloadRange = error
            default:
                throw .invalid("an answer carries exactly one of result and error")
            }
            self.method = nil
            self.idRange = id
        }
    }

    /// The raw JSON of the id (`7`, `"a"`), for echoing in an answer.
    package var rawID: ArraySlice<UInt8>? { idRange.map { bytes[$0] } }

    /// The id as an integer, if it is one.
    package var integerID: Int? {
        guard let idRange else { return nil }
        return Int(String(decoding: bytes[idRange], as: UTF8.self))
    }

    /// The raw JSON of the payload, `{}` when a call has no params.
    package var payload: Data {
        payloadRange.map { Data(bytes[$0]) } ?? Data("{}".utf8)
    }

    /// Decodes the payload (params, result or error) as `type`.
    package func decodePayload<T: Decodable>(_ type: T.Type) throws -> T {
        guard let range = payloadRange else { return try JSONRPCCodec.decoder.decode(type, from: Data("{}".utf8)) }
        return try bytes.withUnsafeBytes { buffer in
            // The bytes outlive the decoding: no copy.
            let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: buffer.baseAddress! + range.lowerBound), count: range.count, deallocator: .none)
            return try JSONRPCCodec.decoder.decode(type, from: data)
        }
    }

    /// The error object of an error answer.
    package func decodeError() -> JSONRPCErrorObject {
        (try? decodePayload(JSONRPCErrorObject.self))
            ?? JSONRPCErrorObject(code: JSONRPCErrorCode.internalError, message: "unreadable error object: \(Excerpt(payload))")
    }
}

/// The `error` member of a failed answer.
package struct JSONRPCErrorObject: Codable, Sendable, Hashable {
    package var code: Int
    package var message: String
    package var data: JSONValue?
}

/// The error codes of the protocol: JSON-RPC's own and those of the server-error range.
package enum JSONRPCErrorCode {
    package static let parseError = -32700
    package static let invalidRequest = -32600
    package static let methodNotFound = -32601
    package static let invalidParams = -32602
    package static let internalError = -32603
    /// The relying party or the adapter failed while handling the call.
    package static let adapterError = -32000
    /// The call names a session that is not open.
    package static let unknownSession = -32001
    /// The protocol versions are incompatible, or `adapter.hello` has not been called.
    package static let unsupportedVersion = -32002
    /// A platform call the relying party made during this call got no valid answer from the harness.
    package static let platformCallFailed = -32003
}

/// Encoding and decoding of whole lines, with the wire conventions of `Wire` (sorted keys, base64url).
package enum JSONRPCCodec {
    package static let encoder = Wire.encoder()
    package static let decoder = Wire.decoder()

    /// `{"id":…,"jsonrpc":"2.0","method":…,"params":…}` and a newline.
    package static func request(id: Int, method: String, params: some Encodable) throws -> [UInt8] {
        let body = try encoder.encode(params)
        var line: [UInt8] = []
        line.reserveCapacity(body.count + method.utf8.count + 48)
        line.append(contentsOf: #"{"id":"#.utf8)
        line.append(contentsOf: String(id).utf8)
        line.append(contentsOf: #","jsonrpc":"2.0","method":""#.utf8)
        line.append(contentsOf: method.utf8)
        line.append(contentsOf: #"","params":"#.utf8)
        line.append(contentsOf: body)
        line.append(contentsOf: "}\n".utf8)
        return line
    }

    /// `{"jsonrpc":"2.0","method":…,"params":…}` and a newline.
    package static func notification(method: String, params: some Encodable) throws -> [UInt8] {
        let body = try encoder.encode(params)
        var line: [UInt8] = []
        line.reserveCapacity(body.count + method.utf8.count + 40)
        line.append(contentsOf: #"{"jsonrpc":"2.0","method":""#.utf8)
        line.append(contentsOf: method.utf8)
        line.append(contentsOf: #"","params":"#.utf8)
        line.append(contentsOf: body)
        line.append(contentsOf: "}\n".utf8)
        return line
    }

    /// `{"id":…,"jsonrpc":"2.0","result":…}` and a newline.
    package static func result(id: ArraySlice<UInt8>, _ result: some Encodable) throws -> [UInt8] {
        let body = try encoder.encode(result)
        var line: [UInt8] = []
        line.reserveCapacity(body.count + id.count + 32)
        line.append(contentsOf: #"{"id":"#.utf8)
        line.append(contentsOf: id)
        line.append(contentsOf: #","jsonrpc":"2.0","result":"#.utf8)
        line.append(contentsOf: body)
        line.append(contentsOf: "}\n".utf8)
        return line
    }

    /// `{"error":{…},"id":…,"jsonrpc":"2.0"}` and a newline; the id is `null` when unknown.
    package static func error(id: ArraySlice<UInt8>?, code: Int, message: String, data: JSONValue? = nil) -> [UInt8] {
        var line = Array(#"{"error":"#.utf8)
        line += (try? encoder.encode(JSONRPCErrorObject(code: code, message: message, data: data))) ?? Data(#"{"code":-32603,"message":"?"}"#.utf8)
        line += Array(#","id":"#.utf8)
        line += id ?? ArraySlice("null".utf8)
        line += Array(#","jsonrpc":"2.0"}"#.utf8)
        line += [0x0A]
        return line
    }
}

/// A short, printable rendering of bytes a peer sent, for error messages: at most 200 bytes, with
/// control and non-UTF-8 bytes escaped.
package struct Excerpt: CustomStringConvertible, Sendable {
    package let text: String

    package init(_ bytes: some Collection<UInt8>, limit: Int = 200) {
        var text = ""
        let shown = bytes.prefix(limit)
        for scalar in String(decoding: shown, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{FFFD}": text += "\\u{FFFD}"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                text += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            default: text.unicodeScalars.append(scalar)
            }
        }
        if bytes.count > limit { text += "… (\(bytes.count) bytes)" }
        self.text = text
    }

    package var description: String { text }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
