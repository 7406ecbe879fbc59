import ConformanceKit
import Foundation

/// Chooses the next step of a history from what the world is in now: user actions the adapter's
/// capabilities allow over a small account pool, the credential manager's decisions and time
/// jumps, weighted towards pending operations and context changes. Every step is an `ExploreStep`,
/// bound to a definition of the step library.
struct HistoryGenerator {
    var random: SplitMix64
    var holding = false
    /// Steps chosen so far.
    var drawn = 0
    /// The accounts every history has: two password-only accounts and, with a second factor, one that needs it.
    let aliases: [String]
    /// The ids of the target platform's registration failure classes.
    let failures: [String]
    /// Whether signals can be observed: the app sends them or signs in with passkeys or revokes them.
    let signals: Bool
    /// The capabilities and target feature the weights ask about, looked up once per history: a
    /// set lookup hashes the capability's name, and the weights ask a dozen times at every step.
    let able: Abilities

    /// Whether each capability the step weights depend on is there, and whether the target sends signals.
    struct Abilities {
        var conditionalCreate, secondFactor, recoverySignIn, alternativeSignIn, accountSwitch: Bool
        var relaunch, refreshPoint, revocation, passkeySignIn, rename, targetSignals: Bool
        /// An explicit creation from the app's settings.
        var explicitCreation: Bool
        /// Answers lost after the server committed: fault injection, in a protocol that has the fault.
        var lostAnswers: Bool

        init(_ capabilities: Set<Capability>, target: Target, lostAnswers: Bool) {
            conditionalCreate = capabilities.contains(.conditionalCreate)
            secondFactor = capabilities.contains(.secondFactor)
            recoverySignIn = capabilities.contains(.recoverySignIn)
            alternativeSignIn = capabilities.contains(.alternativeSignIn)
            accountSwitch = capabilities.contains(.accountSwitch)
            relaunch = capabilities.contains(.relaunch)
            refreshPoint = capabilities.contains(.refreshPoint)
            revocation = capabilities.contains(.revocation)
            passkeySignIn = capabilities.contains(.passkeySignIn)
            rename = capabilities.contains(.rename)
            targetSignals = target.has(.signals)
            explicitCreation = capabilities.contains(.explicitCreation)
            self.lostAnswers = lostAnswers && capabilities.contains(.faultInjection)
        }
    }

    /// The ids of each platform's registration failure classes, in catalogue order, listed once
    /// rather than filtered from the catalogue for every history.
    static let failureIDs = Dictionary(grouping: CreateFailureClass.all, by: \.platform).mapValues { $0.map(\.id) }

    /// A generator for a target and the adapter's capabilities, drawing from `random`; `lostAnswers`
    /// when the adapter's protocol has the fault of an answer lost after the server committed.
    init(capabilities: Set<Capability>, target: Target, random: SplitMix64, lostAnswers: Bool = true) {
        self.random = random
        aliases = capabilities.contains(.secondFactor) ? ["alice", "bob", "carol"] : ["alice", "bob"]
        failures = Self.failureIDs[target.platform] ?? []
        signals = capabilities.contains(.signals) || capabilities.contains(.passkeySignIn) || capabilities.contains(.revocation)
        able = Abilities(capabilities, target: target, lostAnswers: lostAnswers)
    }

    /// The Background of every history on the target.
    func background() -> [ExploreStep] {
        var steps = aliases.map { alias in ExploreStep.account(alias, policy: alias == "carol" ? "password and second factor" : "password only") }
        steps += aliases.map { ExploreStep.savedPassword($0) }
        if signals {
            steps.append(.providerPasskeys("alice", count: 2))
            // All of alice's: a credential manager that already holds a passkey of an account
            // declines its automatic upgrade, so bob and carol are left to upgrade.
            steps.append(.revokedProviderPasskey("alice"))
            steps.append(.passkeyUnknownToServer("alice"))
        }
        return steps
    }

    /// The values drawn for one step, whichever step is chosen: every draw happens in the same
    /// order on every call, so that a seed gives the same history on every run.
    struct Draws {
        var alias: String
        var other: String
        var secondFactor: String
        var method: String
        var displayName: String
        var failure: String
        var rateLimitSeconds: Int
        var seconds: Int
        var minutes: Int
    }

    /// The next step, given how many registration responses are held now.
    ///
    /// The weights of every kind of step are computed first and only the chosen step is built.
    mutating func next(held: Int) -> ExploreStep {
        let draws = Draws(
            alias: random.pick(aliases), other: random.pick(aliases), secondFactor: random.pick(["correct", "correct", "wrong", "expired"]),
            method: random.pick(["a magic link", "a one-time code", "federated sign-in"]), displayName: random.pick(["-", "Renamed"]),
            failure: failures.isEmpty ? "" : random.pick(failures), rateLimitSeconds: random.pick([5, 60, 120]),
            seconds: random.pick([1, 2, 30, 45, 61, 119, 121, 300]), minutes: random.pick([2, 10, 60]))
        let step = random.weightedIndex(weights(held: held)).map { Self.step($0, draws) } ?? .timePasses(.natural(seconds: 1))
        drawn += 1
        if step == .holdRegistrationResponses { holding = true }
        return step
    }

    /// The weight of each kind of step now, in the order of ``step(_:_:)``'s cases.
    func weights(held: Int) -> [Int] {
        let can = able
        let pending = held > 0
        let signals = self.signals
        return [
            can.conditionalCreate ? (holding && !pending ? 14 : 6) : 0,
            can.conditionalCreate ? 2 : 0,
            can.conditionalCreate ? 1 : 0,
            can.secondFactor ? 3 : 0,
            can.recoverySignIn ? 1 : 0,
            can.alternativeSignIn ? 1 : 0,
            pending ? 5 : 2,
            can.accountSwitch ? (pending ? 4 : 2) : 0,
            can.accountSwitch ? 1 : 0,
            can.relaunch ? 1 : 0,
            can.refreshPoint && signals ? 2 : 0,
            can.revocation && signals ? 2 : 0,
            can.passkeySignIn && signals ? 1 : 0,
            can.passkeySignIn && signals ? 2 : 0,
            can.passkeySignIn && signals ? 1 : 0,
            can.passkeySignIn && signals ? 1 : 0,
            can.passkeySignIn && signals ? 1 : 0,
            can.rename && signals ? 1 : 0,
            can.rename && signals ? 1 : 0,
            // Holding from the first step makes the response of the first sign-in one that a
            // context change, or half a minute, can come before (N2.6-AC06; its control is a
            // response released at once, one released later may outlive a short challenge).
            holding ? 0 : drawn == 0 ? 14 : 2,
            pending ? 8 : 0,
            failures.isEmpty ? 0 : 1,
            can.targetSignals ? 1 : 0,
            4,
            1,
            pending ? 8 : 0,
            1,
            // An explicit creation, and the authenticator answering without user presence: a
            // modal registration whose UP=0 answer the server must refuse (N2.6-X02).
            can.explicitCreation ? 2 : 0,
            can.explicitCreation ? 1 : 0,
            // Signals held or failing: no action waits on them, no list falls back on them.
            can.targetSignals && signals ? 1 : 0,
            can.targetSignals && signals ? 1 : 0,
            // An answer lost after the server committed: a retry's refusal is no unknown credential.
            can.lostAnswers ? 1 : 0,
        ]
    }

    /// The step of kind `index` (see ``weights(held:)``) with the values drawn.
    static func step(_ index: Int, _ draws: Draws) -> ExploreStep {
        let alias = draws.alias
        switch index {
        case 0: return .signIn(alias, password: .autofilled)
        case 1: return .signIn(alias, password: .typed)
        case 2: return .signIn(alias, password: .savedFor(draws.other))
        case 3: return .secondFactor(draws.secondFactor)
        case 4: return .recoverySignIn(alias)
        case 5: return .alternativeSignIn(alias, method: draws.method)
        case 6: return .signOut
        case 7: return .switchAccount(alias, password: .autofilled)
        case 8: return .switchAccount(alias, password: .typed)
        case 9: return .relaunch
        case 10: return .refreshPoint
        case 11: return .revokePasskey(alias)
        case 12: return .passkeySignIn(.of("alice"))
        case 13: return .passkeySignIn(.unknownToServer)
        case 14: return .passkeySignIn(.revoked)
        case 15: return .passkeySignIn(.invalidSignature("alice"))
        case 16: return .cancelPasskeySignIn(alias)
        case 17: return .rename(name: "\(alias).renamed@example.com", displayName: draws.displayName)
        case 18: return .rename(name: "-", displayName: "Renamed")
        case 19: return .holdRegistrationResponses
        case 20: return .releaseFirstHeldResponse
        case 21: return .failNextRegistration(draws.failure)
        case 22: return .rateLimitNextSignal(seconds: draws.rateLimitSeconds)
        case 23: return .timePasses(.seconds(draws.seconds))
        case 24: return .timePasses(.minutes(draws.minutes))
        case 25: return .timePasses(.seconds(45))
        case 27: return .createPasskeyFromSettings
        case 28: return .authenticatorFlags("UP=0 UV=0 BE=1 BS=1")
        case 29: return .holdSignals
        case 30: return .failSignals
        case 31: return .loseNextAnswer
        default: return .quiescence
        }
    }
}
