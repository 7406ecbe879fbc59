import ConformanceKit
import ConformanceTestSupport
import Foundation
@testable import ReferenceRP
import Testing

/// The safety monitors judge every test case, not only their own criterion's: each one fails a
/// mutant in a scenario written for another criterion, where the reference breaks none, and the
/// breach fails a test case of the monitor's own criterion.
@Suite("Safety monitors: each fails a mutant in a scenario of another criterion")
struct SafetyMonitorTests {
    static let loaded = CriterionText.packageCriteria()

    /// A monitor, a mutant it must catch, and where: a criterion of the suite other than the
    /// monitor's on one target, or a scenario a test writes under a criterion of its own.
    struct Case: Sendable, CustomTestStringConvertible {
        var monitor: String
        var mutant: Mutation
        var criterion: CriterionID
        var target: String
        /// Steps of a scenario under the test's own criterion `N9.9-AC01`, where no scenario of
        /// the suite but the monitor's own drives the path.
        var steps: [String]? = nil
        var testDescription: String { "\(monitor) catches \(mutant.id) in \(criterion) on \(target)" }
    }

    static let cases: [Case] = [
        Case(monitor: "request-only-after-complete-sign-in", mutant: .upgradeAfterRecovery, criterion: "N2.6-AC05", target: "android-15-gpm"),
        Case(monitor: "request-for-signed-in-account", mutant: .accountIDAsUserHandle, criterion: "N2.6-AC01", target: "apple-18"),
        Case(monitor: "request-excludes-known-passkeys", mutant: .noExclusionList, criterion: "N2.6-AC03", target: "android-15-gpm"),
        Case(monitor: "one-request-per-qualifying-sign-in", mutant: .doubleRequest, criterion: "N2.6-AC01", target: "android-15-gpm"),
        Case(
            monitor: "failure-recorded-under-its-class", mutant: .silentUnexpectedFailure, criterion: "N2.6-AC01",
            target: "android-15-gpm-play-25.12"),
        Case(
            monitor: "no-modal-sheet-after-declined-upgrade", mutant: .modalSheetAfterFailure, criterion: "N2.6-AC01",
            target: "apple-18-third-party-no-conditional"),
        Case(
            monitor: "no-stale-credential-stored", mutant: .lateResponseToOriginalAccount, criterion: "N9.9-AC01", target: "android-15-gpm",
            steps: [
                "Given an account \"alice\" with the sign-in policy \"password only\"",
                "And an account \"bob\" with the sign-in policy \"password only\"",
                "And the credential manager holds a saved password for \"alice\"",
                "And the credential manager holds a saved password for \"bob\"",
                "And the credential manager holds every registration response until it is released",
                "When the user signs in as \"alice\" with the autofilled password",
                "And the user switches to \"bob\" with the autofilled password",
                "And the first held registration response is released",
                "Then the app has nothing left scheduled",
            ]),
        Case(
            monitor: "up-waived-only-for-conditional", mutant: .neverCheckUserPresence, criterion: "N9.9-AC01", target: "apple-18",
            steps: [
                "Given an account \"alice\" with the sign-in policy \"password only\"",
                "And the authenticator reports the flags \"UP=0 UV=0 BE=1 BS=1\"",
                "When the user signs in as \"alice\" typing the password by hand",
                "And the user creates a passkey from the app's settings",
                "Then the app has nothing left scheduled",
            ]),
        Case(monitor: "no-unavailable-signal-interface", mutant: .noRuntimeCheck, criterion: "N2.6-AC01", target: "apple-18"),
        Case(monitor: "unknown-only-for-unknown-ids", mutant: .unknownForLastPasskey, criterion: "N3.2-AC04", target: "android-15-gpm"),
        Case(monitor: "signals-only-while-signed-in", mutant: .pendingWorkAfterSignOut, criterion: "N2.6-AC03", target: "android-15-gpm"),
        Case(monitor: "accepted-list-is-server-list", mutant: .includeRevokedInList, criterion: "N3.2-AC03", target: "android-15-gpm"),
        Case(
            monitor: "android-rate-window", mutant: .ignoreRateLimit, criterion: "N9.9-AC01", target: "android-15-gpm",
            steps: [
                "Given an account \"alice\" with the sign-in policy \"password only\"",
                "And \"alice\" signs in with the password",
                "When the user changes the account's name 14 times, 5 seconds apart",
                "Then the app has nothing left scheduled",
            ]),
        Case(monitor: "retry-not-before-retry-millis", mutant: .retryEarly, criterion: "N3.2-AC03", target: "android-15-gpm"),
        Case(monitor: "signal-names-account-rp-id", mutant: .signalOriginAsRPID, criterion: "N2.6-AC01", target: "android-15-gpm"),
        Case(monitor: "signal-ids-exact", mutant: .appleBase64TextData, criterion: "N3.2-AC03", target: "apple-26.2"),
        Case(monitor: "user-details-are-server-details", mutant: .renameBlankUnchangedField, criterion: "N3.2-AC01", target: "android-15-gpm"),
        Case(monitor: "no-provider-claim", mutant: .claimProviderRemoval, criterion: "N3.2-AC01", target: "android-15-gpm"),
    ]

    /// The criteria and the filter of a case: the suite's criterion, or the test's own beside the suite.
    static func plan(_ testCase: Case) throws -> (criteria: [Criterion], filter: TestPlan.Filter) {
        let filter = TestPlan.Filter(criteria: [CriterionSelector(testCase.criterion)], targets: [TargetID(rawValue: testCase.target)])
        guard let steps = testCase.steps else { return (loaded.criteria, filter) }
        let text = CriterionText.criterion(scenarios: [CriterionText.Scenario("A path another criterion's scenario drives", steps: steps)])
        let own = CriterionText.load([("N9.9-AC01.feature", text)])
        try #require(own.diagnostics.isEmpty, "\(own.diagnostics)")
        return (own.criteria + loaded.criteria, filter)
    }

    static func run(_ adapter: ReferenceRP, _ testCase: Case) async throws -> RunResult {
        let (criteria, filter) = try plan(testCase)
        return try await Suite.run(criteria: criteria, digest: loaded.digest, adapter: adapter, transport: "in-process", filter: filter)
    }

    @Test("the monitor catches the mutant outside its criterion and fails its own criterion's item", arguments: cases)
    func catchesElsewhere(_ testCase: Case) async throws {
        let monitor = try #require(SafetyMonitor.all.first { $0.id == testCase.monitor })
        #expect(monitor.criterion != testCase.criterion)
        let reference = try await Self.run(ReferenceRP(), testCase)
        #expect(!reference.testCases.isEmpty)
        let breaches = reference.testCases.flatMap(\.violations).map(\.message)
        #expect(breaches.isEmpty, "\(breaches)")

        let mutant = try await Self.run(ReferenceRP(mutation: testCase.mutant), testCase)
        let seen = mutant.testCases.filter { $0.violations.contains { $0.monitor == monitor.id } }
        try #require(!seen.isEmpty, "no test case of \(testCase.criterion) saw a breach of \(monitor.id)")
        #expect(seen.allSatisfy { $0.criterionID == testCase.criterion })
        // Each finding names the transcript entry of its call, kept as evidence.
        for result in seen {
            for violation in result.violations where violation.monitor == monitor.id {
                #expect(monitor.items.contains(violation.item))
                #expect(result.evidence.contains { $0.sequence == violation.sequence }, "\(violation.message)")
            }
        }
        // Folded into the monitor's own criterion: a failed test case there, naming where it was seen.
        let info = try #require(Self.loaded.criteria.first { $0.info.id == monitor.criterion }?.info)
        let folded = RunResult.monitorCases(mutant.testCases, criteria: [info])
        let own = try #require(folded.first { $0.id == "\(monitor.criterion)/monitor:\(monitor.id)@\(testCase.target)" })
        #expect(own.verdict == .failed)
        #expect(own.criterionID == monitor.criterion)
        #expect(own.message?.contains(seen[0].id) == true)
        #expect(own.verdictInconsistency() == nil)
    }

    @Test("every monitor is shown to catch a mutant outside its criterion")
    func everyMonitorShown() {
        #expect(Set(Self.cases.map(\.monitor)) == Set(SafetyMonitor.all.map(\.id)))
        #expect(Set(SafetyMonitor.all.map(\.id)).count == SafetyMonitor.all.count)
    }

    @Test("a run folds the findings into the monitor's criterion, and folding again derives the same run")
    func foldsIntoTheMonitorsCriterion() async throws {
        let filter = TestPlan.Filter(criteria: [CriterionSelector("N2.6-AC03"), CriterionSelector("N3.2-AC03")], targets: ["android-15-gpm"])
        let run = try await Suite.run(
            criteria: Self.loaded.criteria, digest: Self.loaded.digest, adapter: ReferenceRP(mutation: .pendingWorkAfterSignOut), transport: "in-process",
            filter: filter)
        let monitorCases = run.testCases.filter(\.isMonitorCase)
        #expect(monitorCases.map(\.id) == ["N3.2-AC03/monitor:signals-only-while-signed-in@android-15-gpm"])
        #expect(run.criteria.first { $0.criterion.id == "N3.2-AC03" }?.verdict == .failed)
        // The N2.6-AC03 test cases that saw it keep their own verdicts: the breach is N3.2-AC03's.
        #expect(run.criteria.first { $0.criterion.id == "N2.6-AC03" }?.verdict == .passed)
        let again = RunResult.folding(criteria: run.criteria.map(\.criterion), results: run.testCases, metadata: run.metadata, wallSeconds: run.wallSeconds)
        #expect(again == run)
    }
}
