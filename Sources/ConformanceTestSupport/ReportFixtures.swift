import ConformanceKit
import Foundation

/// Synthetic runs for the tests of the reporters and the report files: every verdict, outline rows, several targets, evidence
/// with characters that need escaping, and a criterion that does not apply to every target.
package enum ReportFixtures {
    package static let targets = ["apple-18", "android-15-gpm", "apple-17.4"]
    package static let seed: UInt64 = 18_446_744_073_709_551_557  // above 2^53: must survive as a string

    package static let metadata = RunMetadata(
        harnessVersion: "0.9.0-test", criteriaDigest: "9f2c4e1d0b7a6f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c",
        adapter: .init(name: "reference-rp", version: "1.2.0", transport: "in-process"),
        targets: targets, seed: seed, startedAt: "2026-01-15T09:30:00Z", filters: ["tags": "not @wip", "criterion": "N2.6-*"])

    // MARK: criteria

    package static let ac01 = CriterionInfo(
        id: "N2.6-AC01", title: "No conditional registration before the complete sign-in policy", level: .core, group: "N2.6",
        origin: .source,
        statement: "The app requests a conditional registration only after the account's whole sign-in policy is complete.",
        verification: "Each scenario signs in with a password and varies the second factor; the transcript shows whether a request was made.",
        verifyItems: [
            .init(id: "N2.6-AC01.V1", text: "second factor not yet given → no request"),
            .init(id: "N2.6-AC01.V2", text: "second factor wrong → no request"),
            .init(id: "N2.6-AC01.V3", text: "second factor expired → no request"),
        ],
        source: "000_48fd21300f093a6c.txt, N2.6 AC01", references: ["androidx.credentials 1.6.0 CreatePublicKeyCredentialRequest"],
        file: "N2.6/AC01-complete-sign-in.feature")

    package static let ac04 = CriterionInfo(
        id: "N2.6-AC04", title: "Known credential ids in every exclusion input", level: .core, group: "N2.6", origin: .source,
        statement: "Every credential id the server knows for the account is in the exclusion input of the target.",
        verification: "The server holds credentials; the request the app makes is inspected.",
        verifyItems: [
            .init(id: "N2.6-AC04.V1", text: "Android: every known id in requestJson.excludeCredentials"),
            .init(id: "N2.6-AC04.V2", text: "Apple (17.4+): every known id in the excluded-credentials list"),
            .init(id: "N2.6-AC04.V3", text: "accounts with zero, one and several known credentials"),
        ],
        source: "000_48fd21300f093a6c.txt, N2.6 AC04", references: [], file: "N2.6/AC04-exclusion-list.feature")

    package static let x01 = CriterionInfo(
        id: "N2.6-X01", title: "Server accepts UP=0 and UV=0 for conditional registrations", level: .core, group: "N2.6", origin: .derived,
        statement: "The server accepts a conditional registration whose authenticator data has UP=0 and UV=0.",
        verification: "The virtual authenticator answers with UP=0, UV=0; the credential list is inspected.",
        verifyItems: [.init(id: "N2.6-X01.V1", text: "UP=0, UV=0 accepted")],
        source: "000_48fd21300f093a6c.txt, note under the table", references: ["WebAuthn L3 §7.1"], file: "N2.6/X01-up-uv-zero.feature")

    package static let signals = CriterionInfo(
        id: "N3.2-AC01", title: "Signal APIs checked at runtime", level: .core, group: "N3.2", origin: .source,
        statement: "The app checks for the signal APIs at runtime; their absence breaks nothing.",
        verification: "Sign-in and passkey management run with and without the API.",
        verifyItems: [.init(id: "N3.2-AC01.V1", text: "API available → expected results")],
        source: "003_2533626f682b527b.txt, N3.2 AC01", references: [], file: "N3.2/AC01-runtime-check.feature")

    package static let ac02 = CriterionInfo(
        id: "N3.2-AC02", title: "Unknown-credential signal only for absent ids", level: .quality, group: "N3.2", origin: .source,
        statement: "The unknown-credential signal is sent only for an id the server does not have.",
        verification: "Assertions with absent, revoked and restricted credentials.",
        verifyItems: [.init(id: "N3.2-AC02.V1", text: "absent credential id → one unknown-credential signal")],
        source: "003_2533626f682b527b.txt, N3.2 AC02", references: [], file: "N3.2/AC02-unknown-credential.feature")

    // MARK: test cases

    package static func testCase(
        _ criterion: CriterionInfo, _ slug: String, _ scenario: String, line: Int, items: [VerifyItemID], target: String,
        verdict: Verdict, message: String? = nil, steps: [StepResult] = [], evidence: [TranscriptEntry] = [],
        wall: Double = 0.004
    ) -> TestCaseResult {
        TestCaseResult(
            id: "\(criterion.id)/\(slug)@\(target)", criterionID: criterion.id, scenario: scenario, file: criterion.file,
            line: line, verifyItems: items, tags: ["@id:\(criterion.id)"] + items.map { "@verify:\($0)" }, target: target,
            outcome: TestCaseOutcome(verdict: verdict, message: message), steps: steps, evidence: evidence, virtualMillis: 1_500, wallSeconds: wall)
    }

    package static let signInSteps = [
        StepResult(keyword: "Given ", text: "an account that requires a second factor", line: 10, status: .passed),
        StepResult(keyword: "When ", text: "the user signs in with a password", line: 11, status: .passed),
        StepResult(
            keyword: "Then ", text: "no conditional registration request is made", line: 12, status: .failed,
            message: "1 request was made"),
    ]

    package static let prematureRequest = [
        TranscriptEntry(sequence: 3, atMillis: 120, channel: .harnessToRP, name: "user.password-sign-in", summary: "alice signs in with a password"),
        TranscriptEntry(
            sequence: 4, atMillis: 125, channel: .rpToPlatform, name: "platform.createCredential",
            summary: "conditional create <isConditional=true> & \"excludeCredentials\" | 0 ids",
            payload: .object(["isConditional": .bool(true), "requestJson": .string("{\"user\":{}}")])),
        TranscriptEntry(sequence: 5, atMillis: 125, channel: .step, name: "assert.no-request", summary: "expected no request before the second factor"),
    ]

    package static let exclusionEvidence = [
        TranscriptEntry(
            sequence: 7, atMillis: 300, channel: .rpToPlatform, name: "platform.createCredential",
            summary: "excludedCredentials: 1 of 3 known ids", payload: .object(["excluded": .array([.string("AQID")])]))
    ]

    package static let crashEvidence = [
        TranscriptEntry(sequence: 2, atMillis: 40, channel: .harnessToRP, name: "adapter.exit", summary: "adapter exited: \u{1B}[31mSIGSEGV\u{1B}[0m")
    ]

    package static let cases: [TestCaseResult] = [
        testCase(ac01, "second-factor-pending", "Second factor pending", line: 9, items: ["N2.6-AC01.V1"], target: "apple-18", verdict: .passed),
        testCase(
            ac01, "second-factor-pending", "Second factor pending", line: 9, items: ["N2.6-AC01.V1"], target: "android-15-gpm",
            verdict: .failed, message: "a conditional registration request was made before the second factor", steps: signInSteps,
            evidence: prematureRequest, wall: 0.0125),
        testCase(ac01, "second-factor-outcome/1", "Second factor outcome wrong", line: 20, items: ["N2.6-AC01.V2"], target: "apple-18", verdict: .passed),
        testCase(ac01, "second-factor-outcome/1", "Second factor outcome wrong", line: 20, items: ["N2.6-AC01.V2"], target: "android-15-gpm", verdict: .passed),
        testCase(ac01, "second-factor-outcome/2", "Second factor outcome expired", line: 21, items: ["N2.6-AC01.V3"], target: "apple-18", verdict: .passed),
        testCase(
            ac01, "second-factor-outcome/2", "Second factor outcome expired", line: 21, items: ["N2.6-AC01.V3"], target: "android-15-gpm", verdict: .passed),

        testCase(
            ac04, "apple-exclusion", "Known ids in the excluded-credentials list", line: 8, items: ["N2.6-AC04.V2"], target: "apple-17.4",
            verdict: .failed, message: "2 known credential ids missing from excludedCredentials", evidence: exclusionEvidence),
        testCase(ac04, "apple-exclusion", "Known ids in the excluded-credentials list", line: 8, items: ["N2.6-AC04.V2"], target: "apple-18", verdict: .passed),
        testCase(
            ac04, "android-exclusion", "Known ids in requestJson.excludeCredentials", line: 15, items: ["N2.6-AC04.V1"], target: "android-15-gpm",
            verdict: .passed),

        testCase(x01, "up-uv-zero", "UP=0 and UV=0 accepted", line: 6, items: ["N2.6-X01.V1"], target: "apple-18", verdict: .passed),
        testCase(x01, "up-uv-zero", "UP=0 and UV=0 accepted", line: 6, items: ["N2.6-X01.V1"], target: "android-15-gpm", verdict: .passed),

        testCase(
            signals, "api-available", "Signal API available", line: 7, items: ["N3.2-AC01.V1"], target: "apple-18",
            verdict: .notVerified, message: "the adapter does not declare the capability signals"),
        testCase(
            signals, "api-available", "Signal API available", line: 7, items: ["N3.2-AC01.V1"], target: "android-15-gpm",
            verdict: .error, message: "the adapter process exited with signal 11",
            steps: [StepResult(keyword: "When ", text: "the user signs in with a passkey", line: 9, status: .error, message: "adapter exited")],
            evidence: crashEvidence),

        testCase(
            ac02, "absent-id", "Absent credential id", line: 5, items: ["N3.2-AC02.V1"], target: "android-15-gpm",
            verdict: .undefined, message: "no step definition matches \"the user waves\"",
            steps: [StepResult(keyword: "When ", text: "the user waves", line: 6, status: .undefined)]),
    ]

    /// Which targets each criterion applies to.
    package static let applicability: [CriterionID: [String]] = [
        "N2.6-AC01": ["apple-18", "android-15-gpm"],
        "N2.6-AC04": targets,
        "N2.6-X01": ["apple-18", "android-15-gpm"],
        "N3.2-AC01": ["apple-18", "android-15-gpm"],
        "N3.2-AC02": ["android-15-gpm"],
    ]

    /// The mixed run: every verdict on some target.
    package static var run: RunResult { makeRun(criteria: [ac01, ac04, x01, signals, ac02], cases: cases) }

    /// A run whose verdicts are folded from its test cases, as the runner does.
    package static func makeRun(criteria: [CriterionInfo], cases: [TestCaseResult], metadata: RunMetadata = metadata) -> RunResult {
        let results = criteria.map { info in
            let mine = cases.filter { $0.criterionID == info.id }
            var perTarget: [String: Verdict] = [:]
            for target in applicability[info.id] ?? metadata.targets {
                perTarget[target] = Verdict.fold(mine.filter { $0.target == target }.map(\.verdict))
            }
            return CriterionResult(criterion: info, verdict: Verdict.fold(perTarget.values), targets: perTarget)
        }
        return RunResult(
            metadata: metadata, criteria: results, testCases: cases, verdict: Verdict.fold(results.map(\.verdict)),
            wallSeconds: 1.25, virtualMillis: cases.reduce(0) { $0 + $1.virtualMillis })
    }

    /// The same run with only the cases of `verdicts` kept (others turned into passes).
    package static func run(replacing verdicts: [Verdict: Verdict]) -> RunResult {
        makeRun(
            criteria: [ac01, ac04, x01, signals, ac02],
            cases: cases.map { item in
                var copy = item
                if let replacement = verdicts[item.verdict] {
                    copy.outcome = TestCaseOutcome(verdict: replacement, message: item.message, fault: item.fault, notVerifiedReason: item.notVerifiedReason)
                }
                return copy
            })
    }

    /// A day before every fixture waiver expires.
    package static let today = CalendarDate("2026-01-15")!

    package static func waiver(
        _ criterion: CriterionID, _ target: String, expires: String = "2026-03-31", owner: String = "ios-team",
        reason: String = "exclusion list ships in 4.2"
    ) -> Waiver {
        Waiver(criterion: criterion, target: .init(target), reason: reason, owner: owner, expires: CalendarDate(expires)!)
    }

    /// The waiver evaluation used by the golden reports: one active waiver, one stale one.
    package static var waivers: WaiverEvaluation {
        WaiverFile(
            path: "waivers.json",
            waivers: [
                waiver("N2.6-AC04", "apple-17.4"),
                waiver("N2.6-X01", "*", expires: "2026-02-01", owner: "server-team", reason: "UV check fix in review"),
            ]
        )
        .evaluate(against: run, today: today)
    }

    /// The root of the package, found from this file's path.
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh, empty directory under the system's temporary directory.
    package static func temporaryDirectory(_ name: String = #function) throws -> URL {
        let slug = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reports-tests-\(slug)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A waiver file with every member, valid (the Swift loader and the schema must both accept it).
    package static let validWaiverFile = """
        {
          "$schema": "urn:passkey-conformance:schema:waivers:v1",
          "version": 1,
          "waivers": [
            { "criterion": "N2.6-AC04", "target": "apple-17.4", "reason": "exclusion list ships in 4.2",
              "owner": "ios-team", "expires": "2026-03-31" },
            { "criterion": "N2.6-X01", "target": "*", "reason": "UV check fix in review",
              "owner": "server-team", "expires": "2026-02-01" }
          ]
        }
        """
}
