import ConformanceKit
import ConformanceSelfTest
import ConformanceTestSupport
@testable import ReferenceRP
import Testing

/// The second forms of the N3.2 reconciliation, list and budget demands: each mutant fails the
/// scenarios of the verify items it names, on one Android target, where the reference passes them.
/// The release self-test runs them under every design; here one target keeps the run light.
@Suite("N3.2 reconciliation, list and budget obligations in a second form")
struct ListFormMutantTests {
    static let loaded = CriterionText.packageCriteria()

    /// The scenarios of `mutation`'s verify items on one Android target.
    static func filter(_ mutation: Mutation) throws -> TestPlan.Filter {
        let tags = try TagExpression.parse(mutation.verifyItems.map { "@verify:\($0)" }.joined(separator: " or "))
        return TestPlan.Filter(tags: tags, criteria: [CriterionSelector(mutation.criterion)], targets: ["android-15-gpm"])
    }

    static func run(_ adapter: ReferenceRP, _ filter: TestPlan.Filter) async throws -> RunResult {
        try await Suite.run(criteria: loaded.criteria, digest: loaded.digest, adapter: adapter, transport: "in-process", filter: filter)
    }

    @Test("the mutant fails every verify item it names; the reference passes the same test cases", arguments: Mutation.listFormMutants)
    func killedWhereTheReferencePasses(_ mutation: Mutation) async throws {
        let filter = try Self.filter(mutation)
        let reference = try await Self.run(ReferenceRP(), filter)
        #expect(!reference.testCases.isEmpty)
        #expect(reference.testCases.allSatisfy { $0.verdict == .passed }, "\(reference.testCases.filter { $0.verdict != .passed }.map(\.message))")
        let mutant = try await Self.run(ReferenceRP(mutation: mutation), filter)
        let failed = Set(mutant.testCases.filter { $0.verdict == .failed }.flatMap(\.verifyItems))
        for item in mutation.verifyItems { #expect(failed.contains(item), "\(mutation.id) did not fail \(item)") }
    }

    @Test("every item of the reconciliation, list and budget demands is broken in two forms")
    func twoFormsEach() {
        let items: [VerifyItemID] =
            ["N3.2-AC03.V1"] + (1...6).map { VerifyItemID(rawValue: "N3.2-AC04.V\($0)") } + (1...4).map { VerifyItemID(rawValue: "N3.2-AC05.V\($0)") }
        for entry in SelfTest.itemForms(items) { #expect(entry.forms.count >= 2, "\(entry.item): \(entry.forms)") }
        #expect(Set(Mutation.listFormMutants.flatMap(\.verifyItems)) == Set(items))
    }
}
