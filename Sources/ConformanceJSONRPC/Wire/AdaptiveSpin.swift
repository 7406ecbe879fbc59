/// Waits for a descriptor to become readable by spinning briefly before blocking, and learns
/// whether spinning pays.
///
/// Waking a thread whose (virtual) CPU has gone idle can cost tens of microseconds: more than a
/// whole round trip to a fast adapter on another CPU. So a reader first polls without blocking for
/// up to `maximum`, yielding the CPU between polls (so that a peer waiting for this very CPU runs),
/// and blocks only if nothing came. While spins catch the peer's messages it goes on spinning;
/// after `missesToStop` misses in a row it blocks at once and tries one spin again after
/// `firstProbe` waits, then after twice as many each time a trial misses, up to `lastProbe`. A slow
/// peer, or one that needs this very CPU, soon costs next to no spinning.
struct AdaptiveSpin {
    /// The longest spin.
    static let maximum: Duration = .microseconds(50)
    /// Misses in a row after which spinning stops.
    static let missesToStop = 3
    /// Blocking waits before the first trial spin once spinning has stopped.
    static let firstProbe = 16
    /// The longest interval between trial spins.
    static let lastProbe = 1024

    private var misses = 0
    private var blockedWaits = 0
    private var probeInterval = Self.firstProbe

    /// Whether the next wait spins.
    var spinning: Bool { misses < Self.missesToStop || blockedWaits >= probeInterval }

    /// Waits until `fd` can be read or `timeoutMillis` have passed (-1: no limit).
    mutating func wait(for fd: Int32, timeoutMillis: Int32) -> Platform.PollResult {
        if spinning && timeoutMillis != 0 {
            let probing = misses >= Self.missesToStop
            blockedWaits = 0
            let until = ContinuousClock.now + Self.maximum
            repeat {
                if Platform.poll(fd, timeoutMillis: 0) == .ready {
                    misses = 0
                    probeInterval = Self.firstProbe
                    return .ready
                }
                Platform.yieldProcessor()
            } while ContinuousClock.now < until
            misses += 1
            if probing { probeInterval = min(probeInterval * 2, Self.lastProbe) }
        } else {
            blockedWaits += 1
        }
        return Platform.poll(fd, timeoutMillis: timeoutMillis)
    }
}
