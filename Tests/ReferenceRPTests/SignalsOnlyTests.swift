import ConformanceKit
import ConformanceTestSupport
import Foundation
import ReferenceRP
import Testing

/// An RP that declares signals but not the automatic upgrade: the Signal API criteria need no
/// upgrade capability, so every N3.2 test case is verified.
@Suite("Signals without conditional create", .heavy)
struct SignalsOnlyTests {
    /// The reference RP, declaring every capability except `conditional-create`.
    struct SignalsOnly: RelyingPartyAdapter {
        let inner = ReferenceRP()
        func describe() async throws -> AdapterDescription {
            var description = try await inner.describe()
            description.capabilities.removeAll { $0 == .conditionalCreate }
            return description
        }
        func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
            try await inner.openSession(context, host: host)
        }
        func shutdown() async {}
    }

    @Test("every N3.2 test case is verified and passes without the conditional-create capability")
    func signalsOnlyVerified() async throws {
        let loaded = CriterionText.packageCriteria()
        let run = try await Suite.run(
            criteria: loaded.criteria, digest: loaded.digest, adapter: SignalsOnly(), transport: "in-process",
            filter: .init(criteria: ["N3.2"]), seed: 1, startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let notPassed = run.testCases.filter { $0.verdict != .passed }
        #expect(!run.testCases.isEmpty)
        #expect(notPassed.isEmpty, "\(notPassed.prefix(3).map { "\($0.id): \($0.verdict) \($0.message ?? "")" })")
    }
}

/// Freedoms of the Signal API that once failed a conforming RP: each now passes its criterion.
@Suite("Signal API freedoms", .heavy)
struct SignalFreedomTests {
    static func run(_ specification: String, criterion: String, target: String) async throws -> RunResult {
        let loaded = CriterionText.packageCriteria()
        return try await Suite.run(
            criteria: loaded.criteria, digest: loaded.digest, adapter: ReferenceRP(design: try ReferenceDesign.parse(specification)),
            transport: "in-process", filter: .init(criteria: [CriterionSelector(criterion)], targets: [TargetID(rawValue: target)]), seed: 1,
            startedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(
        "a conforming freedom passes its criterion",
        arguments: [
            ("knobs:idle-timer-ms=10000;reconcile-every-ms=21600000", "N3.2-AC03", "apple-26.2"),
            ("knobs:details-with-list=true", "N3.2-AC05", "android-15-gpm"),
            ("knobs:own-signal-budget=3", "N3.2-AC07", "android-15-gpm"),
            ("knobs:revocation=delete;revoke-notice=providerLabel", "N3.2-AC08", "android-15-gpm"),
            ("knobs:revoke-notice=deviceDisclaimer", "N3.2-AC08", "apple-26.2"),
            ("knobs:lookup-retries=3;submission-retries=1", "N3.2-AC02", "android-15-gpm"),
            ("knobs:report-unused-password=true", "N3.2-AC07", "apple-26.2"),
            ("knobs:empty-list-at-sign-in=true", "N3.2-AC04", "android-15-gpm"),
        ])
    func freedomPasses(_ specification: String, _ criterion: String, _ target: String) async throws {
        let run = try await Self.run(specification, criterion: criterion, target: target)
        let notPassed = run.testCases.filter { $0.verdict != .passed }
        #expect(!run.testCases.isEmpty)
        #expect(notPassed.isEmpty, "\(notPassed.prefix(2).map { "\($0.id): \($0.verdict) \($0.message ?? "")" })")
    }
}
