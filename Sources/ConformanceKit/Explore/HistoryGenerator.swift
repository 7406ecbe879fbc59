import Foundation

/// Chooses the next step of a history from what the world is in now: user actions the adapter's
/// capabilities allow over a small account pool, the credential manager's decisions and time
/// jumps, weighted towards pending operations and context changes. Every step is an `ExploreStep`,
/// bound to a definition of the step library.
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
    func background() -> [ExploreStep] {
        var steps = aliases.map { alias in ExploreStep.account(alias, policy: alias == "carol" ? "password and second factor" : "password only") }
        steps += aliases.map { ExploreStep.savedPassword($0) }
        if capabilities.contains(.signals) || capabilities.contains(.passkeySignIn) || capabilities.contains(.revocation) {
            steps.append(.providerPasskeys("alice", count: 2))
            // All of alice's: a credential manager that already holds a passkey of an account
            // declines its automatic upgrade, so bob and carol are left to upgrade.
            steps.append(.revokedProviderPasskey("alice"))
            steps.append(.passkeyUnknownToServer("alice"))
        }
        return steps
    }

    /// The next step, given how many registration responses are held now.
    ///
    /// Every random draw happens in the same order whatever is chosen, so that a seed gives the
    /// same history on every run.
    mutating func next(held: Int) -> ExploreStep {
        let alias = random.pick(aliases)
        let other = random.pick(aliases)
        let capabilities = self.capabilities
        func can(_ capability: Capability) -> Bool { capabilities.contains(capability) }
        let signals = capabilities.contains(.signals) || capabilities.contains(.passkeySignIn) || capabilities.contains(.revocation)
        let pending = held > 0
        let failures = CreateFailureClass.all.filter { $0.platform == target.platform }.map(\.id)
        let choices: [(ExploreStep, Int)] = [
            (.signIn(alias, password: .autofilled), can(.conditionalCreate) ? (holding && !pending ? 14 : 6) : 0),
            (.signIn(alias, password: .typed), can(.conditionalCreate) ? 2 : 0),
            (.signIn(alias, password: .savedFor(other)), can(.conditionalCreate) ? 1 : 0),
            (.secondFactor(random.pick(["correct", "correct", "wrong", "expired"])), can(.secondFactor) ? 3 : 0),
            (.recoverySignIn(alias), can(.recoverySignIn) ? 1 : 0),
            (.alternativeSignIn(alias, method: random.pick(["a magic link", "a one-time code", "federated sign-in"])), can(.alternativeSignIn) ? 1 : 0),
            (.signOut, pending ? 5 : 2),
            (.switchAccount(alias, password: .autofilled), can(.accountSwitch) ? (pending ? 4 : 2) : 0),
            (.switchAccount(alias, password: .typed), can(.accountSwitch) ? 1 : 0),
            (.relaunch, can(.relaunch) ? 1 : 0),
            (.refreshPoint, can(.refreshPoint) && signals ? 2 : 0),
            (.revokePasskey(alias), can(.revocation) && signals ? 2 : 0),
            (.passkeySignIn(.of("alice")), can(.passkeySignIn) && signals ? 1 : 0),
            (.passkeySignIn(.unknownToServer), can(.passkeySignIn) && signals ? 2 : 0),
            (.passkeySignIn(.revoked), can(.passkeySignIn) && signals ? 1 : 0),
            (.passkeySignIn(.invalidSignature("alice")), can(.passkeySignIn) && signals ? 1 : 0),
            (.cancelPasskeySignIn(alias), can(.passkeySignIn) && signals ? 1 : 0),
            (.rename(name: "\(alias).renamed@example.com", displayName: random.pick(["-", "Renamed"])), can(.rename) && signals ? 1 : 0),
            (.rename(name: "-", displayName: "Renamed"), can(.rename) && signals ? 1 : 0),
            // Holding from the first step makes the response of the first sign-in one that a
            // context change, or half a minute, can come before (N2.6-AC06 and its control).
            (.holdRegistrationResponses, holding ? 0 : drawn == 0 ? 14 : 2),
            (.releaseFirstHeldResponse, pending ? 8 : 0),
            (.failNextRegistration(failures.isEmpty ? "" : random.pick(failures)), failures.isEmpty ? 0 : 1),
            (.rateLimitNextSignal(seconds: random.pick([5, 60, 120])), target.has(.signals) ? 1 : 0),
            (.timePasses(.seconds(random.pick([1, 2, 30, 45, 61, 119, 121, 300]))), 4),
            (.timePasses(.minutes(random.pick([2, 10, 60]))), 1),
            (.timePasses(.seconds(45)), pending ? 8 : 0),
            (.quiescence, 1),
        ]
        let step = random.weighted(choices) ?? .timePasses(.natural(seconds: 1))
        drawn += 1
        if step == .holdRegistrationResponses { holding = true }
        return step
    }
}
