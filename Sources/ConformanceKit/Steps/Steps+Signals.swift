import Foundation
import WebAuthn

/// A signal call as the harness reads it back from the request, even when the platform refused it.
struct SignalCall {
    var operation: PlatformOperation
    var kind: SignalView.Kind?
    /// `signalCredentialState`, `ASCredentialDataManager` or `ASCredentialUpdater`.
    var interface: String

    /// What the request says as written, read by its platform family.
    var summary: SignalSummary

    init(_ operation: PlatformOperation) {
        self.operation = operation
        summary = operation.signalRequest.map { PlatformFamilies.simulation(of: $0.platform).signalSummary($0) } ?? SignalSummary(kind: nil, interface: "?")
        interface = summary.interface
        kind = summary.kind
    }

    /// The family of the signal's platform, `nil` for an operation that is not a signal.
    var family: (any PlatformFamilySimulation)? {
        operation.signalRequest.map { PlatformFamilies.simulation(of: $0.platform) }
    }

    var rpID: String? {
        operation.signal?.rpID ?? summary.rpID
    }

    var cite: String { StepSupport.cite(operation) }
}

extension World {
    /// Every signal call of the test case.
    var signalCalls: [SignalCall] { host.snapshot.operations.filter { $0.kind == .signal }.map(SignalCall.init) }

    /// Signal calls made after the trigger, once the app has nothing left scheduled.
    func signalsSinceTrigger() async throws -> [SignalCall] {
        try await quiesce()
        return operationsSinceTrigger.filter { $0.kind == .signal }.map(SignalCall.init)
    }

    /// Accepted-list signals for an account (matched by its user handle) made after the trigger,
    /// once the app has nothing left scheduled.
    func acceptedListSignals(_ alias: String) async throws -> (calls: [SignalCall], account: AccountSnapshot) {
        let calls = try await signalsSinceTrigger()
        let account = try await inspect(alias)
        return (calls.filter { $0.kind == .allAcceptedCredentials && $0.operation.signal?.userHandle == account.userHandle }, account)
    }

    /// The signal calls of this run and of the same scenario without its `When` steps, over the same
    /// span of virtual time, each as digests, with the replay's transcript copied into this one.
    func signalsWithAndWithoutTrigger() async throws -> (with: [SignalDigest], without: [SignalDigest]) {
        let calls = try await signalsSinceTrigger()
        let now = host.now()
        let names = try await SignalDigest.Names(self)
        let with = calls.map { SignalDigest($0, names: names) }
        let replay = try await withoutTrigger()
        try await replay.catchUp(to: now)
        let replayNames = try await SignalDigest.Names(replay)
        let without = replay.operationsSinceTrigger.filter { $0.kind == .signal && $0.issuedAtMillis <= now }.map {
            SignalDigest(SignalCall($0), names: replayNames)
        }
        copyTranscript(of: replay, until: now, signals: without.count)
        await replay.session.close()
        return (with, without)
    }
}

extension SignalCall {
    /// The accepted ids of an accepted-list signal, as base64url text, sorted.
    var acceptedIDTexts: [String] { (operation.signal?.acceptedCredentialIDs ?? []).map(Base64URL.encode).sorted() }

    /// Whether the platform took the call (it was not refused, by a rate limit or otherwise).
    var accepted: Bool { operation.outcome.error == nil }

    /// How an accepted-list signal's ids differ from the server's accepted ids, or `nil` if they are the same.
    func listProblem(against account: AccountSnapshot) -> String? {
        let accepted = Set(account.credentials.filter { $0.state == .active }.map(\.credentialID))
        let listed = operation.signal?.acceptedCredentialIDs ?? []
        let missing = accepted.subtracting(listed)
        let extra = Set(listed).subtracting(accepted)
        var problems: [String] = []
        if !missing.isEmpty { problems.append("missing \(missing.count) accepted id(s): " + missing.map(Base64URL.encode).sorted().joined(separator: ", ")) }
        if !extra.isEmpty {
            problems.append("\(extra.count) id(s) the server does not accept: " + extra.map(Base64URL.encode).sorted().joined(separator: ", "))
        }
        if listed.count != Set(listed).count { problems.append("duplicate ids") }
        return problems.isEmpty ? nil : "\(cite) lists \(listed.count) id(s), the server accepts \(accepted.count): " + problems.joined(separator: "; ")
    }
}

extension StepLibrary {
    /// Assertions over the signals the app sent (N3.2).
    static let signalAssertionSteps: [StepDefinition] = [
        // Counted by difference with the same scenario without its When steps.
        StepDefinition("no unknown-credential signal has been sent") { world, _ in
            let added = try await world.signalDifference().added(.unknownCredential)
            return StepSupport.expect(
                added.count <= 0, "the trigger added unknown-credential signal(s): " + SignalDifference.describe(added.with, added.without))
        },
        StepDefinition("exactly {int} unknown-credential signal(s) {word} been sent for the passkey the server does not know") { world, arguments in
            let expected = try arguments.int(0)
            let id = try world.storedID("unknown passkey")
            let difference = try await world.signalDifference()
            let replayID = difference.replayNotes["unknown passkey"].flatMap(Base64URL.decodeIfValid)
            let all = difference.added(.unknownCredential)
            let matching = difference.added(.unknownCredential) { call in
                call.operation.signal?.credentialID == id || (replayID != nil && call.operation.signal?.credentialID == replayID)
            }
            return StepSupport.expect(
                matching.count == expected && all.count == expected,
                "expected the trigger to add \(expected) unknown-credential signal(s) for \(Base64URL.encode(id)); it added \(all.count), "
                    + "\(matching.count) with that exact id (" + SignalDifference.describe(all.with, all.without) + ")")
        },
        StepDefinition("no accepted-credentials signal has been sent") { world, _ in
            let added = try await world.signalDifference().added(.allAcceptedCredentials)
            return StepSupport.expect(
                added.count <= 0, "the trigger added accepted-credentials signal(s): " + SignalDifference.describe(added.with, added.without))
        },
        StepDefinition("exactly {int} accepted-credentials signal(s) {word} been sent for {string}", accounts: .uses(2)) { world, arguments in
            let expected = try arguments.int(0)
            let username = try world.account(arguments[2]).username
            // What the trigger caused is what it added: a list the RP's own schedule sends (a
            // recurring timer, a reconciliation at every foreground) is sent without the trigger
            // too, so it never stands in for a reconciliation the trigger did not cause.
            let added = try await world.signalDifference().added(.allAcceptedCredentials, alias: arguments[2])
            let schedule =
                added.count < expected && !added.with.isEmpty
                ? "; the lists that followed it are the app's own schedule (the same scenario without its When steps sends them too), "
                    + "which never stands in for the trigger's reconciliation" : ""
            return StepSupport.expect(
                added.count == expected,
                "expected the trigger to add \(expected) accepted-credentials signal(s) for \(username), it added \(added.count): "
                    + SignalDifference.describe(added.with, added.without) + schedule)
        },
        // The last list the platform took: a call it refused (a rate limit) changed nothing.
        StepDefinition("the last accepted-credentials signal for {string} lists exactly the server's accepted passkeys", accounts: .uses(0)) {
            world, arguments in
            let (calls, account) = try await world.acceptedListSignals(arguments[0])
            guard let last = calls.last(where: \.accepted) else {
                return .failed(
                    "the platform took no accepted-credentials signal for \(account.username) after the trigger"
                        + (calls.isEmpty ? "" : " (it refused " + calls.map(\.cite).joined(separator: ", ") + ")"))
            }
            return last.listProblem(against: account).map { .failed($0) } ?? .passed
        },
        // Sending nothing conforms; what the platform took must agree with the server's current
        // records (a call it refused with a rate limit changed nothing).
        StepDefinition("every accepted-credentials signal for {string} lists exactly the server's accepted passkeys", accounts: .uses(0)) { world, arguments in
            let (calls, account) = try await world.acceptedListSignals(arguments[0])
            let problems = calls.filter(\.accepted).compactMap { $0.listProblem(against: account) }
            return StepSupport.expect(problems.isEmpty, problems.joined(separator: "; "))
        },
        StepDefinition("the app sent the same signals as it does without the When steps") { world, _ in
            let (with, without) = try await world.signalsWithAndWithoutTrigger()
            guard with != without else { return .passed }
            func list(_ digests: [SignalDigest]) -> String { digests.isEmpty ? "none" : digests.map(\.text).joined(separator: " | ") }
            return .failed(
                "with the When steps the app sent \(with.count) signal(s) after them: \(list(with)); without them, \(without.count): \(list(without))")
        },
        StepDefinition("an empty accepted-credentials signal has been sent for {string}", accounts: .uses(0)) { world, arguments in
            let (calls, account) = try await world.acceptedListSignals(arguments[0])
            let empty = calls.filter { $0.accepted && $0.operation.signal?.acceptedCredentialIDs?.isEmpty == true }
            return StepSupport.expect(
                !empty.isEmpty,
                "no empty accepted-credentials signal for \(account.username); sent: "
                    + calls.map { "\($0.cite) with \($0.operation.signal?.acceptedCredentialIDs?.count ?? -1) id(s)" }.joined(separator: ", "))
        },
        StepDefinition("the platform accepted every signal") { world, _ in
            try await world.quiesce()
            let refused = world.signalCalls.filter { $0.operation.outcome.error != nil && $0.operation.outcome.error?.retryMillis == nil }
            return StepSupport.expect(
                refused.isEmpty,
                "the platform refused: "
                    + refused.map { "\($0.cite) \($0.operation.outcome.error!.name): \($0.operation.outcome.error!.message)" }.joined(separator: "; "))
        },
        StepDefinition("no signal has been sent") { world, _ in
            let difference = try await world.signalDifference()
            let kinds: [SignalView.Kind?] = [.unknownCredential, .allAcceptedCredentials, .currentUserDetails, .unusedPassword, nil]
            let added = kinds.map { kind in difference.added(kind) { kind != nil || $0.kind == nil } }.filter { $0.count > 0 }
            return StepSupport.expect(
                added.isEmpty,
                "the trigger added signal(s): "
                    + added.map { added in
                        added.with.map { "\($0.cite) \($0.kind?.rawValue ?? "?") via \($0.interface)" }.joined(separator: ", ")
                            + " (\(added.without.count) of that kind without the When steps)"
                    }.joined(separator: "; "))
        },
        StepDefinition("at least one signal has been sent") { world, _ in
            try await world.quiesce()
            return StepSupport.expect(!world.signalCalls.isEmpty, "the app sent no signal")
        },
        StepDefinition("the app never made more than {int} signal calls in any {int}-second window") { world, arguments in
            try await world.quiesce()
            let window = SignalRateWindow(limit: try arguments.int(0), windowMillis: Int64(try arguments.int(1)) * 1000)
            let times = world.signalCalls.filter { $0.interface == "signalCredentialState" }.map(\.operation.issuedAtMillis).sorted()
            guard let excess = window.firstExcess(times, time: { $0 }), let start = excess.first, let end = excess.last else { return .passed }
            return .failed("\(excess.count) signal calls between \(start) ms and \(end) ms, more than \(window.limit) in \(window.seconds) s")
        },
        // retryMillis is the platform's answer to the app, not to one payload: any signal call before it
        // has passed (a retry or a new signal) comes too early.
        StepDefinition("every rate-limited signal was retried no earlier than the platform asked") { world, _ in
            try await world.quiesce()
            let calls = world.signalCalls
            let transcript = world.host.snapshot.transcript
            for (index, call) in calls.enumerated() {
                guard let retry = call.operation.outcome.error?.retryMillis else { continue }
                let earliest = call.operation.issuedAtMillis + retry
                // Only calls made once the refusal reached the app: one made in the same breath (a
                // batch) could not know of it.
                let delivered =
                    transcript.first { $0.name == "session.platformCompleted" && $0.summary.hasPrefix("\(call.operation.id) ") }?.sequence ?? Int.max
                if let early = calls[(index + 1)...].first(where: { $0.operation.sequence > delivered && $0.operation.issuedAtMillis < earliest }) {
                    return .failed(
                        "\(call.cite) was rate limited with retryMillis \(retry); \(early.cite) came \(earliest - early.operation.issuedAtMillis) ms too early")
                }
            }
            return StepSupport.expect(calls.contains { $0.operation.outcome.error?.retryMillis != nil }, "no signal was rate limited")
        },
        StepDefinition(
            "every signal goes through {word}",
            check: StepDefinition.oneOf(["signalCredentialState", "ASCredentialDataManager", "ASCredentialUpdater"])
        ) { world, arguments in
            try await world.quiesce()
            let calls = world.signalCalls
            let wrong = calls.filter { $0.interface != arguments[0] }
            return StepSupport.expect(
                !calls.isEmpty && wrong.isEmpty,
                calls.isEmpty
                    ? "the app sent no signal"
                    : "signal(s) through another interface: " + wrong.map { "\($0.cite) via \($0.interface)" }.joined(separator: ", "))
        },
        StepDefinition("every signal names the RP ID of its account") { world, _ in
            try await world.quiesce()
            var handles: [Data: AccountSnapshot] = [:]
            for alias in world.accounts.keys.sorted() {
                let account = try await world.inspect(alias)
                handles[account.userHandle] = account
            }
            let providerRP = Dictionary(world.host.snapshot.provider.passkeys.map { ($0.credentialID, $0.rpID) }, uniquingKeysWith: { first, _ in first })
            var problems: [String] = []
            let calls = world.signalCalls
            for call in calls {
                let byName = handles.values.first { $0.name == call.operation.signal?.name || $0.username == call.operation.signal?.name }
                let expected: String? =
                    if let id = call.operation.signal?.credentialID { providerRP[id] } else if let handle = call.operation.signal?.userHandle {
                        handles[handle]?.rpID
                    } else if call.kind == .unusedPassword { byName?.rpID } else { nil }
                guard let expected else {
                    problems.append("\(call.cite): cannot tell which account it is for")
                    continue
                }
                if call.rpID != expected { problems.append("\(call.cite) names \(call.rpID ?? "no RP ID"), the credential's RP ID is \(expected)") }
            }
            return StepSupport.expect(!calls.isEmpty && problems.isEmpty, calls.isEmpty ? "the app sent no signal" : problems.joined(separator: "; "))
        },
        // By cause, then by meaning: everything the app showed in the whole scenario, of any kind,
        // before the first signal and after every signal kind, that it did not show where the platform
        // offers no signal interface is the doing of its signals, and fails in any language unless the
        // reader excuses every sentence of it (the harness's reading, `ProviderClaim.claimsNothing`).
        StepDefinition("the app claimed nothing about the credential manager's passkeys") { world, _ in
            try await world.quiesce()
            guard world.target.has(.signals) else { return .passed }
            let attribution = try await world.shownOnlyBecause(after: 0, unless: .noSignalInterface) { ProviderClaim.claimsNothing($0.text) }
            let first = world.host.snapshot.operations.first(where: { $0.kind == .signal })
            let claims = attribution.events
            return StepSupport.expect(
                claims.isEmpty,
                claims.map { event in
                    let moment =
                        first.map { event.sequence < $0.sequence ? "before the first signal" : "after \(StepSupport.cite($0))" } ?? "with no signal sent"
                    let reading =
                        ProviderClaim.claim(in: event.value.text).map { "the harness reads \"\($0)\" as claiming that a credential manager acted" }
                        ?? "the harness cannot read it as claiming nothing"
                    return "#\(event.sequence) \(event.value.kind.rawValue) \"\(event.value.text)\" (\(moment)), shown only because the app signals (not shown "
                        + "\(World.Counterfactual.noSignalInterface.phrase)): \(reading); this is the harness's reading of the text, see N3.2-AC08's harness choices"
                }.joined(separator: "; "))
        },
        StepDefinition("every signal carries the user handle and passkey ids of {string} exactly", accounts: .uses(0)) { world, arguments in
            try await world.quiesce()
            let account = try await world.inspect(arguments[0])
            let accepted = account.credentials.filter { $0.state == .active }.map(\.credentialID)
            var problems: [String] = []
            let calls = world.signalCalls.filter { $0.kind == .allAcceptedCredentials || $0.kind == .currentUserDetails }
            for call in calls {
                guard let request = call.operation.signalRequest, let family = call.family else { continue }
                let found = family.identityProblems(of: request, kind: call.kind, userHandle: account.userHandle, acceptedCredentialIDs: accepted)
                problems += found.map { "\(call.cite): \($0)" }
            }
            return StepSupport.expect(
                !calls.isEmpty && problems.isEmpty, calls.isEmpty ? "the app sent no signal carrying a user handle" : problems.joined(separator: "; "))
        },
        StepLibrary.exactRepresentationStep,
        StepDefinition("no signal carries a product account id as its user handle") { world, _ in
            try await world.quiesce()
            var accountIDs: Set<Data> = []
            for alias in world.accounts.keys.sorted() { accountIDs.insert(Data(try await world.inspect(alias).accountID.utf8)) }
            let offending = world.signalCalls.filter { call in
                // Raw, encoded (base64url or base64) or as the account id's own text, unencoded.
                guard let request = call.operation.signalRequest, let family = call.family else { return false }
                return family.userHandleCandidates(of: request).contains { accountIDs.contains($0) }
            }
            return StepSupport.expect(offending.isEmpty, "product account id as user handle in " + offending.map(\.cite).joined(separator: ", "))
        },
        // "The metadata signal contains the current fields": the server's, whatever a product makes
        // of the names the user typed (a display name it derives, "Full Name (username)", is current).
        StepDefinition("the last user-details signal carries the current name and display name of {string}", accounts: .uses(0)) { world, arguments in
            try await world.quiesce()
            guard let last = world.signalCalls.last(where: { $0.kind == .currentUserDetails }) else { return .failed("the app sent no user-details signal") }
            let account = try await world.inspect(arguments[0])
            let name = last.summary.name ?? last.operation.signal?.name
            let displayName = last.summary.displayName ?? last.operation.signal?.displayName
            return StepSupport.expect(
                name == account.name && displayName == account.displayName,
                "\(last.cite) carries name \"\(name ?? "-")\" and display name \"\(displayName ?? "-")\"; the server holds \"\(account.name)\" and \"\(account.displayName)\" for \(account.username)"
            )
        },
        StepDefinition("the last user-details signal carries the new name {string}") { world, arguments in
            try await world.quiesce()
            guard let last = world.signalCalls.last(where: { $0.kind == .currentUserDetails }) else { return .failed("the app sent no user-details signal") }
            let name = last.summary.name
            return StepSupport.expect(name == arguments[0], "\(last.cite) carries the name \"\(name ?? "-")\"")
        },
        StepDefinition("no user-details signal has been sent") { world, _ in
            let added = try await world.signalDifference().added(.currentUserDetails)
            return StepSupport.expect(
                added.count <= 0, "the trigger added user-details signal(s): " + SignalDifference.describe(added.with, added.without))
        },
        StepDefinition("the credential inventory of {string} is as noted", accounts: .uses(0)) { world, arguments in
            guard let noted = world.notedInventory[arguments[0]] else { throw SystemIssue("no step noted the inventory of \(arguments[0])") }
            // Read once the app has nothing left scheduled: a change made later by a timer counts too.
            try await world.quiesce()
            let now = try await world.inventory(arguments[0])
            var problems: [String] = []
            if now.server != noted.server {
                problems.append(
                    "server records \(noted.server.map { "\(Base64URL.encode($0.credentialID)) \($0.state.rawValue)" }) became \(now.server.map { "\(Base64URL.encode($0.credentialID)) \($0.state.rawValue)" })"
                )
            }
            if now.provider != noted.provider { problems.append("the credential manager's passkeys \(noted.provider) became \(now.provider)") }
            return StepSupport.expect(problems.isEmpty, problems.joined(separator: "; "))
        },
        StepDefinition("the account name of {string} is {string}", accounts: .uses(0)) { world, arguments in
            let account = try await world.inspect(arguments[0])
            return StepSupport.expect(account.name == arguments[1], "the server's name of \(account.username) is \"\(account.name)\"")
        },
        StepDefinition("the server holds {int} revoked passkey(s) for {string}", accounts: .uses(1)) { world, arguments in
            let expected = try arguments.int(0)
            let account = try await world.inspect(arguments[1])
            let revoked = account.credentials.filter { $0.state == .revoked }.count
            return StepSupport.expect(revoked == expected, "the server holds \(revoked) revoked passkey(s) for \(account.username), expected \(expected)")
        },
    ]
}
