import Foundation

/// A history `explore` runs: the target, the fixed situation (the Background) and the steps after
/// it, each an existing step sentence of the library, so that the history prints as a scenario.
public struct ExploreHistory: Sendable, Hashable {
    /// The target the history runs on.
    public var target: String
    /// The `Given` steps every history of this target starts from.
    public var background: [String]
    /// The generated steps, in order.
    public var steps: [String]

    /// Creates a history.
    public init(target: String, background: [String], steps: [String]) {
        self.target = target
        self.background = background
        self.steps = steps
    }
}

/// The seeded random source of `explore`, the reference RP and the fuzz tests: SplitMix64, so that
/// a seed gives the same results on every machine and Swift version (the standard library's
/// generator makes no such promise).
public struct ExploreRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

    /// One value chosen by weight; weights of 0 are never chosen. `nil` when every weight is 0.
    public mutating func weighted<T>(_ choices: [(T, Int)]) -> T? {
        let total = choices.reduce(0) { $0 + max(0, $1.1) }
        guard total > 0 else { return nil }
        var roll = below(total)
        for (value, weight) in choices where weight > 0 {
            if roll < weight { return value }
            roll -= weight
        }
        return nil
    }

    /// The seed of the history with an index: the run seed mixed with the index.
    public static func historySeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        var random = ExploreRandom(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return random.next() & ((1 << 53) - 1)
    }
}
