import Foundation
import WebAuthn

/// The monitors of N3.2 (the Signal API): what no signal may ever do.
extension SafetyMonitor {
    static let noUnavailableSignalInterface = SafetyMonitor(
        "no-unavailable-signal-interface", items: ["N3.2-AC01.V2"],
        statement: "The app calls no signal interface the device does not have.",
        judge: .signal { operation, _, _ in
            guard operation.notes.contains(where: { $0.kind == .unsupportedCall }) else { return nil }
            return Breach("\(StepSupport.cite(operation)) called a signal interface the device does not have")
        })

    static let unknownOnlyForUnknownIDs = SafetyMonitor(
        "unknown-only-for-unknown-ids", items: ["N3.2-AC02.V2"],
        statement:
            "An unknown-credential signal names only an id the server does not hold, active or revoked, before or after the call that sent it.",
        judge: .signal { operation, signal, context in
            guard signal.kind == .unknownCredential, let id = signal.credentialID else { return nil }
            let holders = context.moments.map { moment in moment.accounts.first { $0.credentials.contains { $0.credentialID == id } } }
            guard !holders.isEmpty, holders.allSatisfy({ $0 != nil }), let holder = holders.last ?? nil else { return nil }
            return Breach("\(StepSupport.cite(operation)) reports \(Base64URL.encode(id)) as unknown; the server holds it for \(holder.username)")
        })

    static let signalsOnlyWhileSignedIn = SafetyMonitor(
        "signals-only-while-signed-in", items: ["N3.2-AC03.V5", "N3.2-AC02.V2"],
        statement:
            "An accepted-credentials or user-details signal leaves only while its account is signed in: the app's session names that account just before or just after the call that sent it.",
        judge: .signal { operation, signal, context in
            guard signal.kind == .allAcceptedCredentials || signal.kind == .currentUserDetails, let handle = signal.userHandle,
                let account = context.account(handle: handle)
            else { return nil }
            guard !context.moments.contains(where: { $0.isSignedIn(account.username) }) else { return nil }
            return Breach(
                "\(StepSupport.cite(operation)) sends \(signal.kind == .allAcceptedCredentials ? "the accepted list" : "the user details") of \(account.username) while \(context.after.sessionText)"
            )
        })

    static let acceptedListIsServerList = SafetyMonitor(
        "accepted-list-is-server-list", items: ["N3.2-AC04.V4", "N3.2-AC04.V1", "N3.2-AC04.V2", "N3.2-AC04.V3"],
        statement:
            "An accepted-credentials signal lists exactly the passkeys the server holds active for the account of its user handle, as they were just before or just after the call that sent it: never a partial, stale or accidentally empty list, never another account's ids.",
        judge: .signal { operation, signal, context in
            guard signal.kind == .allAcceptedCredentials, let handle = signal.userHandle, let sent = signal.acceptedCredentialIDs,
                let account = context.account(handle: handle)
            else { return nil }
            let listed = Set(sent)
            let held = context.activeIDs(of: account.username)
            guard !held.contains(listed), let now = held.last else { return nil }
            let foreign = context.after.accounts.filter { $0.username != account.username && !Set($0.credentials.map(\.credentialID)).isDisjoint(with: listed) }
            return Breach(
                "\(StepSupport.cite(operation)) lists \(listed.count) id(s) for \(account.username); the server holds \(now.count) active, "
                    + "\(now.subtracting(listed).count) of them missing and \(listed.subtracting(now).count) listed that are not"
                    + (foreign.isEmpty ? "" : " (ids of \(foreign.map(\.username).joined(separator: ", ")))"))
        })

    static let androidRateWindow = SafetyMonitor(
        "android-rate-window", items: ["N3.2-AC05.V1", "N3.2-AC05.V4"],
        statement:
            "At most \(SignalRateWindow.android.limit) Android signal calls in any \(SignalRateWindow.android.seconds)-second window, every signal type and every RP ID counted together.",
        judge: .signal { operation, _, context in
            guard operation.signalRequest?.platform == .android else { return nil }
            let window = SignalRateWindow.android
            let android = context.operations.filter {
                $0.kind == .signal && $0.signalRequest?.platform == .android && $0.issuedAtMillis > operation.issuedAtMillis - window.windowMillis
                    && context.history.sameRun($0, operation)
            }
            guard android.count > window.limit, let first = android.first else { return nil }
            let kinds = Set(android.compactMap { $0.signal?.kind.rawValue }).sorted().joined(separator: ", ")
            let rpIDs = Set(android.compactMap { $0.signal?.rpID }).sorted().joined(separator: ", ")
            return Breach(
                "\(StepSupport.cite(operation)) is Android signal call \(android.count) since \(first.issuedAtMillis) ms, within \(window.seconds) s (\(kinds); \(rpIDs))"
            )
        })

    static let retryNotBeforeRetryMillis = SafetyMonitor(
        "retry-not-before-retry-millis", items: ["N3.2-AC05.V2"],
        statement:
            "After the platform refused a signal with retryMillis, the same signal (kind, RP ID and account or credential) is not sent again before that time has passed; other signals may go on.",
        judge: .signal { operation, signal, context in
            for earlier in context.operations.reversed() where earlier.sequence < operation.sequence && earlier.kind == .signal {
                guard let retry = earlier.outcome.error?.retryMillis, let refused = earlier.signal, refused.kind == signal.kind,
                    refused.rpID == signal.rpID, refused.userHandle == signal.userHandle, refused.credentialID == signal.credentialID,
                    context.history.sameRun(earlier, operation), operation.issuedAtMillis < earlier.issuedAtMillis + retry
                else { continue }
                return Breach(
                    "\(StepSupport.cite(operation)) repeats \(StepSupport.cite(earlier)), refused with retryMillis \(retry), \(earlier.issuedAtMillis + retry - operation.issuedAtMillis) ms early"
                )
            }
            return nil
        })

    static let signalNamesAccountRPID = SafetyMonitor(
        "signal-names-account-rp-id", items: ["N3.2-AC07.V1"],
        statement: "Every signal names the RP ID of the credential or account it is about, never an origin or a host alias.",
        judge: .signal { operation, signal, context in
            let expected: String? =
                if let id = signal.credentialID {
                    context.providerPasskeys.first { $0.credentialID == id }?.rpID
                        ?? context.moments.lazy.compactMap { moment in moment.accounts.first { $0.credentials.contains { $0.credentialID == id } }?.rpID }.first
                } else if let handle = signal.userHandle {
                    context.account(handle: handle)?.rpID
                } else {
                    nil
                }
            guard let expected, signal.rpID != expected else { return nil }
            return Breach(
                "\(StepSupport.cite(operation)) names the RP ID \(signal.rpID); its \(signal.credentialID == nil ? "account" : "credential")'s is \(expected)")
        })

    static let signalIDsExact = SafetyMonitor(
        "signal-ids-exact", items: ["N3.2-AC09.V4", "N3.2-AC09.V1", "N3.2-AC09.V2", "N3.2-AC09.V3"],
        statement:
            "Every signal carries user handles and credential ids as the exact values the server holds, in the platform's representation; never a product account id as the user handle.",
        judge: .signal { operation, _, context in
            guard let request = operation.signalRequest else { return nil }
            let exact = InvariantMonitor.ExactValues(
                accounts: context.moments.flatMap(\.accounts), providerIDs: context.providerPasskeys.map(\.credentialID))
            guard let problem = InvariantMonitor.representationProblem(request, exact: exact) else { return nil }
            return Breach(item: problem.item, "\(StepSupport.cite(operation)): \(problem.message)")
        })

    static let userDetailsAreServerDetails = SafetyMonitor(
        "user-details-are-server-details", items: ["N3.2-AC10.V3"],
        statement:
            "A user-details signal carries the name (and, where the platform takes one, the display name) the server holds for the account just before or just after the call that sent it: never a rename the server has not confirmed.",
        judge: .signal { operation, signal, context in
            guard signal.kind == .currentUserDetails, let handle = signal.userHandle, let account = context.account(handle: handle) else { return nil }
            let records = context.records(of: account.username)
            let nameHeld = signal.name.map { name in records.contains { $0.name == name || $0.username == name } } ?? true
            let displayHeld = signal.displayName.map { display in records.contains { $0.displayName == display } } ?? true
            guard !nameHeld || !displayHeld else { return nil }
            return Breach(
                "\(StepSupport.cite(operation)) carries the name \"\(signal.name ?? "-")\"\(signal.displayName.map { " and the display name \"\($0)\"" } ?? ""); the server holds \"\(account.name)\" and \"\(account.displayName)\" for \(account.username)"
            )
        })

    static let noProviderClaim = SafetyMonitor(
        "no-provider-claim", items: ["N3.2-AC08.V2", "N3.2-AC08.V1"],
        statement:
            "Nothing the app shows because of its signals claims that a credential manager updated, hid, removed or restored a passkey, at any moment: a text the harness's reader of English reads as such a claim fails when the same test case, replayed where the platform offers no signal interface, does not show it.",
        judge: .shown(
            Attributed(
                change: .noSignalInterface, applies: { $0.has(.signals) }, picks: { ProviderClaim.claims($0.text) },
                breach: { event in
                    Breach(
                        "#\(event.sequence) \(event.value.kind.rawValue) \"\(event.value.text)\" claims a provider-side result (the harness reads \""
                            + (ProviderClaim.claim(in: event.value.text) ?? event.value.text)
                            + "\" so), and it is shown only because the app signals: not shown \(World.Counterfactual.noSignalInterface.phrase)")
                })))
}
