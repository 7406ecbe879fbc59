import ConformanceKit
/// What the shrinker may do with a step: merge it with a neighbouring wait, or replace it by a
/// simpler one.
extension ExploreStep {
    /// The seconds the step lets pass; `nil` for every step but a wait.
    package var waitSeconds: Int? {
        guard case .timePasses(let span) = self else { return nil }
        return span.totalSeconds
    }

    /// Simpler forms of the step, simplest first: shorter waits, the first account of the pool
    /// (`alice`) for each other account the step names, an autofilled password for a typed one, a
    /// sign-in for a switch, the shortest rate limit.
    package var simplifications: [ExploreStep] {
        var result: [ExploreStep] = []
        if let seconds = waitSeconds {
            result += [1, 30, 60, 121, 300, 3600].filter { $0 < seconds }.map { .timePasses(.natural(seconds: $0)) }
        }
        let named = accountAliases
        for alias in ["bob", "carol"] where named.contains(alias) {
            result.append(replacingAlias(alias, with: "alice"))
        }
        switch self {
        case .signIn(let alias, .typed): result.append(.signIn(alias, password: .autofilled))
        case .switchAccount(let alias, .typed): result.append(.switchAccount(alias, password: .autofilled))
        case .switchAccount(let alias, .autofilled): result.append(.signIn(alias, password: .autofilled))
        case .rateLimitNextSignal(let seconds) where seconds > 5: result.append(.rateLimitNextSignal(seconds: 5))
        default: break
        }
        return result
    }

    /// The accounts the step names by alias, in the order the sentence names them.
    package var accountAliases: [String] {
        switch self {
        case .account(let alias, _), .savedPassword(let alias), .providerPasskeys(let alias, _), .revokedProviderPasskey(let alias),
            .passkeyUnknownToServer(let alias), .recoverySignIn(let alias), .alternativeSignIn(let alias, _), .revokePasskey(let alias),
            .passkeySignIn(.of(let alias)), .passkeySignIn(.invalidSignature(let alias)), .cancelPasskeySignIn(let alias):
            [alias]
        case .signIn(let alias, .savedFor(let other)): [alias, other]
        case .signIn(let alias, _), .switchAccount(let alias, _): [alias]
        case .secondFactor, .signOut, .relaunch, .refreshPoint, .passkeySignIn, .rename, .holdRegistrationResponses, .releaseFirstHeldResponse,
            .failNextRegistration, .rateLimitNextSignal, .timePasses, .quiescence, .createPasskeyFromSettings, .authenticatorFlags, .holdSignals,
            .failSignals, .loseNextAnswer:
            []
        }
    }

    /// The step with every mention of one account replaced by another.
    func replacingAlias(_ alias: String, with replacement: String) -> ExploreStep {
        func swap(_ name: String) -> String { name == alias ? replacement : name }
        return switch self {
        case .account(let name, let policy): .account(swap(name), policy: policy)
        case .savedPassword(let name): .savedPassword(swap(name))
        case .providerPasskeys(let name, let count): .providerPasskeys(swap(name), count: count)
        case .revokedProviderPasskey(let name): .revokedProviderPasskey(swap(name))
        case .passkeyUnknownToServer(let name): .passkeyUnknownToServer(swap(name))
        case .signIn(let name, .savedFor(let other)): .signIn(swap(name), password: .savedFor(swap(other)))
        case .signIn(let name, let password): .signIn(swap(name), password: password)
        case .switchAccount(let name, let password): .switchAccount(swap(name), password: password)
        case .recoverySignIn(let name): .recoverySignIn(swap(name))
        case .alternativeSignIn(let name, let method): .alternativeSignIn(swap(name), method: method)
        case .revokePasskey(let name): .revokePasskey(swap(name))
        case .passkeySignIn(.of(let name)): .passkeySignIn(.of(swap(name)))
        case .passkeySignIn(.invalidSignature(let name)): .passkeySignIn(.invalidSignature(swap(name)))
        case .cancelPasskeySignIn(let name): .cancelPasskeySignIn(swap(name))
        case .secondFactor, .signOut, .relaunch, .refreshPoint, .passkeySignIn, .rename, .holdRegistrationResponses, .releaseFirstHeldResponse,
            .failNextRegistration, .rateLimitNextSignal, .timePasses, .quiescence, .createPasskeyFromSettings, .authenticatorFlags, .holdSignals,
            .failSignals, .loseNextAnswer:
            self
        }
    }
}
