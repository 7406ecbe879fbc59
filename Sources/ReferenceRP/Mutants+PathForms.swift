import ConformanceModel
import ConformanceSimulation
import Foundation

/// Decision points that only the mutants of the path proofs override: each conforming value is the
/// reference's behaviour.
struct PathForms: Sendable {
    /// Reconciles the signed-in account's list on a recurring timer of this period, armed at every
    /// full sign-in, in place of the triggers it ignores.
    var periodicOnlyMillis: Int64?
    /// Schedules a reconciliation as soon as the user starts a creation, before its outcome.
    var reconcilesAtCreationAttempt = false
    /// Reconciles a minute after a creation the server rejected, from a timer.
    var reconcilesLaterAfterRejectedCreation = false
    /// Sends the unknown-credential signal at once after a sign-in the server refused for its origin.
    var unknownAfterOriginRefusal = false
    /// Sends the unknown-credential signal 30 seconds after a sign-in the server refused for its origin.
    var unknownLaterAfterOriginRefusal = false
}

/// The mutants that the path proofs keep honest: a trigger that only looks reconciled because a
/// recurring timer sends the list anyway, a signal sent although the creation failed, an
/// unknown-credential signal after a refusal for the response's origin. Each in two forms.
extension Mutation {
    // MARK: N3.2-AC03: a recurring timer in place of the triggers

    /// Ignores creation, revocation and the refresh point; sends the list every hour.
    package static let periodicOnlyHourly = Mutation(
        "periodic-only-hourly", "N3.2-AC03", ["N3.2-AC03.V1", "N3.2-AC03.V3", "N3.2-AC03.V4"],
        "ignores creation, revocation and the refresh point and sends the accepted list on a recurring hourly timer instead",
        form: "a recurring hourly list in place of the triggers"
    ) { decisions in
        decisions.signals.reconcileTriggers.subtract([.credentialCreated, .credentialRevoked, .refreshPoint])
        decisions.pathForms.periodicOnlyMillis = 3_600_000
    }

    /// Ignores creation, revocation and the refresh point; sends the list every 5 minutes.
    package static let periodicOnlyEvery5Minutes = Mutation(
        "periodic-only-every-5-minutes", "N3.2-AC03", ["N3.2-AC03.V1", "N3.2-AC03.V3", "N3.2-AC03.V4"],
        "ignores creation, revocation and the refresh point and sends the accepted list on a recurring timer every 5 minutes instead",
        form: "a recurring list every 5 minutes in place of the triggers"
    ) { decisions in
        decisions.signals.reconcileTriggers.subtract([.credentialCreated, .credentialRevoked, .refreshPoint])
        decisions.pathForms.periodicOnlyMillis = 5 * 60_000
    }

    // MARK: N3.2-AC03: a signal sent although the creation failed

    /// Schedules a reconciliation when the user starts a creation, whatever comes of it.
    package static let reconcileAtCreationAttempt = Mutation(
        "reconcile-at-creation-attempt", "N3.2-AC03", ["N3.2-AC03.V2"],
        "schedules a reconciliation as soon as the user starts a creation from the app's settings, before the platform or the server answers",
        form: "a reconciliation at the attempt, whatever its outcome"
    ) { $0.pathForms.reconcilesAtCreationAttempt = true }

    /// Reconciles a minute after a creation the server rejected.
    package static let reconcileLaterAfterRejectedCreate = Mutation(
        "reconcile-later-after-rejected-create", "N3.2-AC03", ["N3.2-AC03.V2"],
        "reconciles a minute after a creation the server rejected, from a timer",
        form: "a timer-driven reconciliation after a rejected creation"
    ) { $0.pathForms.reconcilesLaterAfterRejectedCreation = true }

    // MARK: N3.2-AC02: an unknown-credential signal after an origin refusal

    /// Reports the presented credential as unknown when the server refused the response's origin.
    package static let unknownOnOriginRefusal = Mutation(
        "unknown-on-origin-refusal", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential when the server refused the response's origin",
        form: "an unknown-credential signal at once after an origin refusal"
    ) { $0.pathForms.unknownAfterOriginRefusal = true }

    /// Reports the presented credential as unknown 30 seconds after an origin refusal, from a timer.
    package static let unknownLaterOnOriginRefusal = Mutation(
        "unknown-later-on-origin-refusal", "N3.2-AC02", ["N3.2-AC02.V4"],
        "sends the unknown-credential signal for the presented credential 30 seconds after the server refused the response's origin, from a timer",
        form: "a timer-driven unknown-credential signal after an origin refusal"
    ) { $0.pathForms.unknownLaterAfterOriginRefusal = true }

    /// The mutants of the path proofs, in report order.
    static let pathFormMutants: [Mutation] = [
        .periodicOnlyHourly, .periodicOnlyEvery5Minutes, .reconcileAtCreationAttempt, .reconcileLaterAfterRejectedCreate, .unknownOnOriginRefusal,
        .unknownLaterOnOriginRefusal,
    ]
}

extension ReferenceSession {
    /// The period of the recurring reconciliation: the design's (F-schedule), or a mutant's that
    /// stands in for the triggers it ignores.
    var periodicReconciliationMillis: Int64? { design.reconcileEveryMillis ?? decisions.pathForms.periodicOnlyMillis }

    /// When the user starts a creation: a mutant reconciles at once, whatever the creation's outcome.
    func creationStarted(_ username: String) async {
        guard decisions.pathForms.reconcilesAtCreationAttempt else { return }
        await scheduleReconciliation(for: username, reason: "creation started")
    }

    /// After a creation the server rejected: a mutant reconciles a minute later, from a timer.
    func creationRejected(_ username: String) async {
        guard decisions.pathForms.reconcilesLaterAfterRejectedCreation, signalInterface != nil else { return }
        let timer = await host.scheduleTimer(afterMillis: 60_000, label: "reconcile after the rejected creation")
        state.app.signals.timerIntents[timer] = .reconcile(username: username)
    }

    /// After a sign-in the server refused for its origin: a mutant reports the credential as unknown,
    /// at once or 30 seconds later.
    func originRefused(_ unknown: SignalScheduler.Intent) async {
        if decisions.pathForms.unknownAfterOriginRefusal { await send(unknown) }
        if decisions.pathForms.unknownLaterAfterOriginRefusal {
            let timer = await host.scheduleTimer(afterMillis: 30_000, label: "report the credential the server refused")
            state.app.signals.timerIntents[timer] = unknown
        }
    }
}
