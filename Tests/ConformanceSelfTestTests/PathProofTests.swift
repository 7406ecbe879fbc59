import ConformanceExplore
import ConformanceKit
import ConformanceSelfTest
import ConformanceTestSupport
import Foundation
@testable import ReferenceRP
import Testing

/// Path proofs and controls: a trigger proves it happened, a refusal proves its reason, and a
/// control that fails for a fault another criterion judges leaves its items *not verified* with a
/// pointer to that criterion, never failed. Each test runs the package's criteria on one target.
@Suite("Path proofs and controls")
struct PathProofTests {
    static let loaded = CriterionText.packageCriteria()

    /// The test cases of `items` of `criterion` on one target against `adapter`.
    static func run(_ adapter: ReferenceRP, _ criterion: CriterionID, _ items: [VerifyItemID], target: TargetID = "android-15-gpm") async throws
        -> [TestCaseResult]
    {
        let tags = try TagExpression.parse(items.map { "@verify:\($0)" }.joined(separator: " or "))
        let filter = TestPlan.Filter(tags: tags, criteria: [CriterionSelector(criterion)], targets: [target])
        let run = try await Suite.run(criteria: loaded.criteria, digest: loaded.digest, adapter: adapter, transport: "in-process", filter: filter)
        #expect(!run.testCases.isEmpty, "no test case of \(items) on \(target)")
        return run.testCases
    }

    static func describe(_ cases: [TestCaseResult]) -> String {
        cases.map { "\($0.id) \($0.verdict): \($0.message ?? "")" }.joined(separator: "\n")
    }

    // MARK: The path-proof mutants

    @Test("each path-proof mutant fails every verify item it names; the reference passes the same test cases", arguments: Mutation.pathFormMutants)
    func killedWhereTheReferencePasses(_ mutation: Mutation) async throws {
        let reference = try await Self.run(ReferenceRP(), mutation.criterion, mutation.verifyItems)
        #expect(reference.allSatisfy { $0.verdict == .passed }, "\(Self.describe(reference.filter { $0.verdict != .passed }))")
        let mutant = try await Self.run(ReferenceRP(mutation: mutation), mutation.criterion, mutation.verifyItems)
        let failed = Set(mutant.filter { $0.verdict == .failed }.flatMap(\.verifyItems))
        for item in mutation.verifyItems { #expect(failed.contains(item), "\(mutation.id) did not fail \(item)") }
    }

    @Test("every item the path-proof mutants name is broken in two forms, each form its own")
    func twoForms() {
        let items = Array(Set(Mutation.pathFormMutants.flatMap(\.verifyItems))).sorted()
        for entry in SelfTest.itemForms(items) { #expect(entry.forms.count >= 2, "\(entry.item): \(entry.forms)") }
        #expect(Set(Mutation.pathFormMutants.map(\.form)).count == Mutation.pathFormMutants.count)
    }

    // MARK: A recurring timer never stands in for a trigger

    @Test("a periodic-only app fails the triggers' count, saying its lists are its own schedule")
    func periodicOnlyCaught() async throws {
        for mutation in [Mutation.periodicOnlyHourly, .periodicOnlyEvery5Minutes] {
            let cases = try await Self.run(ReferenceRP(mutation: mutation), "N3.2-AC03", ["N3.2-AC03.V1", "N3.2-AC03.V3", "N3.2-AC03.V4"])
            let failed = cases.filter { $0.verdict == .failed }
            #expect(failed.count == cases.count, "\(mutation.id): \(Self.describe(cases))")
            #expect(failed.allSatisfy { $0.message?.contains("the app's own schedule") == true }, "\(Self.describe(failed))")
        }
        let list = try await Self.run(ReferenceRP(mutation: .periodicOnlyHourly), "N3.2-AC04", ["N3.2-AC04.V6"])
        #expect(list.contains { $0.verdict == .failed }, "\(Self.describe(list))")
    }

    @Test(
        "a recurring reconciliation beside the triggers (F-schedule) and any coalescing window (F-coalesce) pass the triggers' count",
        arguments: [
            "reconcile-every-ms=3600000", "reconcile-every-ms=43200000;reconcile-at-every-sign-in=true", "coalesce-ms=120000;debounce=true",
            "batch-to-refresh-ms=21600000;reconcile-every-ms=3600000", "coalesce-ms=0;reconcile-at-foreground=true",
        ])
    func schedulesAndWindowsPass(_ knobs: String) async throws {
        let design = try ReferenceDesign.parse("knobs:" + knobs)
        for target: TargetID in ["android-15-gpm", "apple-26.2"] {
            let signals = try await Self.run(
                ReferenceRP(design: design), "N3.2-AC03", ["N3.2-AC03.V1", "N3.2-AC03.V3", "N3.2-AC03.V4", "N3.2-AC03.V6"], target: target)
            #expect(signals.allSatisfy { $0.verdict == .passed }, "\(knobs) on \(target): \(Self.describe(signals))")
            let lists = try await Self.run(ReferenceRP(design: design), "N3.2-AC04", ["N3.2-AC04.V6"], target: target)
            #expect(lists.allSatisfy { $0.verdict == .passed }, "\(knobs) on \(target): \(Self.describe(lists))")
        }
    }

    // MARK: Controls guard, they do not blame

    @Test(
        "a server that refuses the upgrade's UP=0 registration leaves the controls of N2.6-AC05 and AC06 not verified with a pointer to N2.6-X01",
        arguments: [Mutation.requireUserPresence, .requireUserVerification, .rejectBackupEligible])
    func upgradeControlsPointAtX01(_ mutation: Mutation) async throws {
        let upgrade = try await Self.run(ReferenceRP(mutation: mutation), "N2.6-AC05", ["N2.6-AC05.V1", "N2.6-AC05.V4", "N2.6-AC05.V5"])
        let release = try await Self.run(ReferenceRP(mutation: mutation), "N2.6-AC06", ["N2.6-AC06.V4"])
        for testCase in (upgrade + release).filter({ $0.verdict != .passed }) {
            #expect(testCase.verdict == .notVerified, "\(testCase.id): \(testCase.message ?? "")")
            #expect(testCase.message?.contains("see N2.6-X01") == true, "\(testCase.id): \(testCase.message ?? "")")
        }
        #expect(upgrade.contains { $0.verdict == .notVerified } && release.contains { $0.verdict == .notVerified }, "\(Self.describe(upgrade + release))")
        // The cause is counted once, where it belongs.
        let own = try await Self.run(ReferenceRP(mutation: mutation), "N2.6-X01", ["N2.6-X01.X01"])
        #expect(own.contains { $0.verdict == .failed }, "\(Self.describe(own))")
    }

    @Test(
        "a released response the app drops or the server refuses for its age still fails N2.6-AC06's control",
        arguments: [
            Mutation.dropRegistrationResponses, .registrationExpiredAtOnce,
        ])
    func ownControlFailureStillFails(_ mutation: Mutation) async throws {
        let cases = try await Self.run(ReferenceRP(mutation: mutation), "N2.6-AC06", ["N2.6-AC06.V4"])
        #expect(cases.contains { $0.verdict == .failed }, "\(Self.describe(cases))")
        #expect(cases.allSatisfy { $0.message?.contains("see N2.6-X01") != true }, "\(Self.describe(cases))")
    }

    @Test("a creation the server refuses for its flags leaves N3.2-AC03.V1 and N2.6-AC05.V8's control not verified, pointing at N2.6-X01")
    func creationProofPointsAtX01() async throws {
        let signals = try await Self.run(ReferenceRP(mutation: .rejectBackupEligible), "N3.2-AC03", ["N3.2-AC03.V1"])
        let sheet = try await Self.run(ReferenceRP(mutation: .rejectBackupEligible), "N2.6-AC05", ["N2.6-AC05.V8"])
        let creations = (signals + sheet).filter { $0.verdict != .passed }
        #expect(!creations.isEmpty && signals.allSatisfy { $0.verdict == .notVerified }, "\(Self.describe(signals + sheet))")
        for testCase in creations {
            #expect(testCase.verdict == .notVerified)
            #expect(
                testCase.message?.contains("for its flags (BE=1 BS=1)") == true && testCase.message?.contains("see N2.6-X01") == true,
                "\(testCase.message ?? "")")
        }
    }

    @Test("a revocation that never reaches the server leaves N3.2-AC03's revocation items not verified, pointing at N3.2-AC01")
    func revocationProofPointsAtAC01() async throws {
        let cases = try await Self.run(ReferenceRP(mutation: .revokeBySignalOnly), "N3.2-AC03", ["N3.2-AC03.V3", "N3.2-AC03.V6"])
        #expect(cases.allSatisfy { $0.verdict == .notVerified }, "\(Self.describe(cases))")
        #expect(cases.allSatisfy { $0.message?.contains("see N3.2-AC01.V1") == true }, "\(Self.describe(cases))")
    }

    @Test("N3.2-AC03.V2's rejected creation rests on no recommendation: servers that waive UP for modal options pass it; a signal after the rejection fails it")
    func rejectedCreationNeedsNoRecommendation() async throws {
        for mutation in [Mutation.neverCheckUserPresence, .waiveUserPresenceBySession] {
            let cases = try await Self.run(ReferenceRP(mutation: mutation), "N3.2-AC03", ["N3.2-AC03.V2"])
            #expect(cases.allSatisfy { $0.verdict == .passed }, "\(mutation.id): \(Self.describe(cases))")
            // N2.6-X02 still catches them, at its own level.
            let own = try await Self.run(ReferenceRP(mutation: mutation), "N2.6-X02", ["N2.6-X02.X02"])
            #expect(own.contains { $0.verdict == .failed }, "\(mutation.id): \(Self.describe(own))")
        }
        for mutation in [Mutation.reconcileAfterRejectedCreate, .reconcileLaterAfterRejectedCreate] {
            let cases = try await Self.run(ReferenceRP(mutation: mutation), "N3.2-AC03", ["N3.2-AC03.V2"])
            #expect(cases.contains { $0.verdict == .failed && $0.id.contains("server rejects") }, "\(mutation.id): \(Self.describe(cases))")
        }
    }

    // MARK: A refusal proves its reason

    @Test("an app that refuses every passkey sign-in for a reason of its own leaves the negative items not verified, never passed")
    func refusalForAnotherReason() async throws {
        // Every challenge is already expired when the response arrives: the app refuses every sign-in, whatever was built.
        let design = ReferenceDesign(id: "refuses-every-sign-in", summary: "every challenge expires at once") { $0.challengeLifetimeMillis = -1 }
        let cases = try await Self.run(ReferenceRP(design: design), "N3.2-AC02", ["N3.2-AC02.V3", "N3.2-AC02.V4"])
        #expect(cases.allSatisfy { $0.verdict == .notVerified }, "\(Self.describe(cases))")
        #expect(cases.allSatisfy { $0.message?.contains("it also refuses a valid one") == true }, "\(Self.describe(cases))")
        let reference = try await Self.run(ReferenceRP(), "N3.2-AC02", ["N3.2-AC02.V3", "N3.2-AC02.V4"])
        #expect(reference.allSatisfy { $0.verdict == .passed }, "\(Self.describe(reference))")
    }

    static let twoCauses = """
        @criterion:N3.2-AC02 @level:core @group:N3.2 @requires:signals @needs:passkey-sign-in
        Feature: N3.2-AC02 Two causes
          Statement:
            A test of one path proof.
          Verification:
            One scenario.
          Items:
            V1: the path
          Source: N3.2-AC02, test

          @verify:N3.2-AC02.V1
          Scenario: A restricted account's passkey with an invalid signature
            Given an account "alice" with the sign-in policy "password only"
            And "alice" has 1 passkey in the credential manager
            And a restricted account "bob"
            And "bob" has 1 passkey in the credential manager
            When the user signs in with a passkey of "bob" whose signature is invalid
            Then the sign-in took the path: the platform returned the assertion and the app refused it
            And no signal has been sent
        """

    @Test("a refusal with two causes built in proves neither item's path")
    func twoCausesProveNothing() async throws {
        let result = try #require(
            await ExploreScenario.runFile(Self.twoCauses, fileName: "N3.2-AC02.feature", target: "android-15-gpm", adapter: ReferenceRP(), seed: 1))
        #expect(result.verdict == .notVerified, "\(result.message ?? "")")
        #expect(result.message?.contains("more than one possible reason") == true, "\(result.message ?? "")")
    }
}
