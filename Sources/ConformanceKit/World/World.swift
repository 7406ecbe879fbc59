import Foundation
import WebAuthn

/// Everything one test case runs in: a fresh relying-party session, the simulated platform of one
/// target, the virtual clock and the transcript, and what the steps have noted so far.
public final class World {
    /// The target the test case runs on.
    public let target: Target
    /// What the adapter declared about itself.
    public let adapter: AdapterDescription
    /// The test case's platform backend: the credential manager's model, the clock and the
    /// transcript, and what the relying party calls (`PlatformBackend.platformHost`).
    public let host: any PlatformBackend
    /// The relying party's fresh session for this test case.
    public let session: any RelyingPartySession
    /// The test case's seed, derived from the run seed and the case id.
    public let seed: UInt64

    /// Accounts the scenario created, by alias (`alice`).
    public internal(set) var accounts: [String: AccountFixture] = [:]
    /// The app's answer to the last user action.
    public internal(set) var lastOutcome: ActionOutcome?
    /// Every user action the app answered in this test case, in order: what the action was, the
    /// app's answer, and the transcript entries of the request and the answer. Steps read answers
    /// here, never from the transcript's wording.
    public internal(set) var answers: [AnsweredAction] = []
    /// Transcript sequence and time of the last user action that completed a sign-in.
    public internal(set) var lastSignIn: (sequence: Int, atMillis: Int64)?
    /// Transcript sequence and time of every sign-in after which the app owed a conditional
    /// registration request (N2.6-AC05), in order; see `giveUpgradeItsMoment`.
    public internal(set) var qualifyingSignIns: [(sequence: Int, atMillis: Int64)] = []
    /// Accounts' server credentials just before and just after the last release of a held response.
    public internal(set) var releaseComparison: (before: [String: [CredentialSnapshot]], after: [String: [CredentialSnapshot]])?
    /// Transcript sequence of the scenario's first `When` step: counts and "nothing happened"
    /// checks look only at what came after it. `nil` until that step runs.
    public package(set) var triggerSequence: Int?
    /// Transcript sequence of the last entry a wait for quiescence recorded.
    var lastQuiescenceSequence = 0
    /// Replays the scenario's `Given` steps in a fresh session, without its `When` steps, to
    /// quiescence; set by the runner.
    public var counterfactual: (() async throws -> World)?
    /// Replays the whole scenario (its `Given` and `When` steps) in a fresh session with one
    /// platform decision changed, to quiescence; set by the runner (see `World+Attribution.swift`).
    public var replayChanging: ((Counterfactual) async throws -> World)?
    /// Named values steps leave for later steps.
    public var notes: [String: String] = [:]
    /// The safety monitors watching this test case, after every relying-party call; `nil` where
    /// nothing watches (the replay without the trigger, a unit test's world).
    public var watch: MonitorWatch?
    /// Credential inventories noted by a step, by alias.
    public var notedInventory: [String: Inventory] = [:]

    /// An account's passkeys on both sides: the server's records and what the credential manager shows.
    public struct Inventory: Sendable, Hashable {
        /// The server's credential records.
        public var server: [CredentialSnapshot]
        /// The credential manager's passkeys, each as `<credential id in base64url> <visibility>`.
        public var provider: [String]
    }

    /// The inventory of an account now.
    public func inventory(_ alias: String) async throws -> Inventory {
        let snapshot = try await inspect(alias)
        let provider = host.snapshot.provider.passkeys.filter { $0.userHandle == snapshot.userHandle }
            .map { "\(Base64URL.encode($0.credentialID)) \($0.visibility.rawValue)" }
        return Inventory(server: snapshot.credentials, provider: provider)
    }

    /// The most platform deliveries one step may cause before the harness calls it a runaway.
    public static let deliveryLimit = 500

    /// Creates the world of one test case.
    public init(target: Target, adapter: AdapterDescription, host: any PlatformBackend, session: any RelyingPartySession, seed: UInt64) {
        self.target = target
        self.adapter = adapter
        self.host = host
        self.session = session
        self.seed = seed
    }

    // MARK: Accounts

    /// The sign-in name of an alias: `alice` → `alice@example.com`.
    public static func username(_ alias: String) -> String { "\(alias.lowercased())@example.com" }

    /// The fixture of an alias the scenario created; an authoring defect if it did not.
    public func account(_ alias: String) throws -> AccountFixture {
        guard let account = accounts[alias] else {
            throw SystemIssue("the scenario uses the account \"\(alias)\" before a step created it")
        }
        return account
    }

    /// The primary RP ID of the relying party.
    public var primaryRPID: String { adapter.relyingPartyIDs.first ?? "example.com" }

    // MARK: Driving the relying party

    /// Creates accounts on the server.
    public func createAccounts(_ fixtures: [AccountFixture], aliases: [String]) async throws {
        host.record(.harnessToRP, "session.setUp", "accounts " + fixtures.map(\.username).joined(separator: ", "), payload: Wire.jsonValue(fixtures))
        try await session.setUp(accounts: fixtures)
        for (alias, fixture) in zip(aliases, fixtures) { accounts[alias] = fixture }
        await watch?.look(self, read: true)
        try await settle()
    }

    /// Performs a user action, records it and the app's answer, then delivers due platform outcomes.
    @discardableResult
    public func perform(_ action: UserAction) async throws -> ActionOutcome {
        let sequence = host.record(.harnessToRP, "user.\(action.kind.rawValue)", describe(action), payload: Wire.jsonValue(action))
        watch?.begin(action)
        defer { watch?.end() }
        let outcome = try await session.perform(action)
        lastOutcome = outcome
        var answer = AnsweredAction(action: action, outcome: outcome, requested: sequence, answered: 0)
        answer.answered = host.record(.harnessToRP, "user.\(action.kind.rawValue).result", answer.text)
        answers.append(answer)
        if outcome.status == .signedIn {
            lastSignIn = (sequence, host.now())
        }
        watch?.answered(action, outcome, sequence: sequence)
        await watch?.look(self, read: true)
        try await settle()
        if outcome.status == .signedIn { try await giveUpgradeItsMoment(after: action) }
        return outcome
    }

    func describe(_ action: UserAction) -> String {
        var parts = [action.kind.rawValue]
        if let username = action.username { parts.append(username) }
        switch action {
        case .secondFactor(let factor): parts.append("second factor \(factor.rawValue)")
        case .alternativeSignIn(_, let method): parts.append(method.rawValue)
        case .revokePasskey(let id): parts.append("credential \(Base64URL.encode(id))")
        case .rename(let newName, let newDisplayName, let confirmed):
            if let name = newName { parts.append("name \(name)") }
            if let name = newDisplayName { parts.append("display name \(name)") }
            parts.append(confirmed ? "confirmed" : "not confirmed")
        case .passwordSignIn, .recoverySignIn, .passkeySignIn, .signOut, .switchAccount, .createPasskey, .refresh, .managePasskeys, .relaunch:
            break
        }
        return parts.joined(separator: " ")
    }

    /// Delivers every platform outcome that is due, in order, until the relying party starts no more.
    public func settle() async throws {
        var deliveries = 0
        // A real platform's page may have called the platform since: the monitors judge it while
        // the action that caused it is still the one in progress.
        if try await host.settle() { await watch?.look(self) }
        while let operation = host.takeDeliverable() {
            deliveries += 1
            if deliveries > Self.deliveryLimit {
                throw RelyingPartyFailure("the relying party started more than \(Self.deliveryLimit) platform operations in one step")
            }
            let summary = operation.outcome.error.map { "\(operation.id) failed: \($0.name): \($0.message)" } ?? "\(operation.id) succeeded"
            host.record(.harnessToRP, "session.platformCompleted", summary, payload: Self.transcriptPayload(operation.outcome))
            try await session.platformCompleted(operation: operation.id, outcome: operation.outcome)
            _ = try await host.settle()
            await watch?.look(self, delivered: operation)
        }
    }

    /// What a transcript shows of an outcome: everything, except that ECDSA signatures (whose random
    /// nonce makes them differ between runs of the same seed) are replaced by a note.
    static func transcriptPayload(_ outcome: PlatformOutcome) -> JSONValue {
        var value = Wire.jsonValue(outcome)
        guard case .object(var members) = value else { return value }
        if case .appleAssertion(let made) = outcome, case .object(var assertion)? = members["appleAssertion"] {
            let signature = made.signature
            assertion["signature"] = .string(signatureNote(signature.count))
            members["appleAssertion"] = .object(assertion)
        }
        if case .androidAuthentication(let text) = outcome, case .object(var json)? = try? JSONValue.parse(Data(text.utf8)),
            case .object(var response)? = json["response"], let signature = response["signature"]?.stringValue
        {
            response["signature"] = .string(signatureNote(Base64URL.decodeIfValid(signature)?.count ?? 0))
            json["response"] = .object(response)
            members["androidAuthenticationResponseJson"] = .string(Wire.jsonString(JSONValue.object(json)))
        }
        value = .object(members)
        return value
    }

    static func signatureNote(_ length: Int) -> String {
        length > 0 ? "<DER ES256 signature; its random nonce differs between runs, so transcripts omit it>" : "<unreadable signature>"
    }

    /// Fires the earliest timer due at or before `limit` (moving the clock to it) and delivers what
    /// it caused; `false` when no timer is due.
    func fireNextTimer(notAfter limit: Int64) async throws -> Bool {
        guard let timer = host.popDueTimer(notAfter: limit) else { return false }
        host.record(.harnessToRP, "session.timerFired", "\(timer.id): \(timer.label)")
        let acting = watch?.timer()
        defer { watch?.resume(acting) }
        try await session.timerFired(timer.id)
        await watch?.look(self)
        try await settle()
        return true
    }

    /// Lets virtual time pass, firing the relying party's timers in due order.
    public func advance(byMillis millis: Int64) async throws {
        let limit = try VirtualClock.deadline(after: millis, from: host.now())
        var fired = 0
        while try await fireNextTimer(notAfter: limit) {
            fired += 1
            if fired > 10_000 { throw RelyingPartyFailure("the relying party's timers fired more than 10000 times in \(millis) ms") }
        }
        host.moveClock(to: limit)
        host.record(.step, "clock.advanced", "\(millis / 1000) s passed")
    }

    /// The server's record of an account, recorded in the transcript.
    public func inspect(_ alias: String) async throws -> AccountSnapshot {
        let username = try account(alias).username
        let snapshot = try await session.inspectAccount(username: username)
        host.record(.harnessToRP, "session.inspectAccount", "\(username): \(snapshot.credentials.count) credential(s)", payload: Wire.jsonValue(snapshot))
        return snapshot
    }

    /// The app's session, recorded in the transcript.
    public func inspectSession() async throws -> SessionSnapshot {
        let snapshot = try await session.inspectSession()
        host.record(.harnessToRP, "session.inspectSession", "\(snapshot.stage.rawValue)\(snapshot.username.map { " as \($0)" } ?? "")")
        return snapshot
    }

    /// Every account's server credentials, by alias.
    public func allCredentials() async throws -> [String: [CredentialSnapshot]] {
        var result: [String: [CredentialSnapshot]] = [:]
        for alias in accounts.keys.sorted() {
            result[alias] = try await inspect(alias).credentials
        }
        return result
    }

    /// Releases held responses and notes every account's credentials before and after.
    public func releaseHeld(_ kind: PlatformOperation.Kind, onlyFirst: Bool) async throws -> Int {
        let before = try await allCredentials()
        let released = host.release(kind, onlyFirst: onlyFirst)
        // The comparison waits until the app has nothing left scheduled, so that a stale response
        // queued for a later upload is seen too.
        try await quiesce()
        let after = try await allCredentials()
        releaseComparison = (before, after)
        return released
    }

    /// The authenticator of "other credential managers": passkeys the server knows but this provider does not hold.
    lazy var otherManagers: VirtualAuthenticator? = try? VirtualAuthenticator(seed: VirtualAuthenticator.seedBytes(seed, label: "other-credential-managers"))

    /// A passkey made by another credential manager and stored on the server only.
    public func makeServerCredential(for alias: String, state: CredentialState = .active) async throws -> CredentialFixture {
        let snapshot = try await inspect(alias)
        guard let authenticator = otherManagers else { throw SystemIssue("the virtual authenticator could not be created") }
        let clientDataHash = SHA256.hash(Data("fixture".utf8))
        let registration: VirtualAuthenticator.Registration
        do {
            registration = try authenticator.makeCredential(
                rpId: snapshot.rpID, userHandle: snapshot.userHandle, clientDataHash: clientDataHash,
                flags: [.userPresent, .userVerified, .backupEligible, .backupState])
        } catch {
            throw SystemIssue("the virtual authenticator failed: \(error)")
        }
        let fixture = CredentialFixture(
            username: snapshot.username, credentialID: registration.credential.id,
            publicKey: registration.credential.publicKey.bytes, state: state)
        try await addServerCredential(fixture)
        return fixture
    }

    /// Stores a credential record on the server, recorded in the transcript.
    func addServerCredential(_ fixture: CredentialFixture) async throws {
        host.record(
            .harnessToRP, "session.addCredential", "\(fixture.username): \(Base64URL.encode(fixture.credentialID)) (\(fixture.state.rawValue))",
            payload: Wire.jsonValue(fixture))
        try await session.addCredential(fixture)
        await watch?.look(self, read: true)
    }
}

/// A user action the app answered: the action, the answer, and where both are in the transcript.
public struct AnsweredAction: Sendable {
    /// The action the user took.
    public var action: UserAction
    /// The app's answer.
    public var outcome: ActionOutcome
    /// The transcript entry of the action.
    public var requested: Int
    /// The transcript entry of the answer.
    public var answered: Int

    /// The answer as the transcript writes it: the status, then the app's message.
    var text: String { outcome.status.rawValue + (outcome.message.map { ": \($0)" } ?? "") }
}
