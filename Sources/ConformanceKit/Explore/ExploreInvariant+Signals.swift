import Foundation
import WebAuthn

/// The invariants of N3.2 (the Signal API), each with its check.
extension ExploreInvariant {
    static let noUnavailableInterface = ExploreInvariant(
        "no-unavailable-interface", criterion: "N3.2-AC01", items: ["N3.2-AC01.V2"],
        statement: "The app calls no platform interface the device does not have.",
        thenSteps: { _ in ["the app made no call the platform does not support"] },
        check: .signal { operation, _ in
            guard operation.notes.contains(where: { $0.kind == .unsupportedCall }) else { return nil }
            return Breach("\(StepSupport.cite(operation)) called a signal interface the device does not have")
        })

    static let signalIDsExact = ExploreInvariant(
        "signal-ids-exact", criterion: "N3.2-AC09", items: ["N3.2-AC09.V2", "N3.2-AC09.V1", "N3.2-AC09.V3", "N3.2-AC09.V4"],
        statement:
            "Every signal carries user handles and credential ids as the exact values the server holds (the id presented, for an unknown credential), in the platform's representation: raw bytes in Apple's report arguments, unpadded base64url strings and an array of them in Android's request JSON; never a product account id as the user handle.",
        thenSteps: { aliases in
            [StepLibrary.exactRepresentationStep.pattern.source, "no signal carries a product account id as its user handle"]
                + aliases.map { "every signal carries the user handle and passkey ids of \"\($0)\" exactly" }
        },
        check: .signal { operation, facts in
            guard let request = operation.signalRequest, let exact = facts.exactValues,
                let problem = InvariantMonitor.representationProblem(request, exact: exact)
            else { return nil }
            return Breach(item: problem.item, "\(StepSupport.cite(operation)): \(problem.message)")
        })

    static let unknownOnlyForUnknownIDs = ExploreInvariant(
        "unknown-only-for-unknown-ids", criterion: "N3.2-AC02", items: ["N3.2-AC02.V2", "N3.2-AC02.V4", "N3.2-AC02.V7"],
        statement: "No unknown-credential signal names a credential id the server holds, active or revoked.",
        thenSteps: { _ in ["no unknown-credential signal has been sent"] },
        check: .signal { operation, facts in
            guard let signal = operation.signal, signal.kind == .unknownCredential, let id = signal.credentialID else { return nil }
            let heldBefore = facts.before.values.contains { $0.credentials.contains { $0.credentialID == id } }
            let heldAfter = facts.after.values.contains { $0.credentials.contains { $0.credentialID == id } }
            guard heldBefore, heldAfter else { return nil }
            let item: VerifyItemID =
                switch facts.step {
                case .passkeySignIn(.invalidSignature): "N3.2-AC02.V4"
                case .cancelPasskeySignIn: "N3.2-AC02.V7"
                default: "N3.2-AC02.V2"
                }
            return Breach(item: item, "\(StepSupport.cite(operation)) reports \(Base64URL.encode(id)) as unknown; the server holds it")
        })

    static let signalsOnlyWhileSignedIn = ExploreInvariant(
        "signals-only-while-signed-in", criterion: "N3.2-AC03", items: ["N3.2-AC03.V5"],
        statement:
            "An accepted-credentials or user-details signal leaves only while its account is signed in, before or after the step that sent it (the safety monitor of the same name, at the step's grain).",
        thenSteps: { _ in ["no signal left for an account that was not signed in"] },
        check: .signal { operation, facts in
            guard let signal = operation.signal, signal.kind == .allAcceptedCredentials || signal.kind == .currentUserDetails,
                let handle = signal.userHandle, let account = facts.account(handle: handle) ?? facts.before.values.first(where: { $0.userHandle == handle })
            else { return nil }
            let signedIn = facts.sessions.contains { $0.hasSignedIn(account.username) }
            guard !signedIn, !facts.sessions.isEmpty else { return nil }
            return Breach("\(StepSupport.cite(operation)) sends the \(signal.kind.rawValue) signal of \(account.username) while it is not signed in")
        })

    static let acceptedListIsServerList = ExploreInvariant(
        "accepted-list-is-server-list", criterion: "N3.2-AC04", items: ["N3.2-AC04.V6"],
        statement:
            "Every accepted-credentials signal lists exactly the passkeys the server holds active for the account when it is sent (never partial, never accidentally empty).",
        thenSteps: { aliases in
            aliases.flatMap {
                [
                    "every accepted-credentials signal for \"\($0)\" lists exactly the server's accepted passkeys",
                    "the last accepted-credentials signal for \"\($0)\" lists exactly the server's accepted passkeys",
                ]
            }
        },
        check: .signal { operation, facts in
            guard let signal = operation.signal, signal.kind == .allAcceptedCredentials, let handle = signal.userHandle,
                let account = facts.account(handle: handle)
            else { return nil }
            let sent = Set(signal.acceptedCredentialIDs ?? [])
            let activeAfter = Set(account.credentials.filter { $0.state == .active }.map(\.credentialID))
            let activeBefore = Set((facts.accountBefore(username: account.username)?.credentials ?? []).filter { $0.state == .active }.map(\.credentialID))
            guard sent != activeAfter && sent != activeBefore else { return nil }
            return Breach(
                "\(StepSupport.cite(operation)) lists \(sent.count) id(s) for \(account.username); the server holds \(activeAfter.count) active, \(sent.subtracting(activeAfter).count) of the listed not among them"
            )
        })

    static let signalNamesAccountRPID = ExploreInvariant(
        "signal-names-account-rp-id", criterion: "N3.2-AC07", items: ["N3.2-AC07.V1"],
        statement: "Every signal names the RP ID of the account or credential it is about.",
        thenSteps: { _ in ["every signal names the RP ID of its account"] },
        check: .signal { operation, facts in
            guard let signal = operation.signal else { return nil }
            let expected: String? =
                if let id = signal.credentialID {
                    facts.snapshot.provider.passkeys.first { $0.credentialID == id }?.rpID
                } else if let handle = signal.userHandle {
                    facts.account(handle: handle)?.rpID
                } else {
                    nil
                }
            guard let expected, signal.rpID != expected else { return nil }
            return Breach("\(StepSupport.cite(operation)) names the RP ID \(signal.rpID); its account's is \(expected)")
        })

    static let androidRateWindow = ExploreInvariant(
        "android-rate-window", criterion: "N3.2-AC05", items: ["N3.2-AC05.V1"],
        statement: "At most \(SignalRateWindow.android.limit) Android signal calls in any \(SignalRateWindow.android.seconds)-second window.",
        thenSteps: { _ in [SignalRateWindow.android.stepSentence] },
        check: .signalCalls { facts, record in
            let window = SignalRateWindow.android
            let android = facts.snapshot.operations.filter { $0.kind == .signal && $0.signalRequest?.platform == .android }
            guard let excess = window.firstExcess(android, time: \.issuedAtMillis, together: record.sameRun), let first = excess.first else { return nil }
            return Breach("\(excess.count) Android signal calls from \(first.issuedAtMillis) ms within \(window.seconds) s")
        })

    static let retryAfterRetryMillis = ExploreInvariant(
        "retry-after-retry-millis", criterion: "N3.2-AC05", items: ["N3.2-AC05.V2"],
        statement: "After a rate-limited signal, the same signal is not sent again before retryMillis has passed; other signals may go on.",
        thenSteps: { _ in ["every rate-limited signal was retried no earlier than the platform asked"] },
        check: .signalCalls { facts, record in
            let calls = facts.snapshot.operations.filter { $0.kind == .signal }
            for (position, call) in calls.enumerated() {
                guard let retry = call.outcome.error?.retryMillis else { continue }
                // Only the refused request waits (freedoms.md F-sequence): the same kind, RP ID and subject.
                func same(_ other: PlatformOperation) -> Bool {
                    guard let refused = call.signal, let next = other.signal else { return false }
                    return refused.kind == next.kind && refused.rpID == next.rpID && refused.userHandle == next.userHandle
                        && refused.credentialID == next.credentialID
                }
                if let early = calls[(position + 1)...].first(where: { $0.issuedAtMillis < call.issuedAtMillis + retry && record.sameRun(call, $0) && same($0) }
                ) {
                    return Breach(
                        "\(StepSupport.cite(call)) was rate limited for \(retry / 1000) s; \(StepSupport.cite(early)) came \((call.issuedAtMillis + retry - early.issuedAtMillis) / 1000) s too early"
                    )
                }
            }
            return nil
        })
}
