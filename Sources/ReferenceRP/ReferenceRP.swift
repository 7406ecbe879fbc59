import ConformanceModel
import ConformanceSimulation

/// The conforming reference relying party (app and server) in Swift: the harness's embedded default.
///
/// With a `Mutation`, it becomes one of the faulty variants `selftest` runs to show that every
/// criterion can fail.
package struct ReferenceRP: RelyingPartyAdapter {
    /// The faulty variant, or `nil` for the conforming relying party.
    package let mutation: Mutation?
    /// The conforming design choices it makes (the reference's own unless a variant is given).
    package let design: ReferenceDesign

    /// The RP IDs the reference relying party is configured with.
    package static let relyingPartyIDs = ["login.example.com", "accounts.example.org"]

    /// Creates the conforming reference RP, or the faulty variant with `mutation`, with the
    /// reference's design choices or those of a conforming variant.
    package init(mutation: Mutation? = nil, design: ReferenceDesign = .reference) {
        self.mutation = mutation
        self.design = design
    }

    /// The adapter name: `reference-rp`, then `+<design>` for a variant and `+<mutation>` for a mutant.
    package var name: String {
        "reference-rp" + (design == .reference ? "" : "+\(design.id)") + (mutation.map { "+\($0.id)" } ?? "")
    }

    /// Declares every target and capability, the reference RP IDs, and a name that carries the mutation.
    package func describe() async throws -> AdapterDescription {
        AdapterDescription(
            name: name, version: "1.0.0",
            targets: TargetCatalog.all.map(\.id), capabilities: Capability.allCases,
            relyingPartyIDs: Self.relyingPartyIDs)
    }

    /// Opens a fresh app and server for one test case.
    package func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
        ReferenceSession(context: context, host: host, decisions: mutation?.decisions ?? Decisions(), design: design)
    }

    /// Does nothing; the reference RP holds no resources beyond its sessions.
    package func shutdown() async {}
}

/// A deterministic pseudo-random source (SplitMix64) for ids, user handles and challenges.
struct SeededGenerator: Sendable {
    private var source: SplitMix64

    init(seed: UInt64) { source = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { source.next() }

    mutating func bytes(_ count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            withUnsafeBytes(of: next()) { result.append(contentsOf: $0.prefix(count - result.count)) }
        }
        return result
    }
}
