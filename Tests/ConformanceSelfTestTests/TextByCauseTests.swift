import ConformanceExplore
import ConformanceKit
import ConformanceTestSupport
import Foundation
@testable import ReferenceRP
import Testing

/// What the app shows is judged by cause, then by meaning: an event is judged only when the same
/// scenario, replayed with one platform decision changed so that the cause does not happen, does
/// not show it; then it fails in any language unless the harness's reader of English excuses it.
@Suite("Text by cause, then by meaning", .heavy)
struct TextByCauseTests {
    static let upgradeBackground = """
          Background:
            Given an account "alice" with the sign-in policy "password only"
            And the credential manager holds a saved password for "alice"
        """

    static func feature(_ criterion: String, tags: String, background: String = "", _ scenario: String) -> String {
        """
        @criterion:\(criterion) @level:core @group:\(criterion.prefix(4)) \(tags)
        Feature: \(criterion) Text by cause
          Statement:
            A test of what the app shows.
          Verification:
            One scenario.
          Items:
            V1: the obligation
          Source: \(criterion), test

        \(background)

          @verify:\(criterion).V1
        \(scenario)
        """
    }

    /// N2.6-AC05.V5: no confirmation of its own after a successful upgrade.
    static let confirmation = feature(
        "N2.6-AC05", tags: "@requires:conditional-create", background: upgradeBackground,
        """
          Scenario: A successful upgrade adds no confirmation
            When the user signs in as "alice" with the autofilled password
            Then the credential manager created a passkey for "alice"
            And the app showed no confirmation of its own
        """)

    /// N2.6-AC05.V2: no error after a no-create.
    static let silentNoCreate = feature(
        "N2.6-AC05", tags: "@requires:conditional-create", background: upgradeBackground,
        """
          Scenario: A hand-typed password gets a silent no-create
            When the user signs in as "alice" typing the password by hand
            Then the credential manager declined the registration
            And the app showed no error
        """)

    /// N3.2-AC08.V1: no claim of a provider-side result.
    static let noClaim = feature(
        "N3.2-AC08", tags: "@requires:signals @needs:revocation",
        """
          Scenario: Nothing claims the credential manager acted
            Given an account "alice" with the sign-in policy "password only"
            And "alice" has 2 passkeys in the credential manager
            And the credential manager ignores signals
            And "alice" signs in with the password
            When the user revokes a passkey of "alice"
            Then at least one signal has been sent
            And the app claimed nothing about the credential manager's passkeys
        """)

    static func run(_ text: String, _ adapter: ReferenceRP, target: String = "android-15-gpm") async throws -> TestCaseResult {
        let criterion = text.contains("N3.2-AC08") ? "N3.2-AC08" : "N2.6-AC05"
        return try #require(await ExploreScenario.runFile(text, fileName: "\(criterion).feature", target: target, adapter: adapter, seed: 1))
    }

    /// A mutant made for this test: one decision overridden.
    static func showing(_ override: @escaping @Sendable (inout Decisions) -> Void) -> ReferenceRP {
        ReferenceRP(mutation: Mutation("test-only", "N2.6-AC05", ["N2.6-AC05.V5"], "a test's own text", override))
    }

    static func design(_ specification: String) throws -> ReferenceDesign { try ReferenceDesign.parse("knobs:" + specification) }

    /// The scenario that judges a mutant's text.
    static func scenario(for mutation: Mutation) -> String {
        if mutation.criterion == "N3.2-AC08" { return noClaim }
        return mutation.verifyItems.contains("N2.6-AC05.V5") ? confirmation : silentNoCreate
    }

    @Test(
        "a text shown only because of its cause fails in any language and in words no list holds",
        arguments: [
            Mutation.ownConfirmationInGerman, .ownConfirmationWithoutPasskey, .noCreateNoticeInGerman, .noCreateNoticeUnlisted,
            .providerClaimInFrench, .passkeysUpToDate, .claimAtRevocation,
        ])
    func attributedTextFails(_ mutation: Mutation) async throws {
        for target in ["android-15-gpm", "apple-26.2"] {
            let result = try await Self.run(Self.scenario(for: mutation), ReferenceRP(mutation: mutation), target: target)
            #expect(result.verdict == .failed, "\(mutation.id) on \(target): \(result.message ?? "")")
            #expect(result.message?.contains("shown only because") == true, "\(result.message ?? "")")
            #expect(result.message?.contains("harness's reading") == true, "\(result.message ?? "")")
            #expect(result.evidence.contains { $0.name == "replay.end" }, "the replay is in the evidence")
        }
    }

    @Test("the same text fails when only its cause shows it and passes when the app shows it whatever happened")
    func sameTextByCause() async throws {
        let text = "Your passkeys are up to date."
        #expect(AppText.statusLine.text(in: .english) == text)
        let always = ReferenceRP(design: try Self.design("status-line=true"))
        for scenario in [Self.confirmation, Self.silentNoCreate, Self.noClaim] {
            let result = try await Self.run(scenario, always)
            #expect(result.verdict == .passed, "\(result.message ?? "")")
        }
        // Shown at the sign-in and at the revocation, in both runs: replayed, and not attributed.
        let replayed = try await Self.run(Self.noClaim, always)
        #expect(replayed.observed.contains { $0.contains("replay.end") && $0.contains("it showed everything") }, "\(replayed.observed)")
        let byCause: [(String, ReferenceRP)] = [
            (Self.confirmation, Self.showing { $0.upgrade.ownConfirmation = UIEvent(.message, text) }),
            (Self.silentNoCreate, Self.showing { $0.upgrade.afterNoCreate = .show(UIEvent(.message, text)) }),
            (Self.noClaim, Self.showing { $0.signals.acceptedNotice = { _ in UIEvent(.message, text) } }),
        ]
        for (scenario, adapter) in byCause {
            let result = try await Self.run(scenario, adapter)
            #expect(result.verdict == .failed, "\(scenario)")
        }
    }

    @Test("a text that is not attributed is never judged, whatever it says; the reference shows nothing and replays nothing")
    func unattributedNeverFails() async throws {
        // A provider label and a device disclaimer at revocation, shown whatever the app signals.
        for notice in ["providerLabel", "deviceDisclaimer", "accountSide"] {
            let result = try await Self.run(Self.noClaim, ReferenceRP(design: try Self.design("revoke-notice=\(notice);ui-language=ja")))
            #expect(result.verdict == .passed, "\(notice): \(result.message ?? "")")
        }
        // "Passkeys saved: 0" at the sign-in reads as a confirmation in English; it is shown whatever the upgrade does.
        let count = try await Self.run(Self.confirmation, ReferenceRP(design: try Self.design("passkey-count-screen=true")))
        #expect(count.verdict == .passed, "\(count.message ?? "")")
        for scenario in [Self.confirmation, Self.silentNoCreate, Self.noClaim] {
            let result = try await Self.run(scenario, ReferenceRP())
            #expect(result.verdict == .passed, "\(result.message ?? "")")
            #expect(!result.observed.contains { $0.contains("replay.end") }, "nothing shown, nothing replayed")
        }
    }

    @Test("the reader only narrows: a hedge, a failure report or an English nudge is excused; a nudge in German is not")
    func narrowing() async throws {
        let hedged = try await Self.run(
            Self.noClaim, Self.showing { $0.signals.acceptedNotice = { _ in UIEvent(.message, "We asked your password manager to update your passkeys.") } })
        #expect(hedged.verdict == .passed, "\(hedged.message ?? "")")
        let failure = try await Self.run(Self.confirmation, Self.showing { $0.upgrade.ownConfirmation = UIEvent(.message, "The passkey could not be saved.") })
        #expect(failure.verdict == .passed, "\(failure.message ?? "")")
        for nudge in ["message", "screen"] {
            let result = try await Self.run(Self.silentNoCreate, ReferenceRP(design: try Self.design("nudge=\(nudge);ui-language=de")))
            #expect(result.verdict == .passed, "\(nudge): \(result.message ?? "")")
            #expect(!result.observed.contains { $0.contains("replay.end") }, "an English nudge is excused whatever caused it: no replay")
        }
        let german = try await Self.run(
            Self.silentNoCreate, Self.showing { $0.upgrade.afterNoCreate = .show(UIEvent(.message, "Erstellen Sie in den Einstellungen einen Passkey.")) })
        #expect(german.verdict == .failed, "the harness reads offers in English only")
    }

    @Test(
        "every value of the text knobs passes N2.6-AC05 and N3.2-AC08 on every target",
        arguments: [
            "ui-language=de", "ui-language=ja", "status-line=true", "passkey-count-screen=true", "provider-labels=true",
            "ui-language=ja;status-line=true;passkey-count-screen=true;provider-labels=true;after-sign-in=welcome-message;revoke-notice=providerLabel;nudge=screen",
            "ui-language=de;status-line=true;passkey-count-screen=true;provider-labels=true;after-sign-in=signed-in-confirmation;revoke-notice=deviceDisclaimer;nudge=message;upgrade-delay-ms=10000",
        ])
    func knobsPass(_ specification: String) async throws {
        let loaded = CriterionText.packageCriteria()
        let run = try await Suite.run(
            criteria: loaded.criteria, digest: loaded.digest, adapter: ReferenceRP(design: try Self.design(specification)), transport: "in-process",
            filter: TestPlan.Filter(criteria: ["N2.6-AC05", "N3.2-AC08"]), seed: 1)
        let problems = run.testCases.filter { $0.verdict != .passed }
        #expect(!run.testCases.isEmpty)
        #expect(problems.isEmpty, "\(specification): \(problems.prefix(3).map { "\($0.id): \($0.message ?? "")" }.joined(separator: "\n"))")
    }
}
