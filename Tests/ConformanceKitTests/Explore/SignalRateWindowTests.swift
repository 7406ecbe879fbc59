import ConformanceKit
import Testing

/// The one count of calls in any window, shared by the N3.2-AC05 step and explore's invariant.
@Suite("signal rate window")
struct SignalRateWindowTests {
    let window = SignalRateWindow.android

    @Test("Android's window is the simulated platform's: 10 calls in any 120 seconds, stated by the step sentence")
    func android() {
        #expect(window.limit == 10 && window.windowMillis == 120_000)
        #expect(window.stepSentence == "the app never made more than 10 signal calls in any 120-second window")
        guard case .found = StepLibrary.standard.match(window.stepSentence) else {
            Issue.record("the sentence names no step")
            return
        }
    }

    @Test("11 calls within the window exceed it, from the first call of the window")
    func excess() throws {
        let times: [Int64] = [0, 5_000] + (1...10).map { 60_000 + Int64($0) * 1000 }
        let excess = try #require(window.firstExcess(times, time: { $0 }))
        #expect(excess.count == 12 && excess.first == 0)
        #expect(window.firstExcess(Array(times.prefix(10)), time: { $0 }) == nil)
    }

    @Test("a call at the window's end belongs to the next window")
    func boundary() {
        let times: [Int64] = (0..<10).map { Int64($0) } + [120_000]
        #expect(window.firstExcess(times, time: { $0 }) == nil)
        #expect(window.firstExcess(Array(times.dropLast()) + [119_999], time: { $0 })?.first == 0)
    }

    @Test("calls that do not count together (another app process) end a window")
    func together() {
        let times: [Int64] = (0..<11).map { Int64($0) * 1000 }
        #expect(window.firstExcess(times, time: { $0 })?.count == 11)
        #expect(window.firstExcess(times, time: { $0 }, together: { first, later in first >= 5000 || later < 5000 }) == nil)
    }
}
