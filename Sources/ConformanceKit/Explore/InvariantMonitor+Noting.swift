import Foundation

/// What the monitor notes of each step before the invariants are asked: one small function per
/// kind of event.
extension InvariantMonitor {
    /// Whether a qualifying sign-in of an account owes a registration request (see `SignInEvent.owesRequest`).
    func owes(_ username: String) -> Bool {
        world.target.has(.conditionalCreateAPI) && world.adapter.capabilities.contains(.conditionalCreate)
            && before.values.contains { $0.username == username }
    }

    /// A sign-in step, as the app answered it; user actions and relaunches.
    func noteSignIn(_ facts: StepFacts) {
        let index = facts.index
        let outcome = world.lastOutcome?.status
        let now = facts.snapshot.nowMillis
        func event(_ username: String, qualifying: Bool, item: VerifyItemID = "") -> SignInEvent {
            SignInEvent(
                step: index, marker: marker, atMillis: now, username: username, qualifying: qualifying, item: item,
                owesRequest: qualifying && owes(username))
        }
        switch facts.kind {
        case .passwordSignIn(let alias), .switchAccount(let alias):
            let username = World.username(alias)
            if outcome == .signedIn {
                record.events.append(event(username, qualifying: true))
                record.awaitingSecondFactor = nil
            } else if outcome == .secondFactorRequired {
                record.events.append(event(username, qualifying: false, item: "N2.6-AC01.V1"))
                record.awaitingSecondFactor = username
            }
        case .secondFactor:
            if outcome == .signedIn, let username = record.awaitingSecondFactor {
                record.events.append(event(username, qualifying: true))
                record.awaitingSecondFactor = nil
            } else if let username = record.awaitingSecondFactor {
                record.events.append(event(username, qualifying: false, item: facts.step == .secondFactor("expired") ? "N2.6-AC01.V3" : "N2.6-AC01.V2"))
            }
        case .recovery: record.events.append(event("", qualifying: false, item: "N2.6-AC01.V5"))
        case .alternative: record.events.append(event("", qualifying: false, item: "N2.6-AC01.V7"))
        case .passkeySignIn: record.events.append(event("", qualifying: false, item: "N2.6-AC05.V7"))
        case .signOut: record.awaitingSecondFactor = nil
        case .otherUserAction, .platformOrTime: break
        }
        if facts.kind.isUserAction { record.userActionSteps.append(index) }
        if facts.step == .relaunch {
            record.relaunches.append(marker)
            record.relaunchSteps.append(index)
        }
    }

    /// A context change is what the app's session shows: another stage or account, or a sign-in
    /// the app accepted (a new session even for the same account). A refused sign-in changes nothing.
    func noteContextChange(_ facts: StepFacts, sessionAfter: SessionSnapshot) {
        let outcome = world.lastOutcome?.status
        let signInAccepted: Bool =
            switch facts.kind {
            case .passwordSignIn, .switchAccount, .recovery, .alternative, .passkeySignIn:
                [.signedIn, .signedInLimited, .secondFactorRequired].contains(outcome)
            default: false
            }
        guard let sessionBefore, facts.kind != .secondFactor, sessionBefore.stage != .signedOut || sessionAfter.stage != .signedOut,
            signInAccepted || sessionBefore.stage != sessionAfter.stage || sessionBefore.username != sessionAfter.username
        else { return }
        let item: VerifyItemID =
            sessionAfter.stage == .signedOut
            ? "N2.6-AC06.V1"
            : sessionBefore.username != nil && sessionBefore.username != sessionAfter.username ? "N2.6-AC06.V2" : "N2.6-AC06.V3"
        record.contextChanges.append((facts.index, item))
    }

    /// The step at which each operation was issued and delivered.
    func noteOperations(_ facts: StepFacts) {
        // Operations are read in place (by position): a `for … in` over them would copy each one.
        let operations = facts.snapshot.operations
        for position in operations.indices where operations[position].status == .delivered && record.deliveryStep[operations[position].id] == nil {
            record.deliveryStep[operations[position].id] = facts.index
        }
        for operation in facts.new { record.issueStep[operation.id] = facts.index }
    }

    /// A registration request of the step: the sign-in it follows, and one more request for that
    /// sign-in when the request is a readable conditional one after a qualifying sign-in.
    func noteRequest(_ operation: PlatformOperation) -> RequestFacts {
        let eventIndex = record.events.lastIndex { $0.marker < operation.sequence }
        let request = RequestFacts(operation: operation, view: operation.registration, event: eventIndex.map { record.events[$0] }, eventIndex: eventIndex)
        if let eventIndex, request.event?.qualifying == true, request.view?.conditional == true,
            !operation.notes.contains(where: { $0.kind == .unsupportedCall })
        {
            record.requestsPerEvent[eventIndex, default: 0] += 1
        }
        return request
    }

    /// Successful conditional registration responses the step delivered without a context change or relaunch
    /// since their request, at the control's moment (`liveReleaseMillis`); and those now stored,
    /// which are done.
    func noteLiveResponses(_ facts: StepFacts) {
        let index = facts.index
        let now = facts.snapshot.nowMillis
        let operations = facts.snapshot.operations
        for position in operations.indices where operations[position].kind == .create && record.deliveryStep[operations[position].id] == index {
            let operation = operations[position]
            // N2.6-AC06 is about the upgrade's responses: a creation the user asked for is not one.
            guard let issued = record.issueStep[operation.id], let view = operation.registration, view.conditional, let id = operation.createdCredentialID,
                now - operation.issuedAtMillis <= Self.liveReleaseMillis,
                !record.contextChanges.contains(where: { $0.step > issued && $0.step <= index }),
                !record.relaunchSteps.contains(where: { $0 > issued && $0 <= index })
            else { continue }
            guard let owner = facts.after.values.first(where: { facts.names($0.username).contains(view.userName) }) else { continue }
            record.liveResponses.append(
                LiveResponse(operation: operation, username: owner.username, credentialID: id, delivered: index, afterMillis: now - operation.issuedAtMillis))
        }
        if facts.snapshot.pendingTimers.isEmpty {
            record.liveResponses.removeAll { live in
                facts.account(username: live.username)?.credentials.contains { $0.credentialID == live.credentialID } == true
            }
        }
    }
}
