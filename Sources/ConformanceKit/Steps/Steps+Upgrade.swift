import Foundation
import WebAuthn

extension World {
    /// The failure class of a platform error: the catalogue's, or one built from the error itself.
    static func failureClass(of error: PlatformError) -> CreateFailureClass? {
        CreateFailureClass.all.first { $0.error.name == error.name && $0.error.type == error.type && $0.error.code == error.code }
    }

    /// Whether a telemetry record names a failure class exactly: one value of every group among its attributes.
    static func names(_ event: TelemetryEvent, _ groups: [[String]]) -> Bool {
        let values = Set(event.attributes.values)
        return groups.allSatisfy { group in group.contains(where: values.contains) }
    }
}

extension World {
    /// Passes when a telemetry record after the failed operation names its failure class exactly.
    func recordedUnderItsClass(_ failed: PlatformOperation) -> StepOutcome {
        guard let error = failed.outcome.error else { return .failed("\(StepSupport.cite(failed)) did not fail") }
        let groups = World.failureClass(of: error)?.telemetryNames ?? [[error.name] + (error.code.map { [String($0)] } ?? [])]
        let recorded = host.snapshot.telemetry.filter { $0.sequence > failed.sequence }
        let exact = recorded.filter { World.names($0.value, groups) }
        return StepSupport.expect(
            !exact.isEmpty,
            "\(StepSupport.cite(failed)) failed with \(error.name)\(error.code.map { " (code \($0))" } ?? "")"
                + (error.type.map { ", type \($0)" } ?? "") + "; no telemetry record names it ("
                + (recorded.isEmpty
                    ? "the app recorded nothing"
                    : "recorded: " + recorded.map { "\($0.value.name) \($0.value.attributes.sorted { $0.key < $1.key })" }.joined(separator: "; ")) + ")")
    }
}

/// The forms in which a value could hide in a user handle: its UTF-8 bytes, hex, base64 and base64url text.
enum OpaqueHandle {
    static func forms(of value: String) -> [(form: String, bytes: Data)] {
        let utf8 = Data(value.utf8)
        let hex = utf8.map { String(format: "%02x", $0) }.joined()
        return [
            ("UTF-8", utf8), ("hex", Data(hex.utf8)), ("upper-case hex", Data(hex.uppercased().utf8)),
            ("base64", Data(utf8.base64EncodedString().utf8)), ("base64url", Data(Base64URL.encode(utf8).utf8)),
        ]
    }

    /// The 16 bytes of a handle as a UUID string, lower case, when it has 16 bytes.
    static func uuidText(_ handle: Data) -> String? {
        guard handle.count == 16 else { return nil }
        let hex = handle.map { String(format: "%02x", $0) }.joined()
        var text = ""
        for (index, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(character)
        }
        return text
    }

    /// What identifying value the handle carries, and in which form; `nil` when it carries none.
    static func leak(in handle: Data, values: [(label: String, value: String)]) -> String? {
        for (label, value) in values where value.count >= 3 {
            for (form, bytes) in forms(of: value) where handle.range(of: bytes) != nil {
                return "the user handle contains the \(label) \"\(value)\" in \(form)"
            }
            let lower = value.lowercased()
            if let uuid = uuidText(handle), uuid.contains(lower) || uuid.replacingOccurrences(of: "-", with: "").contains(lower) {
                return "the user handle, read as a UUID, contains the \(label) \"\(value)\""
            }
        }
        return nil
    }
}

extension StepLibrary {
    /// Steps of the automatic upgrade (N2.6) that read failure classes, non-password sign-ins,
    /// relaunches and the binding of a request to its account.
    static let upgradeSteps: [StepDefinition] = [
        StepDefinition(
            "the credential manager fails the next conditional registration with {string}",
            check: { arguments in
                CreateFailureClass.named(arguments[0]) == nil
                    ? "unknown failure class \"\(arguments[0])\" (one of: \(CreateFailureClass.all.map(\.id).joined(separator: ", ")))" : nil
            }
        ) { world, arguments in
            guard let failure = CreateFailureClass.named(arguments[0]) else { throw SystemIssue("unknown failure class \"\(arguments[0])\"") }
            guard failure.platform == world.target.platform else {
                throw SystemIssue(
                    "\(failure.id) is a \(failure.platform.rawValue) failure; the scenario runs on \(world.target.id) (tag it @platform:\(failure.platform.rawValue))"
                )
            }
            world.host.withProvider { $0.nextConditionalCreateFailure = failure }
            world.host.record(.step, "provider.setting", "the next conditional registration fails with \(failure.id)")
            return .passed
        },
        // The failure is named exactly: the exception (and DOM error) on Android, the code on Apple.
        StepDefinition("the app recorded the failure under its own class") { world, _ in
            try await world.quiesce()
            guard let failed = world.operationsSinceTrigger.first(where: { $0.kind == .create && $0.outcome.error != nil }) else {
                return .failed("no registration request failed after the trigger")
            }
            return world.recordedUnderItsClass(failed)
        },
        // Whatever the platform answered: silent for the expected no-op, recorded for every other class.
        StepDefinition("the app treated the failure as its class requires") { world, _ in
            try await world.quiesce()
            guard let failed = world.operationsSinceTrigger.first(where: { $0.kind == .create && $0.outcome.error != nil }), let error = failed.outcome.error
            else {
                return .failed("no registration request failed after the trigger")
            }
            guard let failure = World.failureClass(of: error), failure.handling == .silent else { return world.recordedUnderItsClass(failed) }
            let errors = world.host.snapshot.uiEvents.filter { $0.sequence > failed.sequence && $0.value.kind == .error }
            return StepSupport.expect(
                errors.isEmpty,
                "\(StepSupport.cite(failed)) ended in the expected no-op \(failure.id), yet the app showed: "
                    + errors.map { "#\($0.sequence) \"\($0.value.text)\"" }.joined(separator: ", "))
        },
        StepDefinition(
            "the user signs in as {string} through {string}", accounts: .uses(0), needs: [.alternativeSignIn],
            check: StepDefinition.oneOf(["a magic link", "a one-time code", "federated sign-in"], at: 1)
        ) { world, arguments in
            let account = try world.account(arguments[0])
            let method: AlternativeSignInMethod =
                switch arguments[1] {
                case "a magic link": .magicLink
                case "a one-time code": .oneTimeCode
                default: .federated
                }
            world.host.withProvider { $0.lastAutofill = nil }
            try await world.perform(.alternativeSignIn(username: account.username, method: method))
            return .passed
        },
        StepDefinition("the app is relaunched", needs: [.relaunch]) { world, _ in
            try await world.perform(.relaunch)
            return .passed
        },
        StepDefinition("the user switches to {string} typing the password by hand", accounts: .uses(0), needs: [.accountSwitch]) { world, arguments in
            try await world.typePassword(UserAction.switchAccount(username:password:), of: try world.account(arguments[0]))
            return .passed
        },
        StepDefinition("{string} is signed in with limited assurance", accounts: .uses(0)) { world, arguments in
            let account = try world.account(arguments[0])
            let session = try await world.inspectSession()
            return StepSupport.expect(
                session.stage == .signedInLimited && session.username == account.username,
                "the app's session is \(session.stage.rawValue)\(session.username.map { " as \($0)" } ?? ""), not a limited sign-in of \(account.username)")
        },
        StepDefinition("the last registration request carries none of the exclusions or the challenge of {string}", accounts: .uses(0)) { world, arguments in
            try await world.quiesce()
            let registrations = world.registrations
            guard let last = registrations.last, let view = last.registration else { return .failed("the app issued no readable registration request") }
            let other = try await world.inspect(arguments[0])
            let otherIDs = Set(other.credentials.map(\.credentialID))
            let otherChallenges = Set(registrations.dropLast().compactMap { $0.registration }.filter { $0.userName == other.username }.map(\.challenge))
            var problems: [String] = []
            let leaked = (view.excludedCredentials ?? []).filter(otherIDs.contains)
            if !leaked.isEmpty {
                problems.append("it excludes \(leaked.count) passkey(s) of \(other.username): " + leaked.map(Base64URL.encode).sorted().joined(separator: ", "))
            }
            if otherChallenges.contains(view.challenge) { problems.append("its challenge is the one issued for \(other.username)") }
            // Without an earlier request of that account there is no challenge of its to carry
            // over. Whether the app owed one is N2.6-AC04's and AC05's question, not this item's:
            // the exclusions are still compared, and the transcript says what was not.
            if otherChallenges.isEmpty {
                world.host.record(
                    .step, "check.scope",
                    "the app asked for no registration for \(other.username) before, so no challenge of \(other.username)'s could be carried over; only the exclusions were compared"
                )
            }
            return StepSupport.expect(problems.isEmpty, "\(StepSupport.cite(last)): " + problems.joined(separator: "; "))
        },
        StepDefinition("the user handle of every registration request is opaque") { world, _ in
            try await world.quiesce()
            var values: [(label: String, value: String)] = []
            for alias in world.accounts.keys.sorted() {
                let account = try await world.inspect(alias)
                values += [
                    ("username", account.username), ("name", account.name), ("display name", account.displayName), ("product account id", account.accountID),
                ]
                if let local = account.username.split(separator: "@").first { values.append(("username", String(local))) }
            }
            let registrations = world.registrations
            let leaks = registrations.compactMap { operation in
                operation.registration.flatMap { OpaqueHandle.leak(in: $0.userHandle, values: values) }.map { "\(StepSupport.cite(operation)): \($0)" }
            }
            return StepSupport.expect(
                !registrations.isEmpty && leaks.isEmpty, registrations.isEmpty ? "the app issued no registration request" : leaks.joined(separator: "; "))
        },
        StepDefinition("releasing the response stored a passkey for {string}") { world, arguments in
            guard let comparison = world.releaseComparison else { throw SystemIssue("no held response was released before this step") }
            let before = comparison.before[arguments[0]] ?? []
            let after = comparison.after[arguments[0]] ?? []
            let added = after.filter { new in !before.contains { $0.credentialID == new.credentialID } }
            let telemetry = world.host.snapshot.telemetry.map {
                "\($0.value.name) \($0.value.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
            }
            return StepSupport.expect(
                added.count == 1,
                "releasing the held response without a context change added \(added.count) passkey(s) to \(World.username(arguments[0])), expected 1"
                    + (telemetry.isEmpty ? "" : "; the app's telemetry: " + telemetry.joined(separator: "; ")))
        },
    ]
}
