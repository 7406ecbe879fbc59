import Foundation
import WebAuthn

extension StepLibrary {
    /// Signal steps that reach the paths the criteria name whatever the RP's own choices (N3.2):
    /// a signed-in start without the upgrade capability, faults that persist until the check,
    /// failed creations of every kind, and outcomes judged by what the server now does.
    static let signalPathSteps: [StepDefinition] = [
        // N3.2: "Revocation never waits for the signal"; "never block a UI flow on the result". An
        // answer `pending` (the flow waits for the platform) to a revocation, a rename, the refresh
        // point or passkey management whose only platform calls were signals is a flow that waits for
        // a signal's result; one that also started something else (a passkey sign-in to confirm the
        // user) may wait for that.
        StepDefinition("the app answered every user action without waiting for a signal") { world, _ in
            let kinds: Set<UserAction.Kind> = [.revokePasskey, .rename, .refresh, .managePasskeys]
            let operations = world.host.snapshot.operations
            let actions = world.answers.filter { kinds.contains($0.action.kind) }
            guard !actions.isEmpty else { return .failed("the scenario made no revocation, rename, refresh or passkey-management action") }
            var waiting: [String] = []
            for answer in actions where answer.outcome.status == .pending {
                let started = operations.filter { $0.sequence > answer.requested && $0.sequence < answer.answered }
                guard !started.isEmpty, started.allSatisfy({ $0.kind == .signal }) else { continue }
                waiting.append(
                    "#\(answer.answered) user.\(answer.action.kind.rawValue) answered \"\(answer.text)\" after starting only signals ("
                        + started.map(StepSupport.cite).joined(separator: ", ") + "): the flow waits for a signal's result")
            }
            return StepSupport.expect(waiting.isEmpty, waiting.joined(separator: "; "))
        },
        // The signed-in start of the Signal API criteria: a password sign-in needs no upgrade
        // capability. An app that does not sign in with a password cannot start this way, which
        // leaves the scenario not verified rather than failed.
        StepDefinition("{string} signs in with the password") { world, arguments in
            let account = try world.account(arguments[0])
            try await world.typePassword(UserAction.passwordSignIn(username:password:), of: account)
            guard world.lastOutcome?.status == .signedIn else {
                return .notVerified(
                    "the app answered the password sign-in of \(account.username) with \(world.lastOutcome?.status.rawValue ?? "nothing"); "
                        + "the scenario needs a signed-in start")
            }
            return .passed
        },
        // The unauthenticated paths of a password sign-in (N3.2-AC03.V5): the password refused, or
        // accepted with the second factor still due. Each proves it reached its path.
        StepDefinition("{string} enters a wrong password", accounts: .uses(0)) { world, arguments in
            let account = try world.account(arguments[0])
            try await world.typePassword({ username, password in .passwordSignIn(username: username, password: password + "-wrong") }, of: account)
            guard world.lastOutcome?.status == .rejected else {
                return .notVerified("the app answered a wrong password of \(account.username) with \(world.lastOutcome?.status.rawValue ?? "nothing")")
            }
            return .passed
        },
        StepDefinition("{string} enters the password and the app asks for the second factor", accounts: .uses(0), needs: [.secondFactor]) { world, arguments in
            let account = try world.account(arguments[0])
            try await world.typePassword(UserAction.passwordSignIn(username:password:), of: account)
            guard world.lastOutcome?.status == .secondFactorRequired else {
                return .notVerified(
                    "the app answered the password of \(account.username) with \(world.lastOutcome?.status.rawValue ?? "nothing"), not a request for the second factor"
                )
            }
            return .passed
        },
        // Persistent faults: whatever the RP's retry policy, the path the scenario names is reached.
        StepDefinition("the server cannot be reached whenever the app submits a passkey response", needs: [.faultInjection]) { world, _ in
            world.host.record(.harnessToRP, "session.injectFault", Fault.Kind.networkFailure.rawValue + " (until the session ends)")
            try await world.session.injectFault(Fault(.networkFailure, count: nil))
            return .passed
        },
        StepDefinition(
            "every lookup of the presented credential fails on the server", needs: [.faultInjection], protocolFeatures: [.credentialLookupFailure]
        ) { world, _ in
            world.host.record(.harnessToRP, "session.injectFault", Fault.Kind.credentialLookupFailure.rawValue + " (until the session ends)")
            try await world.session.injectFault(Fault(.credentialLookupFailure, count: nil))
            return .passed
        },
        StepDefinition("the platform refuses the passkey creation from the app's settings", needs: [.explicitCreation]) { world, _ in
            // The provider holds a passkey of the account that the request excludes: the platform refuses.
            let account = try await world.inspect(try await world.aliasSignedIn())
            let excluded = account.credentials.filter { $0.state == .active }.map(\.credentialID)
            guard world.host.snapshot.provider.passkeys.contains(where: { excluded.contains($0.credentialID) }) else {
                throw SystemIssue("the platform can refuse the creation only when the credential manager holds a passkey of the account; add one first")
            }
            try await world.perform(.createPasskey)
            return .passed
        },
        // A creation every server refuses, whatever its flags: the response answers a challenge the
        // server never issued (WebAuthn Level 3, §7.1). A UP=0 response to modal options would rest
        // on N2.6-X02, a recommendation, which a Core item never enforces.
        StepDefinition("the passkey created from the app's settings answers a challenge the server never issued", needs: [.explicitCreation]) { world, _ in
            if let gap = world.needsBuiltResponse("a registration that answers a challenge the server never issued") { return gap }
            world.host.withProvider { $0.nextRegistrationAnswersOtherChallenge = true }
            world.host.record(.step, "provider.setting", "the registration response answers a challenge the server never issued")
            try await world.perform(.createPasskey)
            world.host.withProvider { $0.nextRegistrationAnswersOtherChallenge = false }
            return .passed
        },
        StepDefinition("the user signs in with a passkey of {string} while the app expects {string}", needs: [.passkeySignIn]) { world, arguments in
            let active = try await world.inspect(arguments[0]).credentials.filter { $0.state == .active }
            guard let id = active.first?.credentialID else { return .failed("the server holds no active passkey of \(arguments[0]) to sign in with") }
            world.host.withProvider { $0.nextAssertion = .use(id) }
            let expected = try world.account(arguments[1])
            try await world.perform(.passkeySignIn(username: expected.username, rpID: expected.rpID))
            return .passed
        },
        // F-store: a revoked passkey may be kept inactive or deleted; either way no later assertion is accepted.
        StepDefinition("the server no longer accepts the passkey the user revoked for {string}") { world, arguments in
            try await world.quiesce()
            let id = try world.storedID("passkey revoked by the user")
            let account = try await world.inspect(arguments[0])
            let record = account.credentials.first { $0.credentialID == id }
            return StepSupport.expect(
                record == nil || record?.state == .revoked,
                "the server still holds \(Base64URL.encode(id)) of \(account.username) as \(record?.state.rawValue ?? "?")")
        },
        StepDefinition("the app opened passkey management") { world, _ in
            guard let last = world.answers.last(where: { $0.action.kind == .managePasskeys }) else {
                return .failed("the scenario never opened passkey management")
            }
            return StepSupport.expect(last.outcome.status != .rejected, "the app answered opening passkey management with \(last.text)")
        },
        StepDefinition("the server holds {int} accepted passkey(s) for {string}") { world, arguments in
            let expected = try arguments.int(0)
            let account = try await world.inspect(arguments[1])
            let active = account.credentials.filter { $0.state == .active }.count
            return StepSupport.expect(active == expected, "the server accepts \(active) passkey(s) of \(account.username), expected \(expected)")
        },
        // F-coalesce: work still pending once the triggers are over is coalesced per account; work
        // sent at once (no coalescing window) is not pending. Counted by difference over the same span.
        StepDefinition("the app sent at most {int} accepted-credentials signal(s) for {string} after the last trigger") { world, arguments in
            let limit = try arguments.int(0)
            let username = try world.account(arguments[1]).username
            guard let last = world.lastUserActionMillis else { throw SystemIssue("the scenario performed no user action") }
            let added = try await world.signalDifference().added(.allAcceptedCredentials, alias: arguments[1], from: last)
            return StepSupport.expect(
                added.count <= limit,
                "\(added.count) accepted-credentials signals for \(username) were still pending after the last trigger (at \(last) ms), "
                    + "more than \(limit): " + SignalDifference.describe(added.with, added.without))
        },
        // A list sent in the same breath as the refused call (a batch) could not know of the refusal
        // nor of what changed after it: only lists made once the refusal reached the app are judged.
        StepDefinition(
            "every accepted-credentials signal for {string} made after the rate limit reached the app lists exactly the server's accepted passkeys"
        ) { world, arguments in
            let (calls, account) = try await world.acceptedListSignals(arguments[0])
            let transcript = world.host.snapshot.transcript
            guard let refused = world.signalCalls.first(where: { $0.operation.outcome.error?.retryMillis != nil }),
                let delivered = transcript.first(where: { $0.name == "session.platformCompleted" && $0.summary.hasPrefix("\(refused.operation.id) ") })
            else { return .failed("no signal was rate limited") }
            let problems = calls.filter { $0.accepted && $0.operation.sequence > delivered.sequence }.compactMap { $0.listProblem(against: account) }
            return StepSupport.expect(problems.isEmpty, problems.joined(separator: "; "))
        },
        // F-drop: an app may drop signals (its own budget or a rate limit); what it sends is never older than what it sent before.
        StepDefinition("no user-details signal for {string} carries an older name than one sent before it") { world, arguments in
            let calls = try await world.signalsSinceTrigger().filter { $0.kind == .currentUserDetails && $0.accepted }
            let account = try await world.inspect(arguments[0])
            // The names "the user changes the account's name N times" gives: renamed-1@…, renamed-2@…
            func order(_ name: String) -> Int {
                guard name.hasPrefix("renamed-"), let number = Int(name.dropFirst("renamed-".count).prefix { $0.isNumber }) else { return 0 }
                return number
            }
            var newest: (order: Int, name: String)?
            for call in calls where call.operation.signal?.userHandle == account.userHandle {
                let name = call.summary.name ?? call.operation.signal?.name
                guard let name else { continue }
                if let newest, order(name) < newest.order { return .failed("\(call.cite) carries \"\(name)\" after a signal carrying \"\(newest.name)\"") }
                newest = (order(name), name)
            }
            return .passed
        },
    ]
}

extension World {
    /// The alias of the account the app is signed in as.
    func aliasSignedIn() async throws -> String {
        let session = try await inspectSession()
        guard session.stage == .signedIn, let alias = accounts.first(where: { $0.value.username == session.username })?.key else {
            throw SystemIssue("the step needs a signed-in account; sign in first")
        }
        return alias
    }
}
