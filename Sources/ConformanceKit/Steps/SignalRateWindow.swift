/// A limit on calls in any window of time: Android's signal rate limit (N3.2-AC05). The step that
/// states it in criterion files and explore's `android-rate-window` invariant both count with it.
public struct SignalRateWindow: Sendable, Hashable {
    /// The most calls any window may hold.
    public let limit: Int
    /// The window's length in milliseconds.
    public let windowMillis: Int64

    /// Creates a limit of `limit` calls in any window of `windowMillis`.
    public init(limit: Int, windowMillis: Int64) {
        self.limit = limit
        self.windowMillis = windowMillis
    }

    /// Android's: 10 `signalCredentialState` calls in any 120 seconds, as the simulated platform enforces it.
    public static let android = SignalRateWindow(limit: AndroidSimulation.signalLimit, windowMillis: AndroidSimulation.signalWindowMillis)

    /// The window's length in whole seconds.
    public var seconds: Int64 { windowMillis / 1000 }

    /// The step sentence that checks the limit over a whole test case.
    public var stepSentence: String { "the app never made more than \(limit) signal calls in any \(seconds)-second window" }

    /// The first window that holds more than `limit` calls, as the calls in it from its first; `nil`
    /// when none does.
    ///
    /// `calls` are in the order they were made (their times never decrease). A window starts at
    /// each call and holds the calls after it made within `windowMillis` for which `together` holds
    /// (calls of another app process, after a relaunch, do not count with earlier ones).
    public func firstExcess<Call>(
        _ calls: [Call], time: (Call) -> Int64, together: (Call, Call) -> Bool = { _, _ in true }
    ) -> ArraySlice<Call>? {
        for (index, first) in calls.enumerated() {
            let end = time(first) + windowMillis
            let inWindow = calls[index...].prefix { time($0) < end && together(first, $0) }
            if inWindow.count > limit { return inWindow }
        }
        return nil
    }
}
