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
