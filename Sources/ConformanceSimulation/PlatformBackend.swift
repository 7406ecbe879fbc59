import ConformanceModel
import Foundation

/// The platform under one test case, as the kit sees it: the one seam between the scenario's
/// steps and whatever answers the relying party's credential calls.
///
/// A backend does two jobs, kept apart so that a real platform can take one of them over:
///
/// - **deciding**: the credential manager's model (autofill recency, exclusion, the user's
///   settings, held responses, the scenario's forced failures), which steps set through
///   ``withProvider(_:)`` and read through ``snapshot``;
/// - **fulfilling**: making what the decision calls for: the WebAuthn bytes of a registration
///   or an assertion, a passkey the credential manager already holds (``makeProviderPasskey(rpID:userHandle:userName:displayName:)``),
///   a signal acted on.
///
/// The simulated families (`SimulationHost`) decide and fulfil in Swift: the provider model,
/// then the family's simulation and the virtual authenticator. A backend over a real platform
/// keeps the provider model for the decisions the real platform leaves to its credential manager
/// and lets the platform fulfil, reading each result back. Either way the backend keeps the
/// test case's transcript and virtual clock, and hands out the relying party's platform
/// operations in order (``takeDeliverable()``).
///
/// Steps, the runner and `explore` talk to a backend, never to a simulator; a backend is made for
/// a target by a ``PlatformBackendFactory`` (`SimulatedPlatforms` for every family this package
/// simulates). `Documentation/platform-seam.md` says what a new backend provides.
public protocol PlatformBackend: AnyObject, Sendable {
    /// The target the backend stands for.
    var target: Target { get }
    /// What the relying party's app calls: the credential manager's interface, the clock, the
    /// screen and telemetry, as the adapter protocol defines them.
    var platformHost: any PlatformHost { get }
    /// Whether transcript entries keep their payloads (`explore`'s histories keep none).
    var keepsPayloads: Bool { get }

    // MARK: The transcript and the clock

    /// Records an entry in the transcript at the current virtual time; returns its sequence.
    @discardableResult
    func record(_ channel: TranscriptEntry.Channel, _ name: String, _ summary: String, payload: @autoclosure () -> JSONValue?) -> Int
    /// The virtual time in milliseconds since the test case started.
    func now() -> Int64
    /// The number of transcript entries so far (the sequence of the last one).
    var transcriptCount: Int { get }
    /// Everything recorded so far, at one moment.
    var snapshot: PlatformSnapshot { get }
    /// The next timer due at or before `limit`, with the clock moved to it.
    func popDueTimer(notAfter limit: Int64) -> VirtualClock.Timer?
    /// The next timer due at or before `limit` that `deferring` does not pick (else the earliest it
    /// picks), with the clock moved to it.
    func popDueTimer(notAfter limit: Int64, deferring: (VirtualClock.Timer) -> Bool) -> VirtualClock.Timer?
    /// Moves the clock to `millis`.
    func moveClock(to millis: Int64)

    // MARK: The relying party's platform operations

    /// The next operation whose outcome is due, marked delivered.
    func takeDeliverable() -> PlatformOperation?
    /// Releases held operations of a kind (all, or only the first) so that they are delivered next.
    @discardableResult
    func release(_ kind: PlatformOperation.Kind, onlyFirst: Bool) -> Int
    /// How many platform operations of `kind` are in `status` now.
    func count(_ kind: PlatformOperation.Kind, in status: PlatformOperation.Status) -> Int

    // MARK: Deciding and fulfilling

    /// Reads and changes the credential manager's model (the scenario's `Given` steps, the
    /// replays' changed decisions).
    func withProvider<R>(_ body: (inout ProviderState) -> R) -> R
    /// Makes a passkey in the credential manager, as if created earlier, and returns its id and
    /// COSE public key.
    func makeProviderPasskey(rpID: String, userHandle: Data, userName: String, displayName: String) throws -> ProviderPasskey

    /// Whether the harness builds the platform's responses (and so can make the faulty ones some
    /// scenarios need: another origin, another challenge, a reused id); a real platform's are its own.
    var buildsResponses: Bool { get }

    /// Waits until the platform has done what the relying party's last interaction started (a
    /// real platform works beside the harness; a simulated one is always settled); `true` when the
    /// relying party may have called the platform meanwhile.
    @discardableResult
    func settle() async throws -> Bool

    /// Opens the relying party's session for a test case on this backend (see the default).
    func openSession(on adapter: any RelyingPartyAdapter, context: SessionContext, description: AdapterDescription) async throws
        -> any RelyingPartySession
}

extension PlatformBackend {
    /// A simulated platform builds every response.
    public var buildsResponses: Bool { true }

    /// A simulated platform has nothing in flight.
    @discardableResult
    public func settle() async throws -> Bool { false }

    /// Opens the relying party's session for a test case on this backend: by default the adapter's
    /// own, whose app calls `platformHost`. A real platform's backend wraps it (the web's runs the
    /// relying party's page in the browser and passes the user's actions to it).
    public func openSession(
        on adapter: any RelyingPartyAdapter, context: SessionContext, description: AdapterDescription
    ) async throws -> any RelyingPartySession {
        try await adapter.openSession(context, host: platformHost)
    }

    /// Records an entry without a payload.
    @discardableResult
    public func record(_ channel: TranscriptEntry.Channel, _ name: String, _ summary: String) -> Int {
        record(channel, name, summary, payload: nil)
    }
}

/// What a backend has recorded, at one moment.
public struct PlatformSnapshot: Sendable {
    /// The virtual time of the snapshot, in milliseconds since the test case started.
    public var nowMillis: Int64
    /// Every transcript entry so far.
    public var transcript: [TranscriptEntry]
    /// Every platform operation so far, in call order.
    public var operations: [PlatformOperation]
    /// Everything the app showed the user, with its time.
    public var uiEvents: [Timed<UIEvent>]
    /// Every telemetry event of the app, with its time.
    public var telemetry: [Timed<TelemetryEvent>]
    /// The credential manager's state.
    public var provider: ProviderState
    /// The timers scheduled and not yet fired or cancelled.
    public var pendingTimers: [VirtualClock.Timer]
}

/// A passkey made in the credential manager: its id, and its COSE public key, computed when first
/// read (a passkey the server is never told of never needs it).
public struct ProviderPasskey: Sendable {
    /// The credential id.
    public let id: Data
    let key: @Sendable () -> Data
    /// The COSE public key.
    public var publicKey: Data { key() }

    /// A passkey with its id and a way to compute its COSE public key.
    public init(id: Data, publicKey: @escaping @Sendable () -> Data) {
        self.id = id
        key = publicKey
    }
}

/// Makes the backend of each test case (and of each replay of one) for its target.
public protocol PlatformBackendFactory: Sendable {
    /// Whether this factory makes backends for `target`.
    func serves(_ target: Target) -> Bool
    /// A backend for `target`, at virtual time 0, for an app associated with `associatedRPIDs`; the
    /// seed makes its keys and credential ids reproducible. With `keepsPayloads` false its
    /// transcript entries carry no payload.
    func makeBackend(for target: Target, associatedRPIDs: [String], seed: UInt64, keepsPayloads: Bool) throws -> any PlatformBackend
    /// Why `target`'s platform cannot run on this machine (no browser installed), or `nil` when it
    /// can; a test case on such a target is *not verified* with this reason, never failed.
    func unavailability(of target: Target) -> String?
}

extension PlatformBackendFactory {
    /// Every platform is available unless the factory says otherwise.
    public func unavailability(of target: Target) -> String? { nil }
}

/// The backends of the families this package simulates (Apple and Android): a `SimulationHost`
/// around a `PlatformSimulator` of the target.
public struct SimulatedPlatforms: PlatformBackendFactory {
    /// The simulated families' factory.
    public init() {}

    /// Every target of a simulated family.
    public func serves(_ target: Target) -> Bool {
        PlatformFamilies.all.contains { $0.family == target.platform }
    }

    /// A `SimulationHost` around the target's simulated platform.
    public func makeBackend(for target: Target, associatedRPIDs: [String], seed: UInt64, keepsPayloads: Bool) throws -> any PlatformBackend {
        SimulationHost(simulator: try PlatformSimulator(target: target, associatedRPIDs: associatedRPIDs, seed: seed), keepsPayloads: keepsPayloads)
    }
}

/// Several factories as one: a target's backend comes from the first factory that serves it.
public struct PlatformBackendFactories: PlatformBackendFactory {
    /// The factories, in the order they are asked.
    public let factories: [any PlatformBackendFactory]

    /// The factories, asked in this order.
    public init(_ factories: [any PlatformBackendFactory]) {
        self.factories = factories
    }

    /// Whether one of the factories serves `target`.
    public func serves(_ target: Target) -> Bool {
        factories.contains { $0.serves(target) }
    }

    /// The first serving factory's reason, if it has one.
    public func unavailability(of target: Target) -> String? {
        factories.first(where: { $0.serves(target) })?.unavailability(of: target)
    }

    /// The backend of the first factory that serves `target`.
    public func makeBackend(for target: Target, associatedRPIDs: [String], seed: UInt64, keepsPayloads: Bool) throws -> any PlatformBackend {
        guard let factory = factories.first(where: { $0.serves(target) }) else {
            throw SystemIssue("no platform backend serves the target \(target.id) (\(target.platform.rawValue))")
        }
        return try factory.makeBackend(for: target, associatedRPIDs: associatedRPIDs, seed: seed, keepsPayloads: keepsPayloads)
    }
}
