import Foundation
import WebAuthn

extension StepLibrary {
    /// Steps that drive paths the seeds name and no other step reaches: an answer lost after the
    /// server committed (a sign-in, a registration, a list read), a response whose authenticator
    /// data names another RP ID or cannot be read, and a registration that reuses a credential id
    /// the server already holds for another account.
    static let seedPathSteps: [StepDefinition] = [
        // One strike: the next request of the kinds the fault applies to (a submitted assertion or
        // registration, a read of the accepted list); a retry of it gets its answer.
        StepDefinition(
            .loseNextAnswer, needs: [.faultInjection],
            protocolFeatures: [.answerLostAfterCommit]
        ) { world, _ in
            world.host.record(.harnessToRP, "session.injectFault", Fault.Kind.answerLostAfterCommit.rawValue + " (once)")
            try await world.session.injectFault(Fault(.answerLostAfterCommit, count: 1))
            return .passed
        },
        // Every strike until the session ends: whatever the app's retry policy, it never gets an answer.
        StepDefinition(
            "every answer of the server is lost after the server committed the request", needs: [.faultInjection],
            protocolFeatures: [.answerLostAfterCommit]
        ) { world, _ in
            world.host.record(.harnessToRP, "session.injectFault", Fault.Kind.answerLostAfterCommit.rawValue + " (until the session ends)")
            try await world.session.injectFault(Fault(.answerLostAfterCommit, count: nil))
            return .passed
        },
        // The path of a sign-in whose answer was lost: the platform delivered the valid assertion the
        // step chose (no cause of refusal built in), and the same scenario without its When steps,
        // where no answer is lost, signs that passkey in: so the server committed a sign-in here too.
        StepDefinition("the sign-in took the path: the platform returned the assertion and the server's answer to it was lost") { world, _ in
            let signIn: PlatformOperation
            switch try await deliveredAssertion(world) {
            case .failure(let problem): return .notVerified(problem.message + ", so the item's path was not reached")
            case .success(let delivered): signIn = delivered.0
            }
            let path = try await SignInPath(world, signIn: signIn)
            if !path.problems.isEmpty {
                return .notVerified(
                    "\(StepSupport.cite(signIn)) is not the assertion the scenario built: " + path.problems.joined(separator: "; ")
                        + "; the server had no valid sign-in to commit, so the item's path was not reached")
            }
            if !path.causes.isEmpty {
                return .notVerified(
                    "the scenario built a reason for the server to refuse \(StepSupport.cite(signIn)) ("
                        + path.causes.map(\.rawValue).joined(separator: "; ") + "), so it committed no sign-in whose answer could be lost")
            }
            switch try await world.probePasskeySignIn() {
            case .accepted:
                return .passed
            case .refused(let seen), .inconclusive(let seen):
                return .notVerified(
                    "in the same scenario without its When steps, where no answer is lost, the valid sign-in was not accepted (\(seen)): "
                        + "whether the server committed the sign-in of \(StepSupport.cite(signIn)) cannot be told, so the item's path was not reached")
            }
        },
        StepDefinition(
            "the user signs in with a passkey of {string} whose authenticator data names another RP ID", accounts: .uses(0), needs: [.passkeySignIn]
        ) { world, arguments in
            if let gap = world.needsBuiltResponse("an authenticator data that names another RP ID") { return gap }
            let id = try await world.heldActivePasskey(arguments[0])
            guard let id else { return .failed("the server holds no active passkey of \(arguments[0]) to sign in with") }
            world.host.record(
                .step, "provider.setting", "the authenticator data names the RP ID \(ProviderState.foreignRPID(rpID: try world.account(arguments[0]).rpID))"
            )
            try await world.passkeySignIn(.foreignRPID(id), hint: nil)
            return .passed
        },
        StepDefinition("the user signs in with a passkey of {string} whose authenticator data is malformed", accounts: .uses(0), needs: [.passkeySignIn]) {
            world, arguments in
            if let gap = world.needsBuiltResponse("a malformed authenticator data") { return gap }
            let id = try await world.heldActivePasskey(arguments[0])
            guard let id else { return .failed("the server holds no active passkey of \(arguments[0]) to sign in with") }
            world.host.record(
                .step, "provider.setting",
                "the authenticator data is cut to \(ProviderState.malformedAuthenticatorDataLength) bytes, shorter than any authenticator data")
            try await world.passkeySignIn(.malformedAuthenticatorData(id), hint: nil)
            return .passed
        },
        // Server-side credential uniqueness (N2.6: "retain server-side credential uniqueness"): a
        // credential manager that gives a new passkey an id the server already holds for another
        // account, as a faulty or hostile one could.
        StepDefinition("the credential manager gives the next passkey it creates the id of a passkey the server holds for {string}", accounts: .uses(0)) {
            world, arguments in
            if let gap = world.needsBuiltResponse("a new passkey with an id the server already holds") { return gap }
            let account = try await world.inspect(arguments[0])
            guard let id = account.credentials.first(where: { $0.state == .active })?.credentialID else {
                throw SystemIssue("the server holds no active passkey of \(arguments[0]) whose id the credential manager could reuse; add one first")
            }
            world.notes[World.reusedIDNote] = Base64URL.encode(id)
            world.notes[World.reusedOwnerNote] = World.credentialText(account)
            world.host.withProvider { $0.nextRegistrationReusesCredentialID = id }
            world.host.record(.step, "provider.setting", "the next passkey created gets the id \(Base64URL.encode(id)) of \(account.username)")
            return .passed
        },
        StepDefinition("the registration took the path: the credential manager answered with the id the server holds for {string}", accounts: .uses(0)) {
            world, arguments in
            let id = try world.storedID(World.reusedIDNote)
            let registrations = try await world.registrationsAfterUpgradeWindow()
            if registrations.contains(where: { $0.outcome.error == nil && $0.createdCredentialID == id }) { return .passed }
            return .notVerified(
                registrations.isEmpty
                    ? world.noRegistrationMessage() + ", so no registration reused the id of \(arguments[0])'s passkey and the item's path was not reached "
                        + "(an upgrade after a qualifying autofilled sign-in is N2.6-AC05's — see N2.6-AC05.V1)"
                    : "no registration the credential manager answered carries the id \(Base64URL.encode(id)) of \(arguments[0])'s passkey ("
                        + registrations.map { "\(StepSupport.cite($0)) \($0.outcome.error.map { "\($0.name)" } ?? "ok")" }.joined(separator: ", ")
                        + "), so the item's path was not reached")
        },
        StepDefinition("the server holds every credential id once, and the passkeys of {string} as they were", accounts: .uses(0)) { world, arguments in
            try await world.quiesce()
            var holders: [Data: [String]] = [:]
            for alias in world.accounts.keys.sorted() {
                let account = try await world.inspect(alias)
                for credential in account.credentials { holders[credential.credentialID, default: []].append(account.username) }
            }
            var problems = holders.filter { $0.value.count > 1 }.sorted { Base64URL.encode($0.key) < Base64URL.encode($1.key) }.map {
                "the server holds \(Base64URL.encode($0.key)) \($0.value.count) times (\($0.value.joined(separator: ", ")))"
            }
            let before = world.notes[World.reusedOwnerNote] ?? ""
            let after = World.credentialText(try await world.inspect(arguments[0]))
            if after != before { problems.append("the passkeys of \(try world.account(arguments[0]).username) were [\(before)] and are now [\(after)]") }
            return StepSupport.expect(problems.isEmpty, problems.joined(separator: "; "))
        },
    ]
}

extension World {
    /// The note of the credential id a registration reuses.
    static let reusedIDNote = "credential id the credential manager reuses"
    /// The note of the passkeys of the account whose id is reused, before the registration.
    static let reusedOwnerNote = "passkeys of the account whose id is reused"

    /// An account's passkeys as text: id and state, in the server's order.
    static func credentialText(_ account: AccountSnapshot) -> String {
        account.credentials.map { "\(Base64URL.encode($0.credentialID)) \($0.state.rawValue)" }.joined(separator: ", ")
    }

    /// An active passkey of the account that the credential manager holds, so that the platform
    /// can answer with it (else any active one).
    func heldActivePasskey(_ alias: String) async throws -> Data? {
        let held = Set(host.snapshot.provider.passkeys.map(\.credentialID))
        let active = try await inspect(alias).credentials.filter { $0.state == .active }.sorted {
            held.contains($0.credentialID) && !held.contains($1.credentialID)
        }
        return active.first?.credentialID
    }
}
