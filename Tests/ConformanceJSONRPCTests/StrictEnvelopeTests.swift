import Testing
@testable import ConformanceJSONRPC
@testable import PasskeyConformanceAdapter

/// The envelope is read by the project's strict JSON reader: its refusals keep their byte offsets,
/// and a name repeated in the envelope itself stays an invalid message rather than malformed JSON.
@Suite("Wire format: strict envelope")
struct StrictEnvelopeTests {
    static func failure(_ text: String) -> JSONRPCMessage.Failure? {
        do {
            _ = try JSONRPCMessage(line: ArraySlice(Array(text.utf8)))
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "Malformed lines carry the reader's message with the byte offset",
        arguments: [
            (#"{"jsonrpc":"2.0","id":007,"method":"a"}"#, "at byte 22 (line 1, column 23): leading zero in a number"),
            (#"{"jsonrpc":"2.0","method":"a","params":{"s":1,"s":2}}"#, #"at byte 46 (line 1, column 47): duplicate member name "s" in one object"#),
            (#"{"jsonrpc":"2.0","method":"a","params":{"t":"\uDC00"}}"#, "at byte 45 (line 1, column 46): lone surrogate"),
            (#"{"jsonrpc":"2.0","method":"a","params":[1,],"id":1}"#, "at byte 41 (line 1, column 42): trailing comma before ']'"),
            (#"{"jsonrpc":"2.0","method":"a"} {}"#, "at byte 31 (line 1, column 32): unexpected '{' after the JSON value"),
        ])
    func malformed(line: String, fragment: String) throws {
        guard case .malformed(let why)? = Self.failure(line) else {
            Issue.record("not malformed: \(String(describing: Self.failure(line)))")
            return
        }
        #expect(why.contains(fragment), "\(why)")
    }

    @Test("A name repeated in the envelope is an invalid message, whichever name it is")
    func repeatedEnvelopeName() throws {
        for line in [#"{"jsonrpc":"2.0","method":"a","method":"b"}"#, #"{"jsonrpc":"2.0","method":"a","x":1,"x":2}"#] {
            guard case .invalid(let why)? = Self.failure(line) else {
                Issue.record("not invalid: \(String(describing: Self.failure(line)))")
                continue
            }
            #expect(why.hasPrefix("the member ") && why.hasSuffix(" appears twice"), "\(why)")
        }
    }

    @Test("Envelope names written with escapes are recognised")
    func escapedNames() throws {
        let message = try JSONRPCMessage(line: ArraySlice(Array(#"{"jsonrpc":"2.0","\u006Dethod":"ui.show","i\u0064":3}"#.utf8)))
        #expect(message.kind == .request && message.method == "ui.show" && message.integerID == 3)
    }
}
