import ConformanceKit
import ConformanceSelfTest
import ConformanceTestSupport
import Foundation
@testable import ReferenceRP
import Testing

/// The seed paths no other scenario drove: an answer lost after the server committed, another RP
/// ID, a malformed response, a credential id registered twice, the rate window across RPs. Each
/// mutant fails the items it names where the reference passes, in two forms, and the designs a
/// lost answer touches (a retry, a replay answered with the same success) pass.
@Suite("Seed paths: lost answers, another RP ID, malformed responses, duplicate ids, every RP")
struct SeedPathTests {
    static let mutants = Mutation.lostAnswerMutants + Mutation.seedPathMutants

    @Test("each seed-path mutant fails every verify item it names; the reference passes the same test cases", arguments: mutants)
    func killedWhereTheReferencePasses(_ mutation: Mutation) async throws {
        let reference = try await PathProofTests.run(ReferenceRP(), mutation.criterion, mutation.verifyItems)
        #expect(reference.allSatisfy { $0.verdict == .passed }, "\(PathProofTests.describe(reference.filter { $0.verdict != .passed }))")
        let mutant = try await PathProofTests.run(ReferenceRP(mutation: mutation), mutation.criterion, mutation.verifyItems)
        let failed = Set(mutant.filter { $0.verdict == .failed }.flatMap(\.verifyItems))
        for item in mutation.verifyItems { #expect(failed.contains(item), "\(mutation.id) did not fail \(item)") }
    }

    @Test("every item the seed-path mutants name is broken in two forms, each mutant a form of its own")
    func twoForms() {
        let items = Array(Set(Self.mutants.flatMap(\.verifyItems))).sorted()
        for entry in SelfTest.itemForms(items) { #expect(entry.forms.count >= 2, "\(entry.item): \(entry.forms)") }
        #expect(Set(Self.mutants.map(\.form)).count == Self.mutants.count)
    }

    @Test(
        "an app that resubmits after a lost answer, whatever its server answers the replay, passes the lost-answer items (F-retry)",
        arguments: [
            "submission-retries=1;replay-answer=same-success", "submission-retries=3;replay-answer=refuse", "submission-retries=3;replay-answer=same-success",
            "submission-retries=2;replay-answer=refuse;unusable-list=skip", "submission-retries=0;replay-answer=same-success;coalesce-ms=0",
        ])
    func resubmittingDesignsPass(_ knobs: String) async throws {
        let design = try ReferenceDesign.parse("knobs:" + knobs)
        for target: TargetID in ["android-15-gpm", "apple-26.2"] {
            let unknown = try await PathProofTests.run(ReferenceRP(design: design), "N3.2-AC02", ["N3.2-AC02.V6"], target: target)
            #expect(unknown.allSatisfy { $0.verdict == .passed }, "\(knobs) on \(target): \(PathProofTests.describe(unknown))")
            let lists = try await PathProofTests.run(ReferenceRP(design: design), "N3.2-AC04", ["N3.2-AC04.V3", "N3.2-AC04.V4"], target: target)
            #expect(lists.allSatisfy { $0.verdict == .passed }, "\(knobs) on \(target): \(PathProofTests.describe(lists))")
            let upgrade = try await PathProofTests.run(ReferenceRP(design: design), "N2.6-AC05", ["N2.6-AC05.V7"], target: target)
            #expect(upgrade.allSatisfy { $0.verdict == .passed }, "\(knobs) on \(target): \(PathProofTests.describe(upgrade))")
        }
    }

    @Test("the server's replay answer is the design's: the same success, or a refusal")
    func replayAnswerKnob() throws {
        #expect(ReferenceDesign.reference.replayAnswer == .refuse)
        #expect(try ReferenceDesign.parse("knobs:replay-answer=same-success").replayAnswer == .sameSuccess)
        #expect(ReferenceDesign.knobs.first { $0.name == "replay-answer" }?.freedom == "F-retry")
        let fixed = try #require(ReferenceDesign.variants.first { $0.id == "resubmit-same-success" })
        #expect(fixed.replayAnswer == .sameSuccess && fixed.submissionRetries == 1)
        #expect(!Mutation.unknownAfterRefusedAssertionRetry.applies(to: fixed), "its replay is never refused")
        #expect(Mutation.emptyListWhenAnswerLost.applies(to: fixed))
    }
}
