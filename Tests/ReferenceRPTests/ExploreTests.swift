import ConformanceExplore
import ConformanceKit
import ConformanceTestSupport
import Foundation
import ReferenceRP
import Synchronization
import Testing

@Suite("explore")
struct ExploreTests {
    /// The reference and the designs whose timing differs most from it (a challenge that expires
    /// before a response held half a minute arrives, among them); CI runs every design in release
    /// (`Scripts/explore-bench.sh`, which fails on any violation).
    static let sampledIDs: Set<DesignID> = ["reference", "upgrade-after-3s", "debounce-5s", "batch-to-next-refresh", "challenge-30s"]
    static let sampledDesigns = ReferenceDesign.all.filter { sampledIDs.contains($0.id) }

    @Test("every sampled design exists, so the test below runs for each of them")
    func sampledDesignsExist() {
        #expect(Set(Self.sampledDesigns.map(\.id)) == Self.sampledIDs)
    }

    @Test("the reference RP and the conforming designs of other timing break no invariant", arguments: sampledDesigns)
    func noFalseAlarm(design: ReferenceDesign) async throws {
        let report = try await withTaskExecutorPreference(DedicatedExecutor.heavy) {
            try await Explorer(adapter: ReferenceRP(design: design), seed: 7).explore(budget: 150)
        }
        #expect(
            report.finding == nil,
            "\(design.id): \(report.finding.map { "\($0.violation.invariant.id): \($0.violation.message) in \($0.shrunk.steps.map(\.sentence))" } ?? "")"
        )
        #expect(report.histories == 150)
    }

    /// Mutants whose defect breaks an invariant of another criterion first, which it breaks too:
    /// a server that requires user presence stores no automatic upgrade (N2.6-AC06's live control).
    /// An app that never upgrades, or holds the request back from an account with a passkey, owes
    /// every qualifying sign-in its request (N2.6-AC05.V1).
    static let foundUnder: [Mutation: CriterionID] = [
        .requireUserPresence: "N2.6-AC06", .neverUpgrade: "N2.6-AC05", .skipUpgradeForPasskeyHolders: "N2.6-AC05",
    ]

    /// One mutant of each kind of invariant (request timing, request content, late responses,
    /// signal content, rate limits, representations), for the debug test run;
    /// `Scripts/explore-bench.sh --mutants` explores every mutant in release.
    static let sampledFound: [Mutation] = [
        .upgradeBeforeSecondFactor, .noExclusionList, .doubleRequest, .lateResponseToCurrentAccount, .unknownOnRevoked, .retryEarly,
        .androidStandardBase64, .requireUserPresence,
    ]

    @Test(
        "explore finds a mutant within the default budget, shrinks it to a few steps, and the scenario fails the mutant and passes the reference",
        arguments: sampledFound)
    func findsMutant(mutation: Mutation) async throws {
        try await withTaskExecutorPreference(DedicatedExecutor.heavy) { try await Self.findsMutantHere(mutation: mutation) }
    }

    static func findsMutantHere(mutation: Mutation) async throws {
        let explorer = Explorer(adapter: ReferenceRP(mutation: mutation), seed: 1)
        let report = try await explorer.explore(budget: 1000)
        let finding = try #require(report.finding, "\(mutation.id) not found in \(report.histories) histories")
        #expect(finding.violation.invariant.criterion == foundUnder[mutation] ?? mutation.criterion, "\(finding.violation.invariant.id)")
        #expect(finding.shrunk.steps.count <= 6, "\(finding.shrunk.steps)")
        let criteria = CriteriaLoader().load(root: PackagePaths.root.appendingPathComponent("Criteria").path).criteria
        let scenario = try await explorer.scenario(
            for: finding, criteria: criteria, oracle: ReferenceRP(), rerun: "passkey-conformance explore --mutant \(mutation.id)")
        #expect(scenario.check != nil, "no check fails \(mutation.id) and passes the reference:\n\(scenario.text)")
        #expect(scenario.result.verdict == .failed)
        // The file as `run --criteria <dir>` reads it: it loads, fails the mutant and passes the reference.
        let loaded = CriteriaLoader().load(sources: [(path: "explore/" + scenario.fileName, bytes: Data(scenario.text.utf8))], root: "explore")
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        let onMutant = try await ExploreScenario.runFile(
            scenario.text, fileName: scenario.fileName, target: finding.shrunk.target, adapter: ReferenceRP(mutation: mutation), seed: 1)
        let onReference = try await ExploreScenario.runFile(
            scenario.text, fileName: scenario.fileName, target: finding.shrunk.target, adapter: ReferenceRP(), seed: 1)
        #expect(onMutant?.verdict == .failed, "\(onMutant?.message ?? "no test case")")
        #expect(onReference?.verdict == .passed, "\(onReference?.message ?? "no test case")")
        print(
            "\(mutation.id): \(finding.violation.invariant.id) after \(finding.index + 1) histories; \(finding.original.steps.count) → \(finding.shrunk.steps.count) steps: \(finding.shrunk.steps.map(\.sentence))"
        )
    }

    @Test("several histories at once give the sequential run's finding, history count, steps and shrunk scenario")
    func jobsGiveTheSequentialRun() async throws {
        try await withTaskExecutorPreference(DedicatedExecutor.heavy) {
            func explore(_ mutation: Mutation?, jobs: Int, budget: Int) async throws -> Explorer.Report {
                var explorer = Explorer(adapter: ReferenceRP(mutation: mutation), seed: 1)
                explorer.jobs = jobs
                return try await explorer.explore(budget: budget)
            }
            let one = try await explore(.retryEarly, jobs: 1, budget: 1000)
            let four = try await explore(.retryEarly, jobs: 4, budget: 1000)
            let finding = try #require(one.finding)
            #expect(one.histories == four.histories && one.steps == four.steps)
            #expect(finding.index == four.finding?.index && finding.replays == four.finding?.replays)
            #expect(finding.shrunk == four.finding?.shrunk && finding.violation.message == four.finding?.violation.message)
            let clean = try await explore(nil, jobs: 1, budget: 40)
            let cleanThree = try await explore(nil, jobs: 3, budget: 40)
            #expect(clean.histories == 40 && cleanThree.histories == 40 && clean.steps == cleanThree.steps)
        }
    }

    /// The reference RP, except that the `failing`-th session opened fails.
    final class FailingOpen: RelyingPartyAdapter {
        struct Broken: Error, Equatable {}
        let inner = ReferenceRP()
        let failing: Int
        let opened = Mutex(0)

        init(failing: Int) { self.failing = failing }

        func describe() async throws -> AdapterDescription { try await inner.describe() }

        func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
            let count = opened.withLock { count in
                count += 1
                return count
            }
            if count == failing { throw Broken() }
            return try await inner.openSession(context, host: host)
        }

        func shutdown() async { await inner.shutdown() }
    }

    @Test("a history that fails ends the run with its error, with one job or several; a spent deadline starts none; progress comes per hundred")
    func failureAndDeadlineWithJobs() async throws {
        try await withTaskExecutorPreference(DedicatedExecutor.heavy) {
            for jobs in [1, 3] {
                var explorer = Explorer(adapter: FailingOpen(failing: 7), seed: 1)
                explorer.jobs = jobs
                await #expect(throws: FailingOpen.Broken()) { _ = try await explorer.explore(budget: 40) }
                var late = Explorer(adapter: ReferenceRP(), seed: 1)
                late.jobs = jobs
                let report = try await late.explore(budget: 40, seconds: 0)
                #expect(report.histories == 0 && report.finding == nil)
                // Progress comes once for each hundred histories taken.
                let reported = Mutex<[Int]>([])
                let full = try await late.explore(budget: 250) { done, total in reported.withLock { $0.append(done * 1000 + total) } }
                #expect(full.histories == 250 && reported.withLock { $0 } == [100_250, 200_250])
            }
        }
    }
}
