import Foundation
import WebAuthn

/// Checks every `ExploreInvariant` after each step of a history, over the transcript, the
/// platform's operations and the server's records read before and after the step.
///
/// After a step the monitor first notes what the step did (sign-ins, context changes, operations
/// issued and delivered, live responses), then asks each invariant's check at its moment (see
/// `ExploreInvariant.Check`); the first breach is the violation.
package final class InvariantMonitor {
    let world: World
    var record = Record()
    var seenOperations = 0
    var before: [String: AccountSnapshot] = [:]
    var sessionBefore: SessionSnapshot?
    var marker = 0
    var uiMarker = 0
    /// The accounts and session read after the last step: nothing runs between one step's end and
    /// the next one's start, so they are the next step's state before it.
    var carried: (accounts: [String: AccountSnapshot], session: SessionSnapshot)?

    package init(world: World) { self.world = world }

    /// The server's record of every account of the history, by alias, and the app's session: one
    /// `session.inspect` for an adapter of 1.4.
    func state() async throws -> (accounts: [String: AccountSnapshot], session: SessionSnapshot) {
        let aliases = world.accounts.keys.sorted()
        let snapshot = try await world.session.inspect(usernames: aliases.compactMap { world.accounts[$0]?.username })
        return (Dictionary(uniqueKeysWithValues: zip(aliases, snapshot.accounts)), snapshot.session)
    }

    /// Notes the state before a step runs.
    package func beforeStep() async throws {
        let state: (accounts: [String: AccountSnapshot], session: SessionSnapshot)
        if let carried { state = carried } else { state = try await self.state() }
        (before, sessionBefore) = (state.accounts, state.session)
        marker = world.host.transcriptCount
        uiMarker = world.host.snapshot.uiEvents.count
        carried = nil
        world.lastOutcome = nil
    }

    /// Checks every invariant after step `index` ran; the first violation, if any.
    package func afterStep(_ index: Int, step: ExploreStep) async throws -> ExploreViolation? {
        let kind = StepKind(step)
        let snapshot = world.host.snapshot
        var facts = StepFacts(
            index: index, step: step, target: world.target, snapshot: snapshot, before: before, after: [:], new: [], uiMarker: uiMarker)
        if kind.isUserAction,
            let found = first(
                in: ExploreInvariant.all, facts: facts,
                { check, facts, record in
                    guard case .obligation(let check) = check else { return nil }
                    return check(facts, record)
                })
        {
            return found
        }
        let (after, sessionAfter) = try await state()
        facts = StepFacts(
            index: index, step: step, target: world.target, snapshot: snapshot, before: before, after: after,
            new: snapshot.operations[seenOperations...], uiMarker: uiMarker)
        seenOperations = snapshot.operations.count
        noteSignIn(facts)
        carried = (after, sessionAfter)
        noteContextChange(facts, sessionAfter: sessionAfter)
        noteOperations(facts)
        for operation in facts.new where operation.kind == .create {
            // The modal creation the user asked for from the settings is no request of the upgrade's.
            if step == .createPasskeyFromSettings, operation.registration?.conditional == false { continue }
            let request = noteRequest(operation)
            if let found = first(
                in: ExploreInvariant.all, facts: facts,
                { check, facts, record in
                    guard case .registrationRequest(let check) = check else { return nil }
                    return check(request, facts, record)
                })
            {
                return found
            }
        }
        noteLiveResponses(facts)
        if let found = first(
            in: ExploreInvariant.all, facts: facts,
            { check, facts, record in
                guard case .step(let check) = check else { return nil }
                return check(facts, record)
            })
        {
            return found
        }
        return signalViolation(facts)
    }

    /// The first breach of the signal invariants: each signal call of the step, then the calls so far.
    func signalViolation(_ facts: StepFacts) -> ExploreViolation? {
        guard facts.new.contains(where: { $0.kind == .signal }) else { return nil }
        var facts = facts
        facts.sessions = [sessionBefore, carried?.session].compactMap { $0 }
        facts.exactValues = ExactValues(
            accounts: Array(before.values) + Array(facts.after.values), providerIDs: facts.snapshot.provider.passkeys.map(\.credentialID))
        for operation in facts.new where operation.kind == .signal {
            if let found = first(
                in: ExploreInvariant.all, facts: facts,
                { check, facts, _ in
                    guard case .signal(let check) = check else { return nil }
                    return check(operation, facts)
                })
            {
                return found
            }
        }
        return first(in: ExploreInvariant.all, facts: facts) { check, facts, record in
            guard case .signalCalls(let check) = check else { return nil }
            return check(facts, record)
        }
    }

    /// The first invariant, in order, whose check at this moment finds a breach, as a violation.
    /// `ask` gets the facts and the record as they are now, read once for every invariant (read
    /// from the monitor by each check, they would be copied for each).
    func first(
        in invariants: [ExploreInvariant], facts: StepFacts, _ ask: (ExploreInvariant.Check, StepFacts, Record) -> ExploreInvariant.Breach?
    ) -> ExploreViolation? {
        let record = record
        for invariant in invariants {
            guard let breach = ask(invariant.check, facts, record) else { continue }
            return ExploreViolation(invariant: invariant, item: breach.item ?? invariant.item, stepIndex: facts.index, message: breach.message)
        }
        return nil
    }

    /// How long after its request a response released without a context change must still be
    /// stored: N2.6-AC06's control releases it at the earliest moment
    /// (`HarnessBounds.controlReleaseMillis`), before any challenge lifetime a conforming RP may choose.
    static let liveReleaseMillis: Int64 = HarnessBounds.controlReleaseMillis
}
