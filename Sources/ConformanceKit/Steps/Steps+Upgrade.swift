import Foundation
import WebAuthn

extension World {
    /// The failure class of a platform error: the catalogue's, or one built from the error itself.
    static func failureClass(of error: PlatformError) -> CreateFailureClass? {
        CreateFailureClass.all.first { $0.error.name == error.name && $0.error.type == error.type && $0.error.code == error.code }
    }

    /// Whether a telemetry record names a failure class in one of its spellings: every value of one
    /// spelling among the record's attribute values, each compared whole; or one attribute value that
    /// holds every value of a spelling as a whole token, whatever else it says, as a platform's own
    /// `toString()` or `description` writes a failure
    /// (`androidx.credentials.exceptions.CreateCredentialUnsupportedException: …`,
    /// `Error Domain=com.apple.AuthenticationServices.AuthorizationError Code=1004 "(null)"`).
    /// Inside longer text a spelling counts only when it is an identifier of its own (qualified, a
    /// type constant, an exception or error type): a bare case name ("unknown") or a bare code
    /// ("1004") is ordinary text there, and names the class only as a whole value.
    static func names(_ event: TelemetryEvent, _ spellings: [[String]]) -> Bool {
        let values = event.attributes.values.map { $0.trimmingCharacters(in: .whitespaces) }
        let whole = Set(values)
        return spellings.contains { spelling in
            guard !spelling.isEmpty else { return false }
            if spelling.allSatisfy(whole.contains) { return true }
            guard spelling.contains(where: isIdentifierOfItsOwn) else { return false }
            return values.contains { value in spelling.allSatisfy { containsToken(value, $0) } }
        }
    }

    /// A spelling that cannot be ordinary text: qualified (`a.b`), a constant (`A_B`), or a type name
    /// ending in `Exception` or `Error`.
    private static func isIdentifierOfItsOwn(_ spelling: String) -> Bool {
        spelling.contains(".") || spelling.contains("_") || spelling.hasSuffix("Exception") || spelling.hasSuffix("Error")
    }

    /// Whether `token` occurs in `text` with no letter, digit or underscore just before or after it.
    private static func containsToken(_ text: String, _ token: String) -> Bool {
        guard !token.isEmpty else { return false }
        let isWordCharacter = { (character: Character) in character.isLetter || character.isNumber || character == "_" }
        var searchStart = text.startIndex
        while let found = text.range(of: token, range: searchStart..<text.endIndex) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if !(before.map(isWordCharacter) ?? false) && !(after.map(isWordCharacter) ?? false) { return true }
            searchStart = text.index(after: found.lowerBound)
        }
        return false
    }
}

extension World {
    /// Passes when nothing the app showed after `failed` came back (at transcript entry `delivered`)
    /// was shown only because it came back without a passkey, or the reader excuses it as no error
    /// (N2.6-AC05.V2, V6: the expected no-create stays silent).
    func noErrorShown(after failed: PlatformOperation, delivered: Int) async throws -> StepOutcome {
        let attribution = try await shownOnlyBecause(
            after: delivered, untilUserActs: true, unless: .conditionalAnswer(.create), excusing: UpgradeClaims.excusedAsNoError)
        let errors = attribution.events
        return StepSupport.expect(
            errors.isEmpty,
            "after \(StepSupport.cite(failed)) came back with \(failed.outcome.error?.name ?? "no passkey"), the app showed "
                + errors.map { event in
                    UpgradeClaims.quote(event) + (UpgradeClaims.isError(event.value) ? " (an error)" : " (a text the reader does not excuse as no error)")
                }.joined(separator: ", ") + ", shown only because the credential manager created no passkey (not shown "
                + (attribution.change?.phrase ?? "") + ") " + UpgradeClaims.reading)
    }

    /// Registration requests the app made on its own that put UI in front of the user: every modal
    /// request and every request the platform showed a sheet for, except those the user started
    /// (the last user action before the request chose passkey creation, as a nudge or a setting).
    func sheetsOpenedByTheApp() -> [PlatformOperation] {
        let snapshot = host.snapshot
        let actions = snapshot.transcript.filter { $0.channel == .harnessToRP && $0.name.hasPrefix("user.") && !$0.name.hasSuffix(".result") }
        var startedByUser: Set<Int> = []
        return snapshot.operations.filter { operation in
            guard operation.kind == .create,
                operation.registration?.conditional == false || operation.notes.contains(where: { $0.kind == .uiShown })
            else { return false }
            // One sheet per choice of the user: the first request after it.
            if let action = actions.last(where: { $0.sequence < operation.sequence }), action.name == "user.\(UserAction.Kind.createPasskey.rawValue)",
                !startedByUser.contains(action.sequence)
            {
                startedByUser.insert(action.sequence)
                return false
            }
            return true
        }
    }

    /// Passes when a telemetry record after the failed operation names its failure class exactly.
    func recordedUnderItsClass(_ failed: PlatformOperation) -> StepOutcome {
        guard let error = failed.outcome.error else { return .failed("\(StepSupport.cite(failed)) did not fail") }
        let spellings =
            World.failureClass(of: error)?.telemetrySpellings
            ?? ([[error.name]] + (error.type.map { [[$0]] } ?? []) + (error.code.map { [[String($0)]] } ?? []))
        let recorded = host.snapshot.telemetry.filter { $0.sequence > failed.sequence }
        let exact = recorded.filter { World.names($0.value, spellings) }
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

    /// The shortest form that counts when it appears inside a handle rather than as the whole
    /// handle: 6 bytes, which a random handle of up to 64 bytes contains by chance about once in
    /// 10^12. Shorter forms (a three-digit account id as text) count only as the whole handle.
    static let shortestEmbeddedForm = 6

    /// The binary forms of a value that is itself an identifier: a UUID's 16 bytes, a number's
    /// big-endian bytes (4 and 8 bytes, and the fewest that hold it).
    static func binaryForms(of value: String) -> [(form: String, bytes: Data)] {
        var forms: [(form: String, bytes: Data)] = []
        if let uuid = UUID(uuidString: value) { forms.append(("UUID bytes", withUnsafeBytes(of: uuid.uuid) { Data($0) })) }
        if value.count <= 18, value.allSatisfy(\.isASCII), let number = UInt64(value) {
            let eight = withUnsafeBytes(of: number.bigEndian) { Data($0) }
            forms.append(("8-byte big-endian number", eight))
            forms.append(("4-byte big-endian number", eight.suffix(4)))
            forms.append(("big-endian number", Data(eight.drop { $0 == 0 })))
        }
        return forms
    }

    /// What identifying value the handle carries, and in which form; `nil` when it carries none.
    ///
    /// Values are compared, never substrings of a reinterpretation: the handle is the value in one
    /// of its forms, or contains a form long enough that chance cannot put it there
    /// (`shortestEmbeddedForm`). A handle read as a UUID is compared with a value that is a UUID.
    static func leak(in handle: Data, values: [(label: String, value: String)]) -> String? {
        for (label, value) in values where value.count >= 3 {
            for (form, bytes) in forms(of: value) + binaryForms(of: value) where !bytes.isEmpty {
                if handle == bytes { return "the user handle is the \(label) \"\(value)\" in \(form)" }
                if bytes.count >= shortestEmbeddedForm, handle.range(of: bytes) != nil {
                    return "the user handle contains the \(label) \"\(value)\" in \(form)"
                }
            }
            if let uuid = uuidText(handle), let other = UUID(uuidString: value), uuid == other.uuidString.lowercased() {
                return "the user handle, read as a UUID, is the \(label) \"\(value)\""
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
            .failNextRegistration,
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
            _ = try await world.registrationsSinceTrigger()
            guard let failed = world.operationsSinceTrigger.first(where: { $0.kind == .create && $0.outcome.error != nil }) else {
                return .failed("no registration request failed after the trigger")
            }
            return world.recordedUnderItsClass(failed)
        },
        // Whatever the platform answered: silent for the expected no-op, recorded for every other class.
        StepDefinition("the app treated the failure as its class requires") { world, _ in
            _ = try await world.registrationsSinceTrigger()
            guard let failed = world.operationsSinceTrigger.first(where: { $0.kind == .create && $0.outcome.error != nil }), let error = failed.outcome.error
            else {
                return .failed("no registration request failed after the trigger")
            }
            guard let failure = World.failureClass(of: error), failure.handling == .silent else { return world.recordedUnderItsClass(failed) }
            guard failed.registration?.conditional == true, let delivered = world.deliverySequence(of: failed) else { return .passed }
            return try await world.noErrorShown(after: failed, delivered: delivered)
        },
        // N2.6-AC05.V8: a failed or declined conditional request stays silent, so the app opens no
        // modal creation sheet on its own, at once or later; the user may still choose creation.
        StepDefinition("the app opened no passkey creation sheet on its own") { world, _ in
            _ = try await world.registrationsSinceTrigger()
            let sheets = world.sheetsOpenedByTheApp()
            return StepSupport.expect(
                sheets.isEmpty,
                "the app opened a creation sheet the user did not ask for: "
                    + sheets.map { operation in
                        let failedBefore = world.registrations.last { $0.sequence < operation.sequence && $0.outcome.error != nil }
                        return "\(StepSupport.cite(operation)) \(operation.registration?.conditional == false ? "modal" : "conditional") request"
                            + (failedBefore.map { " after \(StepSupport.cite($0)) failed with \($0.outcome.error!.name)" } ?? "")
                    }.joined(separator: ", "))
        },
        StepDefinition(
            .alternativeSignIn, accounts: .uses(0), needs: [.alternativeSignIn],
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
        StepDefinition(.relaunch, needs: [.relaunch]) { world, _ in
            try await world.perform(.relaunch)
            return .passed
        },
        StepDefinition(.switchAccountTyped, accounts: .uses(0), needs: [.accountSwitch]) { world, arguments in
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
            _ = try await world.registrationsSinceTrigger()
            let registrations = world.registrations
            guard let last = registrations.last, let view = last.registration else { return .failed(world.noRegistrationMessage(readable: true)) }
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
            _ = try await world.registrationsSinceTrigger()
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
                !registrations.isEmpty && leaks.isEmpty, registrations.isEmpty ? world.noRegistrationMessage() : leaks.joined(separator: "; "))
        },
        StepDefinition("releasing the response stored a passkey for {string}") { world, arguments in
            guard let comparison = world.releaseComparison else { throw SystemIssue("no held response was released before this step") }
            let before = comparison.before[arguments[0]] ?? []
            let after = comparison.after[arguments[0]] ?? []
            let added = after.filter { new in !before.contains { $0.credentialID == new.credentialID } }
            let telemetry = world.host.snapshot.telemetry.map {
                "\($0.value.name) \($0.value.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
            }
            let message =
                "releasing the held response without a context change added \(added.count) passkey(s) to \(World.username(arguments[0])), expected 1"
                + (telemetry.isEmpty ? "" : "; the app's telemetry: " + telemetry.joined(separator: "; "))
            guard added.isEmpty else { return StepSupport.expect(added.count == 1, message) }
            // The control proves the release is live; a server that refuses the upgrade's UP=0
            // registration is N2.6-X01's fault, counted there (controls guard, they do not blame).
            return try await world.pointAtX01(alias: arguments[0], message)
        },
    ]
}
