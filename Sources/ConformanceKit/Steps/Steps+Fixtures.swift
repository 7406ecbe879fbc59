import Foundation

extension World {
    /// *Not verified* when the adapter declares that a passkey counts as a second factor and the
    /// account is a password-only one: holding a passkey would give it a two-factor policy, which
    /// the scenario's fixture does not describe; `nil` when the fixture can be represented.
    func passkeyPolicyGap(_ alias: String) throws -> StepOutcome? {
        guard adapter.declarations.contains(.passkeySecondFactor), try account(alias).policy == .passwordOnly else { return nil }
        return .notVerified(
            "the adapter declares that a passkey counts as a second factor (passkey-second-factor): the password-only account "
                + "\"\(alias)\" cannot hold server-side passkeys")
    }
}

extension StepLibrary {
    /// Accounts, saved passwords, server credentials and provider behaviour.
    static let fixtureSteps: [StepDefinition] = [
        StepDefinition(
            .account, accounts: .creates(0),
            check: StepDefinition.oneOf(SignInPolicy.phrases, at: 1)
        ) { world, arguments in
            let policy = try SignInPolicy(phrase: arguments[1])
            if policy == .passwordAndSecondFactor, !world.adapter.capabilities.contains(.secondFactor) {
                return .notVerified("the adapter does not declare the capability second-factor")
            }
            try await world.createAccounts([World.fixture(arguments[0], policy: policy, rpID: world.primaryRPID)], aliases: [arguments[0]])
            return .passed
        },
        StepDefinition(.savedPassword) { world, arguments in
            let username = World.username(arguments[0])
            let rpID = world.primaryRPID
            world.host.withProvider { $0.savedPasswords.append(.init(username: username, rpID: rpID)) }
            world.host.record(.step, "provider.savedPassword", "the credential manager saves the password of \(username)")
            return .passed
        },
        StepDefinition("the server holds {int} passkey(s) for {string} made with other credential managers", accounts: .uses(1)) { world, arguments in
            let count = try arguments.int(0)
            if count > 0, let gap = try world.passkeyPolicyGap(arguments[1]) { return gap }
            for _ in 0..<count { _ = try await world.makeServerCredential(for: arguments[1]) }
            return .passed
        },
        StepDefinition("the credential manager creates passkeys without showing any UI") { world, _ in
            world.host.withProvider { $0.createsWithoutUI = true }
            world.host.record(.step, "provider.setting", "the provider fulfils modal requests without UI")
            return .passed
        },
        StepDefinition(.holdRegistrationResponses) { world, _ in
            world.host.withProvider { $0.holdRegistrations = true }
            world.host.record(.step, "provider.setting", "registration responses are held until released")
            return .passed
        },
        StepDefinition(
            .authenticatorFlags,
            check: { arguments in
                do {
                    _ = try World.parseFlags(arguments[0])
                    return nil
                } catch { return "\(error)" }
            }
        ) { world, arguments in
            let flags = try World.parseFlags(arguments[0])
            world.host.withProvider { $0.flagsOverride = flags }
            world.host.record(.step, "provider.setting", "the authenticator reports \(arguments[0])")
            return .passed
        },
        // The provider knob N2.6-AC05's "promptly" is judged by (`ProviderState.autofillWindowRange`).
        StepDefinition(
            "the credential manager keeps its autofill context for {int} second(s)",
            ranges: [0: Int(ProviderState.autofillWindowRange.lowerBound / 1000)...Int(ProviderState.autofillWindowRange.upperBound / 1000)]
        ) { world, arguments in
            let seconds = try arguments.int(0)
            world.host.withProvider { $0.autofillWindowMillis = Int64(seconds) * 1000 }
            world.host.record(.step, "provider.setting", "the credential manager keeps its recent-autofill context for \(seconds) s")
            return .passed
        },
        StepDefinition("the user switched automatic passkey creation off") { world, _ in
            world.host.withProvider { $0.automaticCreationOff = true }
            world.host.record(.step, "provider.setting", "automatic passkey creation is off")
            return .passed
        },
    ]
}

extension SignInPolicy {
    /// The phrases criterion files use for the policies.
    static let phrases = ["password only", "password and second factor"]

    /// The policy a criterion file names: `password only` or `password and second factor`.
    init(phrase: String) throws {
        switch phrase {
        case "password only": self = .passwordOnly
        case "password and second factor": self = .passwordAndSecondFactor
        default: throw SystemIssue("unknown sign-in policy \"\(phrase)\" (use \"password only\" or \"password and second factor\")")
        }
    }
}

extension World {
    /// The fixture for an alias: `alice` → `alice@example.com`, display name `Alice Example`.
    static func fixture(_ alias: String, policy: SignInPolicy, rpID: String, restricted: Bool = false) -> AccountFixture {
        AccountFixture(
            username: username(alias), displayName: alias.prefix(1).uppercased() + alias.dropFirst() + " Example",
            password: "pw-\(alias)-correct-horse", policy: policy, rpID: rpID, restricted: restricted)
    }

    /// Parses `UP=0 UV=0 BE=1 BS=1`.
    static func parseFlags(_ text: String) throws -> ProviderState.Flags {
        var values: [String: Bool] = [:]
        for part in text.split(separator: " ") {
            let pair = part.split(separator: "=")
            guard pair.count == 2, ["UP", "UV", "BE", "BS"].contains(String(pair[0])), pair[1] == "0" || pair[1] == "1" else {
                throw SystemIssue("flags must read like \"UP=0 UV=0 BE=1 BS=1\", found \"\(part)\"")
            }
            values[String(pair[0])] = pair[1] == "1"
        }
        guard values.count == 4 else { throw SystemIssue("flags must name UP, UV, BE and BS once each: \"\(text)\"") }
        return ProviderState.Flags(userPresent: values["UP"]!, userVerified: values["UV"]!, backupEligible: values["BE"]!, backedUp: values["BS"]!)
    }
}
