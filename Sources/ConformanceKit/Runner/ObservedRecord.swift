/// The compact record of what a test case's checks read, kept for passes as well as failures.
///
/// The checks of a scenario judge what happened after its trigger (the first `When` step): the
/// platform calls the app made and how the platform answered, what the app showed and logged, the
/// accounts and sessions the harness inspected, and how long the app took to have nothing left
/// scheduled. The record keeps exactly those transcript entries, one line each, without payloads:
/// `#12 300 ms platform.createCredential: op-3: conditional, 2 excluded ids`. The bookkeeping of
/// the run itself (step markers, timers scheduled, cancelled and fired, the entries of a replay
/// without the trigger) is left out; a replay keeps its closing line, which states what it found.
public enum ObservedRecord {
    /// The most lines a record keeps; a longer one keeps its first and last lines around a line
    /// that says how many were left out.
    public static let lineLimit = 16
    /// The most characters of one entry's summary a line keeps.
    public static let summaryLimit = 160

    /// Names of entries that record the run's own bookkeeping, not an observation.
    static let bookkeeping: Set<String> = ["step", "trigger", "clock.schedule", "clock.cancel", "session.timerFired", "replay.begin"]

    /// Whether a transcript entry is an observation a check reads.
    static func isObservation(_ entry: TranscriptEntry) -> Bool {
        if bookkeeping.contains(entry.name) || entry.name.hasPrefix("step.") { return false }
        if entry.name.hasPrefix("replay.") { return entry.name == "replay.end" }
        return true
    }

    /// The record of a transcript: the observations after `trigger` (all of them without one).
    public static func lines(_ transcript: [TranscriptEntry], trigger: Int?) -> [String] {
        let from = trigger ?? 0
        let observed = transcript.filter { $0.sequence > from && isObservation($0) }.map(line)
        guard observed.count > lineLimit else { return observed }
        let head = lineLimit / 3
        let tail = lineLimit - head - 1
        return Array(observed.prefix(head)) + ["… \(observed.count - head - tail) more observations …"] + Array(observed.suffix(tail))
    }

    /// `#12 300 ms platform.createCredential: summary`
    static func line(_ entry: TranscriptEntry) -> String {
        var summary = entry.summary
        if summary.count > summaryLimit { summary = String(summary.prefix(summaryLimit - 1)) + "…" }
        return "#\(entry.sequence) \(entry.atMillis) ms \(entry.name): \(summary)"
    }
}
