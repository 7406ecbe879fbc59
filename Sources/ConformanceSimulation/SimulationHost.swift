import ConformanceModel
import Foundation
import Synchronization
import WebAuthn

/// Something recorded with the virtual time it happened at.
public struct Timed<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The virtual time, in milliseconds since the test case started.
    public var atMillis: Int64
    /// The transcript sequence number of the entry that recorded it.
    public var sequence: Int
    /// What was recorded.
    public var value: Value
}

/// The harness side of one test case on a simulated family: the platform, clock, screen and
/// telemetry the relying party calls, and the transcript of everything. It is the simulated
/// families' `PlatformBackend`: it decides with the provider model and fulfils with the family's
/// simulation and the virtual authenticator (`PlatformSimulator`). Thread-safe; the relying party
/// may call it from any task.
public final class SimulationHost: PlatformHost, PlatformBackend, Sendable {
    struct State: Sendable {
        var clock = VirtualClock()
        var transcript = Transcript()
        var simulator: PlatformSimulator
        var operations: [PlatformOperation] = []
        var uiEvents: [Timed<UIEvent>] = []
        var telemetry: [Timed<TelemetryEvent>] = []
        var nextOperation = 1
    }

    let state: Mutex<State>
    /// Whether transcript entries keep their payloads. A host whose transcript nobody reads in
    /// full (`explore`'s histories) records every entry without one, and so never encodes them.
    public let keepsPayloads: Bool

    /// Creates a host around the simulated platform of one target, at virtual time 0; with
    /// `keepsPayloads` false its transcript entries carry no payload.
    public init(simulator: PlatformSimulator, keepsPayloads: Bool = true) {
        state = Mutex(State(simulator: simulator))
        self.keepsPayloads = keepsPayloads
    }

    // MARK: PlatformBackend

    /// The simulated target.
    public var target: Target { state.withLock { $0.simulator.target } }

    /// The host itself: the relying party calls the simulated platform directly.
    public var platformHost: any PlatformHost { self }

    // MARK: PlatformHost

    /// Starts a registration: the simulator decides the outcome now, delivered later unless held.
    public func createCredential(_ request: CreateCredentialRequest) -> OperationID {
        state.withLock { state in
            let now = state.clock.nowMillis
            // Read once, for the transcript and for the simulator.
            let read = RegistrationView.read(request)
            let view = try? read.get()
            let (outcome, notes) = state.simulator.create(request, read: read, now: now)
            let style = view.map { $0.conditional ? "conditional" : "modal" } ?? "unreadable"
            let summary = "\(style) registration request for \(view?.userName ?? "?") (rp \(view?.rpID ?? "?"))"
            let hold = state.simulator.provider.holdRegistrations
            return Self.start(
                &state, .create(request, registration: view), summary: summary, payload: keepsPayloads ? Wire.jsonValue(request) : nil,
                outcome: outcome, notes: notes, hold: hold)
        }
    }

    /// Starts a passkey sign-in: the simulator decides the outcome now, delivered later unless held.
    public func getCredential(_ request: GetCredentialRequest) -> OperationID {
        state.withLock { state in
            let now = state.clock.nowMillis
            let (outcome, notes) = state.simulator.get(request, now: now)
            let hold = state.simulator.provider.holdAssertions
            return Self.start(
                &state, .get(request), summary: "passkey sign-in request", payload: keepsPayloads ? Wire.jsonValue(request) : nil, outcome: outcome,
                notes: notes, hold: hold)
        }
    }

    /// Sends a signal: the simulator decides and applies it now; the outcome is delivered later
    /// unless held.
    public func signal(_ request: SignalRequest) -> OperationID {
        state.withLock { state in
            let now = state.clock.nowMillis
            let read = SignalView.read(request)
            let view = try? read.get()
            let (outcome, notes) = state.simulator.signal(request, read: read, now: now)
            let summary = view.map { "\($0.kind.rawValue) signal via \($0.interface) (rp \($0.rpID))" } ?? "unreadable signal"
            return Self.start(
                &state, .signal(request, signal: view), summary: summary, payload: keepsPayloads ? Wire.jsonValue(request) : nil, outcome: outcome,
                notes: notes, hold: state.simulator.provider.holdSignals)
        }
    }

    static func start(
        _ state: inout State, _ call: PlatformOperation.Call, summary: String, payload: JSONValue?,
        outcome: PlatformOutcome, notes: [PlatformSimulator.Note], hold: Bool
    ) -> OperationID {
        let id: OperationID = "op-\(state.nextOperation)"
        state.nextOperation += 1
        let now = state.clock.nowMillis
        let name =
            switch call.kind {
            case .create: "platform.createCredential"
            case .get: "platform.getCredential"
            case .signal: "platform.signal"
            }
        let sequence = state.transcript.record(at: now, .rpToPlatform, name, "\(id): \(summary)", payload: payload)
        for note in notes {
            state.transcript.record(at: now, .platform, "platform.\(note.kind.rawValue)", "\(id): \(note.text)")
        }
        let operation = PlatformOperation(
            id: id, call: call, issuedAtMillis: now, sequence: sequence, outcome: outcome,
            status: hold ? .held : .pending, notes: notes)
        if hold {
            state.transcript.record(at: now, .platform, "platform.held", "\(id): the response is held back until the scenario releases it")
        }
        state.operations.append(operation)
        return id
    }

    /// The virtual time in milliseconds since the test case started.
    public func now() -> Int64 {
        state.withLock { $0.clock.nowMillis }
    }

    /// Schedules a timer on the virtual clock and records it.
    public func scheduleTimer(afterMillis: Int64, label: String) -> TimerID {
        state.withLock { state in
            let id = state.clock.schedule(afterMillis: afterMillis, label: label)
            state.transcript.record(at: state.clock.nowMillis, .rpToPlatform, "clock.schedule", "\(id) in \(afterMillis) ms: \(label)")
            return id
        }
    }

    /// Cancels a timer and records it; an unknown timer is ignored.
    public func cancelTimer(_ timer: TimerID) {
        state.withLock { state in
            state.clock.cancel(timer)
            state.transcript.record(at: state.clock.nowMillis, .rpToPlatform, "clock.cancel", timer.rawValue)
        }
    }

    /// Records what the app showed the user.
    public func show(_ event: UIEvent) {
        state.withLock { state in
            let sequence = state.transcript.record(at: state.clock.nowMillis, .rpToPlatform, "ui.\(event.kind.rawValue)", event.text)
            state.uiEvents.append(Timed(atMillis: state.clock.nowMillis, sequence: sequence, value: event))
        }
    }

    /// Records a telemetry event of the app.
    public func telemetry(_ event: TelemetryEvent) {
        state.withLock { state in
            let attributes = event.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let sequence = state.transcript.record(at: state.clock.nowMillis, .rpToPlatform, "telemetry", "\(event.name) \(attributes)")
            state.telemetry.append(Timed(atMillis: state.clock.nowMillis, sequence: sequence, value: event))
        }
    }

    // MARK: Runner side

    /// Records an entry in the transcript at the current virtual time.
    @discardableResult
    public func record(_ channel: TranscriptEntry.Channel, _ name: String, _ summary: String, payload: @autoclosure () -> JSONValue?) -> Int {
        let payload = keepsPayloads ? payload() : nil
        return state.withLock { $0.transcript.record(at: $0.clock.nowMillis, channel, name, summary, payload: payload) }
    }

    /// The next operation whose outcome is due, marked delivered.
    public func takeDeliverable() -> PlatformOperation? {
        state.withLock { state in
            guard let index = state.operations.firstIndex(where: { $0.status == .pending }) else { return nil }
            state.operations[index].status = .delivered
            return state.operations[index]
        }
    }

    /// Releases held operations of a kind (all, or only the first) so the runner delivers them next.
    @discardableResult
    public func release(_ kind: PlatformOperation.Kind, onlyFirst: Bool) -> Int {
        state.withLock { state in
            var released = 0
            for index in state.operations.indices where state.operations[index].kind == kind && state.operations[index].status == .held {
                state.operations[index].status = .pending
                state.transcript.record(
                    at: state.clock.nowMillis, .platform, "platform.released", "\(state.operations[index].id): the held response is released")
                released += 1
                if onlyFirst { break }
            }
            return released
        }
    }

    /// The number of transcript entries so far (the sequence of the last one).
    public var transcriptCount: Int { state.withLock { $0.transcript.entries.count } }

    /// How many platform operations of `kind` are in `status` now, without copying a snapshot.
    public func count(_ kind: PlatformOperation.Kind, in status: PlatformOperation.Status) -> Int {
        state.withLock { state in state.operations.reduce(0) { $0 + ($1.kind == kind && $1.status == status ? 1 : 0) } }
    }

    /// The next timer due at or before `limit`, with the clock moved to it.
    public func popDueTimer(notAfter limit: Int64) -> VirtualClock.Timer? {
        state.withLock { $0.clock.popDue(notAfter: limit) }
    }

    /// The next timer due at or before `limit` that `deferring` does not pick (else the earliest it
    /// picks), with the clock moved to it.
    public func popDueTimer(notAfter limit: Int64, deferring: (VirtualClock.Timer) -> Bool) -> VirtualClock.Timer? {
        state.withLock { $0.clock.popDue(notAfter: limit, deferring: deferring) }
    }

    /// Moves the clock to `millis`.
    public func moveClock(to millis: Int64) {
        state.withLock { $0.clock.move(to: millis) }
    }

    /// Mutates the simulated provider (the scenario's Given steps).
    public func withProvider<R>(_ body: (inout ProviderState) -> R) -> R {
        state.withLock { body(&$0.simulator.provider) }
    }

    /// Makes a passkey in the provider (as if created earlier) and returns its id and COSE public key.
    public func makeProviderPasskey(rpID: String, userHandle: Data, userName: String, displayName: String) throws -> ProviderPasskey {
        try state.withLock { state in
            // An earlier registration: its registration bytes are never read.
            let credential: VirtualAuthenticator.Credential
            do {
                credential = try state.simulator.authenticator.makeStoredCredential(
                    rpId: rpID, userHandle: userHandle, flags: [.userPresent, .userVerified, .backupEligible, .backupState])
            } catch {
                throw SystemIssue("the virtual authenticator failed: \(error)")
            }
            let id = credential.id
            state.simulator.provider.passkeys.append(
                .init(
                    credentialID: id, rpID: rpID, userHandle: userHandle, userName: userName,
                    displayName: displayName, visibility: .visible))
            state.transcript.record(
                at: state.clock.nowMillis, .platform, "provider.passkey",
                "the credential manager holds passkey \(Base64URL.encode(id)) of \(userName) for \(rpID)")
            return ProviderPasskey(id: id, publicKey: { credential.publicKey.bytes })
        }
    }

    /// A snapshot of everything recorded so far.
    public var snapshot: PlatformSnapshot {
        state.withLock {
            PlatformSnapshot(
                nowMillis: $0.clock.nowMillis, transcript: $0.transcript.entries, operations: $0.operations,
                uiEvents: $0.uiEvents, telemetry: $0.telemetry, provider: $0.simulator.provider,
                pendingTimers: $0.clock.timers)
        }
    }
}
