import Foundation
import WebAuthn

/// Checks every `ExploreInvariant` after each step of a history, over the transcript, the
/// platform's operations and the server's records read before and after the step.
final class InvariantMonitor {
    /// A sign-in the history made, as the app answered it.
    struct SignInEvent {
        var step: Int
        /// Transcript entries before the step: operations after it followed this sign-in.
        var marker: Int
        var atMillis: Int64
        var username: String
        var qualifying: Bool
        /// The verify item a registration request after this (non-qualifying) sign-in breaks.
        var item: String
        /// Whether the app owes this sign-in a registration request before the next user action:
        /// a qualifying sign-in of an account the server knows, on a device with the conditional
        /// interface, whatever passkeys the account already has (the RP must not hold the request
        /// back because a credential manager may already hold one).
        var owesRequest = false
    }

    /// What a step is, as far as the invariants care.
    enum StepKind: Equatable {
        case passwordSignIn(alias: String)
        case switchAccount(alias: String)
        case secondFactor, recovery, alternative, passkeySignIn
        case signOut, otherUserAction, platformOrTime
    }

    let world: World
    var events: [SignInEvent] = []
    var contextChanges: [(step: Int, item: String)] = []
    var userActionSteps: [Int] = []
    var requestsPerEvent: [Int: Int] = [:]
    var seenOperations = 0
    var issueStep: [OperationID: Int] = [:]
    var deliveryStep: [OperationID: Int] = [:]
    var awaitingSecondFactor: String?
    var before: [String: AccountSnapshot] = [:]
    var marker = 0
    var uiMarker = 0
    var sessionBefore: SessionSnapshot?
    /// Transcript positions of relaunches: a relaunched app starts without the memory of earlier
    /// rate limits, so the rate invariants look at each stretch between relaunches on its own.
    var relaunches: [Int] = []
    /// Steps that relaunched the app: a response to a request of the previous process has no one to go to.
    var relaunchSteps: [Int] = []
    /// Successful registration responses delivered without a context change, within a minute of
    /// their request: each must be stored for its account once the app has nothing left scheduled.
    var liveResponses: [(operation: PlatformOperation, username: String, credentialID: Data, delivered: Int, afterMillis: Int64)] = []

    init(world: World) { self.world = world }

    static func kind(of sentence: String) -> StepKind {
        func alias() -> String { sentence.split(separator: "\"").dropFirst().first.map(String.init) ?? "" }
        if sentence.hasPrefix("the user signs in as "), sentence.contains(" through account recovery") { return .recovery }
        if sentence.hasPrefix("the user signs in as "), sentence.contains(" through \"") { return .alternative }
        if sentence.hasPrefix("the user signs in as ") { return .passwordSignIn(alias: alias()) }
        if sentence.hasPrefix("the user switches to ") { return .switchAccount(alias: alias()) }
        if sentence.hasPrefix("the user answers the second factor") { return .secondFactor }
        if sentence.hasPrefix("the user signs in with ") { return .passkeySignIn }
        if sentence == "the user signs out" { return .signOut }
        if sentence.hasPrefix("the user ") || sentence == "the app is relaunched" || sentence.hasPrefix("the app reaches its refresh point") {
            return .otherUserAction
        }
        return .platformOrTime
    }

    func accounts() async throws -> [String: AccountSnapshot] {
        var result: [String: AccountSnapshot] = [:]
        for (alias, fixture) in world.accounts { result[alias] = try await world.session.inspectAccount(username: fixture.username) }
        return result
    }

    /// Notes the state before a step runs.
    func beforeStep() async throws {
        before = try await accounts()
        marker = world.host.transcriptCount
        uiMarker = world.host.snapshot.uiEvents.count
        sessionBefore = try await world.session.inspectSession()
        world.lastOutcome = nil
    }

    /// Whether a qualifying sign-in of an account owes a registration request (see `SignInEvent.owesRequest`).
    func owes(_ username: String) -> Bool {
        world.target.has(.conditionalCreateAPI) && world.adapter.capabilities.contains(.conditionalCreate)
            && before.values.contains { $0.username == username }
    }

    /// Checks every invariant after step `index` ran; the first violation, if any.
    func afterStep(_ index: Int, sentence: String) async throws -> ExploreViolation? {
        let kind = Self.kind(of: sentence)
        // A user action: every earlier sign-in that owed a request must have had it by now.
        if kind != .platformOrTime,
            let owed = events.indices.first(where: { events[$0].owesRequest && events[$0].step < index && requestsPerEvent[$0, default: 0] == 0 })
        {
            let event = events[owed]
            return ExploreViolation(
                invariant: ExploreInvariant.named("qualifying-sign-in-gets-a-request")!, stepIndex: index,
                message:
                    "the sign-in of \(event.username) at step \(event.step + 1) completed its policy with a password; no registration request followed it before step \(index + 1), a further user action"
            )
        }
        let snapshot = world.host.snapshot
        let after = try await accounts()
        let outcome = world.lastOutcome?.status
        let now = snapshot.nowMillis
        switch kind {
        case .passwordSignIn(let alias), .switchAccount(let alias):
            let username = World.username(alias)
            if outcome == .signedIn {
                events.append(.init(step: index, marker: marker, atMillis: now, username: username, qualifying: true, item: "", owesRequest: owes(username)))
                awaitingSecondFactor = nil
            } else if outcome == .secondFactorRequired {
                events.append(.init(step: index, marker: marker, atMillis: now, username: username, qualifying: false, item: "N2.6-AC01.V1"))
                awaitingSecondFactor = username
            }
        case .secondFactor:
            if outcome == .signedIn, let username = awaitingSecondFactor {
                events.append(.init(step: index, marker: marker, atMillis: now, username: username, qualifying: true, item: "", owesRequest: owes(username)))
                awaitingSecondFactor = nil
            } else if let username = awaitingSecondFactor {
                events.append(
                    .init(
                        step: index, marker: marker, atMillis: now, username: username, qualifying: false,
                        item: sentence.contains("expired") ? "N2.6-AC01.V3" : "N2.6-AC01.V2"))
            }
        case .recovery:
            events.append(.init(step: index, marker: marker, atMillis: now, username: "", qualifying: false, item: "N2.6-AC01.V5"))
        case .alternative:
            events.append(.init(step: index, marker: marker, atMillis: now, username: "", qualifying: false, item: "N2.6-AC01.V7"))
        case .passkeySignIn:
            events.append(.init(step: index, marker: marker, atMillis: now, username: "", qualifying: false, item: "N2.6-AC05.V7"))
        case .signOut:
            awaitingSecondFactor = nil
        case .otherUserAction, .platformOrTime: break
        }
        if kind != .platformOrTime { userActionSteps.append(index) }
        if sentence == "the app is relaunched" {
            relaunches.append(marker)
            relaunchSteps.append(index)
        }
        // A context change is what the app's session shows: another stage or account, or a sign-in
        // the app accepted (a new session even for the same account). A refused sign-in changes nothing.
        let sessionAfter = try await world.session.inspectSession()
        let signInAccepted: Bool =
            switch kind {
            case .passwordSignIn, .switchAccount, .recovery, .alternative, .passkeySignIn:
                [.signedIn, .signedInLimited, .secondFactorRequired].contains(outcome)
            default: false
            }
        if let sessionBefore, kind != .secondFactor, sessionBefore.stage != .signedOut || sessionAfter.stage != .signedOut,
            signInAccepted || sessionBefore.stage != sessionAfter.stage || sessionBefore.username != sessionAfter.username
        {
            let item =
                sessionAfter.stage == .signedOut
                ? "N2.6-AC06.V1"
                : sessionBefore.username != nil && sessionBefore.username != sessionAfter.username ? "N2.6-AC06.V2" : "N2.6-AC06.V3"
            contextChanges.append((index, item))
        }
        let operations = snapshot.operations
        for operation in operations where operation.status == .delivered && deliveryStep[operation.id] == nil { deliveryStep[operation.id] = index }
        let new = operations[seenOperations...]
        seenOperations = operations.count
        for operation in new { issueStep[operation.id] = index }
        func violation(_ id: String, item: String? = nil, _ message: String) -> ExploreViolation {
            var invariant = ExploreInvariant.named(id)!
            if let item { invariant = ExploreInvariant(id: invariant.id, criterion: invariant.criterion, item: item, statement: invariant.statement) }
            return ExploreViolation(invariant: invariant, stepIndex: index, message: message)
        }
        let handles = Dictionary(after.values.map { ($0.userHandle, $0) }, uniquingKeysWith: { first, _ in first })
        let byUsername = Dictionary(after.values.map { ($0.username, $0) }, uniquingKeysWith: { first, _ in first })
        let beforeByUsername = Dictionary(before.values.map { ($0.username, $0) }, uniquingKeysWith: { first, _ in first })
        /// The names an account goes by in this step: its username and its account name before and
        /// after (a rename changes the name that registration options carry).
        func names(_ username: String) -> Set<String> {
            Set([username, beforeByUsername[username]?.name, byUsername[username]?.name].compactMap { $0 })
        }
        let heldBefore = Set(before.values.flatMap { $0.credentials.map(\.credentialID) })
        let heldAfter = Set(after.values.flatMap { $0.credentials.map(\.credentialID) })
        // Registration requests.
        for operation in new where operation.kind == .create {
            let cite = StepSupport.cite(operation)
            if operation.notes.contains(where: { $0.kind == .unsupportedCall }) {
                return violation("request-is-conditional", "\(cite) called a registration interface the device does not have")
            }
            guard let view = operation.registration else { continue }
            if !view.conditional {
                return violation(
                    "request-is-conditional", item: world.target.platform == .android ? "N2.6-AC02.V2" : "N2.6-AC02.V1",
                    "\(cite) is a modal registration request; the app issues only conditional ones on its own")
            }
            guard let eventIndex = events.lastIndex(where: { $0.marker < operation.sequence }) else {
                return violation("upgrade-only-after-complete-sign-in", "\(cite) came before any sign-in")
            }
            let event = events[eventIndex]
            guard event.qualifying else {
                let item = event.item
                if item.hasPrefix("N2.6-AC05") {
                    return violation(
                        "one-request-per-qualifying-sign-in", item: item, "\(cite) followed a passkey sign-in (step \(event.step + 1)), which does not qualify")
                }
                return violation(
                    "upgrade-only-after-complete-sign-in", item: item,
                    "\(cite) followed step \(event.step + 1), a sign-in that did not complete the policy with a password")
            }
            requestsPerEvent[eventIndex, default: 0] += 1
            if requestsPerEvent[eventIndex]! > 1 {
                let later = index != event.step
                return violation(
                    "one-request-per-qualifying-sign-in", item: later ? "N2.6-AC05.V7" : "N2.6-AC05.V1",
                    "\(cite) is registration request \(requestsPerEvent[eventIndex]!) for the sign-in of \(event.username) at step \(event.step + 1)"
                        + (later ? ", issued at step \(index + 1)" : ""))
            }
            if userActionSteps.contains(where: { $0 > event.step && $0 <= index }) || operation.issuedAtMillis - event.atMillis > World.upgradePromptnessMillis
            {
                return violation(
                    "one-request-per-qualifying-sign-in",
                    "\(cite) for the sign-in at step \(event.step + 1) came only at step \(index + 1), \((operation.issuedAtMillis - event.atMillis) / 1000) s later"
                )
            }
            guard let account = byUsername[event.username] else { continue }
            if !names(account.username).contains(view.userName) || view.userHandle != account.userHandle {
                return violation(
                    "request-for-signed-in-account",
                    "\(cite) names \(view.userName) (user handle \(view.userHandle == account.userHandle ? "of" : "not of") \(account.username)); the sign-in at step \(event.step + 1) was \(account.username)'s"
                )
            }
            if world.target.has(.exclusionList) {
                let excluded = Set(view.excludedCredentials ?? [])
                let active = Set((beforeByUsername[event.username] ?? account).credentials.filter { $0.state == .active }.map(\.credentialID))
                let own = Set(((beforeByUsername[event.username]?.credentials ?? []) + account.credentials).map(\.credentialID))
                if !active.isSubset(of: excluded) || !excluded.isSubset(of: own) {
                    return violation(
                        "request-excludes-known-passkeys",
                        "\(cite) excludes \(excluded.count) id(s); the server holds \(active.count) active passkey(s) of \(account.username), "
                            + "\(active.subtracting(excluded).count) missing, \(excluded.subtracting(own).count) not \(account.username)'s")
                }
            }
        }
        // No error after the expected no-op.
        let errors = snapshot.uiEvents[uiMarker...].filter { UpgradeClaims.isError($0.value) }
        for operation in operations where operation.kind == .create && deliveryStep[operation.id] == index {
            guard let error = operation.outcome.error, World.failureClass(of: error)?.handling == .silent else { continue }
            if let shown = errors.first(where: { $0.sequence > operation.sequence }) {
                return violation(
                    "no-error-after-expected-no-op",
                    "\(StepSupport.cite(operation)) ended in the expected no-op \(error.name); the app showed #\(shown.sequence) \"\(shown.value.text)\"")
            }
        }
        // Passkeys bound from a changed context or to another account.
        for (alias, account) in after {
            let known = Set((before[alias]?.credentials ?? []).map(\.credentialID))
            for credential in account.credentials where !known.contains(credential.credentialID) {
                guard let operation = operations.first(where: { $0.kind == .create && Self.credentialID(of: $0.outcome) == credential.credentialID }) else {
                    continue
                }
                let cite = StepSupport.cite(operation)
                if let view = operation.registration, !names(account.username).contains(view.userName) {
                    return violation(
                        "no-credential-from-changed-context", item: "N2.6-AC06.V2",
                        "\(cite) was issued for \(view.userName); its passkey was stored for \(account.username) at step \(index + 1)")
                }
                guard let issued = issueStep[operation.id] else { continue }
                let delivered = deliveryStep[operation.id] ?? index
                if let change = contextChanges.first(where: { $0.step > issued && $0.step < delivered }) {
                    return violation(
                        "no-credential-from-changed-context", item: change.item,
                        "\(cite) was issued at step \(issued + 1); step \(change.step + 1) changed the context before its response (step \(delivered + 1)); the passkey was stored for \(account.username) at step \(index + 1)"
                    )
                }
            }
        }
        // A live response (delivered without a context change, within the control's minute) is stored.
        for operation in operations where operation.kind == .create && deliveryStep[operation.id] == index {
            guard let issued = issueStep[operation.id], let view = operation.registration, let id = Self.credentialID(of: operation.outcome),
                now - operation.issuedAtMillis <= Self.liveReleaseMillis,
                !contextChanges.contains(where: { $0.step > issued && $0.step <= index }),
                !relaunchSteps.contains(where: { $0 > issued && $0 <= index })
            else { continue }
            guard let owner = after.values.first(where: { names($0.username).contains(view.userName) }) else { continue }
            liveResponses.append((operation, owner.username, id, index, now - operation.issuedAtMillis))
        }
        if snapshot.pendingTimers.isEmpty {
            liveResponses.removeAll { live in byUsername[live.username]?.credentials.contains { $0.credentialID == live.credentialID } == true }
            if let live = liveResponses.first {
                return violation(
                    "live-response-is-stored",
                    "\(StepSupport.cite(live.operation)) for \(live.username) was answered at step \(live.delivered + 1), "
                        + "\(live.afterMillis / 1000) s after the request, with no context change or relaunch in between; "
                        + "the app has nothing left scheduled and the server holds no passkey of it for \(live.username)")
            }
        }
        // Signals.
        var exact: ExactValues?
        for operation in new where operation.kind == .signal {
            let cite = StepSupport.cite(operation)
            if operation.notes.contains(where: { $0.kind == .unsupportedCall }) {
                return violation("no-unavailable-interface", "\(cite) called a signal interface the device does not have")
            }
            if let request = operation.signalRequest {
                exact = exact ?? ExactValues(accounts: Array(before.values) + Array(after.values), providerIDs: snapshot.provider.passkeys.map(\.credentialID))
                if let problem = Self.representationProblem(request, exact: exact!) {
                    return violation("signal-ids-exact", item: problem.item, "\(cite): \(problem.message)")
                }
            }
            guard let signal = operation.signal else { continue }
            switch signal.kind {
            case .unknownCredential:
                if let id = signal.credentialID, heldBefore.contains(id), heldAfter.contains(id) {
                    let item = sentence.contains("whose signature is invalid") ? "N3.2-AC02.V4" : sentence.contains("cancels") ? "N3.2-AC02.V7" : "N3.2-AC02.V2"
                    return violation("unknown-only-for-unknown-ids", item: item, "\(cite) reports \(Base64URL.encode(id)) as unknown; the server holds it")
                }
            case .allAcceptedCredentials:
                guard let handle = signal.userHandle, let account = handles[handle] else { break }
                let sent = Set(signal.acceptedCredentialIDs ?? [])
                let activeAfter = Set(account.credentials.filter { $0.state == .active }.map(\.credentialID))
                let activeBefore = Set((beforeByUsername[account.username]?.credentials ?? []).filter { $0.state == .active }.map(\.credentialID))
                if sent != activeAfter && sent != activeBefore {
                    return violation(
                        "accepted-list-is-server-list",
                        "\(cite) lists \(sent.count) id(s) for \(account.username); the server holds \(activeAfter.count) active, \(sent.subtracting(activeAfter).count) of the listed not among them"
                    )
                }
            default: break
            }
            let expected: String? =
                if let id = signal.credentialID { snapshot.provider.passkeys.first { $0.credentialID == id }?.rpID } else if let handle = signal.userHandle {
                    handles[handle]?.rpID
                } else { nil }
            if let expected, signal.rpID != expected {
                return violation("signal-names-account-rp-id", "\(cite) names the RP ID \(signal.rpID); its account's is \(expected)")
            }
        }
        if new.contains(where: { $0.kind == .signal }) {
            func sameRun(_ first: PlatformOperation, _ second: PlatformOperation) -> Bool {
                !relaunches.contains { $0 > first.sequence && $0 < second.sequence }
            }
            let android = operations.filter { $0.kind == .signal && $0.signalRequest?.platform == .android }
            for (start, first) in android.enumerated() {
                let inWindow = android[start...].prefix { $0.issuedAtMillis < first.issuedAtMillis + 120_000 && sameRun(first, $0) }
                if inWindow.count > 10 {
                    return violation("android-rate-window", "\(inWindow.count) Android signal calls from \(first.issuedAtMillis) ms within 120 s")
                }
            }
            let calls = operations.filter { $0.kind == .signal }
            for (position, call) in calls.enumerated() {
                guard let retry = call.outcome.error?.retryMillis else { continue }
                if let early = calls[(position + 1)...].first(where: { $0.issuedAtMillis < call.issuedAtMillis + retry && sameRun(call, $0) }) {
                    return violation(
                        "retry-after-retry-millis",
                        "\(StepSupport.cite(call)) was rate limited for \(retry / 1000) s; \(StepSupport.cite(early)) came \((call.issuedAtMillis + retry - early.issuedAtMillis) / 1000) s too early"
                    )
                }
            }
        }
        return nil
    }

    /// How long after its request a response released without a context change must still be
    /// stored: N2.6-AC06's control releases it 1 minute after the sign-in (its harness choice).
    static let liveReleaseMillis: Int64 = 60_000

    /// The credential id in a successful registration outcome.
    static func credentialID(of outcome: PlatformOutcome) -> Data? {
        switch outcome {
        case .appleRegistration(let apple):
            return apple.credentialID
        case .androidRegistration(let text):
            guard let json = try? JSONValue.parse(Data(text.utf8)), let id = json["rawId"]?.stringValue ?? json["id"]?.stringValue else { return nil }
            return Base64URL.decodeIfValid(id)
        case .androidAuthentication, .appleAssertion, .signalAccepted, .failure:
            return nil
        }
    }
}
