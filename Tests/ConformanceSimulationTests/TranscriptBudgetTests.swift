import ConformanceModel
import ConformanceSimulation
import Foundation
import Testing

/// A relying party that sends megabytes per message cannot make one test case hold gigabytes.
@Suite("Transcript byte budget")
struct TranscriptBudgetTests {
    static let megabyteAttribute = JSONValue.object(["attributes": .object(["blob": .string(String(repeating: "x", count: 1 << 20))])])

    @Test("a payload over the budget of an entry is replaced by a marker with its size")
    func entryBudget() throws {
        var transcript = Transcript()
        transcript.record(at: 0, .rpToPlatform, "telemetry.record", "big", payload: Self.megabyteAttribute)
        let payload = try #require(transcript.entries.first?.payload?.stringValue)
        #expect(payload == "[cut: a payload of \(Self.megabyteAttribute.compactByteCount) bytes left out; over the budget of 65536 bytes per transcript entry]")
        #expect(transcript.keptBytes < 100)
    }

    @Test("two hundred payloads of 60 KB keep at most the test case's budget, the rest marked")
    func testCaseBudget() throws {
        var transcript = Transcript()
        let payload = JSONValue.string(String(repeating: "y", count: 60_000))
        for index in 0..<200 { transcript.record(at: Int64(index), .rpToPlatform, "ui.show", String(repeating: "s", count: 20_000), payload: payload) }
        // Past the budget each entry still keeps a summary of at most 1,000 characters (and the
        // interaction budget bounds the entries).
        #expect(transcript.keptBytes <= TranscriptBudget.bytesPerTestCase + TranscriptBudget.summaryCharactersPerEntry + 64 * 1024 + 200 * 1_100)
        let kept = transcript.entries.filter { $0.payload == payload }.count
        let marked = transcript.entries.filter { $0.payload?.stringValue?.contains("transcript budget of 4194304 bytes is spent") == true }.count
        #expect(kept > 0 && kept < 100, "\(kept) kept")
        #expect(kept + marked == 200)
        #expect(transcript.entries.first?.summary.contains("[cut: 3616 more characters]") == true, "a summary keeps 16 Ki characters")
        #expect(transcript.entries.last?.summary.count ?? 0 < 1_100, "once the budget is spent, a summary keeps what the evidence keeps")
        let total = transcript.entries.reduce(0) { $0 + $1.summary.utf8.count + ($1.payload?.compactByteCount ?? 0) }
        #expect(total < 5 * 1024 * 1024, "\(total) bytes kept of about 16 MB sent")
    }

    @Test("small payloads are kept whole, and the byte count matches the compact encoding")
    func smallKept() throws {
        var transcript = Transcript()
        let payload = JSONValue.object([
            "a": .array([.number(1), .number(-2.5), .bool(true), .null]), "quote\"d": .string("line\nbreak \u{1} é"),
        ])
        transcript.record(at: 0, .harnessToRP, "session.open", "s", payload: payload)
        #expect(transcript.entries.first?.payload == payload)
        let encoded = try JSONEncoder().encode(payload)
        #expect(payload.compactByteCount == encoded.count, "\(String(decoding: encoded, as: UTF8.self))")
    }
}
