import ConformanceModel
/// The time of one test case: virtual milliseconds, advanced only by the scenario.
///
/// Timers the relying party schedules fire in due order when the scenario lets time pass, so a
/// 120-second rate window costs microseconds and every run is the same for the same seed.
public struct VirtualClock: Sendable, Hashable {
    /// A timer the relying party scheduled.
    public struct Timer: Sendable, Hashable {
        /// The id returned to the relying party (`timer-1`, …).
        public var id: TimerID
        /// When the timer fires, in virtual milliseconds since the test case started.
        public var dueMillis: Int64
        /// The relying party's label for it, for the transcript.
        public var label: String
        /// Scheduling order, to break ties between timers due at the same time.
        var order: Int
    }

    /// Milliseconds since the test case started.
    public private(set) var nowMillis: Int64 = 0
    /// The timers scheduled and not yet fired or cancelled, in scheduling order.
    public private(set) var timers: [Timer] = []
    private var nextTimer = 1

    /// Creates a clock at 0 with no timers.
    public init() {}

    /// The virtual time one test case may cover: 30 days, far beyond any scenario's need (the whole
    /// suite covers about 7 hours) and far below `Int64.max`, so that no sum of times overflows.
    public static let budgetMillis: Int64 = 30 * 24 * 3_600_000

    /// `now + millis`, saturating at `Int64.max` instead of overflowing (negative delays count as zero).
    public static func adding(_ millis: Int64, to now: Int64) -> Int64 {
        let (sum, overflow) = now.addingReportingOverflow(max(0, millis))
        return overflow ? .max : sum
    }

    /// The time `millis` after `now` that a scenario may let pass to, or the reason it may not: a
    /// negative duration, or one that leaves the test case's `budgetMillis`.
    public static func deadline(after millis: Int64, from now: Int64) throws(SystemIssue) -> Int64 {
        guard millis >= 0 else { throw SystemIssue("virtual time cannot go back: \(millis) ms") }
        let limit = adding(millis, to: now)
        guard limit <= budgetMillis else {
            throw SystemIssue("letting \(millis) ms pass at \(now) ms exceeds the test case's budget of virtual time (\(budgetMillis / 86_400_000) days)")
        }
        return limit
    }

    /// Schedules a timer `afterMillis` from now (negative delays count as zero; a due time beyond
    /// `Int64.max` saturates there, so such a timer simply never comes due within the budget).
    public mutating func schedule(afterMillis: Int64, label: String) -> TimerID {
        let id: TimerID = "timer-\(nextTimer)"
        timers.append(Timer(id: id, dueMillis: Self.adding(afterMillis, to: nowMillis), label: label, order: nextTimer))
        nextTimer += 1
        return id
    }

    /// Cancels a timer; cancelling an unknown or fired timer does nothing.
    public mutating func cancel(_ id: TimerID) {
        timers.removeAll { $0.id == id }
    }

    /// Removes and returns the earliest timer due at or before `limit`, moving the clock to its due time.
    public mutating func popDue(notAfter limit: Int64) -> Timer? {
        guard let next = timers.min(by: { ($0.dueMillis, $0.order) < ($1.dueMillis, $1.order) }), next.dueMillis <= limit else {
            return nil
        }
        timers.removeAll { $0.id == next.id }
        nowMillis = max(nowMillis, next.dueMillis)
        return next
    }

    /// Removes and returns the earliest timer due at or before `limit` that `deferring` does not
    /// pick, or else the earliest one it picks, moving the clock to its due time (never backwards):
    /// a deferred timer then fires late, after the others.
    public mutating func popDue(notAfter limit: Int64, deferring: (Timer) -> Bool) -> Timer? {
        let due = timers.filter { $0.dueMillis <= limit }.sorted { ($0.dueMillis, $0.order) < ($1.dueMillis, $1.order) }
        guard let next = due.first(where: { !deferring($0) }) ?? due.first else { return nil }
        timers.removeAll { $0.id == next.id }
        nowMillis = max(nowMillis, next.dueMillis)
        return next
    }

    /// Moves the clock forward to `millis` (never backwards).
    public mutating func move(to millis: Int64) {
        nowMillis = max(nowMillis, millis)
    }
}

/// The transcript of one test case: every call between harness, relying party and platform.
public struct Transcript: Sendable, Hashable {
    /// The entries in order; an entry's `sequence` is its position from 1.
    public private(set) var entries: [TranscriptEntry] = []
    /// The bytes of payloads and summaries kept so far (see `TranscriptBudget`).
    public private(set) var keptBytes = 0

    /// Creates an empty transcript.
    public init() {}

    /// Appends an entry and returns its sequence number.
    ///
    /// The payload and summary are kept within `TranscriptBudget`: a payload over the budget of an
    /// entry, or one that would overrun the test case's budget, is replaced by a marker with its size.
    @discardableResult
    public mutating func record(at millis: Int64, _ channel: TranscriptEntry.Channel, _ name: String, _ summary: String, payload: JSONValue? = nil) -> Int {
        let sequence = entries.count + 1
        let spent = keptBytes >= TranscriptBudget.bytesPerTestCase
        let keptSummary = Caps.text(
            summary, limit: spent ? TranscriptBudget.summaryCharactersOverBudget : TranscriptBudget.summaryCharactersPerEntry)
        keptBytes += keptSummary.utf8.count
        var keptPayload = payload
        if let payload {
            let bytes = payload.compactByteCount
            if bytes > TranscriptBudget.payloadBytesPerEntry {
                keptPayload = TranscriptBudget.marker(
                    bytes: bytes, reason: "over the budget of \(TranscriptBudget.payloadBytesPerEntry) bytes per transcript entry")
            } else if keptBytes + bytes > TranscriptBudget.bytesPerTestCase {
                keptPayload = TranscriptBudget.marker(
                    bytes: bytes, reason: "the test case's transcript budget of \(TranscriptBudget.bytesPerTestCase) bytes is spent")
            } else {
                keptBytes += bytes
            }
        }
        entries.append(TranscriptEntry(sequence: sequence, atMillis: millis, channel: channel, name: name, summary: keptSummary, payload: keptPayload))
        return sequence
    }

    /// The entries from `sequence` on (inclusive).
    public func since(_ sequence: Int) -> ArraySlice<TranscriptEntry> {
        entries[min(max(0, sequence - 1), entries.count)...]
    }
}
