import ConformanceModel
import ConformanceSimulation
import Foundation

/// Decision points that only the mutants waiting for a signal's answer override: the conforming
/// value (`nil`, `false`) treats a signal as fire-and-forget (N3.2: "Revocation never waits for the
/// signal"; "Do not block the profile change"; "never block a UI flow on the result").
struct SignalWaits: Sendable {
    /// What a mutant's flow waits for.
    enum Until: Sendable, Hashable {
        /// The platform's answer, whatever it is.
        case answer
        /// An answer that the platform accepted the signal: a failed signal undoes the flow.
        case acceptance
    }

    /// Work held back until a signal's answer.
    enum Work: Sendable {
        case revoke(token: String, credentialID: Data, until: Until)
        case rename(token: String, name: String?, displayName: String?, confirmed: Bool, until: Until)
    }

    /// The server-side revocation waits for the answer to the list signal sent first.
    var revocation: Until?
    /// The server-side rename waits for the answer to the user-details signal sent first.
    var rename: Until?
    /// The app answers a revocation or rename `pending` until the signal's answer (with `revocation`
    /// or `rename`), as a UI flow that waits for it.
    var answersPending = false
}

extension ReferenceSession {
    /// A mutant's revocation that sends the list without the passkey first and revokes on the server
    /// only when the signal is answered; `nil` for the conforming flow.
    func revokeAfterSignal(_ id: Data, token: String) async -> ActionOutcome? {
        guard let until = decisions.waits.revocation, let username = state.app.username,
            let operation = await send(.fixedList(username: username, ids: state.server.acceptedIDs(username).filter { $0 != id }))
        else { return nil }
        state.app.signals.waiting[operation] = .revoke(token: token, credentialID: id, until: until)
        return ActionOutcome(decisions.waits.answersPending ? .pending : .done)
    }

    /// A mutant's rename that sends the user details first and saves the names on the server only
    /// when the signal is answered; `nil` for the conforming flow.
    func renameAfterSignal(name: String?, displayName: String?, confirmed: Bool, token: String, username: String) async -> ActionOutcome? {
        guard let until = decisions.waits.rename, confirmed,
            let operation = await send(.userDetails(username: username, nameChanged: name != nil, displayNameChanged: displayName != nil))
        else { return nil }
        state.app.signals.waiting[operation] = .rename(token: token, name: name, displayName: displayName, confirmed: confirmed, until: until)
        return ActionOutcome(decisions.waits.answersPending ? .pending : .done)
    }

    /// Finishes the work a mutant held back, now that its signal is answered.
    func finish(_ work: SignalWaits.Work, accepted: Bool) async {
        switch work {
        case .revoke(let token, let id, let until):
            guard until == .answer || accepted else { return }
            _ = state.server.revoke(token: token, credentialID: id)
            await showRevokeNotice()
        case .rename(let token, let name, let displayName, let confirmed, let until):
            guard until == .answer || accepted else {
                await show(.error, .profileNotSaved)
                return
            }
            _ = state.server.rename(token: token, name: name, displayName: displayName, confirmed: confirmed)
        }
    }
}

/// The mutants that treat a signal as more than fire-and-forget, each caught with the platform's
/// answers held (the flow waits) or failing (the flow is undone).
extension Mutation {
    // MARK: N3.2-AC01.V1: revocation, profile change and UI never wait for a signal

    /// Revokes the passkey on the server only once the platform answers the list signal sent first.
    package static let revocationWaitsForSignal = Mutation(
        "revocation-waits-for-signal", "N3.2-AC01", ["N3.2-AC01.V1"],
        "sends the list without the passkey first and revokes it on the server only once the platform answers the signal",
        form: "the revocation waits for the signal's answer"
    ) { $0.waits.revocation = .answer }

    /// Revokes the passkey on the server only if the platform accepted the list signal sent first.
    package static let revocationNeedsAcceptedSignal = Mutation(
        "revocation-needs-accepted-signal", "N3.2-AC01", ["N3.2-AC01.V1"],
        "revokes the passkey on the server only if the platform accepted the list signal sent first: a failed signal leaves it accepted",
        form: "a failed signal undoes the revocation"
    ) { $0.waits.revocation = .acceptance }

    /// Saves a confirmed rename on the server only once the platform answers the user-details signal.
    package static let renameWaitsForSignal = Mutation(
        "rename-waits-for-signal", "N3.2-AC01", ["N3.2-AC01.V1"],
        "sends the user details first and saves a confirmed rename on the server only once the platform answers the signal",
        form: "the profile change waits for the signal's answer"
    ) { $0.waits.rename = .answer }

    /// Saves a confirmed rename on the server only if the platform accepted the user-details signal.
    package static let renameNeedsAcceptedSignal = Mutation(
        "rename-needs-accepted-signal", "N3.2-AC01", ["N3.2-AC01.V1"],
        "saves a confirmed rename on the server only if the platform accepted the user-details signal: a failed signal blocks the profile change",
        form: "a failed signal blocks the profile change"
    ) { $0.waits.rename = .acceptance }

    /// Answers a revocation `pending` until the platform answers its signal, then revokes.
    package static let revocationScreenWaitsForSignal = Mutation(
        "revocation-screen-waits-for-signal", "N3.2-AC01", ["N3.2-AC01.V1"],
        "keeps the revocation flow open (answers it pending) until the platform answers the list signal, then revokes",
        form: "the UI flow waits for the signal's answer"
    ) {
        $0.waits.revocation = .answer
        $0.waits.answersPending = true
    }

    /// The mutants that wait for a signal's answer, in report order.
    static let waitMutants: [Mutation] = [
        .revocationWaitsForSignal, .revocationNeedsAcceptedSignal, .renameWaitsForSignal, .renameNeedsAcceptedSignal, .revocationScreenWaitsForSignal,
    ]
}
