import ConformanceExplore
import ConformanceKit
import ConformanceTestSupport
import Foundation
import ReferenceRP
import Testing

/// The moment after a sign-in (`World.giveUpgradeItsMoment`): an app may ask for the automatic
/// upgrade a few seconds after the sign-in, and the user's next action does not pre-empt it.
@Suite("The moment after a sign-in")
struct UpgradeMomentTests {
    static let design = ReferenceDesign.variants.first { $0.id == "upgrade-after-3s" }!

    /// Signs in and out at once, then checks the one request and its promptness.
    static let scenario = """
        @criterion:N2.6-AC05 @level:core @group:N2.6 @requires:conditional-create-api
        Feature: N2.6-AC05 The moment after a sign-in
          Statement:
            One conditional request promptly after the sign-in.
          Verification:
            Sign in and out at once.
          Items:
            V1: exactly one request, promptly
          Source: N2.6-AC05, test

          Background:
            Given an account "alice" with the sign-in policy "password only"
            And the credential manager holds a saved password for "alice"

          @verify:N2.6-AC05.V1
          Scenario: A sign-out right after the sign-in
            When the user signs in as "alice" with the autofilled password
            And the user signs out
            Then exactly 1 conditional registration request has been issued for "alice"
            And the registration request followed the sign-in promptly
        """

    static func run(_ adapter: ReferenceRP, target: String = "apple-18") async throws -> TestCaseResult {
        try #require(await ExploreScenario.runFile(scenario, fileName: "N2.6-AC05.feature", target: target, adapter: adapter, seed: 1))
    }

    @Test("an app that asks 3 s after the sign-in passes, on Apple and on Android", arguments: ["apple-18", "android-15-gpm"])
    func delayedConforming(target: String) async throws {
        let result = try await Self.run(ReferenceRP(design: Self.design), target: target)
        #expect(result.verdict == .passed, "\(result.message ?? "")")
    }

    @Test("an app that asks at once passes with no moment and no time passing before the sign-out")
    func immediate() async throws {
        let result = try await Self.run(ReferenceRP())
        #expect(result.verdict == .passed, "\(result.message ?? "")")
        // The same scenario with a second request, to read the transcript of the failure.
        let failing = try await Self.run(ReferenceRP(mutation: .doubleRequest))
        #expect(failing.verdict == .failed)
        #expect(!failing.evidence.contains { $0.name == "clock.upgradeMoment" })
        let signOut = try #require(failing.evidence.first { $0.name == "user.sign-out" })
        #expect(signOut.atMillis == 0)
    }

    @Test("the moment ends at the app's request: the sign-out comes 3 s later, nothing else runs first")
    func momentEndsAtRequest() async throws {
        let failing = try await Self.run(ReferenceRP(mutation: .doubleRequest, design: Self.design))
        #expect(failing.verdict == .failed, "a doubled request must still fail under the design")
        let moment = try #require(failing.evidence.first { $0.name == "clock.upgradeMoment" })
        let signIn = try #require(failing.evidence.first { $0.name == "user.password-sign-in" })
        let signOut = try #require(failing.evidence.first { $0.name == "user.sign-out" })
        #expect(moment.atMillis == 0 && moment.sequence > signIn.sequence)
        #expect(signOut.atMillis == 3_000)
        let fired = failing.evidence.filter { $0.name == "session.timerFired" && $0.sequence < signOut.sequence }
        #expect(fired.count == 1, "\(fired.map(\.summary))")
    }

    @Test("a request later than the autofill window is not waited for: 10 minutes fails")
    func tooLate() async throws {
        let result = try await Self.run(ReferenceRP(mutation: .delayedUpgrade))
        #expect(result.verdict == .failed)
        let signOut = try #require(result.evidence.first { $0.name == "user.sign-out" })
        #expect(signOut.atMillis == 0, "the moment must not run a timer due after the window")
    }
}
