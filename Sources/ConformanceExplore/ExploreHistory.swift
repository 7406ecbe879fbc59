import ConformanceKit
import Foundation

/// A history `explore` runs: the target, the fixed situation (the Background) and the steps after
/// it, each bound to a step of the library, so that the history prints as a scenario.
package struct ExploreHistory: Sendable, Hashable {
    /// The target the history runs on.
    package var target: String
    /// The `Given` steps every history of this target starts from.
    package var background: [ExploreStep]
    /// The generated steps, in order.
    package var steps: [ExploreStep]

    /// Creates a history.
    package init(target: String, background: [ExploreStep], steps: [ExploreStep]) {
        self.target = target
        self.background = background
        self.steps = steps
    }
}

/// The seeded random source of `explore`, the reference RP and the fuzz tests, under its earlier name.
package typealias ExploreRandom = SplitMix64

extension SplitMix64 {
    /// The seed of the history with an index: the run seed mixed with the index.
    package static func historySeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        var random = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return random.next() & ((1 << 53) - 1)
    }
}
