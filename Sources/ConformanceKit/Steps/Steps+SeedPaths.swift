import Foundation
import WebAuthn

extension StepLibrary {
    /// Steps that drive paths the seeds name and no other step reaches: an answer lost after the
    /// server committed (a sign-in, a registration, a list read), a response whose authenticator
    /// data names another RP ID or cannot be read, and a registration that reuses a credential id
    /// the server already holds.
    static let seedPathSteps: [StepDefinition] = [
        // One strike: the next request of the kinds the fault applies to (a submitted assertion or
        // registration, a read of the accepted list); a retry of it gets its answer.
        StepDefinition(
            "the server's answer to the app's next request is lost after the server committed it", needs: [.faultInjection],
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
            let id = try await world.heldActivePasskey(arguments[0])
            guard let id else { return .failed("the server holds no active passkey of \(arguments[0]) to sign in with") }
            world.host.record(
                .step, "provider.setting", "the authenticator data names the RP ID \(PlatformSimulator.foreignRPID(rpID: try world.account(arguments[0]).rpID))"
            )
            try await world.passkeySignIn(.foreignRPID(id), hint: nil)
            return .passed
        },
        StepDefinition("the user signs in with a passkey of {string} whose authenticator data is malformed", accounts: .uses(0), needs: [.passkeySignIn]) {
            world, arguments in
            let id = try await world.heldActivePasskey(arguments[0])
            guard let id else { return .failed("the server holds no active passkey of \(arguments[0]) to sign in with") }
            world.host.record(
                .step, "provider.setting",
                "the authenticator data is cut to \(PlatformSimulator.malformedAuthenticatorDataLength) bytes, shorter than any authenticator data")
            try await world.passkeySignIn(.malformedAuthenticatorData(id), hint: nil)
            return .passed
        },
    ]
}

extension World {
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
