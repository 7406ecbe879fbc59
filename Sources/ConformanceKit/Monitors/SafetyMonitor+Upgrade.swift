import Foundation
import WebAuthn

/// The monitors of N2.6 (automatic passkey upgrade): what no registration request may ever do.
extension SafetyMonitor {
    static let requestOnlyAfterCompleteSignIn = SafetyMonitor(
        "request-only-after-complete-sign-in", items: ["N2.6-AC01.V1", "N2.6-AC01.V2", "N2.6-AC01.V3", "N2.6-AC01.V5", "N2.6-AC01.V7"],
        statement:
            "A conditional registration request follows only a sign-in that completed the account's whole policy with a password: never a pending, wrong or expired second factor, a recovery, a non-password sign-in or a sign-out.",
        judge: .request { operation, view, context in
            guard view.conditional else { return nil }
            guard let (_, event) = context.signIn else {
                return Breach("\(StepSupport.cite(operation)) is a conditional registration request before any sign-in")
            }
            guard !event.qualifying, event.item.criterion == "N2.6-AC01" else { return nil }
            return Breach(item: event.item, "\(StepSupport.cite(operation)) is a conditional registration request after \(event.text)")
        })

    static let requestForSignedInAccount = SafetyMonitor(
        "request-for-signed-in-account", items: ["N2.6-AC03.V1", "N2.6-AC03.V2"],
        statement:
            "A registration request names the account whose sign-in led to it and carries that account's WebAuthn user handle, never another account's.",
        judge: .request { operation, view, context in
            guard let (_, event) = context.signIn, event.qualifying, let username = event.username, let account = context.account(username: username)
            else { return nil }
            let names = Set([username] + context.records(of: username).map(\.name))
            guard !names.contains(view.userName) || view.userHandle != account.userHandle else { return nil }
            let item: VerifyItemID = view.userHandle != account.userHandle && context.account(handle: view.userHandle) == nil ? "N2.6-AC03.V2" : "N2.6-AC03.V1"
            return Breach(
                item: item,
                "\(StepSupport.cite(operation)) names \(view.userName) with \(view.userHandle == account.userHandle ? "the user handle of" : "a user handle not of") \(username), who had just signed in"
            )
        })

    static let requestExcludesKnownPasskeys = SafetyMonitor(
        "request-excludes-known-passkeys", items: ["N2.6-AC04.V3"],
        statement:
            "A registration request, on a platform with an exclusion list, excludes every passkey the server holds active for its account and no other account's.",
        judge: .request { operation, view, context in
            guard context.target.has(.exclusionList), let (_, event) = context.signIn, event.qualifying, let username = event.username,
                let active = context.activeIDs(of: username).first
            else { return nil }
            let excluded = Set(view.excludedCredentials ?? [])
            let own = Set(context.records(of: username).flatMap(\.credentials).map(\.credentialID))
            guard !active.isSubset(of: excluded) || !excluded.isSubset(of: own) else { return nil }
            return Breach(
                "\(StepSupport.cite(operation)) excludes \(excluded.count) id(s); the server holds \(active.count) active passkey(s) of \(username), "
                    + "\(active.subtracting(excluded).count) missing, \(excluded.subtracting(own).count) not \(username)'s")
        })

    static let oneRequestPerQualifyingSignIn = SafetyMonitor(
        "one-request-per-qualifying-sign-in", items: ["N2.6-AC05.V7"],
        statement:
            "At most one conditional registration request follows each qualifying sign-in; none follows a passkey sign-in, and no later event (a refresh, a relaunch, time passing) brings another.",
        judge: .request { operation, view, context in
            guard view.conditional, let (_, event) = context.signIn else { return nil }
            if event.qualifying, event.requests > 1 {
                return Breach("\(StepSupport.cite(operation)) is conditional request \(event.requests) after \(event.text)")
            }
            guard !event.qualifying, event.item.criterion == "N2.6-AC05" else { return nil }
            return Breach(item: event.item, "\(StepSupport.cite(operation)) is a conditional registration request after \(event.text)")
        })

    static let failureRecordedUnderItsClass = SafetyMonitor(
        "failure-recorded-under-its-class", items: ["N2.6-AC05.V6"],
        statement:
            "Once the app has nothing left scheduled, every conditional registration request the platform failed with a class other than the expected no-op has a telemetry record after it that names the class, in any of the platform's spellings: never swallowed as ineligibility.",
        judge: .settled { context in
            for operation in context.operations where operation.kind == .create && operation.status == .delivered {
                guard operation.registration?.conditional == true, let error = operation.outcome.error, let failure = World.failureClass(of: error),
                    failure.handling == .recorded
                else { continue }
                let recorded = context.telemetry.filter { $0.sequence > operation.sequence }
                guard !recorded.contains(where: { World.names($0.value, failure.telemetrySpellings) }) else { continue }
                return Breach(
                    "\(StepSupport.cite(operation)) failed with \(failure.id); no telemetry record after it names the class (\(recorded.isEmpty ? "the app recorded nothing" : "\(recorded.count) record(s), none naming it"))"
                )
            }
            return nil
        })

    static let noModalSheetAfterDeclinedUpgrade = SafetyMonitor(
        "no-modal-sheet-after-declined-upgrade", items: ["N2.6-AC05.V8"],
        statement:
            "After a conditional registration request failed or was declined, the app opens no modal creation sheet on its own: only a creation the user asks for.",
        judge: .request { operation, view, context in
            guard !view.conditional, let declined = context.history.declinedConditional, declined.sequence < operation.sequence else { return nil }
            if case .createPasskey = context.history.acting { return nil }
            let cause = context.history.acting.map { "while the app handled the user's \($0.kind.rawValue)" } ?? "from a timer of its own"
            return Breach("\(StepSupport.cite(operation)) is a modal registration request \(cause), after \(StepSupport.cite(declined)) failed or was declined")
        })

    static let upWaivedOnlyForConditional = SafetyMonitor(
        "up-waived-only-for-conditional", items: ["N2.6-X02.X02"],
        statement:
            "A registration answered without user presence is stored only when it answered a conditional registration request: never one the app asked for with modal (explicit) creation options.",
        judge: .state { context in
            for (id, operation) in context.history.unpresentModalResponses.sorted(by: { $0.value.sequence < $1.value.sequence }) {
                // Stored means accepted for sign-in, as X02's own scenario counts: an inactive record
                // kept of a refused registration (for audit, F-store) accepts nothing.
                guard let holder = context.after.accounts.first(where: { $0.credentials.contains { $0.credentialID == id && $0.state == .active } })
                else { continue }
                return Breach(
                    "the server stores \(Base64URL.encode(id)) for \(holder.username): the answer (\(operation.response?.flagsText ?? "?")) to "
                        + "\(StepSupport.cite(operation)), a modal registration request, whose options demand user presence")
            }
            return nil
        })

    static let noStaleCredentialStored = SafetyMonitor(
        "no-stale-credential-stored", items: ["N2.6-AC06.V1", "N2.6-AC06.V2", "N2.6-AC06.V3"],
        statement:
            "A registration response the app received after a sign-out, an account switch or a new sign-in that followed its request is never stored for any account, whenever and however it is uploaded.",
        judge: .state { context in
            for (id, stale) in context.history.staleResponses.sorted(by: { $0.value.operation.sequence < $1.value.operation.sequence }) {
                guard let holder = context.after.accounts.first(where: { $0.credentials.contains { $0.credentialID == id } }) else { continue }
                return Breach(
                    item: stale.item,
                    "the server stores \(Base64URL.encode(id)) for \(holder.username): the response to \(StepSupport.cite(stale.operation)), which came after a context change"
                )
            }
            return nil
        })
}
