import Foundation
import WebAuthn

extension SessionSnapshot {
    /// Whether `username` is signed in, completely or with lower assurance (a recovery sign-in):
    /// the account its signals may be about (a pending second factor is not signed in).
    func hasSignedIn(_ username: String) -> Bool {
        [.signedIn, .signedInLimited].contains(stage) && self.username == username
    }
}

/// The safety monitors of one test case at work: after each relying-party call it reads what the
/// server and the app's session hold, then asks every monitor about each platform call the
/// relying party made in that call, against the state just before and just after it.
///
/// The reads go to the session directly and are not recorded: the transcript, the replay and every
/// check see the test case exactly as they would without the watch. A read that fails (an adapter
/// that cannot inspect) stops the watch for the test case, with the reason kept; it never changes
/// a verdict by itself.
public final class MonitorWatch {
    /// The monitors at work.
    let monitors: [SafetyMonitor]
    /// What the monitors found, in the order they found it.
    public private(set) var violations: [MonitorViolation] = []
    /// Why the watch stopped early, when it did.
    public private(set) var stopped: String?

    /// What the server and the app's session held at one moment.
    public struct Moment: Sendable {
        /// The app's session.
        public var session: SessionSnapshot
        /// The server's record of every account of the test case.
        public var accounts: [AccountSnapshot]

        /// The account with this WebAuthn user handle.
        func account(handle: Data) -> AccountSnapshot? { accounts.first { $0.userHandle == handle } }
        /// The account with this sign-in name.
        func account(username: String) -> AccountSnapshot? { accounts.first { $0.username == username } }
        /// Whether `username` is signed in (completely or with lower assurance).
        func isSignedIn(_ username: String) -> Bool { session.hasSignedIn(username) }
        /// The session in words.
        var sessionText: String {
            switch session.stage {
            case .signedOut: "nobody was signed in"
            case .awaitingSecondFactor: "\(session.username ?? "an account") awaited its second factor"
            case .signedIn, .signedInLimited: "\(session.username ?? "an account") was signed in"
            }
        }
    }

    /// A sign-in (or sign-out) the app answered, as the upgrade monitors care.
    struct SignIn: Sendable {
        /// The transcript entry of the user action.
        var sequence: Int
        /// The account it signed in; `nil` for a sign-out or an account the app did not name.
        var username: String?
        /// Whether it completed the account's policy with a password.
        var qualifying: Bool
        /// The verify item a conditional request after it breaks, when it does not qualify.
        var item: VerifyItemID
        /// What it was, in words.
        var text: String
        /// Conditional requests that followed it.
        var requests = 0
    }

    /// What the test case did so far, as the monitors care.
    struct History: Sendable {
        var signIns: [SignIn] = []
        var awaitingSecondFactor: String?
        /// Transcript entries of context changes (a sign-out, a switch, a new sign-in) and the
        /// N2.6-AC06 item a response from before one breaks.
        var contextChanges: [(sequence: Int, item: VerifyItemID)] = []
        /// Transcript entries of relaunches: a relaunched app starts without memory of rate limits.
        var relaunches: [Int] = []
        /// The first conditional request that failed or was declined.
        var declinedConditional: PlatformOperation?
        /// Registration responses delivered after a context change, by credential id: none may be stored.
        var staleResponses: [Data: (operation: PlatformOperation, item: VerifyItemID)] = [:]
        /// Answers without user presence to modal registration requests, by credential id: none may be stored.
        var unpresentModalResponses: [Data: PlatformOperation] = [:]
        /// The user action whose call (and the deliveries it caused) is running; `nil` for timers.
        var acting: UserAction?

        /// Whether no relaunch came between two calls (the same app process made both).
        func sameRun(_ first: PlatformOperation, _ second: PlatformOperation) -> Bool {
            !relaunches.contains { $0 > first.sequence && $0 < second.sequence }
        }
    }

    /// What a monitor sees when it judges.
    public struct Context: Sendable {
        /// The state read after the relying party's previous call; `nil` before the first read.
        var before: Moment?
        /// The state read after the call that made the platform calls being judged.
        var after: Moment
        var target: Target
        /// Every platform call of the test case so far.
        var operations: [PlatformOperation]
        /// The credential manager's passkeys.
        var providerPasskeys: [ProviderState.Passkey]
        var history: History
        /// For a registration request: the last sign-in before it, with its index in `history.signIns`.
        var signIn: (index: Int, event: SignIn)?
        /// The app's telemetry so far.
        var telemetry: [Timed<TelemetryEvent>] = []

        /// Both moments, the earlier first.
        var moments: [Moment] { [before, after].compactMap { $0 } }
        /// The account with this user handle at either moment, the later first.
        func account(handle: Data) -> AccountSnapshot? { after.account(handle: handle) ?? before?.account(handle: handle) }
        /// The account with this sign-in name at either moment, the later first.
        func account(username: String) -> AccountSnapshot? { after.account(username: username) ?? before?.account(username: username) }
        /// The account's records at each moment that has it.
        func records(of username: String) -> [AccountSnapshot] { moments.compactMap { $0.account(username: username) } }
        /// The ids the account holds active at each moment.
        func activeIDs(of username: String) -> [Set<Data>] {
            records(of: username).map { Set($0.credentials.filter { $0.state == .active }.map(\.credentialID)) }
        }
    }

    var history = History()
    var previous: Moment?
    var judged = 0
    var reported: Set<String> = []
    let target: Target

    /// A watch with the given monitors for a test case on `target`.
    public init(monitors: [SafetyMonitor], target: Target) {
        self.monitors = monitors
        self.target = target
    }

    // MARK: What the world tells the watch

    /// A user action is about to run: the calls it causes are the user's, not the app's own.
    func begin(_ action: UserAction) { history.acting = action }

    /// The user action's calls are over.
    func end() { history.acting = nil }

    /// A timer fires: what it causes is the app's own doing. Returns the action to restore after.
    func timer() -> UserAction? {
        defer { history.acting = nil }
        return history.acting
    }

    /// Restores the user action a timer interrupted.
    func resume(_ action: UserAction?) { history.acting = action }

    /// The app answered a user action (`sequence`: its transcript entry); notes sign-ins, sign-outs,
    /// context changes and relaunches.
    func answered(_ action: UserAction, _ outcome: ActionOutcome, sequence: Int) {
        let status = outcome.status
        let signedInBefore = previous?.session.username
        func signIn(_ username: String?, qualifying: Bool, item: VerifyItemID, _ text: String) {
            history.signIns.append(SignIn(sequence: sequence, username: username, qualifying: qualifying, item: item, text: text))
        }
        func changed(toward username: String?) {
            let item: VerifyItemID = username == nil ? "N2.6-AC06.V1" : signedInBefore != nil && signedInBefore != username ? "N2.6-AC06.V2" : "N2.6-AC06.V3"
            history.contextChanges.append((sequence, item))
        }
        let accepted = [.signedIn, .signedInLimited, .secondFactorRequired].contains(status)
        switch action {
        case .passwordSignIn(let username, _), .switchAccount(let username, _):
            guard accepted else { return }
            changed(toward: username)
            if status == .signedIn {
                signIn(username, qualifying: true, item: "N2.6-AC01.V6", "the password sign-in of \(username)")
                history.awaitingSecondFactor = nil
            } else {
                signIn(username, qualifying: false, item: "N2.6-AC01.V1", "the password of \(username), its second factor still due")
                history.awaitingSecondFactor = username
            }
        case .secondFactor(let factor):
            guard let username = history.awaitingSecondFactor else { return }
            if status == .signedIn {
                signIn(username, qualifying: true, item: "N2.6-AC01.V4", "the second factor of \(username)")
                history.awaitingSecondFactor = nil
            } else {
                signIn(
                    username, qualifying: false, item: factor == .expired ? "N2.6-AC01.V3" : "N2.6-AC01.V2",
                    "a \(factor == .expired ? "expired" : "wrong") second factor of \(username)")
            }
        case .recoverySignIn(let username):
            guard accepted else { return }
            changed(toward: username)
            signIn(username, qualifying: false, item: "N2.6-AC01.V5", "the recovery sign-in of \(username)")
        case .alternativeSignIn(let username, let method):
            guard accepted else { return }
            changed(toward: username)
            signIn(username, qualifying: false, item: "N2.6-AC01.V7", "the \(method.rawValue) sign-in of \(username)")
        case .passkeySignIn(let username, _):
            // A passkey sign-in completes once the platform answers: noted unless the app refused it at once.
            guard status != .rejected else { return }
            changed(toward: username)
            signIn(username, qualifying: false, item: "N2.6-AC05.V7", "a passkey sign-in")
        case .signOut:
            history.awaitingSecondFactor = nil
            changed(toward: nil)
            signIn(nil, qualifying: false, item: "N2.6-AC01.V1", "the sign-out")
        case .relaunch:
            history.relaunches.append(sequence)
        case .createPasskey, .revokePasskey, .rename, .refresh, .managePasskeys:
            break
        }
    }

    // MARK: Judging

    /// Judges the platform calls the relying party made since the last look; `delivered` is the
    /// call whose outcome the relying party was just given. Reads the state when there is
    /// something to judge or when `read` asks (after a user action, which may change it).
    func look(_ world: World, read: Bool = false, delivered: PlatformOperation? = nil) async {
        guard stopped == nil, !monitors.isEmpty else { return }
        if let delivered { noteDelivery(delivered) }
        let snapshot = world.host.snapshot
        let operations = snapshot.operations
        let new = operations[min(judged, operations.count)...]
        guard read || !history.staleResponses.isEmpty || !history.unpresentModalResponses.isEmpty || new.contains(where: { $0.kind != .get }) else {
            judged = operations.count
            return
        }
        let now: Moment
        do {
            now = try await moment(world)
        } catch {
            stopped = "the safety monitors stopped: reading the server's state failed: \(error)"
            return
        }
        var context = Context(
            before: previous, after: now, target: target, operations: Array(operations[..<min(judged, operations.count)]),
            providerPasskeys: snapshot.provider.passkeys, history: history)
        for operation in new {
            context.operations.append(operation)
            judge(operation, in: &context)
        }
        history = context.history
        for monitor in monitors {
            guard case .state(let check) = monitor.judge, let breach = check(context) else { continue }
            report(monitor, breach, sequence: world.host.transcriptCount, key: breach.message)
        }
        previous = now
        judged = operations.count
    }

    /// The app has nothing left scheduled but its recurring schedule: judges the obligations.
    func settled(_ world: World) async {
        await look(world)
        guard stopped == nil, let now = previous else { return }
        let snapshot = world.host.snapshot
        var context = Context(
            before: now, after: now, target: target, operations: snapshot.operations, providerPasskeys: snapshot.provider.passkeys, history: history)
        context.telemetry = snapshot.telemetry
        for monitor in monitors {
            guard case .settled(let check) = monitor.judge, let breach = check(context) else { continue }
            // One finding per call: the text after the first ";" may grow between two settled moments.
            report(monitor, breach, sequence: world.host.transcriptCount, key: String(breach.message.prefix { $0 != ";" }))
        }
    }

    /// The test case's steps are over: the monitors of what the app showed judge it by cause, each
    /// replaying the test case once when its reader picks an event. A replay that cannot run leaves
    /// the monitor silent, with the reason in the transcript.
    func finish(_ world: World) async {
        guard stopped == nil else { return }
        for monitor in monitors {
            guard case .shown(let judge) = monitor.judge, judge.applies(target),
                world.host.snapshot.uiEvents.contains(where: { judge.picks($0.value) })
            else { continue }
            do {
                let attribution = try await world.shownOnlyBecause(after: 0, unless: judge.change) { !judge.picks($0) }
                for event in attribution.events { report(monitor, judge.breach(event), sequence: event.sequence, key: "\(event.sequence)") }
            } catch {
                world.host.record(.step, "monitor.skipped", "\(monitor.id) could not replay the test case \(judge.change.phrase): \(error)")
            }
        }
    }

    /// Asks every monitor about one call.
    func judge(_ operation: PlatformOperation, in context: inout Context) {
        switch operation.kind {
        case .signal:
            guard let signal = operation.signal else { return }
            for monitor in monitors {
                guard case .signal(let check) = monitor.judge, let breach = check(operation, signal, context) else { continue }
                report(monitor, breach, sequence: operation.sequence, key: "\(operation.id)")
            }
        case .create:
            noteFailedConditional(operation, in: &context.history)
            guard let view = operation.registration else { return }
            let index = context.history.signIns.lastIndex { $0.sequence < operation.sequence }
            // A request counts for the sign-in it follows when it is for that sign-in's account: one
            // for another account (a stale timer's) is N2.6-AC03's, not a second request for this one.
            if let index, view.conditional, !operation.notes.contains(where: { $0.kind == .unsupportedCall }),
                context.history.signIns[index].username.flatMap({ context.account(username: $0) }).map({ $0.userHandle == view.userHandle }) ?? true
            {
                context.history.signIns[index].requests += 1
            }
            context.signIn = index.map { ($0, context.history.signIns[$0]) }
            for monitor in monitors {
                guard case .request(let check) = monitor.judge, let breach = check(operation, view, context) else { continue }
                report(monitor, breach, sequence: operation.sequence, key: "\(operation.id)")
            }
            context.signIn = nil
        case .get:
            break
        }
    }

    /// A conditional request that the platform failed or declined: after it, a modal sheet the user
    /// did not ask for is N2.6-AC05.V8's.
    func noteFailedConditional(_ operation: PlatformOperation, in history: inout History) {
        guard history.declinedConditional == nil, operation.registration?.conditional == true, operation.outcome.error != nil else { return }
        history.declinedConditional = operation
    }

    /// A registration response given to the app after a context change that followed its request.
    func noteDelivery(_ operation: PlatformOperation) {
        if operation.kind == .create, operation.registration?.conditional == false, let reading = operation.response,
            let flags = reading.authenticatorData?.flags, !flags.contains(.userPresent)
        {
            history.unpresentModalResponses[reading.credentialID] = operation
        }
        guard operation.kind == .create, let id = operation.createdCredentialID,
            let change = history.contextChanges.first(where: { $0.sequence > operation.sequence })
        else { return }
        history.staleResponses[id] = (operation, change.item)
    }

    /// Records a breach once per monitor and key.
    func report(_ monitor: SafetyMonitor, _ breach: SafetyMonitor.Breach, sequence: Int, key: String) {
        guard reported.insert("\(monitor.id)|\(key)").inserted else { return }
        violations.append(MonitorViolation(monitor: monitor.id, item: breach.item ?? monitor.item, sequence: sequence, message: breach.message))
    }

    /// The server's and the session's state now, read without a transcript entry.
    func moment(_ world: World) async throws -> Moment {
        let usernames = world.accounts.keys.sorted().compactMap { world.accounts[$0]?.username }
        let snapshot = try await world.session.inspect(usernames: usernames)
        return Moment(session: snapshot.session, accounts: snapshot.accounts)
    }
}
