import Foundation
import ConformanceKit
package enum Experiment {
    package static func syncClient(adapterCommand: String, n: Int) throws -> Double {
        let (child, pipes) = try ChildProcess.launch(executable: "/bin/sh", arguments: ["-c", adapterCommand], environment: [:], workingDirectory: nil, captureStandardError: false)
        defer { child.terminate(grace: .seconds(1)) }
        var framer = LineFramer(maximumLineBytes: 1 << 20)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        var id = 0
        func call<P: Encodable, R: Decodable>(_ method: String, _ p: P, _ r: R.Type) throws -> R {
            id += 1
            let line = try JSONRPCCodec.request(id: id, method: method, params: p)
            _ = line.withUnsafeBytes { Platform.writeAll(pipes.toChild, $0) }
            var answer: JSONRPCMessage?
            while answer == nil {
                _ = Platform.poll(pipes.fromChild, timeoutMillis: 1000)
                let count = Platform.read(pipes.fromChild, into: buffer)
                try framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { answer = try JSONRPCMessage(line: $0) }
            }
            return try answer!.decodePayload(R.self)
        }
        _ = try call("adapter.hello", JSONRPCParams.Hello(protocolVersion: "1.0"), AdapterDescription.self)
        _ = try call("session.open", JSONRPCParams.Open(session: "s1", context: SessionContext(testCase: "b", target: "apple-18", device: DeviceInfo(platform: .apple, osVersion: "18"), seed: 1)), JSONRPCParams.Session.self)
        for _ in 0..<n { _ = try call("session.inspectSession", JSONRPCParams.Session(session: "s1"), SessionSnapshot.self) }
        let start = ContinuousClock.now
        for _ in 0..<n { _ = try call("session.inspectSession", JSONRPCParams.Session(session: "s1"), SessionSnapshot.self) }
        let d = ContinuousClock.now - start
        return (Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) / Double(n)
    }
}
extension JSONRPCBenchmark {
    package struct NullHostPublic: PlatformHost {
        package init() {}
        package func createCredential(_ request: CreateCredentialRequest) -> OperationID { "op" }
        package func getCredential(_ request: GetCredentialRequest) -> OperationID { "op" }
        package func signal(_ request: SignalRequest) -> OperationID { "op" }
        package func now() -> Int64 { 0 }
        package func scheduleTimer(afterMillis: Int64, label: String) -> TimerID { "t" }
        package func cancelTimer(_ timer: TimerID) {}
        package func show(_ event: UIEvent) {}
        package func telemetry(_ event: TelemetryEvent) {}
    }
}
extension Experiment {
    /// Raw client (no JSON work) against the real adapter server.
    package static func rawClientAgainstServer(adapterCommand: String, n: Int) throws -> Double {
        let (child, pipes) = try ChildProcess.launch(executable: "/bin/sh", arguments: ["-c", adapterCommand], environment: [:], workingDirectory: nil, captureStandardError: false)
        defer { child.terminate(grace: .seconds(1)) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        func send(_ text: String) throws {
            let line = Array((text + "\n").utf8)
            _ = line.withUnsafeBytes { Platform.writeAll(pipes.toChild, $0) }
            var got = 0
            while true {
                let c = Platform.read(pipes.fromChild, into: UnsafeMutableRawBufferPointer(rebasing: buffer[got...]))
                if c <= 0 { throw AdapterFault(.processExited, "x") }
                got += c
                if buffer[got - 1] == 0x0A { return }
            }
        }
        try send(#"{"id":1,"jsonrpc":"2.0","method":"adapter.hello","params":{"protocolVersion":"1.0"}}"#)
        try send(#"{"id":2,"jsonrpc":"2.0","method":"session.open","params":{"context":{"device":{"osVersion":"18","platform":"apple"},"seed":1,"target":"apple-18","testCase":"b"},"session":"s1"}}"#)
        let req = #"{"id":3,"jsonrpc":"2.0","method":"session.inspectSession","params":{"session":"s1"}}"#
        for _ in 0..<n { try send(req) }
        let start = ContinuousClock.now
        for _ in 0..<n { try send(req) }
        let d = ContinuousClock.now - start
        return (Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) / Double(n)
    }
}
