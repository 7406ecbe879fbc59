import ConformanceKit
import ConformanceTestSupport
import Foundation
import ReferenceRP
import Testing

/// The reference RP on the macOS and visionOS targets: it requests the conditional style exactly
/// from each family's floor on, so every N2.6 criterion passes there.
@Suite("Reference RP on the OS families", .heavy)
struct FamilyFloorTests {
    @Test("The reference RP passes every N2.6 criterion on the family targets, using the family's floor")
    func referenceRPUsesTheFamily() async throws {
        let root = PackagePaths.root
        let loaded = CriteriaLoader().load(root: root.appendingPathComponent("Criteria").path)
        #expect(!loaded.hasErrors)
        let targets = ["macos-14", "macos-15", "visionos-2"]
        let run = try await Suite.run(
            criteria: loaded.criteria, digest: loaded.digest, adapter: ReferenceRP(), transport: "in-process",
            filter: .init(criteria: ["N2.6"], targets: targets.map(TargetID.init(rawValue:))), seed: 5)
        for target in targets {
            #expect(run.testCases.contains { $0.target == target }, "no test case on \(target)")
        }
        let notPassed = run.testCases.filter { $0.verdict != .passed }.map { "\($0.id): \($0.message ?? "")" }
        #expect(notPassed.count == 0, "\(notPassed.prefix(5))")
    }
}
