import Foundation
import WebAuthn

extension World {
    /// On a web target, why the relying party's page cannot use `rpID`: the browser lets a page use
    /// only an RP ID its own host equals or ends with; `nil` elsewhere and where it can.
    func pageCannotUse(_ rpID: String) -> StepOutcome? {
        guard target.platform == .web, let start = adapter.web?.startURL, let host = URL(string: start)?.host else { return nil }
        guard host != rpID, !host.hasSuffix("." + rpID) else { return nil }
        return .notVerified(
            "on a web target the relying party's page is at \(host), and a browser lets a page use only the RP ID of its own site; "
                + "an account on \(rpID) needs a page of that site (Related Origin Requests could join the two; the harness does not serve them)")
    }

    /// Where the platform makes every response's bytes itself (a real browser), why a scenario
    /// that needs `what`, a response the harness builds, is not verified there; `nil` elsewhere.
    func needsBuiltResponse(_ what: String) -> StepOutcome? {
        guard !host.buildsResponses else { return nil }
        return .notVerified(
            "on \(target.id) the browser makes every response's bytes itself; this scenario needs \(what), which only a simulated platform builds")
    }

    /// The RP ID for `primary` or `second`; `nil` when the adapter has no such RP.
    func rpID(named word: String) throws -> String? {
        switch word {
        case "primary": return adapter.relyingPartyIDs.first
        case "second": return adapter.relyingPartyIDs.count > 1 ? adapter.relyingPartyIDs[1] : nil
        default: throw SystemIssue("unknown RP \"\(word)\" (use primary or second)")
        }
    }

    /// Makes `count` passkeys held both by the credential manager and the server.
    func makeSharedPasskeys(_ alias: String, count: Int, state: CredentialState = .active) async throws -> [Data] {
        let snapshot = try await inspect(alias)
        var ids: [Data] = []
        for _ in 0..<count {
            let made = try host.makeProviderPasskey(
                rpID: snapshot.rpID, userHandle: snapshot.userHandle, userName: snapshot.name, displayName: snapshot.displayName)
            try await addServerCredential(CredentialFixture(username: snapshot.username, credentialID: made.id, publicKey: made.publicKey, state: state))
            ids.append(made.id)
        }
        try await settle()
        return ids
    }

    /// Signs in with a chosen passkey (or cancels) through the app's passkey sign-in.
    func passkeySignIn(_ plan: ProviderState.AssertionPlan, hint alias: String?) async throws {
        host.withProvider { $0.nextAssertion = plan }
        let username = try alias.map { try account($0).username }
        var rpID = try alias.map { try account($0).rpID }
        switch plan {
        case .use(let id), .invalidSignature(let id), .foreignOrigin(let id), .foreignRPID(let id), .malformedAuthenticatorData(let id):
            rpID = host.snapshot.provider.passkeys.first { $0.credentialID == id }?.rpID ?? rpID
            notes[SignInPath.presentedNote] = Base64URL.encode(id)
        case .cancel:
            notes[SignInPath.presentedNote] = nil
        }
        notes[SignInPath.planNote] = SignInPath.Plan(plan).rawValue
        try await perform(.passkeySignIn(username: username, rpID: rpID))
    }

    /// A credential id a step stored under a name.
    func storedID(_ name: String) throws -> Data {
        guard let text = notes[name], let id = Base64URL.decodeIfValid(text) else {
            throw SystemIssue("no earlier step made \(name)")
        }
        return id
    }
}

extension StepLibrary {
    /// The credential-store fault a criterion names in words (`Fault.storePhrases`).
    static func storeFault(_ phrase: String) throws -> Fault.Kind {
        guard let kind = Fault.storePhrases.first(where: { $0.key == phrase })?.value else {
            throw SystemIssue("unknown fault \"\(phrase)\" (\(Fault.storePhrases.map(\.key).joined(separator: ", ")))")
        }
        return kind
    }

    /// Signal-related fixtures and user actions (N3.2).
    static let signalFixtureSteps: [StepDefinition] = [
        StepDefinition(
            "an account {string} on the {word} RP with the sign-in policy {string}", accounts: .creates(0),
            check: { arguments in
                StepDefinition.oneOf(["primary", "second"], at: 1)(arguments)
                    ?? StepDefinition.oneOf(SignInPolicy.phrases, at: 2)(arguments)
            }
        ) { world, arguments in
            guard let rpID = try world.rpID(named: arguments[1]) else {
                return .notVerified("the adapter declares only one RP ID; this scenario needs a second")
            }
            if let gap = world.pageCannotUse(rpID) { return gap }
            try await world.createAccounts([World.fixture(arguments[0], policy: try SignInPolicy(phrase: arguments[2]), rpID: rpID)], aliases: [arguments[0]])
            return .passed
        },
        StepDefinition("a restricted account {string}", accounts: .creates(0)) { world, arguments in
            try await world.createAccounts(
                [World.fixture(arguments[0], policy: .passwordOnly, rpID: world.primaryRPID, restricted: true)], aliases: [arguments[0]])
            return .passed
        },
        StepDefinition(.providerPasskeys, accounts: .uses(0)) { world, arguments in
            let count = try arguments.int(1)
            if count > 0, let gap = try world.passkeyPolicyGap(arguments[0]) { return gap }
            _ = try await world.makeSharedPasskeys(arguments[0], count: count)
            return .passed
        },
        StepDefinition(.revokedProviderPasskey, accounts: .uses(0)) { world, arguments in
            let ids = try await world.makeSharedPasskeys(arguments[0], count: 1, state: .revoked)
            world.notes["revoked passkey"] = Base64URL.encode(ids[0])
            return .passed
        },
        StepDefinition(.passkeyUnknownToServer, accounts: .uses(0)) { world, arguments in
            let snapshot = try await world.inspect(arguments[0])
            let made = try world.host.makeProviderPasskey(
                rpID: snapshot.rpID, userHandle: snapshot.userHandle, userName: snapshot.name, displayName: snapshot.displayName)
            world.notes["unknown passkey"] = Base64URL.encode(made.id)
            return .passed
        },
        StepDefinition("the credential manager holds every sign-in response until it is released") { world, _ in
            world.host.withProvider { $0.holdAssertions = true }
            world.host.record(.step, "provider.setting", "sign-in responses are held until released")
            return .passed
        },
        // N3.2: signals are "fire-and-forget hygiene"; "never block a UI flow on the result".
        StepDefinition(.holdSignals) { world, _ in
            world.host.withProvider { $0.holdSignals = true }
            world.host.record(.step, "provider.setting", "the platform's answers to signals are held until released")
            return .passed
        },
        StepDefinition(.failSignals) { world, _ in
            world.host.withProvider { $0.failSignals = true }
            world.host.record(.step, "provider.setting", "the platform fails every signal it would pass on")
            return .passed
        },
        StepDefinition("the credential manager ignores signals") { world, _ in
            world.host.withProvider { $0.signalPolicy = .ignore }
            world.host.record(.step, "provider.setting", "the provider accepts signals and does nothing")
            return .passed
        },
        StepDefinition(.rateLimitNextSignal) { world, arguments in
            let millis = Int64(try arguments.int(0)) * 1000
            world.host.withProvider { $0.forcedRateLimitRetryMillis = millis }
            world.host.record(.step, "provider.setting", "the next signal is rate limited, retryMillis \(millis)")
            return .passed
        },
        StepDefinition(
            "the server's credential store suffers {string}", needs: [.faultInjection], check: StepDefinition.oneOf(Fault.storePhrases.map(\.key))
        ) { world, arguments in
            let kind = try Self.storeFault(arguments[0])
            world.host.record(.harnessToRP, "session.injectFault", kind.rawValue)
            try await world.session.injectFault(Fault(kind, count: 1))
            return .passed
        },
        // The same fault through every read until the session ends: whatever the app's retries,
        // the list cannot be had whole (freedoms.md F-retry: a retry that succeeds never reaches the path).
        StepDefinition(
            "the server's credential store suffers {string} until the session ends", needs: [.faultInjection],
            check: StepDefinition.oneOf(Fault.storePhrases.map(\.key))
        ) { world, arguments in
            let kind = try Self.storeFault(arguments[0])
            world.host.record(.harnessToRP, "session.injectFault", kind.rawValue + " (until the session ends)")
            try await world.session.injectFault(Fault(kind, count: nil))
            return .passed
        },
        StepDefinition("the server cannot be reached when the app submits the next passkey response", needs: [.faultInjection]) { world, _ in
            world.host.record(.harnessToRP, "session.injectFault", Fault.Kind.networkFailure.rawValue)
            try await world.session.injectFault(Fault(.networkFailure, count: 1))
            return .passed
        },
        StepDefinition(
            "the server's lookup of the presented credential fails", needs: [.faultInjection], protocolFeatures: [.credentialLookupFailure]
        ) { world, _ in
            world.host.record(.harnessToRP, "session.injectFault", Fault.Kind.credentialLookupFailure.rawValue)
            try await world.session.injectFault(Fault(.credentialLookupFailure, count: 1))
            return .passed
        },
        StepDefinition(
            "the user signs in with {int} passkeys of {string} the server does not know, {int} seconds apart", accounts: .uses(1), needs: [.passkeySignIn]
        ) {
            world, arguments in
            let times = try arguments.int(0)
            let snapshot = try await world.inspect(arguments[1])
            let gap = Int64(try arguments.int(2)) * 1000
            for index in 0..<times {
                if index > 0 { try await world.advance(byMillis: gap) }
                let made = try world.host.makeProviderPasskey(
                    rpID: snapshot.rpID, userHandle: snapshot.userHandle, userName: snapshot.name, displayName: snapshot.displayName)
                try await world.passkeySignIn(.use(made.id), hint: nil)
            }
            return .passed
        },
        StepDefinition(.passkeySignInUnknownToServer, needs: [.passkeySignIn]) { world, _ in
            try await world.passkeySignIn(.use(try world.storedID("unknown passkey")), hint: nil)
            return .passed
        },
        StepDefinition(.passkeySignInRevoked, needs: [.passkeySignIn]) { world, _ in
            try await world.passkeySignIn(.use(try world.storedID("revoked passkey")), hint: nil)
            return .passed
        },
        StepDefinition(.passkeySignIn, accounts: .uses(0), needs: [.passkeySignIn]) { world, arguments in
            // A passkey the credential manager holds, so that the platform can answer with it.
            let held = Set(world.host.snapshot.provider.passkeys.map(\.credentialID))
            let active = try await world.inspect(arguments[0]).credentials.filter { $0.state == .active }.sorted {
                held.contains($0.credentialID) && !held.contains($1.credentialID)
            }
            guard let id = active.first?.credentialID else { return .failed("the server holds no active passkey of \(arguments[0]) to sign in with") }
            try await world.passkeySignIn(.use(id), hint: nil)
            return .passed
        },
        StepDefinition(.passkeySignInInvalidSignature, accounts: .uses(0), needs: [.passkeySignIn]) {
            world, arguments in
            // A passkey the credential manager holds, so that the platform can answer with it.
            let held = Set(world.host.snapshot.provider.passkeys.map(\.credentialID))
            let active = try await world.inspect(arguments[0]).credentials.filter { $0.state == .active }.sorted {
                held.contains($0.credentialID) && !held.contains($1.credentialID)
            }
            guard let id = active.first?.credentialID else { return .failed("the server holds no active passkey of \(arguments[0]) to sign in with") }
            try await world.passkeySignIn(.invalidSignature(id), hint: nil)
            return .passed
        },
        StepDefinition(
            "the user signs in with a passkey of {string} whose response names another origin", accounts: .uses(0), needs: [.passkeySignIn]
        ) { world, arguments in
            // A passkey the credential manager holds, answered as a response relayed from a site the app is not associated with.
            if let gap = world.needsBuiltResponse("a response that names another origin") { return gap }
            let held = Set(world.host.snapshot.provider.passkeys.map(\.credentialID))
            let active = try await world.inspect(arguments[0]).credentials.filter { $0.state == .active }.sorted {
                held.contains($0.credentialID) && !held.contains($1.credentialID)
            }
            guard let id = active.first?.credentialID else { return .failed("the server holds no active passkey of \(arguments[0]) to sign in with") }
            world.host.record(
                .step, "provider.setting", "the response names the origin \(ProviderState.foreignOrigin(rpID: try world.account(arguments[0]).rpID))")
            try await world.passkeySignIn(.foreignOrigin(id), hint: nil)
            return .passed
        },
        StepDefinition(.cancelPasskeySignIn, needs: [.passkeySignIn]) { world, arguments in
            try await world.passkeySignIn(.cancel, hint: arguments[0])
            return .passed
        },
        StepDefinition("the held sign-in response is released") { world, _ in
            let released = world.host.release(.get, onlyFirst: true)
            try await world.settle()
            return released == 1 ? .passed : .failed("the app issued no sign-in request whose response could be held")
        },
        StepDefinition("the user cancels the passkey creation from the app's settings", needs: [.explicitCreation]) { world, _ in
            world.host.withProvider { $0.cancelNextModal = true }
            try await world.perform(.createPasskey)
            return .passed
        },
        StepDefinition(.revokePasskey, accounts: .uses(0), needs: [.revocation]) { world, arguments in
            let active = try await world.inspect(arguments[0]).credentials.filter { $0.state == .active }
            guard let id = active.first?.credentialID else { return .failed("the server holds no active passkey of \(arguments[0]) to revoke") }
            world.notes["passkey revoked by the user"] = Base64URL.encode(id)
            world.noteRevoked(id)
            try await world.perform(.revokePasskey(credentialID: id))
            return .passed
        },
        StepDefinition("the user revokes every passkey of {string}", accounts: .uses(0), needs: [.revocation]) { world, arguments in
            for credential in try await world.inspect(arguments[0]).credentials where credential.state == .active {
                world.noteRevoked(credential.credentialID)
                try await world.perform(.revokePasskey(credentialID: credential.credentialID))
            }
            return .passed
        },
        StepDefinition(.refreshPoint, needs: [.refreshPoint]) { world, _ in
            try await world.perform(.refresh)
            return .passed
        },
        StepDefinition("the app reaches its refresh point {int} times, {int} seconds apart", needs: [.refreshPoint]) { world, arguments in
            let times = try arguments.int(0)
            let gap = Int64(try arguments.int(1)) * 1000
            for index in 0..<times {
                if index > 0 { try await world.advance(byMillis: gap) }
                try await world.perform(.refresh)
            }
            return .passed
        },
        StepDefinition(.rename, needs: [.rename]) { world, arguments in
            try await world.perform(
                .rename(
                    newName: arguments[0] == "-" ? nil : arguments[0],
                    newDisplayName: arguments[1] == "-" ? nil : arguments[1], confirmed: true))
            return .passed
        },
        StepDefinition("the user changes the account's name {int} times, {int} seconds apart", needs: [.rename]) { world, arguments in
            let times = try arguments.int(0)
            let gap = Int64(try arguments.int(1)) * 1000
            for index in 0..<times {
                if index > 0 { try await world.advance(byMillis: gap) }
                try await world.perform(.rename(newName: "renamed-\(index + 1)@example.com", newDisplayName: nil, confirmed: true))
            }
            return .passed
        },
        StepDefinition("the user's change of the account's name to {string} is not confirmed", needs: [.rename]) { world, arguments in
            try await world.perform(.rename(newName: arguments[0], newDisplayName: nil, confirmed: false))
            return .passed
        },
        StepDefinition("the user opens passkey management") { world, _ in
            try await world.perform(.managePasskeys)
            return .passed
        },
        StepDefinition("the credential inventory of {string} is noted", accounts: .uses(0)) { world, arguments in
            world.notedInventory[arguments[0]] = try await world.inventory(arguments[0])
            return .passed
        },
    ]
}
