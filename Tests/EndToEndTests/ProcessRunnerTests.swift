import ConformanceTestSupport
import Foundation
import Synchronization
import Testing

/// The helper every end-to-end test relies on: it must not hang, and must not lose output.
@Suite("Process runner")
struct ProcessRunnerTests {
    @Test("a process that outlives its time-out is killed and reported, not waited for")
    func timeout() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/sleep"), ["120"], timeout: .milliseconds(300))
        // Killed, not waited for: a 120-second sleep that ended by a signal, not by its own exit
        // (status 0). No wall-clock bound: a loaded machine may deliver the kill late.
        #expect(result.timedOut)
        #expect(result.status == SIGKILL || result.status == SIGTERM, "\(result)")
        #expect(clock.now - started >= result.ranFor)
    }

    @Test("process slots: never more holders than the limit, and every waiter gets its turn", .timeLimit(.minutes(10)))
    func slots() async {
        let slots = ProcessSlots(limit: 2)
        final class Counts: Sendable {
            let state = Mutex((holding: 0, most: 0, entered: 0, done: 0))
        }
        let counts = Counts()
        // The first two holders keep their slots until both hold one and every task has asked for
        // one, so the other ten ask while both slots are taken: events order this, not sleeps.
        let bothHold = Countdown(2)
        let allAsked = Countdown(12)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    allAsked.arrive()
                    await slots.acquire()
                    let order = counts.state.withLock {
                        $0.holding += 1
                        $0.most = max($0.most, $0.holding)
                        $0.entered += 1
                        return $0.entered
                    }
                    if order <= 2 {
                        bothHold.arrive()
                        await bothHold.wait()
                        await allAsked.wait()
                    }
                    await Task.yield()
                    counts.state.withLock {
                        $0.holding -= 1
                        $0.done += 1
                    }
                    slots.release()
                }
            }
        }
        let final = counts.state.withLock { $0 }
        #expect(final.done == 12)
        #expect(final.most == 2)
        #expect(final.holding == 0)
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
