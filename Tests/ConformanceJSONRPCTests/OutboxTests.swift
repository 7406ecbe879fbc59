import Foundation
import Synchronization
import Testing

@testable import ConformanceJSONRPC

/// The harness's writing end when the adapter stops reading.
@Suite("Outbox")
struct OutboxTests {
    @Test("what does not fit into the pipe is queued; close() ends the waiting drain and closes the descriptor")
    func closeWakesTheDrain() async throws {
        let pipe = try #require(Platform.makePipe())
        defer { Platform.close(pipe.read) }
        let failures = Mutex<[Int32]>([])
        let outbox = Outbox(fd: pipe.write) { error in failures.withLock { $0.append(error) } }
        // Far more than a pipe holds (64 KiB on Linux): the rest waits in the queue, its drain in `poll`.
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20) + [0x0A]
        outbox.send(line)
        // Time for the drain to start waiting for room (it waits the same way if it has not yet).
        try await Task.sleep(for: .milliseconds(100))
        outbox.close()
        // The reader gets what was in the pipe, then end of file: the drain ended and closed the
        // descriptor without anybody reading the rest.
        Platform.setNonBlocking(pipe.read)
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .seconds(10)
        var ended = false
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { Platform.read(pipe.read, into: $0) }
            if count == 0 {
                ended = true
                break
            }
            if count > 0 {
                received += count
            } else {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        #expect(ended, "the descriptor was not closed within 10 s of close()")
        #expect(received > 0 && received < line.count)
        #expect(failures.withLock { $0 }.isEmpty)
    }
}
