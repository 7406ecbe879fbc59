import Foundation
import Synchronization
import Testing
import ConformanceTestSupport

@testable import ConformanceJSONRPC
@testable import PasskeyConformanceAdapter

/// The connection core both ends share: calls, deadlines, the writer that never blocks, and the
/// time-outs that end when their answer comes.
@Suite("Connection core", .timeLimit(.minutes(10)))
struct ConnectionCoreTests {
    /// Reads whole lines from `fd` on a thread of its own (never on the cooperative pool) until
    /// `count` lines have come or the input ends.
    static func readLines(_ fd: Int32, count: Int) async -> [[UInt8]] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var framer = LineFramer(maximumLineBytes: 4 << 20)
                var lines: [[UInt8]] = []
                var buffer = [UInt8](repeating: 0, count: 65536)
                while lines.count < count {
                    let read = buffer.withUnsafeMutableBytes { Platform.read(fd, into: $0) }
                    if read <= 0 { break }
                    try? buffer.withUnsafeBytes { bytes in
                        try framer.append(UnsafeRawBufferPointer(rebasing: bytes[0..<read])) { lines.append(Array($0)) }
                    }
                }
                continuation.resume(returning: lines)
            }
        }
    }

    static func write(_ fd: Int32, _ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { Platform.writeAll(fd, $0) }
    }

    /// A core over two pipes, its answers settled as they come, its expired calls failed; and the
    /// test's ends of the pipes (`peerInput` writes to the core, `peerOutput` reads what it sends).
    final class Pair: Sendable {
        struct Expired: Error {}
        let connection: JSONRPCConnection<String>
        let peerInput: Int32
        let peerOutput: Int32

        init() throws {
            let toCore = try #require(Platform.makePipe())
            let fromCore = try #require(Platform.makePipe())
            peerInput = toCore.write
            peerOutput = fromCore.read
            let connection = JSONRPCConnection<String>(input: toCore.read, output: fromCore.write, maximumLineBytes: 1 << 20) { reason, _, _ in reason }
            self.connection = connection
            let weak = WeakCore(connection)
            connection.prepare(
                JSONRPCConnection.Handlers(
                    route: { inbound in
                        if case .answer(let message) = inbound { _ = weak.connection?.settle(message) }
                        return .goOn
                    },
                    ended: { _ in }, expired: { id in weak.connection?.deliver(id, .failure(Expired())) }, writeFailed: { _ in }))
        }

        deinit {
            connection.stop()
            Platform.close(peerInput)
            Platform.close(peerOutput)
        }
    }

    final class WeakCore: Sendable {
        weak let connection: JSONRPCConnection<String>?
        init(_ connection: JSONRPCConnection<String>) { self.connection = connection }
    }

    @Test("an answer settles its call and takes its deadline with it: nothing is left to expire")
    func answerEndsTheDeadline() async throws {
        let pair = try Pair()
        let connection = pair.connection
        let line = Array(#"{"id":1,"jsonrpc":"2.0","method":"clock.now","params":{"session":"s"}}"#.utf8) + [0x0A]
        let call = Task { await connection.call(connection.nextID(), line, context: "clock.now", deadline: .now + .seconds(3600)) }
        // The request on the wire: the call is registered and its deadline watched.
        let sent = await Self.readLines(pair.peerOutput, count: 1)
        #expect(sent.first.map { String(decoding: $0, as: UTF8.self) } == String(decoding: line.dropLast(), as: UTF8.self))
        #expect(connection.pendingCount == 1 && connection.deadlines.count == 1 && connection.deadlines.earliest != nil)
        Self.write(pair.peerInput, #"{"jsonrpc":"2.0","id":1,"result":{"millis":5}}"#)
        let answer = try await call.value.get()
        #expect(answer.kind == .result)
        #expect(connection.pendingCount == 0)
        #expect(connection.deadlines.count == 0 && connection.deadlines.earliest == nil, "the answered call's deadline is still watched")
    }

    @Test("a call without an answer fails when its deadline passes, and nothing of it is left pending")
    func deadlineExpires() async throws {
        let pair = try Pair()
        let connection = pair.connection
        let line = Array(#"{"id":1,"jsonrpc":"2.0","method":"clock.now","params":{"session":"s"}}"#.utf8) + [0x0A]
        let answer = await connection.call(connection.nextID(), line, context: "clock.now", deadline: .now + .milliseconds(20))
        #expect(throws: Pair.Expired.self) { try answer.get() }
        #expect(connection.pendingCount == 0 && connection.deadlines.count == 0)
    }

    @Test("a call after the close is refused with the owner's reason, and a late answer to a cancelled call is told apart")
    func closeAndCancel() async throws {
        let pair = try Pair()
        let connection = pair.connection
        let line = Array(#"{"id":1,"jsonrpc":"2.0","method":"clock.now","params":{"session":"s"}}"#.utf8) + [0x0A]
        let first = connection.nextID()
        let cancelled = Task { await connection.call(first, line, context: "clock.now", deadline: .now + .seconds(3600)) }
        _ = await Self.readLines(pair.peerOutput, count: 1)
        cancelled.cancel()
        let gaveUp = await cancelled.value
        #expect(throws: CancellationError.self) { try gaveUp.get() }
        let late = try JSONRPCMessage(line: ArraySlice(Array(#"{"jsonrpc":"2.0","id":1,"result":{}}"#.utf8)))
        #expect(connection.settle(late) == .abandoned)
        #expect(connection.settle(late) == .unknown)
        struct Gone: Error {}
        #expect(connection.close(Gone()) { _, _ in Gone() })
        #expect(!connection.close(Gone()) { _, _ in Gone() })
        let refused = await connection.call(connection.nextID(), line, context: "clock.now", deadline: .now + .seconds(3600))
        #expect(throws: Gone.self) { try refused.get() }
    }

    @Test("the adapter's writes never block: a harness that does not read holds up no task of the cooperative pool")
    func slowReaderBlocksNoTask() async throws {
        let input = try #require(Platform.makePipe())
        let output = try #require(Platform.makePipe())
        defer { Platform.close(output.read) }
        let server = ServerConnection(adapter: ToyRelyingParty(), configuration: .init(), input: input.read, output: output.write)
        let serving = Task { await server.serve() }
        // Far more than a pipe holds (64 KiB on Linux), from more tasks than the pool has threads:
        // with a blocking write each would hold its thread until the harness reads.
        let letters = Array("abcdefghijklmnop".utf8)
        await withTaskGroup(of: Bool.self) { group in
            for letter in letters {
                group.addTask { server.write([UInt8](repeating: letter, count: 256 << 10) + [0x0A]) }
            }
            for await accepted in group { #expect(accepted) }
        }
        // Every write returned while nothing was read: the group above ended. Now the harness reads: every line arrives whole, none interleaved with another.
        let lines = await Self.readLines(output.read, count: letters.count)
        #expect(lines.count == letters.count)
        #expect(Set(lines.compactMap(\.first)) == Set(letters))
        #expect(lines.allSatisfy { line in line.count == 256 << 10 && line.allSatisfy { $0 == line.first } })
        Platform.close(input.write)
        await serving.value
    }

    @Test("a wait on an occurrence cancels its time-out task the moment the occurrence comes")
    func occurrenceCancelsItsTimeout() async {
        let (events, observer) = AsyncStream<Occurrence.TimeoutEvent>.makeStream()
        let occurrence = Occurrence { observer.yield($0) }
        async let waited = occurrence.wait(within: .seconds(3600))
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .started)
        occurrence.fire()
        #expect(await waited)
        // Without the cancellation this event would come an hour later.
        #expect(await iterator.next() == .ended(cancelled: true))
    }

    @Test("a wait that times out still ends with false")
    func occurrenceTimesOut() async {
        let occurrence = Occurrence()
        #expect(await occurrence.wait(within: .milliseconds(10)) == false)
        occurrence.fire()
        #expect(await occurrence.wait(within: .seconds(3600)))
    }
}
