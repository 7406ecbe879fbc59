import Foundation

/// The invariants of N2.6 (automatic passkey upgrade), each with its check.
extension ExploreInvariant {
    static let qualifyingSignInGetsARequest = ExploreInvariant(
        "qualifying-sign-in-gets-a-request", criterion: "N2.6-AC05", items: ["N2.6-AC05.V1"],
        statement:
            "A sign-in that completed the policy with a password, on a device with the conditional interface, is followed by a registration request before any further user action, whatever passkeys the account already has.",
        thenSteps: { _ in (1...4).map(exactlyIssued) + ["the registration request followed the sign-in promptly"] },
        check: .obligation { facts, record in
            // A user action: every earlier sign-in that owed a request must have had it by now.
            let events = record.events
            guard
                let owed = events.indices.first(where: {
                    events[$0].owesRequest && events[$0].step < facts.index && record.requestsPerEvent[$0, default: 0] == 0
                })
            else { return nil }
            let event = events[owed]
            return Breach(
                "the sign-in of \(event.username) at step \(event.step + 1) completed its policy with a password; no registration request followed it before step \(facts.index + 1), a further user action"
            )
        })

    static let requestIsConditional = ExploreInvariant(
        "request-is-conditional", criterion: "N2.6-AC02", items: ["N2.6-AC02.V1", "N2.6-AC02.V2"],
        statement: "Every registration request the app issues on its own is conditional (Apple's conditional request style, Android's isConditional).",
        thenSteps: { _ in
            // Where the device lacks the conditional interface, a conforming app issues no request at all.
            [
                "every registration request is conditional", "the app made no call the platform does not support",
                "no passkey registration request has been issued",
            ]
        },
        check: .registrationRequest { request, facts, _ in
            if request.operation.notes.contains(where: { $0.kind == .unsupportedCall }) {
                return Breach("\(request.cite) called a registration interface the device does not have")
            }
            guard let view = request.view, !view.conditional else { return nil }
            return Breach(
                item: facts.target.platform == .android ? "N2.6-AC02.V2" : "N2.6-AC02.V1",
                "\(request.cite) is a modal registration request; the app issues only conditional ones on its own")
        })

    static let upgradeOnlyAfterCompleteSignIn = ExploreInvariant(
        "upgrade-only-after-complete-sign-in", criterion: "N2.6-AC01", items: ["N2.6-AC01.V1", "N2.6-AC01.V2", "N2.6-AC01.V3", "N2.6-AC01.V5", "N2.6-AC01.V7"],
        statement:
            "A conditional registration request follows a sign-in that completed the account's whole policy with a password; none follows a pending second factor, a failed one, a recovery or a non-password sign-in.",
        thenSteps: { _ in ["no passkey registration request has been issued"] + (0...4).map(exactlyIssued) },
        check: .registrationRequest { request, _, _ in
            guard request.view != nil else { return nil }
            guard let event = request.event else { return Breach("\(request.cite) came before any sign-in") }
            guard !event.qualifying, event.item.criterion != "N2.6-AC05" else { return nil }
            return Breach(
                item: event.item, "\(request.cite) followed step \(event.step + 1), a sign-in that did not complete the policy with a password")
        })

    static let oneRequestPerQualifyingSignIn = ExploreInvariant(
        "one-request-per-qualifying-sign-in", criterion: "N2.6-AC05", items: ["N2.6-AC05.V1", "N2.6-AC05.V7"],
        statement:
            "At most one conditional registration request per qualifying sign-in, issued before any further user action and within the credential manager's recent-autofill window (the bound of \"promptly\"); no retry on a later event.",
        thenSteps: { _ in
            (0...4).map(exactlyIssued) + ["the registration request followed the sign-in promptly", "no passkey registration request has been issued"]
        },
        check: .registrationRequest { request, facts, record in
            guard request.view != nil, let event = request.event, let eventIndex = request.eventIndex else { return nil }
            guard event.qualifying else {
                // A passkey sign-in does not qualify (N2.6-AC05.V7); the other sign-ins are N2.6-AC01's.
                return event.item.criterion == "N2.6-AC05"
                    ? Breach(item: event.item, "\(request.cite) followed a passkey sign-in (step \(event.step + 1)), which does not qualify") : nil
            }
            let index = facts.index
            let count = record.requestsPerEvent[eventIndex, default: 0]
            if count > 1 {
                let later = index != event.step
                return Breach(
                    item: later ? "N2.6-AC05.V7" : "N2.6-AC05.V1",
                    "\(request.cite) is registration request \(count) for the sign-in of \(event.username) at step \(event.step + 1)"
                        + (later ? ", issued at step \(index + 1)" : ""))
            }
            let delay = request.operation.issuedAtMillis - event.atMillis
            let window = facts.snapshot.provider.autofillWindowMillis
            guard record.userActionSteps.contains(where: { $0 > event.step && $0 <= index }) || delay > window else { return nil }
            return Breach(
                "\(request.cite) for the sign-in at step \(event.step + 1) came only at step \(index + 1), \(delay / 1000) s later"
                    + (delay > window ? ", past the credential manager's autofill window of \(window / 1000) s" : ""))
        })

    static let requestForSignedInAccount = ExploreInvariant(
        "request-for-signed-in-account", criterion: "N2.6-AC03", items: ["N2.6-AC03.V1"],
        statement: "A registration request names the account whose sign-in led to it and carries that account's WebAuthn user handle.",
        thenSteps: { aliases in
            aliases.flatMap {
                [
                    "the last registration request names \"\($0)\" and no other account",
                    "the last registration request carries the WebAuthn user handle of \"\($0)\"",
                ]
            }
        },
        check: .registrationRequest { request, facts, _ in
            guard let view = request.view, let event = request.event, let account = facts.account(username: event.username) else { return nil }
            guard !facts.names(account.username).contains(view.userName) || view.userHandle != account.userHandle else { return nil }
            return Breach(
                "\(request.cite) names \(view.userName) (user handle \(view.userHandle == account.userHandle ? "of" : "not of") \(account.username)); the sign-in at step \(event.step + 1) was \(account.username)'s"
            )
        })

    static let requestExcludesKnownPasskeys = ExploreInvariant(
        "request-excludes-known-passkeys", criterion: "N2.6-AC04", items: ["N2.6-AC04.V3"],
        statement: "A registration request excludes every passkey the server holds active for its account, and none of another account's.",
        thenSteps: { aliases in aliases.map { "the registration request excludes exactly the passkeys the server holds for \"\($0)\"" } },
        check: .registrationRequest { request, facts, _ in
            guard facts.target.has(.exclusionList), let view = request.view, let event = request.event, let account = facts.account(username: event.username)
            else { return nil }
            let before = facts.accountBefore(username: event.username)
            let excluded = Set(view.excludedCredentials ?? [])
            let active = Set((before ?? account).credentials.filter { $0.state == .active }.map(\.credentialID))
            let own = Set(((before?.credentials ?? []) + account.credentials).map(\.credentialID))
            guard !active.isSubset(of: excluded) || !excluded.isSubset(of: own) else { return nil }
            return Breach(
                "\(request.cite) excludes \(excluded.count) id(s); the server holds \(active.count) active passkey(s) of \(account.username), "
                    + "\(active.subtracting(excluded).count) missing, \(excluded.subtracting(own).count) not \(account.username)'s")
        })
}
