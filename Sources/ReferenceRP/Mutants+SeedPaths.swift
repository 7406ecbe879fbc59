import ConformanceModel
import ConformanceSimulation
import Foundation

/// Decision points that only the mutants of the seed paths override (a response naming another RP
/// ID or that cannot be read, a credential id registered twice, the rate budget across RPs): each
/// conforming value is the reference's behaviour.
struct SeedPathForms: Sendable {
    /// Reports the presented credential as unknown after a sign-in refused because its authenticator
    /// data names another RP ID, after this delay (0: at once).
    var unknownAfterRPIDRefusalMillis: Int64?
    /// Reports the presented credential as unknown after a sign-in refused because its response cannot
    /// be read, after this delay (0: at once).
    var unknownAfterMalformedResponseMillis: Int64?
}

/// The mutants of the seed sentences no other scenario drives: "Do not send it for ... RP or origin
/// mismatch ... and verification errors". Each in two forms.
extension Mutation {
    // MARK: N3.2-AC02: an unknown-credential signal after another RP ID or a malformed response

    /// Reports the presented credential as unknown when the authenticator data named another RP ID.
    public static let unknownOnRPIDRefusal = Mutation(
        "unknown-on-rp-id-refusal", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential when the server refused the sign-in because its authenticator data names another RP ID",
        form: "an unknown-credential signal at once after an RP ID refusal"
    ) { $0.seedPaths.unknownAfterRPIDRefusalMillis = 0 }

    /// The same, 30 seconds later from a timer.
    public static let unknownLaterOnRPIDRefusal = Mutation(
        "unknown-later-on-rp-id-refusal", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential 30 seconds after the server refused the sign-in for another RP ID, from a timer",
        form: "a timer-driven unknown-credential signal after an RP ID refusal"
    ) { $0.seedPaths.unknownAfterRPIDRefusalMillis = 30_000 }

    /// Reports the presented credential as unknown when its response could not be read.
    public static let unknownOnMalformedResponse = Mutation(
        "unknown-on-malformed-response", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential when the server refused the sign-in because its response cannot be read",
        form: "an unknown-credential signal at once after a malformed response"
    ) { $0.seedPaths.unknownAfterMalformedResponseMillis = 0 }

    /// The same, 30 seconds later from a timer.
    public static let unknownLaterOnMalformedResponse = Mutation(
        "unknown-later-on-malformed-response", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential 30 seconds after the server refused the sign-in because its response cannot be read, from a timer",
        form: "a timer-driven unknown-credential signal after a malformed response"
    ) { $0.seedPaths.unknownAfterMalformedResponseMillis = 30_000 }

    /// The mutants of the seed paths, in report order.
    static let seedPathMutants: [Mutation] = [
        .unknownOnRPIDRefusal, .unknownLaterOnRPIDRefusal, .unknownOnMalformedResponse, .unknownLaterOnMalformedResponse,
    ]
}

extension ReferenceSession {
    /// After a sign-in the server refused for another RP ID or a malformed response: a mutant reports
    /// the credential as unknown, at once or later.
    func responseRefused(_ result: Server.AuthenticationResult, _ unknown: SignalScheduler.Intent) async {
        let delay: Int64?
        switch result {
        case .rpIDRefused: delay = decisions.seedPaths.unknownAfterRPIDRefusalMillis
        case .malformed: delay = decisions.seedPaths.unknownAfterMalformedResponseMillis
        default: delay = nil
        }
        guard let delay else { return }
        await send(unknown, afterMillis: delay, label: "report the credential the server refused")
    }
}
