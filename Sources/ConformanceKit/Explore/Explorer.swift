import Foundation
import Synchronization

/// `explore`: random histories against the criteria's invariants, each failing one shrunk to the
/// smallest history that still breaks the same invariant.
///
/// A history runs in a fresh session and world, like a test case; the invariants are checked
/// after every step. Everything is deterministic for the seed.
public struct Explorer: Sendable {
    /// The relying party explored.
    public let adapter: any RelyingPartyAdapter
    /// The step definitions the histories' sentences are bound to.
    public let library: StepLibrary
    /// The run's seed.
    public let seed: UInt64
    /// The most steps a generated history has.
    public var maxSteps = 12
    /// The most histories one shrink replays.
    public var shrinkBudget = 400
    /// Only invariants of the criteria selected (`N2.6-AC06`, `N3.2`) count; `.all` by default. A
    /// history that breaks another invariant first ends there without a finding.
    public var criteria: CriterionSelection = .all
    /// The library's answer for each sentence met so far, shared by every history: histories draw
    /// their steps from a few hundred sentences, and matching each anew against every pattern took
    /// 39% of explore's processor time (perf, 1,000 histories).
    let matches = MatchCache()

    /// Whether an invariant's criterion is among those explored.
    func counts(_ invariant: ExploreInvariant) -> Bool {
        criteria.selects(invariant.criterion)
    }

    /// Creates an explorer of an adapter.
    public init(adapter: any RelyingPartyAdapter, library: StepLibrary = .standard, seed: UInt64 = 1) {
        self.adapter = adapter
        self.library = library
        self.seed = seed
    }

    /// What one history did.
    public struct Outcome: Sendable {
        /// The steps that ran (a generated history stops at its first violation or inapplicable step).
        public var history: ExploreHistory
        /// The first invariant broken, if any.
        public var violation: ExploreViolation?
    }

    /// A violation found and shrunk.
    public struct Finding: Sendable {
        /// The history as generated, up to the violation.
        public var original: ExploreHistory
        /// The shrunk history; it breaks the same invariant.
        public var shrunk: ExploreHistory
        /// The violation of the shrunk history.
        public var violation: ExploreViolation
        /// The seed of the history's world (its RP ids and challenges).
        public var worldSeed: UInt64
        /// The index of the history (from 0) in the run.
        public var index: Int
        /// How many histories the shrink replayed.
        public var replays: Int
    }

    /// What a whole exploration found.
    public struct Report: Sendable {
        /// Histories run.
        public var histories: Int
        /// Steps run over all histories.
        public var steps: Int
        /// The first violation found, shrunk; `nil` when none.
        public var finding: Finding?
        /// Wall-clock seconds.
        public var wallSeconds: Double
    }

    /// The targets explored when none is asked for: an Android and an Apple target with every
    /// feature, one of each where a signal interface is missing or different, and one without the
    /// conditional registration interface (where the app must not fall back to a modal one).
    public static let defaultTargets = ["android-15-gpm", "apple-26.2", "android-14-gpm", "apple-26.0", "android-15-androidx-1.5"]

    /// Targets explored: those asked for, or the default ones, among the adapter's.
    public static func targets(_ requested: [String], description: AdapterDescription) -> [Target] {
        let ids = requested.isEmpty ? defaultTargets : requested
        return ids.compactMap(TargetCatalog.target(id:)).filter { description.targets.contains($0.id) }
    }

    /// Runs histories until one breaks an invariant, `budget` histories have run or `seconds` have
    /// passed; shrinks the first violation.
    public func explore(
        budget: Int, seconds: Double? = nil, targets requested: [String] = [],
        progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> Report {
        let clock = ContinuousClock()
        let started = clock.now
        let description = try await adapter.describe()
        let targets = Self.targets(requested, description: description)
        guard !targets.isEmpty else {
            throw SystemIssue(
                "the adapter declares none of the targets to explore (\((requested.isEmpty ? Self.defaultTargets : requested).joined(separator: ", ")))")
        }
        var steps = 0
        var index = 0
        while index < budget {
            if let seconds, (clock.now - started) > .milliseconds(Int64(seconds * 1000)) { break }
            await Task.yield()
            let target = targets[index % targets.count]
            let worldSeed = SplitMix64.historySeed(seed, index)
            let outcome = try await generate(target: target, description: description, worldSeed: worldSeed)
            steps += outcome.history.steps.count
            index += 1
            if index % 100 == 0 { progress(index, budget) }
            if let violation = outcome.violation {
                let (shrunk, final, replays) = try await shrink(outcome.history, violation: violation, description: description, worldSeed: worldSeed)
                return Report(
                    histories: index, steps: steps,
                    finding: Finding(original: outcome.history, shrunk: shrunk, violation: final, worldSeed: worldSeed, index: index - 1, replays: replays),
                    wallSeconds: (clock.now - started).inSeconds)
            }
        }
        return Report(histories: index, steps: steps, finding: nil, wallSeconds: (clock.now - started).inSeconds)
    }

    /// Generates and runs one history.
    func generate(target: Target, description: AdapterDescription, worldSeed: UInt64) async throws -> Outcome {
        var generator = HistoryGenerator(capabilities: Set(description.capabilities), target: target, random: SplitMix64(seed: worldSeed))
        let length = 1 + generator.random.below(maxSteps)
        return try await run(target: target, description: description, worldSeed: worldSeed, background: generator.background(), count: length) { world in
            generator.next(held: world.host.snapshot.operations.filter { $0.kind == .create && $0.status == .held }.count)
        }
    }

    /// Replays a fixed history.
    public func replay(_ history: ExploreHistory, worldSeed: UInt64) async throws -> Outcome {
        let description = try await adapter.describe()
        guard let target = TargetCatalog.target(id: history.target) else { throw SystemIssue("unknown target \(history.target)") }
        var steps = history.steps[...]
        return try await run(target: target, description: description, worldSeed: worldSeed, background: history.background, count: history.steps.count) { _ in
            steps.popFirst() ?? "the app has nothing left scheduled"
        }
    }

    /// Runs a Background and `count` steps chosen by `next`, checking the invariants after each.
    /// A step the relying party or the situation makes inapplicable ends the history without a violation.
    func run(
        target: Target, description: AdapterDescription, worldSeed: UInt64, background: [String], count: Int,
        next: (World) -> String
    ) async throws -> Outcome {
        let host = SimulationHost(simulator: try PlatformSimulator(target: target, associatedRPIDs: description.relyingPartyIDs, seed: worldSeed))
        let context = SessionContext(testCase: "explore/\(worldSeed)@\(target.id)", target: target.id, device: target.device, seed: worldSeed)
        host.record(.harnessToRP, "session.open", "\(target.id): \(target.title)", payload: Wire.jsonValue(context))
        let session = try await adapter.openSession(context, host: host)
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
    func steps(world: World, description: AdapterDescription, background: [String], count: Int, next: (World) -> String) async throws -> Outcome {
        let host = world.host
        let target = world.target
        var history = ExploreHistory(target: target.id, background: background, steps: [])
        for sentence in background {
            guard try await runStep(sentence, world: world, capabilities: Set(description.capabilities)) else {
                return Outcome(history: history, violation: nil)
            }
        }
        let monitor = InvariantMonitor(world: world)
        for index in 0..<count {
            let sentence = next(world)
            try await monitor.beforeStep()
            let sequence = host.record(.step, "step", sentence)
            if world.triggerSequence == nil { world.triggerSequence = sequence }
            history.steps.append(sentence)
            let ran: Bool
            do {
                ran = try await runStep(sentence, world: world, capabilities: Set(description.capabilities))
            } catch is RelyingPartyFailure {
                ran = false
            }
            guard ran else {
                history.steps.removeLast()
                return Outcome(history: history, violation: nil)
            }
            if let violation = try await monitor.afterStep(index, sentence: sentence) {
                return Outcome(history: history, violation: counts(violation.invariant) ? violation : nil)
            }
        }
        return Outcome(history: history, violation: nil)
    }

    /// Runs one sentence; `false` when it does not apply (undefined, a missing capability, a step
    /// whose precondition the world does not meet).
    func runStep(_ sentence: String, world: World, capabilities: Set<Capability>) async throws -> Bool {
        guard case .found(let definition, let arguments) = matches.match(sentence, in: library), definition.needs.isSubset(of: capabilities) else {
            return false
        }
        do {
            return try await definition.body(world, arguments) == .passed
        } catch is SystemIssue {
            return false
        }
    }

    // MARK: Shrinking

    /// Whether a history still breaks the invariant.
    func reproduces(_ steps: [String], like original: ExploreHistory, invariant: String, worldSeed: UInt64) async throws -> ExploreViolation? {
        guard !steps.isEmpty else { return nil }
        let outcome = try await replay(ExploreHistory(target: original.target, background: original.background, steps: steps), worldSeed: worldSeed)
        guard let violation = outcome.violation, violation.invariant.id == invariant else { return nil }
        return violation
    }

    /// Shrinks a failing history: drops steps (halves, then single ones), merges neighbouring time
    /// jumps and simplifies arguments, as long as the same invariant breaks. Deterministic.
    func shrink(_ history: ExploreHistory, violation: ExploreViolation, description: AdapterDescription, worldSeed: UInt64) async throws -> (
        ExploreHistory, ExploreViolation, Int
    ) {
        var steps = Array(history.steps.prefix(violation.stepIndex + 1))
        var current = violation
        var replays = 0
        func attempt(_ candidate: [String]) async throws -> Bool {
            guard replays < shrinkBudget, candidate != steps else { return false }
            replays += 1
            guard let found = try await reproduces(candidate, like: history, invariant: violation.invariant.id, worldSeed: worldSeed) else { return false }
            steps = Array(candidate.prefix(found.stepIndex + 1))
            current = found
            return true
        }
        var changed = true
        while changed, replays < shrinkBudget {
            changed = false
            // Drop chunks, from half the history down to single steps.
            var size = max(1, steps.count / 2)
            while size >= 1 {
                var start = 0
                while start < steps.count {
                    var candidate = steps
                    candidate.removeSubrange(start..<min(steps.count, start + size))
                    if try await attempt(candidate) { changed = true } else { start += size }
                }
                size /= 2
            }
            // Merge neighbouring time jumps, then simplify each argument.
            var index = 0
            while index + 1 < steps.count {
                if let first = Self.seconds(of: steps[index]), let second = Self.seconds(of: steps[index + 1]) {
                    var candidate = steps
                    candidate.replaceSubrange(index...index + 1, with: [Self.timeStep(first + second)])
                    if try await attempt(candidate) {
                        changed = true
                        continue
                    }
                }
                index += 1
            }
            // A simpler step can break the invariant earlier and so shorten the history: the
            // index is checked against the current length on every round.
            index = 0
            while index < steps.count {
                for simpler in Self.simplifications(of: steps[index]) {
                    var candidate = steps
                    candidate[index] = simpler
                    if try await attempt(candidate) {
                        changed = true
                        break
                    }
                }
                index += 1
            }
        }
        return (ExploreHistory(target: history.target, background: history.background, steps: steps), current, replays)
    }

    /// The seconds a time step lets pass.
    static func seconds(of sentence: String) -> Int? {
        let words = sentence.split(separator: " ")
        guard words.count == 3, let value = Int(words[0]) else { return nil }
        switch words[1] {
        case "second", "seconds": return value
        case "minute", "minutes": return value * 60
        default: return nil
        }
    }

    /// The sentence that lets `seconds` pass, in whole minutes where it can.
    static func timeStep(_ seconds: Int) -> String {
        if seconds >= 60, seconds % 60 == 0 { return seconds == 60 ? "1 minute passes" : "\(seconds / 60) minutes pass" }
        return seconds == 1 ? "1 second passes" : "\(seconds) seconds pass"
    }

    /// Simpler forms of a step, simplest first: shorter waits, the first account of the pool,
    /// the plainest way of signing in.
    static func simplifications(of sentence: String) -> [String] {
        var result: [String] = []
        if let seconds = seconds(of: sentence) {
            result += [1, 30, 60, 121, 300, 3600].filter { $0 < seconds }.map(timeStep)
        }
        for alias in ["bob", "carol"] where sentence.contains("\"\(alias)\"") {
            result.append(sentence.replacingOccurrences(of: "\"\(alias)\"", with: "\"alice\""))
        }
        if sentence.contains("typing the password by hand") {
            result.append(sentence.replacingOccurrences(of: "typing the password by hand", with: "with the autofilled password"))
        }
        if sentence.hasPrefix("the user switches to "), sentence.hasSuffix("with the autofilled password") {
            result.append(sentence.replacingOccurrences(of: "the user switches to ", with: "the user signs in as "))
        }
        if let range = sentence.range(of: "rate limit of "), let end = sentence.range(of: " seconds", range: range.upperBound..<sentence.endIndex),
            let value = Int(sentence[range.upperBound..<end.lowerBound]), value > 5
        {
            result.append(sentence.replacingCharacters(in: range.upperBound..<end.lowerBound, with: "5"))
        }
        return result
    }
}

/// Step-library matches by sentence, for one explorer (one library).
final class MatchCache: Sendable {
    /// The most sentences kept; later ones are matched each time (time steps of merged durations
    /// can make the set of sentences grow with the histories).
    static let limit = 20_000
    private let matches = Mutex<[String: StepLibrary.Match]>([:])

    /// The library's match for `sentence`, looked up once.
    func match(_ sentence: String, in library: StepLibrary) -> StepLibrary.Match {
        if let known = matches.withLock({ $0[sentence] }) { return known }
        let match = library.match(sentence)
        matches.withLock { if $0.count < Self.limit { $0[sentence] = match } }
        return match
    }
}
