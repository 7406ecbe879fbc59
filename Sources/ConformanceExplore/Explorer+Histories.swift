import ConformanceKit
import Foundation
import Synchronization

extension Explorer {
    /// Runs histories until one breaks an invariant, `budget` histories have run or `seconds` have
    /// passed; shrinks the first violation.
    ///
    /// With `jobs` above 1 several histories run at once; their outcomes are taken in history
    /// order, so the finding, the history count and the step count are those of a sequential run.
    package func explore(
        budget: Int, seconds: Double? = nil, targets requested: [String] = [],
        progress report: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> Report {
        let clock = ContinuousClock()
        let started = clock.now
        let description = try await adapter.describe()
        let targets = Self.targets(requested, description: description)
        guard !targets.isEmpty else {
            throw SystemIssue(
                "the adapter declares none of the targets to explore (\((requested.isEmpty ? Self.defaultTargets : requested).joined(separator: ", ")))")
        }
        let deadline = seconds.map { started + .milliseconds(Int64($0 * 1000)) }
        // Whether another history may start: none starts after the deadline.
        let open: @Sendable () -> Bool = { deadline.map { clock.now <= $0 } ?? true }
        let run: Progress
        if jobs <= 1 {
            run = try await sequentially(budget: budget, targets: targets, description: description, open: open, report: report)
        } else {
            run = try await concurrently(budget: budget, targets: targets, description: description, open: open, report: report)
        }
        let (taken, steps) = (run.taken, run.steps)
        guard let first = run.first, let violation = first.outcome.violation else {
            return Report(histories: taken, steps: steps, finding: nil, wallSeconds: (clock.now - started).inSeconds)
        }
        let worldSeed = SplitMix64.historySeed(seed, first.index)
        let (shrunk, final, replays) = try await shrink(first.outcome.history, violation: violation, description: description, worldSeed: worldSeed)
        return Report(
            histories: taken, steps: steps,
            finding: Finding(original: first.outcome.history, shrunk: shrunk, violation: final, worldSeed: worldSeed, index: first.index, replays: replays),
            wallSeconds: (clock.now - started).inSeconds)
    }

    /// One history after the other in the calling task: no child task, so no thread is woken
    /// between histories.
    func sequentially(
        budget: Int, targets: [Target], description: AdapterDescription, open: () -> Bool, report: @Sendable (Int, Int) -> Void
    ) async throws -> Progress {
        var progress = Progress()
        while progress.taken < budget, open() {
            try Task.checkCancellation()
            let ran = await history(progress.taken, of: targets, description: description)
            let ended = try take(ran, into: &progress)
            if progress.taken % 100 == 0 { report(progress.taken, budget) }
            if ended { break }
        }
        return progress
    }

    /// `jobs` workers, each running one history after another: a worker takes the next index
    /// from the shared ledger, so the histories started are those a sequential run starts, and
    /// the ledger takes their outcomes in history order. No task is created or awaited per
    /// history, so a worker never waits for another while histories remain (on a machine whose
    /// cores are busy, waking a waiting thread for every history costs more than it gains).
    func concurrently(
        budget: Int, targets: [Target], description: AdapterDescription, open: @escaping @Sendable () -> Bool, report: @Sendable (Int, Int) -> Void
    ) async throws -> Progress {
        let ledger = Ledger()
        // The workers end before this function returns, so `report` does not outlive the call.
        await withoutActuallyEscaping(report) { report in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<jobs {
                    group.addTask {
                        while let index = ledger.nextIndex(budget: budget, open: open) {
                            let ran = await history(index, of: targets, description: description)
                            // Progress is reported outside the ledger's lock, for each hundred taken.
                            let (before, after) = ledger.finish(ran) { ran, progress in try take(ran, into: &progress) }
                            for taken in stride(from: (before / 100 + 1) * 100, through: after, by: 100) { report(taken, budget) }
                        }
                    }
                }
            }
        }
        return try ledger.result()
    }

    /// The shared state of a concurrent run: the next history to start, the outcomes not yet
    /// taken, and what was taken in order.
    final class Ledger: Sendable {
        struct State {
            var next = 0
            var waiting: [Int: Ran] = [:]
            var progress = Progress()
            var failure: (any Error)?
            /// Whether a history taken broke an invariant or failed: no other starts then.
            var ended: Bool { progress.first != nil || failure != nil }
        }
        let state = Mutex(State())

        /// The next history to run, or `nil` when the budget is spent, the run ended, the deadline
        /// passed or the task was cancelled.
        func nextIndex(budget: Int, open: () -> Bool) -> Int? {
            state.withLock { state in
                guard state.next < budget, !state.ended, !Task.isCancelled, open() else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        /// Records a history's outcome and takes every outcome now next in order; `take` says
        /// whether the run ends at the outcome it took. Returns how many were taken before and after.
        func finish(_ ran: Ran, take: (Ran, inout Progress) throws -> Bool) -> (before: Int, after: Int) {
            state.withLock { state in
                let before = state.progress.taken
                guard !state.ended else { return (before, before) }
                state.waiting[ran.index] = ran
                while let ready = state.waiting.removeValue(forKey: state.progress.taken) {
                    do {
                        guard try take(ready, &state.progress) else { continue }
                    } catch {
                        state.failure = error
                    }
                    break
                }
                if state.ended { state.waiting = [:] }
                return (before, state.progress.taken)
            }
        }

        /// What was taken, or the failure that ended the run (a cancellation when it was cancelled).
        func result() throws -> Progress {
            try state.withLock { state in
                if let failure = state.failure { throw failure }
                try Task.checkCancellation()
                return state.progress
            }
        }
    }

    /// Counts the next history's outcome; `true` when it broke an invariant (the run ends there).
    func take(_ ran: Ran, into progress: inout Progress) throws -> Bool {
        let outcome = try ran.result.get()
        progress.steps += outcome.history.steps.count
        progress.taken += 1
        guard outcome.violation != nil else { return false }
        progress.first = (outcome, progress.taken - 1)
        return true
    }

    /// Histories taken so far, in order, and the first that broke an invariant.
    struct Progress {
        var taken = 0
        var steps = 0
        var first: (outcome: Outcome, index: Int)?
    }

    /// One history's outcome, or the error that stopped it, with its index in the run.
    struct Ran: Sendable {
        var index: Int
        var result: Result<Outcome, any Error>
    }

    /// History `index` of the run.
    func history(_ index: Int, of targets: [Target], description: AdapterDescription) async -> Ran {
        do {
            let target = targets[index % targets.count]
            return Ran(
                index: index, result: .success(try await generate(target: target, description: description, worldSeed: SplitMix64.historySeed(seed, index))))
        } catch {
            return Ran(index: index, result: .failure(error))
        }
    }

    /// Generates and runs one history.
    func generate(target: Target, description: AdapterDescription, worldSeed: UInt64) async throws -> Outcome {
        var generator = HistoryGenerator(
            capabilities: Set(description.capabilities), target: target, random: SplitMix64(seed: worldSeed),
            lostAnswers: description.implements(.answerLostAfterCommit))
        let length = 1 + generator.random.below(maxSteps)
        return try await run(target: target, description: description, worldSeed: worldSeed, background: generator.background(), count: length) { world in
            generator.next(held: world.host.count(.create, in: .held))
        }
    }

    /// Replays a fixed history.
    package func replay(_ history: ExploreHistory, worldSeed: UInt64) async throws -> Outcome {
        let description = try await adapter.describe()
        guard let target = TargetCatalog.target(id: history.target) else { throw SystemIssue("unknown target \(history.target)") }
        var steps = history.steps[...]
        return try await run(target: target, description: description, worldSeed: worldSeed, background: history.background, count: history.steps.count) { _ in
            steps.popFirst() ?? .quiescence
        }
    }

    /// Runs a Background and `count` steps chosen by `next`, checking the invariants after each.
    /// A step the relying party or the situation makes inapplicable ends the history without a violation.
    func run(
        target: Target, description: AdapterDescription, worldSeed: UInt64, background: [ExploreStep], count: Int,
        next: (World) -> ExploreStep
    ) async throws -> Outcome {
        // Nobody reads a history's transcript in full: its entries keep no payload.
        let host = try platforms.makeBackend(for: target, associatedRPIDs: description.relyingPartyIDs, seed: worldSeed, keepsPayloads: false)
        let context = SessionContext(testCase: "explore/\(worldSeed)@\(target.id)", target: target.id, device: target.device, seed: worldSeed)
        host.record(.harnessToRP, "session.open", "\(target.id): \(target.title)", payload: Wire.jsonValue(context))
        let session = try await host.openSession(on: adapter, context: context, description: description)
        let world = World(target: target, adapter: description, host: host, session: session, seed: worldSeed)
        do {
            let outcome = try await steps(world: world, description: description, background: background, count: count, next: next)
            await session.close()
            return outcome
        } catch {
            await session.close()
            throw error
        }
    }

    /// The Background and the steps of one history in an open world.
    func steps(world: World, description: AdapterDescription, background: [ExploreStep], count: Int, next: (World) -> ExploreStep) async throws -> Outcome {
        let capabilities = Set(description.capabilities)
        var history = ExploreHistory(target: world.target.id.rawValue, background: background, steps: [])
        for step in background {
            guard try await runStep(step, world: world, capabilities: capabilities, description: description) else {
                return Outcome(history: history, violation: nil)
            }
        }
        let monitor = InvariantMonitor(world: world)
        for index in 0..<count {
            let step = next(world)
            try await monitor.beforeStep()
            let sequence = world.host.record(.step, "step", step.sentence)
            if world.triggerSequence == nil { world.triggerSequence = sequence }
            history.steps.append(step)
            let ran: Bool
            do {
                ran = try await runStep(step, world: world, capabilities: capabilities, description: description)
            } catch is RelyingPartyFailure {
                ran = false
            }
            guard ran else {
                history.steps.removeLast()
                return Outcome(history: history, violation: nil)
            }
            if let violation = try await monitor.afterStep(index, step: step) {
                return Outcome(history: history, violation: counts(violation.invariant) ? violation : nil)
            }
        }
        return Outcome(history: history, violation: nil)
    }

    /// Runs one step through the library definition its binding names; `false` when it does not
    /// apply (no such definition, a missing capability, a step whose precondition the world does
    /// not meet, a protocol feature the adapter does not implement).
    func runStep(_ step: ExploreStep, world: World, capabilities: Set<Capability>, description: AdapterDescription) async throws -> Bool {
        let binding = step.binding
        guard let definition = definitions[binding.definition], definition.needs.isSubset(of: capabilities),
            definition.protocolFeatures.allSatisfy(description.implements)
        else { return false }
        do {
            return try await definition.body(world, definition.arguments(binding.arguments)) == .passed
        } catch is SystemIssue {
            return false
        }
    }
}
