import Foundation

/// Chooses the next step of a history from what the world is in now: user actions the adapter's
/// capabilities allow over a small account pool, the credential manager's decisions and time
/// jumps, weighted towards pending operations and context changes. Every step is a sentence of
/// the step library.
struct HistoryGenerator {
    let capabilities: Set<Capability>
    let target: Target
    var random: SplitMix64
    var holding = false
    /// Steps chosen so far.
    var drawn = 0

    /// The accounts every history has: two password-only accounts and, with a second factor, one that needs it.
    var aliases: [String] { capabilities.contains(.secondFactor) ? ["alice", "bob", "carol"] : ["alice", "bob"] }

    /// The Background of every history on the target.
    func background() -> [String] {
        var steps = aliases.map { alias in
            "an account \"\(alias)\" with the sign-in policy \"\(alias == "carol" ? "password and second factor" : "password only")\""
        }
        steps += aliases.map { "the credential manager holds a saved password for \"\($0)\"" }
        if capabilities.contains(.signals) || capabilities.contains(.passkeySignIn) || capabilities.contains(.revocation) {
            steps.append("\"alice\" has 2 passkeys in the credential manager")
            // All of alice's: a credential manager that already holds a passkey of an account
            // declines its automatic upgrade, so bob and carol are left to upgrade.
            steps.append("\"alice\" has a revoked passkey in the credential manager")
            steps.append("the credential manager holds a passkey for \"alice\" that the server does not know")
        }
        return steps
    }

    /// The next step, given how many registration responses are held now.
    mutating func next(held: Int) -> String {
        let alias = random.pick(aliases)
        let other = random.pick(aliases)
        let capabilities = self.capabilities
        func can(_ capability: Capability) -> Bool { capabilities.contains(capability) }
        let signals = capabilities.contains(.signals) || capabilities.contains(.passkeySignIn) || capabilities.contains(.revocation)
        let pending = held > 0
        let failures = CreateFailureClass.all.filter { $0.platform == target.platform }.map(\.id)
        let choices: [(String, Int)] = [
            ("the user signs in as \"\(alias)\" with the autofilled password", can(.conditionalCreate) ? (holding && !pending ? 14 : 6) : 0),
            ("the user signs in as \"\(alias)\" typing the password by hand", can(.conditionalCreate) ? 2 : 0),
            ("the user signs in as \"\(alias)\" with the password saved for \"\(other)\"", can(.conditionalCreate) ? 1 : 0),
            ("the user answers the second factor \"\(random.pick(["correct", "correct", "wrong", "expired"]))\"", can(.secondFactor) ? 3 : 0),
            ("the user signs in as \"\(alias)\" through account recovery", can(.recoverySignIn) ? 1 : 0),
            (
                "the user signs in as \"\(alias)\" through \"\(random.pick(["a magic link", "a one-time code", "federated sign-in"]))\"",
                can(.alternativeSignIn) ? 1 : 0
            ),
            ("the user signs out", pending ? 5 : 2),
            ("the user switches to \"\(alias)\" with the autofilled password", can(.accountSwitch) ? (pending ? 4 : 2) : 0),
            ("the user switches to \"\(alias)\" typing the password by hand", can(.accountSwitch) ? 1 : 0),
            ("the app is relaunched", can(.relaunch) ? 1 : 0),
            ("the app reaches its refresh point", can(.refreshPoint) && signals ? 2 : 0),
            ("the user revokes a passkey of \"\(alias)\"", can(.revocation) && signals ? 2 : 0),
            ("the user signs in with a passkey of \"alice\"", can(.passkeySignIn) && signals ? 1 : 0),
            ("the user signs in with the passkey the server does not know", can(.passkeySignIn) && signals ? 2 : 0),
            ("the user signs in with the revoked passkey", can(.passkeySignIn) && signals ? 1 : 0),
            ("the user signs in with a passkey of \"alice\" whose signature is invalid", can(.passkeySignIn) && signals ? 1 : 0),
            ("the user cancels the passkey sign-in for \"\(alias)\"", can(.passkeySignIn) && signals ? 1 : 0),
            (
                "the user changes the account's name to \"\(alias).renamed@example.com\" and its display name to \"\(random.pick(["-", "Renamed"]))\"",
                can(.rename) && signals ? 1 : 0
            ),
            ("the user changes the account's name to \"-\" and its display name to \"Renamed\"", can(.rename) && signals ? 1 : 0),
            // Holding from the first step makes the response of the first sign-in one that a
            // context change, or half a minute, can come before (N2.6-AC06 and its control).
            ("the credential manager holds every registration response until it is released", holding ? 0 : drawn == 0 ? 14 : 2),
            ("the first held registration response is released", pending ? 8 : 0),
            (
                "the credential manager fails the next conditional registration with \"\(failures.isEmpty ? "" : random.pick(failures))\"",
                failures.isEmpty ? 0 : 1
            ),
            ("the platform rejects the next signal with a rate limit of \(random.pick([5, 60, 120])) seconds", target.has(.signals) ? 1 : 0),
            ("\(random.pick([1, 2, 30, 45, 61, 119, 121, 300])) seconds pass", 4),
            ("\(random.pick([2, 10, 60])) minutes pass", 1),
            ("45 seconds pass", pending ? 8 : 0),
            ("the app has nothing left scheduled", 1),
        ]
        let step = random.weighted(choices) ?? "1 second passes"
        drawn += 1
        if step.hasPrefix("the credential manager holds every registration response") { holding = true }
        return step
    }
}
