import ConformanceTestSupport
import Foundation
import Testing

/// The helper every end-to-end test relies on: it must not hang, and must not lose output.
@Suite("Process runner")
struct ProcessRunnerTests {
    @Test("a process that outlives its time-out is killed and reported")
    func timeout() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/sleep"), ["120"], timeout: .milliseconds(300))
        #expect(result.timedOut)
        #expect(result.status == SIGKILL, "killed by SIGKILL, not ended by itself: \(result)")
        #expect(clock.now - started < .seconds(60))
    }

    @Test("large output on both streams arrives whole, with the exit status")
    func output() async throws {
        let script = "head -c 300000 /dev/zero | tr '\\0' a; head -c 200000 /dev/zero | tr '\\0' b >&2; exit 3"
        let result = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        #expect(!result.timedOut)
        #expect(result.status == 3)
        #expect(result.stdout.count == 300_000 && result.stdout.allSatisfy { $0 == "a" })
        #expect(result.stderr.count == 200_000 && result.stderr.allSatisfy { $0 == "b" })
    }
}
