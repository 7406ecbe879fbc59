import ConformanceKit
import ConformanceTestSupport
import Foundation
import ReferenceRP
import Testing

@Suite("explore")
struct ExploreTests {
    @Test("the reference RP and every conforming design break no invariant", arguments: ReferenceDesign.all)
    func noFalseAlarm(design: ReferenceDesign) async throws {
        let report = try await withTaskExecutorPreference(DedicatedExecutor.heavy) {
            try await Explorer(adapter: ReferenceRP(design: design), seed: 7).explore(budget: 150)
        }
        #expect(report.finding == nil, "\(design.id): \(report.finding.map { "\($0.violation.invariant.id): \($0.violation.message) in \($0.shrunk.steps)" } ?? "")")
        #expect(report.histories == 150)
    }

    @Test("explore finds a mutant, shrinks it to a few steps, and the scenario fails the mutant and passes the reference",
          arguments: [Mutation.upgradeBeforeSecondFactor, .upgradeAfterRecovery, .androidNotConditional, .staleAccountOptions, .noExclusionList,
                     .doubleRequest, .errorOnNoCreate, .retryAfterRelaunch, .lateResponseToCurrentAccount, .lateResponseToOriginalAccount,
                     .unknownOnRevoked, .includeRevokedInList, .ignoreRateLimit])
    func findsMutant(mutation: Mutation) async throws {
        try await withTaskExecutorPreference(DedicatedExecutor.heavy) { try await Self.findsMutantHere(mutation: mutation) }
    }

    static func findsMutantHere(mutation: Mutation) async throws {
        let explorer = Explorer(adapter: ReferenceRP(mutation: mutation), seed: 1)
        let report = try await explorer.explore(budget: 3000)
        let finding = try #require(report.finding, "\(mutation.id) not found in \(report.histories) histories")
        #expect(finding.violation.invariant.criterion == mutation.criterion)
        #expect(finding.shrunk.steps.count <= 6, "\(finding.shrunk.steps)")
        let criteria = CriteriaLoader().load(root: Suite.defaultCriteriaRoot()).criteria
        let scenario = try await explorer.scenario(for: finding, criteria: criteria, oracle: ReferenceRP(), rerun: "passkey-conformance explore --mutant \(mutation.id)")
        #expect(scenario.check != nil, "no check fails \(mutation.id) and passes the reference:\n\(scenario.text)")
        #expect(scenario.result.verdict == .failed)
        // The file loads as a criterion file: what `run --criteria <dir>` reads.
        let loaded = CriteriaLoader().load(sources: [(path: "explore/" + scenario.fileName, bytes: Data(scenario.text.utf8))], root: "explore")
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        print("\(mutation.id): \(finding.violation.invariant.id) after \(finding.index + 1) histories; \(finding.original.steps.count) → \(finding.shrunk.steps.count) steps: \(finding.shrunk.steps)")
    }
}
