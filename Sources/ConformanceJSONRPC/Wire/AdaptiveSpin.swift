/// Waits for a descriptor to become readable by spinning briefly before blocking, and learns
/// whether spinning pays.
///
/// Waking a thread whose (virtual) CPU has gone idle can cost tens of microseconds: more than a
/// whole round trip to a fast adapter on another CPU. So a reader first polls without blocking for
/// up to `maximum`, yielding the CPU between polls (so that a peer waiting for this very CPU runs),
/// and blocks only if nothing came. While spins catch the peer's messages it goes
/// on spinning; after `missesToStop` misses in a row it blocks at once, and tries one spin again
/// every `probeInterval` waits. A slow peer, or one that needs this very CPU, thus costs at most
/// one spin in `probeInterval` waits.
struct AdaptiveSpin {
    /// The longest spin.
    static let maximum: Duration = .microseconds(50)
    /// Misses in a row after which spinning stops.
    static let missesToStop = 3
    /// Blocking waits between two trial spins once spinning has stopped.
    static let probeInterval = 16

    private var misses = 0
    private var blockedWaits = 0

    /// Whether the next wait spins.
    var spinning: Bool { misses < Self.missesToStop || blockedWaits >= Self.probeInterval }

    /// Waits until `fd` can be read or `timeoutMillis` have passed (-1: no limit).
    mutating func wait(for fd: Int32, timeoutMillis: Int32) -> Platform.PollResult {
        if spinning && timeoutMillis != 0 {
            blockedWaits = 0
            let until = ContinuousClock.now + Self.maximum
            repeat {
                if Platform.poll(fd, timeoutMillis: 0) == .ready {
                    misses = 0
                    return .ready
                }
                Platform.yieldProcessor()
            } while ContinuousClock.now < until
            misses += 1
        } else {
            blockedWaits += 1
        }
        return Platform.poll(fd, timeoutMillis: timeoutMillis)
    }
}
