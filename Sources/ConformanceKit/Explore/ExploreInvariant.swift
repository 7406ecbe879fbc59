import Foundation

/// A property of the criteria that `explore` checks after every step of a random history.
///
/// Each names the criterion and the verify item it stands for; `Criteria/invariants.md` lists them
/// for auditors. An invariant is never stricter than its criterion: the reference RP and every
/// conforming design must break none (the explore self-test proves it).
public struct ExploreInvariant: Sendable, Hashable, Identifiable {
    /// The invariant's stable name, e.g. `upgrade-only-after-complete-sign-in`.
    public let id: String
    /// The criterion it checks, e.g. `N2.6-AC01`.
    public let criterion: String
    /// The verify item it stands for, e.g. `N2.6-AC01.V1`.
    public let item: String
    /// What must hold, in one sentence.
    public let statement: String

    /// Every invariant `explore` checks.
    public static let all: [ExploreInvariant] = [
        .init(
            id: "upgrade-only-after-complete-sign-in", criterion: "N2.6-AC01", item: "N2.6-AC01.V1",
            statement:
                "A conditional registration request follows a sign-in that completed the account's whole policy with a password; none follows a pending second factor, a failed one, a recovery or a non-password sign-in."
        ),
        .init(
            id: "request-is-conditional", criterion: "N2.6-AC02", item: "N2.6-AC02.V1",
            statement: "Every registration request the app issues on its own is conditional (Apple's conditional request style, Android's isConditional)."),
        .init(
            id: "request-for-signed-in-account", criterion: "N2.6-AC03", item: "N2.6-AC03.V1",
            statement: "A registration request names the account whose sign-in led to it and carries that account's WebAuthn user handle."),
        .init(
            id: "request-excludes-known-passkeys", criterion: "N2.6-AC04", item: "N2.6-AC04.V3",
            statement: "A registration request excludes every passkey the server holds active for its account, and none of another account's."),
        .init(
            id: "one-request-per-qualifying-sign-in", criterion: "N2.6-AC05", item: "N2.6-AC05.V1",
            statement:
                "At most one conditional registration request per qualifying sign-in, issued before any further user action and within 10 seconds (the harness's bound on \"promptly\"); no retry on a later event."
        ),
        .init(
            id: "qualifying-sign-in-gets-a-request", criterion: "N2.6-AC05", item: "N2.6-AC05.V1",
            statement:
                "A sign-in that completed the policy with a password, on a device with the conditional interface, is followed by a registration request before any further user action, whatever passkeys the account already has."
        ),
        .init(
            id: "no-error-after-expected-no-op", criterion: "N2.6-AC05", item: "N2.6-AC05.V2",
            statement: "When the credential manager answers with the expected no-op, the app shows no error."),
        .init(
            id: "no-credential-from-changed-context", criterion: "N2.6-AC06", item: "N2.6-AC06.V1",
            statement:
                "A passkey is stored only for the account its options were issued to, and only if no sign-out, account switch or sign-in came between the request and its response."
        ),
        .init(
            id: "live-response-is-stored", criterion: "N2.6-AC06", item: "N2.6-AC06.V4",
            statement:
                "A successful registration response that reaches the app within a minute of its request, with no sign-out, account switch, sign-in or relaunch in between, is stored for the account that asked for it by the time the app has nothing left scheduled."
        ),
        .init(
            id: "no-unavailable-interface", criterion: "N3.2-AC01", item: "N3.2-AC01.V2",
            statement: "The app calls no platform interface the device does not have."),
        .init(
            id: "unknown-only-for-unknown-ids", criterion: "N3.2-AC02", item: "N3.2-AC02.V2",
            statement: "No unknown-credential signal names a credential id the server holds, active or revoked."),
        .init(
            id: "accepted-list-is-server-list", criterion: "N3.2-AC04", item: "N3.2-AC04.V6",
            statement:
                "Every accepted-credentials signal lists exactly the passkeys the server holds active for the account when it is sent (never partial, never accidentally empty)."
        ),
        .init(
            id: "android-rate-window", criterion: "N3.2-AC05", item: "N3.2-AC05.V1",
            statement: "At most 10 Android signal calls in any 120-second window."),
        .init(
            id: "retry-after-retry-millis", criterion: "N3.2-AC05", item: "N3.2-AC05.V2",
            statement: "After a rate-limited signal, no signal call before retryMillis has passed."),
        .init(
            id: "signal-names-account-rp-id", criterion: "N3.2-AC07", item: "N3.2-AC07.V1",
            statement: "Every signal names the RP ID of the account or credential it is about."),
        .init(
            id: "signal-ids-exact", criterion: "N3.2-AC09", item: "N3.2-AC09.V2",
            statement:
                "Every signal carries user handles and credential ids as the exact values the server holds (the id presented, for an unknown credential), in the platform's representation: raw bytes in Apple's report arguments, unpadded base64url strings and an array of them in Android's request JSON; never a product account id as the user handle."
        ),
    ]

    /// The invariant with a name.
    public static func named(_ id: String) -> ExploreInvariant? { all.first { $0.id == id } }
}

/// An invariant broken by a history: which, after which step, and the evidence.
public struct ExploreViolation: Sendable, Hashable {
    /// The invariant broken.
    public var invariant: ExploreInvariant
    /// The index (from 0) of the history step after which it was seen.
    public var stepIndex: Int
    /// What was seen, citing the transcript.
    public var message: String
}
