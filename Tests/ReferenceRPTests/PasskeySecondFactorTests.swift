import ConformanceKit
import ConformanceTestSupport
import Foundation
import ReferenceRP
import Testing

/// The declaration `passkey-second-factor`: an MFA-style relying party, where a passkey is a second
/// factor, cannot represent a password-only account that holds passkeys, so the scenarios that give
/// one some are not verified rather than failed; the rest are judged as before.
@Suite("The passkey-second-factor declaration", .heavy)
struct PasskeySecondFactorTests {
    /// The reference RP, declaring that a passkey counts as a second factor.
    struct PasskeyIsSecondFactor: RelyingPartyAdapter {
        let inner = ReferenceRP()
        func describe() async throws -> AdapterDescription {
            var description = try await inner.describe()
            description.declarations = [.passkeySecondFactor]
            return description
        }
        func openSession(_ context: SessionContext, host: any PlatformHost) async throws -> any RelyingPartySession {
            try await inner.openSession(context, host: host)
        }
        func shutdown() async {}
    }

    @Test("the wire member is decoded, unknown values are ignored, and it is written only when declared")
    func wire() throws {
        let json =
            #"{"name":"mfa","version":"1","targets":["apple-18"],"capabilities":["signals"],"relyingPartyIDs":["example.com"],"#
            + #""declarations":["passkey-second-factor","later-thing","passkey-second-factor"]}"#
        let description = try Wire.decoder().decode(AdapterDescription.self, from: Data(json.utf8))
        #expect(description.declarations == [.passkeySecondFactor])
        let encoded = String(decoding: try Wire.encoder().encode(description), as: UTF8.self)
        #expect(encoded.contains(#""declarations":["passkey-second-factor"]"#), "\(encoded)")
        var plain = description
        plain.declarations = []
        #expect(!String(decoding: try Wire.encoder().encode(plain), as: UTF8.self).contains("declarations"))
    }

    @Test("a password-only account with server-held passkeys is not verified; without passkeys it is judged")
    func unrepresentableFixtureIsNotVerified() async throws {
        let loaded = CriterionText.packageCriteria()
        let run = try await Suite.run(
            criteria: loaded.criteria, digest: loaded.digest, adapter: PasskeyIsSecondFactor(), transport: "in-process",
            filter: .init(criteria: ["N2.6-AC04"], targets: ["apple-26.2"]), seed: 1, startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let byVerdict = Dictionary(grouping: run.testCases, by: \.verdict)
        let notVerified = byVerdict[.notVerified] ?? []
        #expect(byVerdict[.failed] == nil, "\(byVerdict[.failed]?.map(\.id) ?? [])")
        #expect(!notVerified.isEmpty && notVerified.allSatisfy { ($0.message ?? "").contains("passkey-second-factor") })
        #expect(byVerdict[.passed]?.map(\.id) == ["N2.6-AC04/Apple excludes all 0 known passkeys@apple-26.2"])
        // The report tells an auditor why: the declaration is in the run's metadata.
        #expect(run.metadata.adapter.declarations == ["passkey-second-factor"])
    }
}
