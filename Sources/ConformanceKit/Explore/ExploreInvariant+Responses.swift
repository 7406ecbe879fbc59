import Foundation

/// The invariants of N2.6 about registration responses (what the app shows after one, and where
/// the passkey ends up), each with its check.
extension ExploreInvariant {
    static let noErrorAfterExpectedNoOp = ExploreInvariant(
        "no-error-after-expected-no-op", criterion: "N2.6-AC05", items: ["N2.6-AC05.V2"],
        statement: "When the credential manager answers with the expected no-op, the app shows no error.",
        thenSteps: { _ in ["the app showed no error"] },
        check: .step { facts, record in
            let errors = facts.snapshot.uiEvents[facts.uiMarker...].filter { UpgradeClaims.isError($0.value) }
            let operations = facts.snapshot.operations
            for position in operations.indices where operations[position].kind == .create && record.deliveryStep[operations[position].id] == facts.index {
                let operation = operations[position]
                // The upgrade's no-op: a creation the user asked for may fail with a message.
                guard operation.registration?.conditional == true, let error = operation.outcome.error, World.failureClass(of: error)?.handling == .silent
                else { continue }
                if let shown = errors.first(where: { $0.sequence > operation.sequence }) {
                    return Breach(
                        "\(StepSupport.cite(operation)) ended in the expected no-op \(error.name); the app showed #\(shown.sequence) \"\(shown.value.text)\"")
                }
            }
            return nil
        })

    static let noCredentialFromChangedContext = ExploreInvariant(
        "no-credential-from-changed-context", criterion: "N2.6-AC06", items: ["N2.6-AC06.V1", "N2.6-AC06.V2", "N2.6-AC06.V3"],
        statement:
            "A passkey is stored only for the account its options were issued to, and only if no sign-out, account switch or sign-in came between the request and its response.",
        thenSteps: { aliases in
            ["releasing the response changed no account's server credentials"] + aliases.flatMap { alias in (0...4).map { serverHolds($0, alias) } }
        },
        check: .step { facts, record in
            let index = facts.index
            let operations = facts.snapshot.operations
            // Passkeys bound from a changed context or to another account.
            for (alias, account) in facts.after {
                let known = facts.before[alias]?.credentials ?? []
                for credential in account.credentials where !known.contains(where: { $0.credentialID == credential.credentialID }) {
                    guard
                        let operation = operations.first(where: {
                            $0.kind == .create && $0.createdCredentialID == credential.credentialID
                        })
                    else { continue }
                    let cite = StepSupport.cite(operation)
                    if let view = operation.registration, !facts.names(account.username).contains(view.userName) {
                        return Breach(
                            item: "N2.6-AC06.V2", "\(cite) was issued for \(view.userName); its passkey was stored for \(account.username) at step \(index + 1)"
                        )
                    }
                    guard let issued = record.issueStep[operation.id] else { continue }
                    let delivered = record.deliveryStep[operation.id] ?? index
                    if let change = record.contextChanges.first(where: { $0.step > issued && $0.step < delivered }) {
                        return Breach(
                            item: change.item,
                            "\(cite) was issued at step \(issued + 1); step \(change.step + 1) changed the context before its response (step \(delivered + 1)); the passkey was stored for \(account.username) at step \(index + 1)"
                        )
                    }
                }
            }
            return nil
        })

    static let liveResponseIsStored = ExploreInvariant(
        "live-response-is-stored", criterion: "N2.6-AC06", items: ["N2.6-AC06.V4"],
        statement:
            "A successful registration response that reaches the app at the moment of its request (released at once, before any challenge lifetime), with no sign-out, account switch, sign-in or relaunch in between, is stored for the account that asked for it by the time the app has nothing left scheduled.",
        thenSteps: { aliases in
            aliases.map { "releasing the response stored a passkey for \"\($0)\"" } + aliases.flatMap { alias in (0...4).map { serverHolds($0, alias) } }
        },
        check: .step { facts, record in
            // Responses already stored are no longer noted (`InvariantMonitor.noteLiveResponses`).
            guard facts.snapshot.pendingTimers.isEmpty, let live = record.liveResponses.first else { return nil }
            return Breach(
                "\(StepSupport.cite(live.operation)) for \(live.username) was answered at step \(live.delivered + 1), "
                    + "\(live.afterMillis / 1000) s after the request, with no context change or relaunch in between; "
                    + "the app has nothing left scheduled and the server holds no passkey of it for \(live.username)")
        })

    static let upWaivedOnlyForConditional = ExploreInvariant(
        "up-waived-only-for-conditional", criterion: "N2.6-X02", items: ["N2.6-X02.X02"],
        statement:
            "A registration answered without user presence is stored only when it answered a conditional registration request, never a modal one.",
        thenSteps: { aliases in aliases.flatMap { alias in (0...4).map { serverHolds($0, alias) } } },
        check: .step { facts, _ in
            let known = Set(facts.before.values.flatMap(\.credentials).map(\.credentialID))
            for (_, account) in facts.after.sorted(by: { $0.key < $1.key }) {
                // Only a passkey the server accepts counts as stored (an inactive audit record does not).
                for credential in account.credentials where credential.state == .active && !known.contains(credential.credentialID) {
                    guard
                        let operation = facts.snapshot.operations.first(where: {
                            $0.kind == .create && $0.registration?.conditional == false && $0.createdCredentialID == credential.credentialID
                        }),
                        let flags = operation.response?.authenticatorData?.flags, !flags.contains(.userPresent)
                    else { continue }
                    return Breach(
                        "\(StepSupport.cite(operation)) was a modal registration request answered with \(operation.response?.flagsText ?? "?"); "
                            + "the server stored its passkey for \(account.username) at step \(facts.index + 1)")
                }
            }
            return nil
        })
}
