@testable import ConformanceExplore
@testable import ConformanceKit
import Testing

/// The generator's step weights follow the adapter's capabilities and the target's features, read
/// once per history.
@Suite("explore: step weights")
struct HistoryWeightTests {
    /// The kinds of step (indices of `HistoryGenerator.weights(held:)`) each capability enables.
    static let enabled: [(Capability, [Int])] = [
        (.conditionalCreate, [0, 1, 2]), (.secondFactor, [3]), (.recoverySignIn, [4]), (.alternativeSignIn, [5]), (.accountSwitch, [7, 8]),
        (.relaunch, [9]), (.refreshPoint, [10]), (.revocation, [11]), (.passkeySignIn, [12, 13, 14, 15, 16]), (.rename, [17, 18]),
    ]

    @Test("a capability the adapter lacks gives its steps no weight; with it they have some")
    func capabilitiesGateTheirSteps() throws {
        let target = try #require(TargetCatalog.target(id: "android-15-gpm"))
        let every = Set(Capability.allCases)
        let all = HistoryGenerator(capabilities: every, target: target, random: SplitMix64(seed: 1)).weights(held: 0)
        for (capability, kinds) in Self.enabled {
            let without = HistoryGenerator(capabilities: every.subtracting([capability]), target: target, random: SplitMix64(seed: 1)).weights(held: 0)
            #expect(kinds.allSatisfy { all[$0] > 0 && without[$0] == 0 }, "\(capability)")
            #expect(without.indices.filter { !kinds.contains($0) }.allSatisfy { without[$0] == all[$0] }, "\(capability)")
        }
    }

    @Test("the rate-limit step is drawn only on targets whose platform sends signals")
    func targetSignalsGateTheRateLimit() {
        for target in Explorer.defaultTargets.compactMap(TargetCatalog.target(id:)) {
            let weights = HistoryGenerator(capabilities: Set(Capability.allCases), target: target, random: SplitMix64(seed: 1)).weights(held: 0)
            #expect((weights[22] > 0) == target.has(.signals), "\(target.id)")
        }
    }
}
