import Foundation

extension Runner {
    /// The same test case in a fresh session with one platform decision changed, running every
    /// `Given` and `When` step of the scenario (its `Then` steps judge, they are not replayed),
    /// observed to quiescence: what the relying party does when the platform decided otherwise.
    /// The caller closes its session.
    ///
    /// A step that does not pass in the replay ends it with the relying party's failure, as the
    /// replay without the `When` steps does (`replayContext`).
    func replay(
        _ testCase: TestPlan.Case, description: AdapterDescription, seed caseSeed: UInt64,
        bound: [(StepDefinition, StepArguments)], changing change: World.Counterfactual
    ) async throws -> World {
        var changed = testCase
        if change == .noSignalInterface { changed.target = testCase.target.withoutSignalInterface }
        let world: World
        switch await openWorld(changed, description: description, seed: caseSeed) {
        case .success(let opened): world = opened
        case .failure(let failure): throw SystemIssue("the replay \(change.phrase) could not start: \(failure.message)")
        }
        if case .conditionalAnswer(let answer) = change { world.host.withProvider { $0.conditionalAnswer = answer } }
        world.host.record(.step, "counterfactual", "the same scenario \(change.phrase)")
        for (index, (definition, arguments)) in bound.enumerated() where testCase.scenario.steps[index].role != .outcome {
            let step = testCase.scenario.steps[index]
            let sequence = world.host.record(.step, "step", "\(step.keyword)\(step.text) (line \(step.line))")
            if step.role == .action, world.triggerSequence == nil { world.triggerSequence = sequence }
            switch try await definition.body(world, arguments) {
            case .passed: continue
            case .failed(let why), .notVerified(let why):
                await world.session.close()
                throw RelyingPartyFailure("line \(step.line) did not pass when replayed \(change.phrase): \(why)")
            }
        }
        try await world.quiesce()
        return world
    }
}

extension Target {
    /// The same target where the platform offers no signal interface, as an app's run-time check
    /// sees it: the OS version just below the signal APIs' floor (Android 14; Apple 18 on iOS and
    /// iPadOS, macOS 15, visionOS 2, the versions before 26), every other feature kept.
    var withoutSignalInterface: Target {
        var target = self
        target.features.subtract([.signals, .credentialUpdater, .credentialDataManager, .signalCredentialState])
        switch platform {
        case .android: target.osVersion = "14"
        case .apple: target.osVersion = osFamily.conditionalRequestStyleFloor ?? "18.0"
        // A browser without the signal methods: its page sees no such method.
        case .web: break
        }
        target.title += " (no signal interface)"
        return target
    }
}
