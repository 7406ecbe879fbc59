import Foundation
import Testing
import ConformanceKit
import ConformanceTestSupport
@testable import ConformanceJSONRPC
@testable import PasskeyConformanceAdapter

/// `JSONRPCAdapterServer` driven with raw lines over a pipe pair, as an adapter in another language
/// would be by the harness.
@Suite("Adapter server")
struct ServerTests {
    /// A server for a toy relying party on pipes, and a blocking line client for it.
    final class Client {
        let party = ToyRelyingParty()
        let toServer: (read: Int32, write: Int32)
        let fromServer: (read: Int32, write: Int32)
        private var framer = LineFramer(maximumLineBytes: 1 << 20)
        private var lines: [String] = []

        init() throws {
            toServer = try #require(Platform.makePipe())
            fromServer = try #require(Platform.makePipe())
            let server = JSONRPCAdapterServer(adapter: party)
            let (input, output) = (toServer.read, fromServer.write)
            Task.detached { await server.run(input: input, output: output) }
        }

        private var inputOpen = true

        deinit {
            closeInput()
            Platform.close(fromServer.read)
        }

        /// Closes the server's input (once: a descriptor closed twice may belong to another test by then).
        func closeInput() {
            if inputOpen { Platform.close(toServer.write) }
            inputOpen = false
        }

        func send(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { Platform.writeAll(toServer.write, $0) }
        }

        /// The next line from the server: waits until the pipe has bytes (in `poll`, on a dispatch
        /// thread rather than the cooperative pool), guarded only against a hang.
        func receive() async throws -> String {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while lines.isEmpty {
                guard await Self.readable(fromServer.read) else { throw AdapterFault(.timeout, "no line within \(Waiting.hangGuard)") }
                let count = buffer.withUnsafeMutableBytes { Platform.read(fromServer.read, into: $0) }
                guard count > 0 else { throw AdapterFault(.processExited, "end of output") }
                try buffer.withUnsafeBytes { bytes in
                    try framer.append(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { lines.append(String(decoding: $0, as: UTF8.self)) }
                }
            }
            return lines.removeFirst()
        }

        /// Whether `fd` became readable (bytes, end of file or an error) before the hang guard.
        static func readable(_ fd: Int32) async -> Bool {
            let millis = Int32(Waiting.hangGuard.components.seconds * 1000)
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: Platform.poll(fd, timeoutMillis: millis) == .ready) }
            }
        }

        func receiveMessage() async throws -> JSONRPCMessage {
            try JSONRPCMessage(line: ArraySlice(Array(try await receive().utf8)))
        }

        func call(_ line: String) async throws -> JSONRPCMessage {
            send(line)
            return try await receiveMessage()
        }

        func hello() async throws {
            _ = try await call(#"{"id":1,"jsonrpc":"2.0","method":"adapter.hello","params":{"protocolVersion":"1.3"}}"#)
        }

        func openSession() async throws {
            let open = try await call(
                #"{"id":2,"jsonrpc":"2.0","method":"session.open","params":{"session":"a","context":{"device":{"osVersion":"18.0","platform":"apple"},"seed":1,"target":"apple-18","testCase":"t"}}}"#
            )
            #expect(open.kind == .result)
        }
    }

    @Test("calls before adapter.hello are refused with -32002")
    func helloFirst() async throws {
        let client = try Client()
        let answer = try await client.call(#"{"id":"x","jsonrpc":"2.0","method":"session.inspectSession","params":{"session":"a"}}"#)
        #expect(answer.kind == .error && answer.decodeError().code == JSONRPCErrorCode.unsupportedVersion)
        #expect(answer.rawID.map { Array($0) } == Array(#""x""#.utf8))
    }

    @Test("another major version is refused with -32002 and the supported version")
    func versionRefused() async throws {
        let client = try Client()
        let answer = try await client.call(#"{"id":1,"jsonrpc":"2.0","method":"adapter.hello","params":{"protocolVersion":"2.0"}}"#)
        #expect(answer.kind == .error && answer.decodeError().code == -32002)
        #expect(answer.decodeError().data == .object(["supported": .string(adapterProtocolVersion)]))
    }

    @Test("a later minor version is accepted and answered with the description")
    func minorVersion() async throws {
        let client = try Client()
        let answer = try await client.call(#"{"id":1,"jsonrpc":"2.0","method":"adapter.hello","params":{"protocolVersion":"1.9"}}"#)
        #expect(try answer.decodePayload(AdapterDescription.self) == ToyRelyingParty.description)
    }

    @Test("errors: garbage, unknown methods, invalid params, unknown sessions, a session opened twice")
    func errors() async throws {
        let client = try Client()
        try await client.hello()
        client.send("not json")
        #expect(try await client.receiveMessage().decodeError().code == JSONRPCErrorCode.parseError)
        #expect(try await client.call(#"{"id":3,"jsonrpc":"2.0","method":"session.fly","params":{}}"#).decodeError().code == JSONRPCErrorCode.methodNotFound)
        #expect(
            try await client.call(#"{"id":4,"jsonrpc":"2.0","method":"clock.now","params":{"session":"a"}}"#).decodeError().code
                == JSONRPCErrorCode.methodNotFound)
        #expect(
            try await client.call(#"{"id":5,"jsonrpc":"2.0","method":"session.perform","params":{"session":"a"}}"#).decodeError().code
                == JSONRPCErrorCode.invalidParams)
        #expect(
            try await client.call(#"{"id":6,"jsonrpc":"2.0","method":"session.inspectSession","params":{"session":"zz"}}"#).decodeError().code
                == JSONRPCErrorCode.unknownSession)
        try await client.openSession()
        #expect(
            try await client.call(
                #"{"id":7,"jsonrpc":"2.0","method":"session.open","params":{"session":"a","context":{"device":{"osVersion":"18.0","platform":"apple"},"seed":1,"target":"apple-18","testCase":"t"}}}"#
            ).decodeError().code == JSONRPCErrorCode.invalidParams)
        let thrown = try await client.call(#"{"id":8,"jsonrpc":"2.0","method":"session.inspectAccount","params":{"session":"a","username":"nobody"}}"#)
        #expect(thrown.decodeError().code == JSONRPCErrorCode.adapterError && thrown.decodeError().message == "no account nobody")
    }

    @Test("a platform call answered with an error fails the request with -32003")
    func platformCallRejected() async throws {
        let client = try Client()
        try await client.hello()
        try await client.openSession()
        client.send(#"{"id":9,"jsonrpc":"2.0","method":"session.perform","params":{"session":"a","action":{"kind":"passkey-sign-in"}}}"#)
        let call = try await client.receiveMessage()
        #expect(call.kind == .request && call.method == "platform.getCredential")
        let id = String(decoding: try #require(call.rawID), as: UTF8.self)
        client.send(#"{"error":{"code":-32001,"message":"no open session a"},"id":\#(id),"jsonrpc":"2.0"}"#)
        let answer = try await client.receiveMessage()
        #expect(answer.integerID == 9 && answer.decodeError().code == JSONRPCErrorCode.platformCallFailed)
        #expect(answer.decodeError().message.contains("platform.getCredential"))
    }

    @Test("adapter.shutdown closes the sessions and shuts the relying party down before it is answered")
    func shutdown() async throws {
        let client = try Client()
        try await client.hello()
        try await client.openSession()
        let answer = try await client.call(#"{"id":3,"jsonrpc":"2.0","method":"adapter.shutdown"}"#)
        #expect(answer.kind == .result)
        #expect(client.party.record.withLock { $0.closed == 1 && $0.shutDown })
        await #expect(throws: AdapterFault.self) { _ = try await client.receive() }
    }

    @Test("end of input closes the sessions and shuts the relying party down")
    func endOfInput() async throws {
        let client = try Client()
        try await client.hello()
        try await client.openSession()
        client.closeInput()
        await #expect(throws: AdapterFault.self) { _ = try await client.receive() }
        #expect(client.party.record.withLock { $0.closed == 1 && $0.shutDown })
    }
}
