#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// `SIGINT`, `SIGTERM` and `SIGHUP` from the first statement of the executable's `main`, before any
/// command exists: a handler records the first one instead of letting it end the process. A command
/// that reports interruptions (`run`, `explore`) takes the recorded signal when its
/// `InterruptionMonitor` is made, and ends with a report marked interrupted; every other command
/// gives the signals their default meaning back as soon as it is known, and a signal recorded until
/// then ends it as the signal would have (exit 128 + the signal's number).
///
/// What is left is the time the dynamic loader and the Swift runtime take before `main`'s first
/// statement, during which the signal's default action applies (see `Documentation/report-format.md`).
package enum EarlySignals {
    /// The signals handled.
    static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The first signal recorded and not yet taken, 0 for none.
    private static let pending = Atomic<Int32>(0)

    /// Installs the recording handlers; the executable's first statement.
    package static func install() {
        for number in numbers {
            // A signal handler may only do what is async-signal-safe: one lock-free atomic store.
            _ = signal(number) { received in _ = EarlySignals.pending.compareExchange(expected: 0, desired: received, ordering: .relaxed) }
        }
    }

    /// The recorded signal, taken once (0 for none).
    static func take() -> Int32 { pending.exchange(0, ordering: .relaxed) }

    /// For a command that does not report interruptions: the default actions back, and the exit
    /// status of a signal recorded until now (`nil` for none).
    static func handOver() -> Int32? {
        for number in numbers { _ = signal(number, SIG_DFL) }
        let received = take()
        return received == 0 ? nil : 128 + received
    }
}
