/// The project's seeded random source: SplitMix64 (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014), so that a seed gives the same numbers on every
/// machine and Swift version (the standard library's generator makes no such promise).
///
/// `explore`'s histories, the reference RP's ids, user handles and challenges, and the fuzz tests
/// all draw from it; changing `next()` changes every recorded seed's results.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed; the first number is the mix of `seed` plus the golden gamma.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits: the state advances by the golden gamma 0x9E3779B97F4A7C15 and is mixed
    /// by Stafford's "Mix13" variant of the MurmurHash3 finalizer.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0), by the remainder of `next()` (so that a seed's
    /// results never depend on the standard library's range sampling).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

    /// One value chosen by weight; weights of 0 are never chosen. `nil` when every weight is 0.
    public mutating func weighted<T>(_ choices: [(T, Int)]) -> T? {
        weightedIndex(choices.map(\.1)).map { choices[$0].0 }
    }

    /// The index of one weight chosen by weight, with the draw of ``weighted(_:)``: one `below`
    /// of the total. Weights of 0 (or less) are never chosen; `nil` when every weight is 0.
    public mutating func weightedIndex(_ weights: [Int]) -> Int? {
        let total = weights.reduce(0) { $0 + max(0, $1) }
        guard total > 0 else { return nil }
        var roll = below(total)
        for (index, weight) in weights.enumerated() where weight > 0 {
            if roll < weight { return index }
            roll -= weight
        }
        return nil
    }
}
