import Foundation
import WebAuthn

extension PlatformOperation {
    /// The credential id a successful registration produced.
    var createdCredentialID: Data? { PlatformFamilies.createdCredentialID(in: outcome) }
}

extension World {
    /// Every registration operation so far, in issue order.
    var registrations: [PlatformOperation] { host.snapshot.operations.filter { $0.kind == .create } }

    /// Registration operations issued after the trigger, once the app had the provider's autofill
    /// window after the last qualifying sign-in and then has nothing left scheduled.
    func registrationsSinceTrigger() async throws -> [PlatformOperation] {
        try await letUpgradeWindowRun()
        try await quiesce()
        return operationsSinceTrigger.filter { $0.kind == .create }
    }

    /// Every registration operation so far, once the app had the provider's autofill window after
    /// the last qualifying sign-in (`letUpgradeWindowRun`).
    func registrationsAfterUpgradeWindow() async throws -> [PlatformOperation] {
        try await letUpgradeWindowRun()
        return registrations
    }

    /// The message of a step that found no registration request to read, with what followed each
    /// qualifying sign-in of the scenario (late or absent).
    func noRegistrationMessage(readable: Bool = false) -> String {
        let shortfall = upgradeShortfall(since: 0, settled: false)
        return "the app issued no \(readable ? "readable " : "")registration request" + (shortfall.isEmpty ? "" : " (\(shortfall))")
    }
}

extension StepLibrary {
    /// Assertions over the registration requests the app issued and their results.
    static let registrationSteps: [StepDefinition] = [
        StepDefinition("no passkey registration request has been issued") { world, _ in
            let issued = try await world.registrationsSinceTrigger()
            return StepSupport.expect(
                issued.isEmpty,
                "the app issued \(issued.count) registration request(s): " + issued.map(StepSupport.cite).joined(separator: ", "))
        },
        StepDefinition("exactly {int} registration request(s) {word} been issued") { world, arguments in
            let expected = try arguments.int(0)
            let issued = try await world.registrationsSinceTrigger()
            let shortfall = issued.count < expected ? world.upgradeShortfall(since: world.triggerSequence ?? 0, settled: true) : ""
            return StepSupport.expect(
                issued.count == expected,
                "expected \(expected) registration request(s), the app issued \(issued.count)"
                    + (issued.isEmpty ? "" : ": " + issued.map(StepSupport.cite).joined(separator: ", ")) + (shortfall.isEmpty ? "" : "; " + shortfall))
        },
        StepDefinition("exactly {int} conditional registration request(s) {word} been issued for {string}", accounts: .uses(2)) { world, arguments in
            let expected = try arguments.int(0)
            let username = try world.account(arguments[2]).username
            let issued = try await world.registrationsSinceTrigger()
            let matching = issued.filter { $0.registration?.conditional == true && $0.registration?.userName == username }
            let others = issued.filter { !($0.registration?.conditional == true && $0.registration?.userName == username) }
            // Every registration request counts: a modal sheet the app opened on its own is one request too many.
            let sheets = Set(world.sheetsOpenedByTheApp().map(\.id))
            let unasked = issued.filter { sheets.contains($0.id) && $0.registration?.conditional != true }
            var message = "expected \(expected) conditional registration request(s) for \(username), the app issued \(matching.count)"
            if !matching.isEmpty { message += " (" + matching.map(StepSupport.cite).joined(separator: ", ") + ")" }
            if !others.isEmpty {
                message +=
                    "; other registration requests: "
                    + others.map { op in
                        "\(StepSupport.cite(op)) \(op.registration.map { "\($0.conditional ? "conditional" : "modal") for \($0.userName)" } ?? "unreadable")"
                    }.joined(separator: ", ")
            }
            if !unasked.isEmpty { message += "; the app opened \(unasked.count) modal creation sheet(s) the user did not ask for" }
            if matching.count < expected {
                let shortfall = world.upgradeShortfall(since: world.triggerSequence ?? 0, settled: true)
                if !shortfall.isEmpty { message += "; " + shortfall }
            }
            return StepSupport.expect(matching.count == expected && unasked.isEmpty, message)
        },
        StepDefinition("every registration request uses the conditional request style") { world, _ in
            let issued = try await world.registrationsAfterUpgradeWindow()
            let wrong = issued.filter { $0.createRequest?.appleRequest?.requestStyle != .conditional }
            return StepSupport.expect(
                !issued.isEmpty && wrong.isEmpty,
                issued.isEmpty
                    ? world.noRegistrationMessage()
                    : "request style of "
                        + wrong.map {
                            "\(StepSupport.cite($0)): \($0.createRequest?.appleRequest?.requestStyle?.rawValue ?? ($0.createRequest?.appleRequest == nil ? "not an Apple request" : "unset (standard)"))"
                        }.joined(separator: ", "))
        },
        StepDefinition("every registration request sets isConditional to true") { world, _ in
            let issued = try await world.registrationsAfterUpgradeWindow()
            let wrong = issued.filter { $0.createRequest?.androidRequest?.isConditional != true }
            return StepSupport.expect(
                !issued.isEmpty && wrong.isEmpty,
                issued.isEmpty
                    ? world.noRegistrationMessage() : "isConditional is not true in " + wrong.map(StepSupport.cite).joined(separator: ", "))
        },
        StepDefinition("every registration request is conditional") { world, _ in
            let issued = try await world.registrationsAfterUpgradeWindow()
            let wrong = issued.filter { $0.registration?.conditional != true }
            return StepSupport.expect(
                !issued.isEmpty && wrong.isEmpty,
                issued.isEmpty
                    ? world.noRegistrationMessage()
                    : "non-conditional registration request(s): " + wrong.map(StepSupport.cite).joined(separator: ", "))
        },
        StepDefinition("the app made no call the platform does not support") { world, _ in
            let unsupported = world.host.snapshot.transcript.filter { $0.name == "platform.unsupported-call" }
            return StepSupport.expect(
                unsupported.isEmpty,
                "unsupported call(s): " + unsupported.map { "#\($0.sequence) \($0.summary)" }.joined(separator: "; "))
        },
        StepDefinition("the last registration request names {string} and no other account", accounts: .uses(0)) { world, arguments in
            guard let last = try await world.registrationsAfterUpgradeWindow().last, let view = last.registration else {
                return .failed(world.noRegistrationMessage(readable: true))
            }
            let expected = try await world.inspect(arguments[0])
            var problems: [String] = []
            if view.userName != expected.username { problems.append("user.name is \(view.userName), expected \(expected.username)") }
            if view.userHandle != expected.userHandle {
                problems.append("user.id is \(Base64URL.encode(view.userHandle)), expected \(Base64URL.encode(expected.userHandle))")
            }
            for alias in world.accounts.keys.sorted() where alias != arguments[0] {
                let other = try await world.inspect(alias)
                if view.userHandle == other.userHandle { problems.append("user.id is the user handle of \(other.username)") }
                if view.userName == other.username || view.displayName == other.displayName {
                    problems.append("the request names \(other.username)")
                }
            }
            return StepSupport.expect(problems.isEmpty, "\(StepSupport.cite(last)): " + problems.joined(separator: "; "))
        },
        StepDefinition("the last registration request carries the WebAuthn user handle of {string}", accounts: .uses(0)) { world, arguments in
            guard let last = try await world.registrationsAfterUpgradeWindow().last, let view = last.registration else {
                return .failed(world.noRegistrationMessage(readable: true))
            }
            let expected = try await world.inspect(arguments[0])
            return StepSupport.expect(
                view.userHandle == expected.userHandle,
                "\(StepSupport.cite(last)): user.id is \(Base64URL.encode(view.userHandle)), the server's user handle of \(expected.username) is \(Base64URL.encode(expected.userHandle))"
            )
        },
        StepDefinition("no registration request carries a product account id as its user handle") { world, _ in
            var accountIDs: [Data: String] = [:]
            for alias in world.accounts.keys.sorted() {
                let snapshot = try await world.inspect(alias)
                accountIDs[Data(snapshot.accountID.utf8)] = snapshot.accountID
            }
            let offending = try await world.registrationsAfterUpgradeWindow().filter { $0.registration.map { accountIDs[$0.userHandle] != nil } ?? false }
            return StepSupport.expect(
                offending.isEmpty,
                "user.id is a product account id in "
                    + offending.map { "\(StepSupport.cite($0)) (\(accountIDs[$0.registration!.userHandle]!))" }.joined(separator: ", "))
        },
        StepDefinition("the registration request excludes exactly the passkeys the server holds for {string}", accounts: .uses(0)) { world, arguments in
            guard let last = try await world.registrationsAfterUpgradeWindow().last, let view = last.registration else {
                return .failed(world.noRegistrationMessage(readable: true))
            }
            // What the server knew when the request was issued: its list now, less what this and later registrations created.
            let createdSince = Set(world.registrations.filter { $0.sequence >= last.sequence }.compactMap(\.createdCredentialID))
            let known = Set(try await world.inspect(arguments[0]).credentials.map(\.credentialID)).subtracting(createdSince)
            let excluded = Set(view.excludedCredentials ?? [])
            let missing = known.subtracting(excluded)
            let foreign = excluded.subtracting(known)
            var problems: [String] = []
            if !missing.isEmpty {
                problems.append(
                    "\(missing.count) of \(known.count) server-known id(s) missing: " + missing.map(Base64URL.encode).sorted().joined(separator: ", "))
            }
            if !foreign.isEmpty {
                problems.append("\(foreign.count) id(s) the server does not hold: " + foreign.map(Base64URL.encode).sorted().joined(separator: ", "))
            }
            if view.excludedCredentials == nil && !known.isEmpty { problems.append("the request has no exclusion input at all") }
            return StepSupport.expect(problems.isEmpty, "\(StepSupport.cite(last)): " + problems.joined(separator: "; "))
        },
        // "Promptly" in N2.6-AC05: before any further user action and within the credential manager's
        // recent-autofill window, which the criteria document ties "promptly" to (a provider knob,
        // `World.upgradeWindowMillis`; named in the criterion file). A request that comes later is
        // reported as late, none at all as absent.
        StepDefinition("the registration request followed the sign-in promptly") { world, _ in
            try await world.letUpgradeWindowRun()
            try await world.quiesce()
            guard let signIn = world.lastSignIn else { return .failed("no sign-in completed") }
            if case .prompt = world.upgradeTiming(after: signIn) { return .passed }
            return .failed(world.describeUpgrade(after: signIn, settled: true))
        },
        StepDefinition("the credential manager created a passkey for {string}", accounts: .uses(0)) { world, arguments in
            let username = try world.account(arguments[0]).username
            let registrations = try await world.registrationsAfterUpgradeWindow()
            let created = registrations.filter { $0.registration?.userName == username && $0.outcome.error == nil }
            return StepSupport.expect(
                !created.isEmpty,
                registrations.isEmpty
                    ? world.noRegistrationMessage()
                    : "no registration for \(username) succeeded at the credential manager: "
                        + registrations.map { "\(StepSupport.cite($0)) \($0.outcome.error.map { "\($0.name)" } ?? "ok")" }.joined(separator: ", "))
        },
        StepDefinition("the credential manager declined the registration") { world, _ in
            let issued = try await world.registrationsAfterUpgradeWindow()
            return StepSupport.expect(
                !issued.isEmpty && issued.allSatisfy { $0.outcome.error != nil },
                issued.isEmpty
                    ? world.noRegistrationMessage()
                    : "a registration request succeeded: " + issued.filter { $0.outcome.error == nil }.map(StepSupport.cite).joined(separator: ", "))
        },
        StepDefinition("the server holds {int} passkey(s) for {string}", accounts: .uses(1)) { world, arguments in
            let expected = try arguments.int(0)
            let snapshot = try await world.inspect(arguments[1])
            let active = snapshot.credentials.filter { $0.state == .active }
            let rejections = world.host.snapshot.telemetry.map {
                "\($0.value.name) \($0.value.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
            }
            return StepSupport.expect(
                active.count == expected,
                "the server holds \(active.count) active passkey(s) for \(snapshot.username), expected \(expected)"
                    + (rejections.isEmpty ? "" : "; the app's telemetry: " + rejections.joined(separator: "; ")))
        },
        // A control guards, it does not blame (DESIGN.md): a server that stores no modal creation at
        // all, user presence or not, gives N2.6-X02's refusal nothing to tell apart, so the item it
        // guards is not verified rather than failed.
        StepDefinition("the server holds the passkey created from the app's settings for {string} (control)", accounts: .uses(0)) { world, arguments in
            try await world.quiesce()
            let creations = world.operationsSinceTrigger.filter { $0.kind == .create && $0.registration?.conditional == false }
            guard let creation = creations.last else {
                return .notVerified("the app made no modal registration request after the trigger, so the control's path was not reached")
            }
            guard let id = creation.createdCredentialID else {
                return .notVerified(
                    "the credential manager answered \(StepSupport.cite(creation)) with \(creation.outcome.error?.name ?? "no passkey"), "
                        + "so the control's path was not reached")
            }
            let account = try await world.inspect(arguments[0])
            guard account.credentials.contains(where: { $0.credentialID == id && $0.state == .active }) else {
                return .notVerified(
                    "the server did not store \(Base64URL.encode(id)) (\(creation.response?.flagsText ?? "?")) from \(StepSupport.cite(creation)), "
                        + "a modal registration with user presence: a server that refuses it refuses a modal registration whatever its flags, "
                        + "so whether it waives user presence only for conditional options cannot be told here")
            }
            return .passed
        },
        // By cause, then by meaning: what the app showed only because a conditional request came back
        // with no passkey (not shown where the credential manager creates one), in any language and of
        // any kind, is a user-facing error unless the reader excuses it (a nudge offering a passkey).
        StepDefinition("the app showed no error") { world, _ in
            try await world.quiesce()
            guard let (failed, delivered) = world.firstDeliveredConditionalRegistration({ $0.outcome.error != nil }) else {
                world.host.record(.step, "check.scope", "no conditional registration request came back without a passkey: nothing shown can be its doing")
                return .passed
            }
            return try await world.noErrorShown(after: failed, delivered: delivered)
        },
        // By cause, then by meaning: what the app showed only because the upgrade succeeded (not shown
        // where the credential manager declines), in any language and of any kind, is a confirmation of
        // its own unless the reader excuses it (it reports a failure).
        StepDefinition("the app showed no confirmation of its own") { world, _ in
            try await world.quiesce()
            guard let (created, delivered) = world.firstDeliveredConditionalRegistration({ $0.outcome.error == nil }) else {
                world.host.record(.step, "check.scope", "no conditional registration request created a passkey: nothing shown can be its doing")
                return .passed
            }
            let attribution = try await world.shownOnlyBecause(
                after: delivered, untilUserActs: true, unless: .conditionalAnswer(.decline), excusing: UpgradeClaims.excusedAsNoConfirmation)
            let confirmations = attribution.events
            return StepSupport.expect(
                confirmations.isEmpty,
                "after \(StepSupport.cite(created)) created the passkey, the app added a confirmation of its own: "
                    + confirmations.map { event in
                        UpgradeClaims.quote(event)
                            + (UpgradeClaims.confirmsPasskey(event.value.text) ? " (it speaks of a passkey as done)" : " (a text the reader does not excuse)")
                    }.joined(separator: ", ") + ", shown only because the upgrade succeeded (not shown "
                    + (attribution.change?.phrase ?? "") + ") " + UpgradeClaims.reading)
        },
        StepDefinition(.releaseFirstHeldResponse) { world, _ in
            try await world.letUpgradeWindowRun()
            let released = try await world.releaseHeld(.create, onlyFirst: true)
            guard released == 1 else {
                let shortfall = world.upgradeShortfall(since: 0, settled: false)
                return .failed("the app issued no registration request whose response could be held" + (shortfall.isEmpty ? "" : " (\(shortfall))"))
            }
            return .passed
        },
        // Checked when the response is released and again after every later event that could
        // release a response the app held back (N2.6-AC06: "whatever releases it").
        StepDefinition("releasing the response changed no account's server credentials") { world, _ in
            guard let comparison = world.releaseComparison else { throw SystemIssue("no held response was released before this step") }
            func changes(_ after: [String: [CredentialSnapshot]]) -> String? {
                let changed = comparison.before.keys.sorted().filter { comparison.before[$0] != after[$0] }
                guard !changed.isEmpty else { return nil }
                return changed.map { alias in "\(World.username(alias)) (\(comparison.before[alias]?.count ?? 0) → \(after[alias]?.count ?? 0))" }
                    .joined(separator: ", ")
            }
            if let changed = changes(comparison.after) { return .failed("the late response changed the server credentials of " + changed) }
            for step in try await world.continueThroughReleasingEvents() {
                if let changed = changes(step.credentials) {
                    return .failed(
                        "no list changed when the late response was released, but after \(step.event) the server credentials of \(changed) had changed: "
                            + "a stale response the app held back was stored")
                }
            }
            return .passed
        },
    ]
}
