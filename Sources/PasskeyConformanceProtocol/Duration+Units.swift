import Dispatch

extension Duration {
    /// The duration in seconds, for reports and benchmark figures.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration as a dispatch interval (whole nanoseconds, negative durations as zero), for the
    /// timers that must fire on a thread of their own however busy the cooperative pool is.
    public var dispatchInterval: DispatchTimeInterval {
        let nanoseconds = components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
        return .nanoseconds(Int(max(nanoseconds, 0)))
    }
}
