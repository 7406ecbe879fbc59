import ConformanceModel
import Foundation
import WebAuthn

/// The bookkeeping of a backend whose calls a real platform fulfils (the web's browser): the
/// relying party's calls are read and decided by the provider model here, recorded as platform
/// operations with the same transcript entries as a simulated call, and given the real platform's
/// answer once it has come.
extension SimulationHost {
    /// What the provider model decided about a call a real platform fulfils.
    public enum RealDecision: Sendable, Hashable {
        /// Let the platform fulfil it; a registration or sign-in with these flags (`nil` for a
        /// signal), and for a sign-in the passkey to use and what the scenario changes about it.
        case proceed(ProviderState.Flags?, passkey: Data? = nil, change: ProviderState.ResponseChange? = nil)
        /// Refuse it with this error.
        case refuse(PlatformError)
    }

    /// A call a real platform fulfils, as recorded.
    public struct RealCall: Sendable, Hashable {
        /// The operation's id.
        public var id: OperationID
        /// What the provider model decided.
        public var decision: RealDecision
        /// Whether the scenario holds the answer until it releases it.
        public var held: Bool
    }

    /// The outcome a call has until the real platform answers.
    public static let unanswered = PlatformOutcome.failure(.general(name: "NoAnswer", message: "the platform has not answered this call"))

    /// Records a registration the real platform will fulfil: read, decided now, and held if the
    /// scenario holds registrations. `notes` are the platform's own notes about the call.
    public func beginRealCreate(_ request: CreateCredentialRequest, notes platformNotes: [PlatformSimulator.Note] = []) -> RealCall {
        state.withLock { state in
            let now = state.clock.nowMillis
            let family = PlatformFamilies.simulation(of: request.platform)
            var notes = platformNotes
            let read = family.readRegistration(request)
            let decision: RealDecision
            switch read {
            case .failure(let error):
                notes.append(.init(kind: .malformedRequest, text: error.message))
                decision = .refuse(error)
            case .success(let view):
                let simulator = state.simulator
                switch state.simulator.provider.decideRegistration(
                    view, target: simulator.target, associatedRPIDs: simulator.associatedRPIDs, now: now, notes: &notes)
                {
                case .refuse(.excluded):
                    // The platform checks the exclusion list itself: its own answer counts.
                    decision = .proceed(view.conditional ? ProviderState.conditionalFlags : ProviderState.modalFlags)
                case .refuse(let refusal): decision = .refuse(family.createError(refusal, on: simulator.target))
                case .fail(let error): decision = .refuse(error)
                case .make(let flags): decision = .proceed(flags)
                }
            }
            let view = try? read.get()
            let style = view.map { $0.conditional ? "conditional" : "modal" } ?? "unreadable"
            let summary = "\(style) registration request for \(view?.userName ?? "?") (rp \(view?.rpID ?? "?"))"
            return Self.beginReal(
                &state, .create(request, registration: view), summary: summary, payload: keepsPayloads ? Wire.jsonValue(request) : nil,
                decision: decision, notes: notes, hold: state.simulator.provider.holdRegistrations)
        }
    }

    /// Records a passkey sign-in the real platform will fulfil, decided now.
    public func beginRealGet(_ request: GetCredentialRequest) -> RealCall {
        state.withLock { state in
            let family = PlatformFamilies.simulation(of: request.platform)
            var notes: [PlatformSimulator.Note] = []
            let decision: RealDecision
            switch family.readAssertionRequest(request) {
            case .failure(let error):
                notes.append(.init(kind: .malformedRequest, text: error.message))
                decision = .refuse(error)
            case .success(let read):
                switch state.simulator.provider.decideAssertion(read, notes: &notes) {
                case .refuse(let refusal): decision = .refuse(family.getError(refusal))
                case .use(let passkey, let flags, let change): decision = .proceed(flags, passkey: passkey.credentialID, change: change)
                }
            }
            return Self.beginReal(
                &state, .get(request), summary: "passkey sign-in request", payload: keepsPayloads ? Wire.jsonValue(request) : nil,
                decision: decision, notes: notes, hold: state.simulator.provider.holdAssertions)
        }
    }

    /// Records a signal the real platform passes on at once; the provider model applies it as the
    /// simulated platform would (its policy: hide, remove or ignore), so that the steps read the
    /// credential manager's state after it.
    public func beginRealSignal(_ request: SignalRequest) -> RealCall {
        state.withLock { state in
            let read = SignalView.read(request)
            let view = try? read.get()
            let (outcome, notes) = state.simulator.signal(request, read: read, now: state.clock.nowMillis)
            let summary = view.map { "\($0.kind.rawValue) signal via \($0.interface) (rp \($0.rpID))" } ?? "unreadable signal"
            return Self.beginReal(
                &state, .signal(request, signal: view), summary: summary, payload: keepsPayloads ? Wire.jsonValue(request) : nil,
                decision: outcome.error.map { .refuse($0) } ?? .proceed(nil), notes: notes, hold: false)
        }
    }

    private static func beginReal(
        _ state: inout State, _ call: PlatformOperation.Call, summary: String, payload: JSONValue?, decision: RealDecision,
        notes: [PlatformSimulator.Note], hold: Bool
    ) -> RealCall {
        let outcome: PlatformOutcome =
            switch decision {
            case .refuse(let error): .failure(error)
            case .proceed: unanswered
            }
        let id = start(&state, call, summary: summary, payload: payload, outcome: outcome, notes: notes, hold: hold)
        if !hold, let index = state.operations.lastIndex(where: { $0.id == id }) {
            // The platform answers the page itself: nothing is left for the runner to deliver.
            state.operations[index].status = .delivered
        }
        return RealCall(id: id, decision: decision, held: hold)
    }

    /// Gives an operation the real platform's answer, and a registration's passkey to the provider
    /// model (`registration` is what the request asked for).
    public func finishRealCall(_ id: OperationID, outcome: PlatformOutcome) {
        state.withLock { state in
            guard let index = state.operations.firstIndex(where: { $0.id == id }) else { return }
            state.operations[index].outcome = outcome
            let summary = outcome.error.map { "\(id): the platform answered \($0.name): \($0.message)" } ?? "\(id): the platform answered with success"
            state.transcript.record(
                at: state.clock.nowMillis, .platform, "platform.answered", summary, payload: keepsPayloads ? Wire.jsonValue(outcome) : nil)
            if case .create(_, let view?) = state.operations[index].call, let credentialID = PlatformFamilies.createdCredentialID(in: outcome),
                !state.simulator.provider.passkeys.contains(where: { $0.credentialID == credentialID })
            {
                state.simulator.provider.passkeys.append(
                    ProviderState.Passkey(
                        credentialID: credentialID, rpID: view.rpID, userHandle: view.userHandle, userName: view.userName,
                        displayName: view.displayName ?? view.userName, visibility: .visible))
            }
        }
    }

    /// The private key of a passkey the provider model made, for a real platform's authenticator.
    public func signingKey(of credentialID: Data) -> P256SigningKey? {
        state.withLock { $0.simulator.authenticator.credential(id: credentialID)?.signingKey }
    }

    /// The operation with an id, as recorded now.
    public func operation(_ id: OperationID) -> PlatformOperation? {
        state.withLock { $0.operations.first { $0.id == id } }
    }

    /// Records a note of the real platform's about the relying party's calls.
    public func recordPlatformNote(_ text: String, kind: PlatformSimulator.Note.Kind) {
        state.withLock { $0.transcript.record(at: $0.clock.nowMillis, .platform, "platform.\(kind.rawValue)", text) }
    }
}
