import ConformanceKit
import Foundation

extension Explorer {
    /// Whether a history still breaks the invariant.
    func reproduces(_ steps: [ExploreStep], like original: ExploreHistory, invariant: ExploreInvariant, worldSeed: UInt64) async throws -> ExploreViolation? {
        guard !steps.isEmpty else { return nil }
        let outcome = try await replay(ExploreHistory(target: original.target, background: original.background, steps: steps), worldSeed: worldSeed)
        guard let violation = outcome.violation, violation.invariant == invariant else { return nil }
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
        func attempt(_ candidate: [ExploreStep]) async throws -> Bool {
            guard replays < shrinkBudget, candidate != steps else { return false }
            replays += 1
            guard let found = try await reproduces(candidate, like: history, invariant: violation.invariant, worldSeed: worldSeed) else { return false }
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
                if let first = steps[index].waitSeconds, let second = steps[index + 1].waitSeconds {
                    var candidate = steps
                    candidate.replaceSubrange(index...index + 1, with: [.timePasses(.natural(seconds: first + second))])
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
                for simpler in steps[index].simplifications {
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
}
