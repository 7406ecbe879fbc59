import SeededRandom
import Testing

/// The project's seeded generator is SplitMix64 value for value, so recorded seeds keep their results.
@Suite("SplitMix64")
struct SplitMix64Tests {
    /// The published first outputs of SplitMix64 for seed 0 (Vigna's reference splitmix64.c).
    static let seedZero: [UInt64] = [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F, 0xF88B_B8A8_724C_81EC]

    @Test("Seed 0 gives the published first outputs of SplitMix64")
    func knownAnswers() {
        var random = SplitMix64(seed: 0)
        #expect((0..<4).map { _ in random.next() } == Self.seedZero)
    }

    @Test("below, pick and weighted draw from next() by remainder, in order")
    func derivedDraws() {
        var random = SplitMix64(seed: 0)
        let first = Int(Self.seedZero[0] % 1_000)
        let second = Int(Self.seedZero[1] % 3)
        let third = Self.seedZero[2] % 5 < 2 ? "x" : "y"
        #expect(random.below(1_000) == first)
        #expect(random.pick(["a", "b", "c"]) == ["a", "b", "c"][second])
        #expect(random.weighted([("never", 0), ("x", 2), ("y", 3)]) == third)
        #expect(random.weighted([("never", 0)]) == nil)
    }

    @Test("weightedIndex makes the draw of weighted and names the position it chose")
    func weightedIndexDraws() {
        var random = SplitMix64(seed: 0)
        var twin = SplitMix64(seed: 0)
        for _ in 0..<200 {
            let chosen = random.weightedIndex([0, 2, 3, 0, 7])
            #expect(chosen.map { ["never", "a", "b", "never", "c"][$0] } == twin.weighted([("never", 0), ("a", 2), ("b", 3), ("never", 0), ("c", 7)]))
            #expect(chosen != 0 && chosen != 3)
        }
        #expect(random.weightedIndex([0, 0]) == nil)
        #expect(random.next() == twin.next())
    }
}
