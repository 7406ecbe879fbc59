import Foundation
import Testing
import ConformanceKit
@testable import ConformanceJSONRPC
@testable import PasskeyConformanceAdapter

/// The line framing, the strict envelope scanner and the message model.
@Suite("Wire format")
struct WireTests {
    static func message(_ text: String) throws -> JSONRPCMessage {
        try JSONRPCMessage(line: ArraySlice(Array(text.utf8)))
    }

    @Test("requests, notifications, results and errors are told apart")
    func kinds() throws {
        let request = try Self.message(#"{"id":7,"jsonrpc":"2.0","method":"session.perform","params":{"session":"s1"}}"#)
        #expect(request.kind == .request && request.method == "session.perform" && request.integerID == 7)
        #expect(try request.decodePayload(JSONRPCParams.Session.self).session == "s1")
        let notification = try Self.message(#" { "params" : {}, "method":"ui.show", "jsonrpc":"2.0" } "#)
        #expect(notification.kind == .notification && notification.rawID == nil)
        let result = try Self.message(#"{"jsonrpc":"2.0","result":null,"id":"a-1"}"#)
        #expect(result.kind == .result && result.integerID == nil && result.rawID.map { Array($0) } == Array(#""a-1""#.utf8))
        let error = try Self.message(#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"boom","data":[1]},"id":null}"#)
        #expect(error.kind == .error && error.decodeError().code == -32000 && error.decodeError().data == .array([.number(1)]))
        let escaped = try Self.message(#"{"jsonrpc":"2.0","method":"ui.sh\u006Fw","id":1}"#)
        #expect(escaped.method == "ui.show")
    }

    @Test(
        "lines that are not JSON",
        arguments: [
            "", "hello", "{", #"{"a":}"#, #"{"a":1,}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":-}"#, #"{"a":"\x"}"#, #"{"a":"\u12G4"}"#,
            "{\"a\":\"tab\there\"}", #"{"a":tru}"#, #"{"a":1} x"#, #"{'a':1}"#, #"{"a":[1,2}"#,
            String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
        ])
    func malformed(_ line: String) {
        #expect {
            _ = try Self.message(line)
        } throws: { error in
            if case .malformed = error as? JSONRPCMessage.Failure { return true }
            return false
        }
    }

    @Test(
        "JSON that is not a message of this protocol",
        arguments: [
            #"[{"jsonrpc":"2.0","method":"ui.show"}]"#, #""text""#, #"{"method":"ui.show","id":1}"#, #"{"jsonrpc":"1.0","method":"a","id":1}"#,
            #"{"jsonrpc":"2.0","id":1}"#, #"{"jsonrpc":"2.0","id":1,"result":1,"error":{}}"#, #"{"jsonrpc":"2.0","result":1}"#,
            #"{"jsonrpc":"2.0","method":1,"id":1}"#, #"{"jsonrpc":"2.0","method":"a","params":[1],"id":1}"#,
            #"{"jsonrpc":"2.0","method":"a","id":{"x":1}}"#, #"{"jsonrpc":"2.0","method":"a","result":1,"id":1}"#,
            #"{"jsonrpc":"2.0","jsonrpc":"2.0","method":"a"}"#, #"{"jsonrpc":"2.0","method":"a","id":null}"#,
        ])
    func invalid(_ line: String) {
        #expect {
            _ = try Self.message(line)
        } throws: { error in
            if case .invalid = error as? JSONRPCMessage.Failure { return true }
            return false
        }
    }

    @Test("bytes that are not UTF-8 are malformed")
    func notUTF8() {
        var bytes = Array(#"{"jsonrpc":"2.0","method":"ui.show","params":{"text":"X"}}"#.utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "X"))!] = 0xFF
        #expect(throws: JSONRPCMessage.Failure.self) { _ = try JSONRPCMessage(line: bytes[...]) }
    }

    @Test("framing: lines split across reads, CRLF, and the length limit")
    func framing() throws {
        var framer = LineFramer(maximumLineBytes: 16)
        var lines: [String] = []
        for chunk in ["ab", "c\r\nde", "f\n\n", "gh"] {
            try Array(chunk.utf8).withUnsafeBytes { bytes in
                try framer.append(bytes) { lines.append(String(decoding: $0, as: UTF8.self)) }
            }
        }
        #expect(lines == ["abc", "def", ""])
        #expect(framer.partialLine.elementsEqual("gh".utf8))
        #expect(throws: LineFramer.Failure.self) { try framer.finish() }
        #expect {
            try Array(String(repeating: "x", count: 17).utf8).withUnsafeBytes { bytes in try framer.append(bytes) { _ in } }
        } throws: { error in
            if case .lineTooLong(_, let length) = error as? LineFramer.Failure { return length == 19 }
            return false
        }
    }

    @Test("framing a long stream keeps its buffer small")
    func longStream() throws {
        var framer = LineFramer(maximumLineBytes: 1024)
        var count = 0
        let line = Array((String(repeating: "y", count: 100) + "\n").utf8)
        for _ in 0..<10_000 {
            try line.withUnsafeBytes { bytes in try framer.append(bytes) { _ in count += 1 } }
        }
        #expect(count == 10_000)
        try framer.finish()
    }

    @Test("lines are written as compact single-line JSON with sorted keys and base64url bytes")
    func encoding() throws {
        let params = JSONRPCParams.AddCredential(
            session: "s1", credential: CredentialFixture(username: "a\nb", credentialID: Data([0xFB, 0xFF]), publicKey: Data()))
        let line = try JSONRPCCodec.request(id: 3, method: JSONRPCMethod.sessionAddCredential.rawValue, params: params)
        let text = String(decoding: line, as: UTF8.self)
        #expect(
            text
                == #"{"id":3,"jsonrpc":"2.0","method":"session.addCredential","params":{"credential":{"credentialID":"-_8","publicKey":"","signCount":0,"state":"active","username":"a\nb"},"session":"s1"}}"#
                + "\n")
        let error = String(decoding: JSONRPCCodec.error(id: nil, code: -32700, message: "x"), as: UTF8.self)
        #expect(error == #"{"error":{"code":-32700,"message":"x"},"id":null,"jsonrpc":"2.0"}"# + "\n")
        let decoded = try Self.message(String(text.dropLast())).decodePayload(JSONRPCParams.AddCredential.self)
        #expect(decoded.credential == params.credential)
    }

    @Test("padded or non-base64url bytes are rejected", arguments: ["-_8=", "+/8", "-_ 8", "a"])
    func strictBytes(_ text: String) throws {
        let line =
            #"{"jsonrpc":"2.0","method":"session.timerFired","id":1,"params":{"session":"s1","credential":{"credentialID":"\#(text)","publicKey":"","signCount":0,"state":"active","username":"u"}}}"#
        #expect(throws: (any Error).self) { _ = try Self.message(line).decodePayload(JSONRPCParams.AddCredential.self) }
    }

    @Test("excerpts escape control bytes and cut long input")
    func excerpts() {
        #expect(Excerpt(Array("a\tb\n\u{1}".utf8)).text == "a\\tb\\n\\x01")
        #expect(Excerpt([0x41, 0xFF]).text == "A\\u{FFFD}")
        let long = Excerpt(Array(repeating: UInt8(ascii: "z"), count: 500)).text
        #expect(long.hasSuffix("… (500 bytes)") && long.count == 200 + "… (500 bytes)".count)
    }

    @Test("protocol versions: majors are compared", arguments: [("1.0", 1), ("1.7", 1), ("2.0", 2), ("1", nil), ("1.x", nil), ("", nil)] as [(String, Int?)])
    func versions(_ text: String, _ major: Int?) {
        #expect(ProtocolVersion.major(of: text) == major)
    }
}
