import Foundation

/// Text by cause, then by meaning: what the app shows is first attributed to its cause by
/// difference, and only what the cause made it show is judged for a claim.
///
/// An event is shown *only because* of a cause when the same scenario, replayed in a fresh session
/// with one platform decision changed so that the cause does not happen, does not show it: the
/// credential manager declines instead of creating (the upgrade's success), creates instead of
/// declining (a no-create), or the platform offers no signal interface (a signal the platform
/// accepted, or one the app was about to send). The two runs' events are compared by kind and text,
/// in order, each event of the replay standing for one of this run at most (a longest common
/// subsequence): a home screen or a status line the app shows whatever happened appears in both and
/// is not attributed, in whatever words or language; an attributed event is judged in any language,
/// and a reader of English text may only excuse it (`UpgradeClaims`, `ProviderClaim`).
extension World {
    /// One platform decision a counterfactual run of the whole scenario changes.
    public enum Counterfactual: Sendable, Hashable {
        /// The credential manager answers every conditional registration request so.
        case conditionalAnswer(ProviderState.ConditionalAnswer)
        /// The platform offers no signal interface (`Target.withoutSignalInterface`).
        case noSignalInterface

        /// How a transcript and a verdict name the replay: "where the credential manager declines …".
        var phrase: String {
            switch self {
            case .conditionalAnswer(.create): "where the credential manager creates a passkey for every conditional request"
            case .conditionalAnswer(.decline): "where the credential manager declines every conditional request"
            case .noSignalInterface: "where the platform offers no signal interface"
            }
        }
    }

    /// What the app showed after a cause and did not show in the replay where the cause does not
    /// happen, less what the reader excuses.
    struct Attribution {
        /// Events of this run after the cause that the replay did not show and the reader does not excuse, in order.
        var events: [Timed<UIEvent>]
        /// The replay's decision, for a verdict; `nil` when no replay ran.
        var change: Counterfactual?
    }

    /// The events this run showed after transcript entry `cause` that the same scenario replayed
    /// with `change` did not show, less those `excused` excuses. Replays only when an event after
    /// the cause is not excused: an excused event passes whatever caused it. The replay's
    /// transcript is copied into this one as evidence.
    /// With `untilUserActs`, only what the app showed before the user's next action counts: its own
    /// reaction to the cause, not the answer to something the user asked for later (a passkey list
    /// the user opens shows what the account holds, whatever led there).
    func shownOnlyBecause(
        after cause: Int, untilUserActs: Bool = false, unless change: Counterfactual, excusing excused: (UIEvent) -> Bool
    ) async throws -> Attribution {
        try await quiesce()
        let snapshot = host.snapshot
        let end =
            untilUserActs
            ? snapshot.transcript.first { $0.sequence > cause && $0.channel == .harnessToRP && $0.name.hasPrefix("user.") && !$0.name.hasSuffix(".result") }?
                .sequence ?? Int.max : Int.max
        let shown = snapshot.uiEvents
        func judged(_ event: Timed<UIEvent>) -> Bool { event.sequence > cause && event.sequence < end && !excused(event.value) }
        guard shown.contains(where: judged) else { return Attribution(events: [], change: nil) }
        guard let replayChanging else { throw SystemIssue("this runner cannot replay a scenario \(change.phrase)") }
        let now = host.now()
        let replay = try await replayChanging(change)
        try await replay.catchUp(to: now)
        let other = replay.host.snapshot.uiEvents
        let matched = Self.matchedInOrder(shown.map(\.value), other.map(\.value))
        let attributed = shown.indices.filter { judged(shown[$0]) && !matched.contains($0) }.map { shown[$0] }
        host.record(.step, "replay.begin", "the same scenario in a fresh session \(change.phrase), to the same moment (\(now) ms):")
        // The replay's timers are left out (a heartbeat's firings could fill the test case's budget of interactions).
        for entry in replay.host.snapshot.transcript where !Self.timerBookkeeping.contains(entry.name) {
            host.record(entry.channel, "replay." + entry.name, "[replay at \(entry.atMillis) ms] " + entry.summary, payload: entry.payload)
        }
        host.record(
            .step, "replay.end",
            "\(change.phrase.prefix(1).uppercased() + change.phrase.dropFirst()) the app showed \(other.count) event(s); "
                + (attributed.isEmpty
                    ? "it showed everything this run showed after #\(cause) that the harness's reader does not excuse"
                    : "it did not show " + attributed.map { "#\($0.sequence)" }.joined(separator: ", ")))
        await replay.session.close()
        return Attribution(events: attributed, change: change)
    }

    /// Transcript entries of a replay's timers, which its copy leaves out.
    static let timerBookkeeping: Set<String> = ["clock.schedule", "clock.cancel", "session.timerFired"]

    /// The most cells the table of `matchedInOrder` may have (8 MB); beyond it, a greedy pairing.
    static let matchingTableLimit = 1_000_000

    /// The indices of `events` that a longest common subsequence with `others` pairs, by kind and
    /// text: the events both runs showed, in the same order, each of the other run used once. Runs
    /// that showed too many events for the table (`matchingTableLimit`) are paired greedily in order,
    /// which pairs no more than the longest subsequence would: it can only attribute more.
    static func matchedInOrder(_ events: [UIEvent], _ others: [UIEvent]) -> Set<Int> {
        guard !events.isEmpty, !others.isEmpty else { return [] }
        guard events.count * others.count <= matchingTableLimit else { return greedilyMatched(events, others) }
        // lengths[i][j]: the longest common subsequence of events[i...] and others[j...].
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: others.count + 1), count: events.count + 1)
        for i in stride(from: events.count - 1, through: 0, by: -1) {
            for j in stride(from: others.count - 1, through: 0, by: -1) {
                lengths[i][j] = events[i] == others[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var matched: Set<Int> = []
        var (i, j) = (0, 0)
        while i < events.count, j < others.count {
            if events[i] == others[j] {
                matched.insert(i)
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return matched
    }

    /// The indices of `events` paired in order with the first unused equal event of `others` after
    /// the last one paired: a common subsequence, in time linear in both runs' events.
    static func greedilyMatched(_ events: [UIEvent], _ others: [UIEvent]) -> Set<Int> {
        var positions: [UIEvent: [Int]] = [:]
        for (index, event) in others.enumerated() { positions[event, default: []].append(index) }
        var cursors: [UIEvent: Int] = [:]
        var matched: Set<Int> = []
        var next = 0
        for (index, event) in events.enumerated() {
            guard let list = positions[event] else { continue }
            var cursor = cursors[event, default: 0]
            while cursor < list.count, list[cursor] < next { cursor += 1 }
            guard cursor < list.count else {
                cursors[event] = cursor
                continue
            }
            matched.insert(index)
            next = list[cursor] + 1
            cursors[event] = cursor + 1
        }
        return matched
    }

    /// The transcript sequence at which the outcome of `operation` reached the app; `nil` while it is held.
    func deliverySequence(of operation: PlatformOperation) -> Int? {
        host.snapshot.transcript.first { $0.name == "session.platformCompleted" && $0.summary.hasPrefix("\(operation.id) ") }?.sequence
    }

    /// The first conditional registration request whose outcome reached the app and that `matching`
    /// picks, with the sequence at which it was delivered.
    func firstDeliveredConditionalRegistration(_ matching: (PlatformOperation) -> Bool) -> (operation: PlatformOperation, delivered: Int)? {
        for operation in registrations where operation.registration?.conditional == true && matching(operation) {
            if let delivered = deliverySequence(of: operation) { return (operation, delivered) }
        }
        return nil
    }
}
