import ConformanceExplore
import ConformanceKit
import ConformanceSelfTest
import ConformanceTestSupport
import Foundation
@testable import ReferenceRP
import Testing

/// N3.2 encoding, interface, lookup and rename demands broken in a second form: the items have two
/// forms each, and the check of the product account id sees it in Android's userId however it is
/// written.
@Suite("N3.2 encoding forms")
struct EncodingFormTests {
    static let items: [VerifyItemID] = [
        "N3.2-AC02.V8", "N3.2-AC06.V1", "N3.2-AC06.V2", "N3.2-AC06.V3", "N3.2-AC06.V4", "N3.2-AC09.V1", "N3.2-AC09.V3", "N3.2-AC09.V4",
        "N3.2-AC10.V3",
    ]

    @Test("each encoding, interface, lookup and rename item is broken by mutants in two forms")
    func twoForms() {
        for entry in SelfTest.itemForms(Self.items) {
            #expect(entry.forms.count >= 2, "\(entry.item): \(entry.forms)")
        }
        let forms = Set(Mutation.encodingFormMutants.map(\.form))
        #expect(forms.count == Mutation.encodingFormMutants.count, "the second forms share a name")
    }

    static let accountIDCheck = """
        @criterion:N3.2-AC09 @level:core @group:N3.2 @requires:signals @needs:refresh-point @needs:rename
        Feature: N3.2-AC09 Account id forms
          Statement:
            A test of one obligation.
          Verification:
            One scenario.
          Items:
            V1: the obligation
          Source: N3.2-AC09, test

          @verify:N3.2-AC09.V1
          Scenario: The user handle is never the product account id
            Given an account "alice" with the sign-in policy "password only"
            And "alice" has 2 passkeys in the credential manager
            And "alice" signs in with the password
            And the app has nothing left scheduled
            When the app reaches its refresh point
            And the user changes the account's name to "alice.new@example.com" and its display name to "-"
            Then at least one signal has been sent
            And no signal carries a product account id as its user handle
        """

    static func run(_ adapter: ReferenceRP) async throws -> TestCaseResult {
        try #require(
            await ExploreScenario.runFile(Self.accountIDCheck, fileName: "N3.2-AC09.feature", target: "android-15-gpm", adapter: adapter, seed: 1))
    }

    @Test("an Android userId holding the account id's own text fails, whatever the account ids look like; the reference passes")
    func accountIDAsText() async throws {
        for form in ["prefixed", "short-numeric", "uuid"] {
            let design = try ReferenceDesign.parse("knobs:account-ids=\(form)")
            let failed = try await Self.run(ReferenceRP(mutation: .androidAccountIDText, design: design))
            #expect(failed.verdict == .failed, "\(form): \(failed.message ?? "")")
            #expect(failed.message?.contains("product account id as user handle") == true, "\(failed.message ?? "")")
            let passed = try await Self.run(ReferenceRP(design: design))
            #expect(passed.verdict == .passed, "\(form): \(passed.message ?? "")")
        }
    }
}
