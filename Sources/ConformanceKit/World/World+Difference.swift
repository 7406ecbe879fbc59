import Foundation
import WebAuthn

/// Counts by difference: what the trigger caused is what this run did after the trigger minus what
/// the same scenario without its `When` steps did over the same span of virtual time.
///
/// The RP's own schedule (a reconciliation at every sign-in, a periodic timer, a heartbeat) appears
/// in both runs and cancels out, so no recurring timer is counted as the trigger's work.
struct SignalDifference {
    /// Signal calls of this run after the trigger.
    var with: [SignalCall]
    /// Signal calls of the replay without the `When` steps after the same point, up to the same moment.
    var without: [SignalCall]
    /// The user handle of each alias in this run and in the replay.
    var handles: [String: Data]
    var replayHandles: [String: Data]
    /// Notes the replay's steps left (the id of the passkey the server does not know, say).
    var replayNotes: [String: String]

    /// How many more calls this run made than the replay, among those `matching` picks; `alias`
    /// restricts both sides to calls carrying that account's user handle.
    func added(_ kind: SignalView.Kind?, alias: String? = nil, from start: Int64? = nil, where matching: (SignalCall) -> Bool = { _ in true }) -> (
        count: Int, with: [SignalCall], without: [SignalCall]
    ) {
        func pick(_ calls: [SignalCall], _ handles: [String: Data]) -> [SignalCall] {
            calls.filter { call in
                (kind == nil || call.kind == kind) && matching(call)
                    && (alias == nil || call.operation.signal?.userHandle == handles[alias!])
                    && (start == nil || call.operation.issuedAtMillis > start!)
            }
        }
        let mine = pick(with, handles)
        let theirs = pick(without, replayHandles)
        return (mine.count - theirs.count, mine, theirs)
    }

    /// One line naming both sides, for a failure message.
    static func describe(_ with: [SignalCall], _ without: [SignalCall]) -> String {
        let cited = with.isEmpty ? "" : ": " + with.map(\.cite).joined(separator: ", ")
        return "\(with.count) after the trigger\(cited); \(without.count) in the same span without the When steps"
    }
}

extension World {
    /// This run's signals after the trigger and the replay's over the same span, once this run has
    /// nothing left scheduled. The replay's transcript is copied into this one as evidence.
    func signalDifference() async throws -> SignalDifference {
        let with = try await signalsSinceTrigger()
        let now = host.now()
        let replay = try await withoutTrigger()
        try await replay.catchUp(to: now)
        let without = replay.operationsSinceTrigger.filter { $0.kind == .signal && $0.issuedAtMillis <= now }.map(SignalCall.init)
        var handles: [String: Data] = [:]
        var replayHandles: [String: Data] = [:]
        for alias in accounts.keys.sorted() {
            handles[alias] = try await inspect(alias).userHandle
            replayHandles[alias] = try await replay.inspect(alias).userHandle
        }
        copyTranscript(of: replay, until: now, signals: without.count)
        let notes = replay.notes
        await replay.session.close()
        return SignalDifference(with: with, without: without, handles: handles, replayHandles: replayHandles, replayNotes: notes)
    }

    /// Copies a replay's transcript into this one, marked as the replay's.
    func copyTranscript(of replay: World, until now: Int64, signals: Int) {
        host.record(.step, "replay.begin", "the same scenario in a fresh session without its When steps, to the same moment (\(now) ms):")
        for entry in replay.host.snapshot.transcript {
            host.record(entry.channel, "replay." + entry.name, "[replay at \(entry.atMillis) ms] " + entry.summary, payload: entry.payload)
        }
        host.record(.step, "replay.end", "without the When steps the app made \(signals) signal call(s) after the Given steps, up to \(now) ms")
    }

    /// The virtual time of the last user action the scenario performed.
    var lastUserActionMillis: Int64? {
        host.snapshot.transcript.last { $0.channel == .harnessToRP && $0.name.hasPrefix("user.") && !$0.name.hasSuffix(".result") }?.atMillis
    }
}
