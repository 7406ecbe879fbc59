import Foundation

extension StepLibrary {
    /// Sign-in, second factor, recovery, sign-out, account switch, explicit creation and time.
    static let signInSteps: [StepDefinition] = [
        StepDefinition(.signInAutofilled, accounts: .uses(0), needs: [.conditionalCreate]) { world, arguments in
            let account = try world.account(arguments[0])
            try world.autofill(savedFor: account.username, rpID: account.rpID)
            try await world.perform(.passwordSignIn(username: account.username, password: account.password))
            return .passed
        },
        StepDefinition(.signInTyped, accounts: .uses(0), needs: [.conditionalCreate]) { world, arguments in
            try await world.typePassword(UserAction.passwordSignIn(username:password:), of: try world.account(arguments[0]))
            return .passed
        },
        StepDefinition(.signInWithAnothersPassword, accounts: .uses(0), needs: [.conditionalCreate]) {
            world, arguments in
            let account = try world.account(arguments[0])
            try world.autofill(savedFor: World.username(arguments[1]), rpID: account.rpID)
            try await world.perform(.passwordSignIn(username: account.username, password: account.password))
            return .passed
        },
        StepDefinition(
            .secondFactor, needs: [.secondFactor],
            check: StepDefinition.oneOf(["correct", "wrong", "expired"])
        ) { world, arguments in
            guard let outcome = SecondFactorOutcome(rawValue: arguments[0]) else {
                throw SystemIssue("unknown second-factor outcome \"\(arguments[0])\" (use correct, wrong or expired)")
            }
            try await world.perform(.secondFactor(outcome))
            return .passed
        },
        StepDefinition(.recoverySignIn, accounts: .uses(0), needs: [.recoverySignIn]) { world, arguments in
            let account = try world.account(arguments[0])
            try await world.perform(.recoverySignIn(username: account.username))
            return .passed
        },
        StepDefinition(.signOut) { world, _ in
            try await world.perform(.signOut)
            return .passed
        },
        StepDefinition(.switchAccountAutofilled, accounts: .uses(0), needs: [.accountSwitch]) { world, arguments in
            let account = try world.account(arguments[0])
            try world.autofill(savedFor: account.username, rpID: account.rpID)
            try await world.perform(.switchAccount(username: account.username, password: account.password))
            return .passed
        },
        StepDefinition(.createPasskeyFromSettings, needs: [.explicitCreation]) { world, _ in
            try await world.perform(.createPasskey)
            return .passed
        },
        timePasses(.secondsPass, unitMillis: 1000),
        timePasses(.secondPasses, unitMillis: 1000),
        timePasses(.minutesPass, unitMillis: 60_000),
        timePasses(.minutePasses, unitMillis: 60_000),
        StepDefinition("the app asks for a second factor") { world, _ in
            let status = world.lastOutcome?.status
            return StepSupport.expect(
                status == .secondFactorRequired,
                "after the password the app answered \(status?.rawValue ?? "nothing") instead of asking for the second factor")
        },
        StepDefinition("{string} is signed in", accounts: .uses(0)) { world, arguments in
            let account = try world.account(arguments[0])
            let session = try await world.inspectSession()
            return StepSupport.expect(
                session.stage == .signedIn && session.username == account.username,
                "the app's session is \(session.stage.rawValue)\(session.username.map { " as \($0)" } ?? ""), not signed in as \(account.username)")
        },
        StepDefinition("{string} is not fully signed in", accounts: .uses(0)) { world, arguments in
            let account = try world.account(arguments[0])
            let session = try await world.inspectSession()
            return StepSupport.expect(
                !(session.stage == .signedIn && session.username == account.username),
                "the app signed \(account.username) in fully although the sign-in policy was not completed")
        },
    ]
}

extension StepLibrary {
    /// A step that lets `{int}` units of virtual time pass.
    static func timePasses(_ id: StepDefinition.ID, unitMillis: Int64) -> StepDefinition {
        StepDefinition(id, ranges: [0: 0...Int(86_400_000 / unitMillis)]) { world, arguments in  // up to a day
            try await world.advance(byMillis: Int64(try arguments.int(0)) * unitMillis)
            return .passed
        }
    }
}

extension World {
    /// Signs in (or switches) with a password the user types by hand: nothing is autofilled.
    /// `action` is `UserAction.passwordSignIn` or `UserAction.switchAccount`.
    func typePassword(_ action: (_ username: String, _ password: String) -> UserAction, of account: AccountFixture) async throws {
        host.withProvider { $0.lastAutofill = nil }
        host.record(.step, "provider.autofill", "the user types the password of \(account.username) by hand; nothing is autofilled")
        try await perform(action(account.username, account.password))
    }

    /// Records that the credential manager autofilled the saved password of `username`.
    func autofill(savedFor username: String, rpID: String) throws {
        let now = host.now()
        let saved = host.withProvider { provider -> Bool in
            guard provider.savedPasswords.contains(where: { $0.username == username && $0.rpID == rpID }) else { return false }
            provider.lastAutofill = .init(username: username, rpID: rpID, atMillis: now)
            return true
        }
        guard saved else {
            throw SystemIssue("the credential manager has no saved password for \(username); add a step that saves one")
        }
        host.record(.step, "provider.autofill", "the credential manager autofills the saved password of \(username)")
    }
}
