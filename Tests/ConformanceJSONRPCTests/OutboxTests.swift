import Foundation
import Synchronization
import Testing
import ConformanceTestSupport

@testable import ConformanceJSONRPC
@testable import PasskeyConformanceAdapter

/// A connection's writing end when the other end stops reading.
@Suite("Outbox")
struct OutboxTests {
    @Test("what does not fit into the pipe is queued; close() drops the queue and closes the descriptor")
    func closeWakesTheDrain() async throws {
        let pipe = try #require(Platform.makePipe())
        defer { Platform.close(pipe.read) }
        let failures = Mutex<[Int32]>([])
        let outbox = Outbox(fd: pipe.write) { error in failures.withLock { $0.append(error) } }
        // Far more than a pipe holds (64 KiB on Linux): the rest waits in the queue, its drain in `poll`.
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20) + [0x0A]
        outbox.send(line)
        // The pipe holds the first part; the rest waits for room, which nobody makes here.
        #expect(await Waiting.until { Platform.poll(pipe.read, timeoutMillis: 0) == .ready })
        outbox.close()
        // The reader gets what was in the pipe, then end of file: the queue was dropped and the
        // descriptor closed without anybody reading the rest.
        Platform.setNonBlocking(pipe.read)
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        let ended = await Waiting.until(every: .milliseconds(5)) {
            let count = buffer.withUnsafeMutableBytes { Platform.read(pipe.read, into: $0) }
            if count > 0 { received += count }
            return count == 0
        }
        #expect(ended, "the descriptor was not closed after close()")
        #expect(received > 0 && received < line.count)
        #expect(failures.withLock { $0 }.isEmpty)
    }
}
