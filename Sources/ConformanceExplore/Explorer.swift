import ConformanceKit
import Foundation

/// `explore`: random histories against the criteria's invariants, each failing one shrunk to the
/// smallest history that still breaks the same invariant.
///
/// A history runs in a fresh session and world, like a test case; the invariants are checked
/// after every step. Everything is deterministic for the seed.
package struct Explorer: Sendable {
    /// The relying party explored.
    package let adapter: any RelyingPartyAdapter
    /// The step definitions the histories' sentences are bound to.
    package let library: StepLibrary
    /// The run's seed.
    package let seed: UInt64
    /// The most steps a generated history has.
    package var maxSteps = 12
    /// The most histories one shrink replays.
    package var shrinkBudget = 400
    /// Only invariants of the criteria selected (`N2.6-AC06`, `N3.2`) count; `.all` by default. A
    /// history that breaks another invariant first ends there without a finding.
    package var criteria: CriterionSelection = .all
    /// Histories run at once, each in its own session and world (1: one after the other). The
    /// findings, histories and counts are those of a sequential run whatever the value.
    package var jobs = 1
    /// Makes each history's platform backend (the simulated families unless given).
    package var platforms: any PlatformBackendFactory = SimulatedPlatforms()
    /// The library's definitions by identity: a step runs the definition its
    /// `binding` names, with no sentence to match.
    let definitions: [StepDefinition.ID: StepDefinition]

    /// Whether an invariant's criterion is among those explored.
    func counts(_ invariant: ExploreInvariant) -> Bool {
        criteria.selects(invariant.criterion)
    }

    /// Creates an explorer of an adapter.
    package init(adapter: any RelyingPartyAdapter, library: StepLibrary = .standard, seed: UInt64 = 1) {
        self.adapter = adapter
        self.library = library
        self.seed = seed
        definitions = Dictionary(library.definitions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What one history did.
    package struct Outcome: Sendable {
        /// The steps that ran (a generated history stops at its first violation or inapplicable step).
        package var history: ExploreHistory
        /// The first invariant broken, if any.
        package var violation: ExploreViolation?
    }

    /// A violation found and shrunk.
    package struct Finding: Sendable {
        /// The history as generated, up to the violation.
        package var original: ExploreHistory
        /// The shrunk history; it breaks the same invariant.
        package var shrunk: ExploreHistory
        /// The violation of the shrunk history.
        package var violation: ExploreViolation
        /// The seed of the history's world (its RP ids and challenges).
        package var worldSeed: UInt64
        /// The index of the history (from 0) in the run.
        package var index: Int
        /// How many histories the shrink replayed.
        package var replays: Int
    }

    /// What a whole exploration found.
    package struct Report: Sendable {
        /// Histories run.
        package var histories: Int
        /// Steps run over all histories.
        package var steps: Int
        /// The first violation found, shrunk; `nil` when none.
        package var finding: Finding?
        /// Wall-clock seconds.
        package var wallSeconds: Double
    }

    /// The targets explored when none is asked for: an Android and an Apple target with every
    /// feature, one of each where a signal interface is missing or different, and one without the
    /// conditional registration interface (where the app must not fall back to a modal one).
    package static let defaultTargets = ["android-15-gpm", "apple-26.2", "android-14-gpm", "apple-26.0", "android-15-androidx-1.5"]

    /// Targets explored: those asked for, or the default ones, among the adapter's.
    package static func targets(_ requested: [String], description: AdapterDescription) -> [Target] {
        let ids = requested.isEmpty ? defaultTargets : requested
        return ids.compactMap(TargetCatalog.target(id:)).filter { description.targets.contains($0.id) }
    }
}
