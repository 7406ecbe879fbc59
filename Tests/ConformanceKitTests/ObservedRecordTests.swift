import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// Passes keep a compact record of what their checks read; `--evidence all` keeps the transcript too.
@Suite("Observed record of every test case")
struct ObservedRecordTests {
    @Test("a pass keeps what happened after the trigger, without payloads, and no transcript by default")
    func passKeepsObservations() async throws {
        let plan = try RunnerTests.plan([.init("Fine", steps: ["When the user refreshes as alice", "Then the step passes"])])
        let adapter = FakeAdapter()
        let result = try #require(await Runner(adapter: adapter, library: TestSteps.library).run(plan, description: adapter.description).first)
        #expect(result.verdict == .passed)
        #expect(result.evidence.isEmpty)
        // The user action the check judged is there; the step markers and the session's opening are not.
        #expect(result.observed.contains { $0.contains("user.recovery-sign-in") }, "\(result.observed)")
        #expect(!result.observed.contains { $0.contains(" step: ") || $0.contains("session.open") }, "\(result.observed)")
        #expect(result.observed.allSatisfy { $0.hasPrefix("#") })
    }

    @Test("with transcripts kept for passes, a pass carries its whole transcript as evidence")
    func evidenceAll() async throws {
        let plan = try RunnerTests.plan([.init("Fine", steps: ["When the user refreshes as alice", "Then the step passes"])])
        let adapter = FakeAdapter()
        let runner = Runner(adapter: adapter, library: TestSteps.library, keepsTranscriptsOfPasses: true)
        let result = try #require(await runner.run(plan, description: adapter.description).first)
        #expect(result.verdict == .passed)
        #expect(result.evidence.contains { $0.name == "session.open" })
        #expect(!result.observed.isEmpty)
    }

    @Test("a long record keeps its first and last lines around one that counts the rest")
    func longRecordIsCut() {
        let transcript = (1...40).map { TranscriptEntry(sequence: $0, atMillis: Int64($0), channel: .rpToPlatform, name: "telemetry", summary: "event \($0)") }
        let lines = ObservedRecord.lines(transcript, trigger: 2)
        #expect(lines.count == ObservedRecord.lineLimit)
        #expect(lines.first == "#3 3 ms telemetry: event 3")
        #expect(lines.last == "#40 40 ms telemetry: event 40")
        #expect(lines.contains("… 23 more observations …"))
    }

    @Test("bookkeeping is left out: timers, step markers, a replay's entries but its closing line")
    func bookkeepingLeftOut() {
        let names = ["step", "clock.schedule", "session.timerFired", "replay.begin", "replay.platform.signal", "replay.end", "session.inspectAccount"]
        let transcript = names.enumerated().map { TranscriptEntry(sequence: $0.offset + 1, atMillis: 0, channel: .step, name: $0.element, summary: "x") }
        #expect(ObservedRecord.lines(transcript, trigger: nil) == ["#6 0 ms replay.end: x", "#7 0 ms session.inspectAccount: x"])
    }
}
