import Foundation
import WebAuthn

extension StepLibrary {
    /// The step that states a monitor's demand: it lets the app finish its work, then fails with
    /// the monitor's breaches in this test case.
    static func monitorStep(_ sentence: String, _ monitor: SafetyMonitor) -> StepDefinition {
        StepDefinition(sentence) { world, _ in
            try await world.quiesce()
            guard let watch = world.watch else { throw SystemIssue("no safety monitor watches this world") }
            await watch.look(world, read: true)
            let found = watch.violations.filter { $0.monitor == monitor.id }
            return StepSupport.expect(found.isEmpty, found.map(\.message).joined(separator: "; "))
        }
    }

    /// Steps that wait for the app to settle and that prove a negative scenario reached its path.
    static let observationSteps: [StepDefinition] = [
        // The wait follows the RP's own schedule (no horizon of the harness's); a runaway stopped by
        // the test case's budget of virtual time or the timer limit is named in the transcript.
        StepDefinition(.quiescence) { world, _ in
            try await world.quiesce()
            return .passed
        },
        // A "never" stated in a scenario that drives its path: the safety monitor that watches every
        // test case judges it (see `SafetyMonitor`), once the app has nothing left scheduled.
        monitorStep("no signal left for an account that was not signed in", .signalsOnlyWhileSignedIn),
        monitorStep("every accepted-credentials signal lists exactly the server's accepted passkeys of its account", .acceptedListIsServerList),
        // Lets the app's timers run one by one until the platform has refused one of its signals
        // with a rate limit, so that what changes next happens between the refusal and any retry.
        StepDefinition("the platform has rate-limited one of the app's signals") { world, _ in
            var fired = 0
            while !world.operationsSinceTrigger.contains(where: { $0.kind == .signal && $0.outcome.error?.retryMillis != nil }) {
                guard fired < World.quiescenceTimerLimit, try await world.fireNextTimer(notAfter: VirtualClock.budgetMillis) else {
                    return .failed("the app sent no signal the platform could rate-limit (\(fired) timer(s) fired)")
                }
                fired += 1
            }
            return .passed
        },
        StepDefinition("the platform took at most {int} accepted-credentials signal(s) for {string}", accounts: .uses(1)) { world, arguments in
            let limit = try arguments.int(0)
            let username = try world.account(arguments[1]).username
            let added = try await world.signalDifference().added(.allAcceptedCredentials, alias: arguments[1], where: \.accepted)
            return StepSupport.expect(
                added.count <= limit,
                "the triggers added \(added.count) accepted-credentials signals the platform took for \(username), "
                    + "more than the \(limit) they call for: " + SignalDifference.describe(added.with, added.without))
        },
        // The platform's half is the path (not verified when it was not reached); the app's half is
        // the demand (an absent credential cannot sign in, a revoked one must be refused).
        StepDefinition("the platform returned the assertion and the app refused the sign-in") { world, _ in
            let signIn: PlatformOperation
            let session: SessionSnapshot
            switch try await deliveredAssertion(world) {
            case .failure(let problem): return .notVerified(problem.message + ", so the scenario's path was not reached")
            case .success(let delivered): (signIn, session) = delivered
            }
            return StepSupport.expect(
                session.stage != .signedIn,
                "the app accepted the sign-in of \(StepSupport.cite(signIn)): its session is signed in as \(session.username ?? "?")")
        },
        // A negative item's path (a sign-in the app refuses for a reason other than an absent or
        // revoked credential): the criterion forbids a signal there, not the sign-in itself, so an
        // app that signed in never reached the path and the item is not verified, never failed. The
        // refusal must also have the item's reason (`SignInPath`): the assertion the scenario
        // built, one cause of refusal in it, and a valid sign-in accepted where nothing else differs.
        StepDefinition("the sign-in took the path: the platform returned the assertion and the app refused it") { world, _ in
            let signIn: PlatformOperation
            let session: SessionSnapshot
            switch try await deliveredAssertion(world) {
            case .failure(let problem): return .notVerified(problem.message + ", so the item's path was not reached")
            case .success(let delivered): (signIn, session) = delivered
            }
            guard session.stage != .signedIn else {
                return .notVerified(
                    "the app accepted the sign-in of \(StepSupport.cite(signIn)) (signed in as \(session.username ?? "?")): "
                        + "this item needs a refused sign-in, which the criterion does not demand, so its path was not reached")
            }
            return try await SignInPath.notReached(world, signIn: signIn).map { .notVerified($0) } ?? .passed
        },
        StepDefinition("the platform reported the cancellation and the app is not signed in") { world, _ in
            try await world.quiesce()
            guard let signIn = world.operationsSinceTrigger.last(where: { $0.kind == .get }) else {
                return .failed("the app started no passkey sign-in after the trigger")
            }
            guard signIn.outcome.error != nil, signIn.status == .delivered else {
                return .failed("\(StepSupport.cite(signIn)) did not end in a cancellation the app received")
            }
            let session = try await world.inspectSession()
            return StepSupport.expect(session.stage != .signedIn, "the app is signed in as \(session.username ?? "?") after a cancelled sign-in")
        },
        StepDefinition("the app sent a signal of every type for {string}", accounts: .uses(0)) { world, arguments in
            let calls = try await world.signalsSinceTrigger()
            let account = try await world.inspect(arguments[0])
            // The account's handles: its current one, and the one its passkeys were made with (a
            // server may change the handle with the name; a signal sent before still was the account's).
            let passkeys = world.host.snapshot.provider.passkeys
            let ids = Set(account.credentials.map(\.credentialID))
            let handles = Set([account.userHandle] + passkeys.filter { ids.contains($0.credentialID) }.map(\.userHandle))
            let held = Set(passkeys.filter { handles.contains($0.userHandle) }.map(\.credentialID))
            let mine = calls.filter { call in
                if let handle = call.operation.signal?.userHandle { return handles.contains(handle) }
                if let id = call.operation.signal?.credentialID { return held.contains(id) }
                return false
            }
            let sent = Set(mine.compactMap(\.kind))
            let missing = [SignalView.Kind.unknownCredential, .allAcceptedCredentials, .currentUserDetails].filter { !sent.contains($0) }
            guard !missing.isEmpty else { return .passed }
            let seen =
                "no \(missing.map(\.rawValue).joined(separator: ", ")) signal for \(account.username) after the trigger"
                + (calls.isEmpty ? "" : "; sent: " + calls.map { "\($0.cite) \($0.kind?.rawValue ?? "?")" }.joined(separator: ", "))
            // Controls guard (DESIGN.md): a cause another criterion judges leaves this item not
            // verified, pointing there. The list and the details follow sign-ins: a relying party
            // that refuses a valid passkey sign-in of the scenario gives them no path.
            if missing != [.unknownCredential], case .refused(let probe) = try await world.probePasskeySignIn() {
                return .notVerified(
                    seen + "; in the same scenario without its When steps a valid passkey sign-in is refused as well (" + probe
                        + "): the sign-ins this scenario's signals follow did not happen, so the item's path was not reached")
            }
            // An app that never signals an unknown credential fails N3.2-AC02, where that is judged.
            guard missing == [.unknownCredential], case .refused(let probe) = try await world.probeUnknownCredentialSignal() else { return .failed(seen) }
            return .notVerified(
                seen + "; in the same scenario without its When steps, a sign-in with the passkey the server does not know brings none either ("
                    + probe + "): the app does not signal an unknown credential, which N3.2-AC02 judges, so this item is not verified here — see N3.2-AC02")
        },
        StepDefinition("every user-details signal for {string} carries its current name", accounts: .uses(0)) { world, arguments in
            let calls = try await world.signalsSinceTrigger().filter { $0.kind == .currentUserDetails }
            let account = try await world.inspect(arguments[0])
            let wrong = calls.filter { call in
                let name = call.summary.name ?? call.operation.signal?.name
                return call.operation.signal?.userHandle != account.userHandle || name != account.name
            }
            return StepSupport.expect(
                wrong.isEmpty,
                "user-details signal(s) not carrying the current name \"\(account.name)\" of \(account.username): "
                    + wrong.map(\.cite).joined(separator: ", "))
        },
    ]
}

extension StepLibrary {
    /// Why a negative scenario's passkey sign-in never reached the app as the chosen assertion.
    struct Undelivered: Error {
        let message: String
    }

    /// The last passkey sign-in after the trigger, once the app has settled, with the app's session:
    /// the path of a refused sign-in starts only when the platform delivered the chosen assertion.
    static func deliveredAssertion(_ world: World) async throws -> Result<(PlatformOperation, SessionSnapshot), Undelivered> {
        try await world.quiesce()
        guard let signIn = world.operationsSinceTrigger.last(where: { $0.kind == .get }) else {
            return .failure(Undelivered(message: "the app started no passkey sign-in after the trigger"))
        }
        if let error = signIn.outcome.error {
            return .failure(Undelivered(message: "\(StepSupport.cite(signIn)): the platform answered \(error.name), not the assertion the scenario chose"))
        }
        guard signIn.status == .delivered else {
            return .failure(Undelivered(message: "\(StepSupport.cite(signIn)): the assertion was never delivered to the app (\(signIn.status.rawValue))"))
        }
        return .success((signIn, try await world.inspectSession()))
    }
}
