import ConformanceKit
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

@Suite("Markdown reporter")
struct MarkdownReporterTests {
    let text = MarkdownReporter.render(ReportFixtures.run, waivers: ReportFixtures.waivers)
    var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    /// The lines between a heading and the next heading of the same or a higher level.
    func section(_ heading: String) -> String {
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return "" }
        let level = heading.prefix { $0 == "#" }.count
        let end =
            lines[(start + 1)...].firstIndex { line in
                let hashes = line.prefix { $0 == "#" }.count
                return hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
            } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    @Test("the header names everything needed to reproduce the run")
    func header() {
        #expect(
            text.hasPrefix(
                """
                # Passkey conformance report

                > **Simulated platforms.** Every platform in this report is SIMULATED: the harness plays the OS, its credential manager, the credential provider and a virtual authenticator, modelled on public documentation (Documentation/platform-fidelity.md in the passkey-conformance sources). No device, OS build or real credential manager took part.\\
                > **What a pass proves.** A pass shows that the relying party, driven through its adapter, did what the criterion requires against the simulated platform on that target, in the scenarios listed.\\
                > **What it does not.** It does not show that the app behaves the same on a real device, OS release or provider, that the adapter reflects the shipping app, or anything the scenarios do not exercise; not verified is never a pass.

                - **Harness version:** 0.9.0-test
                - **Criteria digest:** `9f2c4e1d0b7a6f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c`
                - **Adapter:** reference-rp 1.2.0, transport in-process
                - **Report digest:** `0e8ee66659f8a3600015341773a7de003493de113a6e87fb42429760c3f685cb` (SHA-256 of `report.json`, see its `metadata.reportDigest`)
                - **Targets:** apple-18, android-15-gpm, apple-17.4
                - **Seed:** 18446744073709551557
                - **Started:** 2026-01-15T09:30:00Z
                - **Filters:** criterion = `N2.6-*`; tags = `not @wip`
                - **Waivers:** `waivers.json`, 2 waivers, evaluated on 2026-01-15
                - **Gate:** `all` (every selected criterion fails the run)
                - **Evidence:** transcripts for test cases that did not pass; every test case keeps what its checks observed (report.json)
                - **Duration:** 1.250 s wall time, 21000 ms virtual time

                """))
    }

    @Test("the summary says plainly what did not pass")
    func summary() {
        #expect(
            section("# Passkey conformance report").contains(
                """
                **Result: not decided (harness, adapter or criterion-file error)** (exit status 2). 5 criteria: 1 passed, 1 failed, 1 waived, 1 error, 0 not verified, 1 undefined. 14 test cases: 9 passed, 1 failed, 1 waived, 1 error, 1 not verified, 1 undefined. Waiver problems: 1.\\
                Failed: 1 test case. The relying party broke the criterion and no live waiver accepts it.\\
                Waived: 1 failed test case. The failure is known and accepted until its waiver expires.\\
                Error: 1 test case. The harness, the adapter or the transport failed, so nothing was decided there.\\
                Undefined: 1 test case. A step matches no step definition: a defect in the criterion file.\\
                Not verified: 1 test case. A capability or target was missing; not verified is not a pass.\\
                Waiver problems: 1, from expired or stale waivers; each makes the run fail by itself (see Waivers).

                ## Criterion × target matrix
                """))
    }

    @Test("a conformant run says so, with an adapter command and no filters")
    func conformantHeader() {
        var run = ReportFixtures.run(replacing: [.failed: .passed, .error: .passed, .undefined: .passed, .notVerified: .passed])
        run.metadata.filters = [:]
        run.metadata.adapter = .init(name: "kotlin-rp", version: "0.3", transport: "json-rpc", command: "java -jar rp.jar --stdio")
        let text = MarkdownReporter.render(run)
        #expect(text.contains("- **Adapter:** kotlin-rp 0.3, transport json-rpc\n- **Adapter command:** `java -jar rp.jar --stdio`\n"))
        #expect(text.contains("- **Filters:** none\n"))
        #expect(text.contains("- **Waivers:** none\n"))
        #expect(
            text.contains(
                "**Result: conformant** (exit status 0). 5 criteria: 5 passed, 0 failed, 0 waived, 0 error, 0 not verified, 0 undefined. 14 test cases: 14 passed, 0 failed, 0 waived, 0 error, 0 not verified, 0 undefined. Waiver problems: 0.\n"
            ))
        #expect(text.contains("## Waivers\n\nNo waiver file was used: every failure counts.\n"))
    }

    @Test("the matrix: criteria by targets, waived and not-applicable cells marked, then the legend")
    func matrix() {
        #expect(
            section("## Criterion × target matrix") == """
                ## Criterion × target matrix

                | Criterion | Title | Level | Overall | apple-18 | android-15-gpm | apple-17.4 |
                |---|---|---|:-:|:-:|:-:|:-:|
                | [N2.6-AC01](#N2.6-AC01) | No conditional registration before the complete sign-in policy | Core | ❌ | ✅ | ❌ | n/a |
                | [N2.6-AC04](#N2.6-AC04) | Known credential ids in every exclusion input | Core | 🟡 | ✅ | ✅ | 🟡 |
                | [N2.6-X01](#N2.6-X01) *(derived)* | Server accepts UP=0 and UV=0 for conditional registrations | Core | ✅ | ✅ | ✅ | n/a |
                | [N3.2-AC01](#N3.2-AC01) | Signal APIs checked at runtime | Core | 💥 | ⬜ | 💥 | n/a |
                | [N3.2-AC02](#N3.2-AC02) | Unknown-credential signal only for absent ids | Quality | ❓ | n/a | ❓ | n/a |

                Legend: ✅ passed · ❌ failed (the relying party broke the criterion) · 🟡 waived (failed, and a live waiver accepts the failure) · 💥 error (the harness, the adapter or the transport failed; not decided) · ⬜ not verified (a capability or target was missing; not a pass) · ❓ undefined (a step matches no step definition: a defect in the criterion file) · ⚠️ failed below the gate (a warning: it does not change the exit status) · n/a the criterion does not apply to the target.

                """)
    }

    @Test("without waivers the same failure shows as failed, not waived")
    func unwaived() {
        let text = MarkdownReporter.render(ReportFixtures.run)
        #expect(text.contains("| [N2.6-AC04](#N2.6-AC04) | Known credential ids in every exclusion input | Core | ❌ | ✅ | ✅ | ❌ |"))
        #expect(!text.contains("🟡 waived:"))
    }

    @Test("the waiver section lists every waiver with its status, and the problems")
    func waivers() {
        #expect(
            section("## Waivers") == """
                ## Waivers

                Waivers from `waivers.json`, 2 waivers, evaluated on 2026-01-15. A waiver holds through its expiry day.

                | Waiver | Status | Waived test cases | Owner | Expires | Reason |
                |---|---|--:|---|---|---|
                | `N2.6-AC04@apple-17.4` | active | 1 | ios-team | 2026-03-31 | exclusion list ships in 4.2 |
                | `N2.6-X01@*` | **stale** (the failure no longer happens) | 0 | server-team | 2026-02-01 | UV check fix in review |

                Waiver problems (each makes the run fail):

                - **stale** `N2.6-X01@*`: N2.6-X01 no longer fails on any target (2 test cases ran, none failed); remove the waiver (owner server-team).

                <a id="N2.6-AC01"></a>

                """)
    }

    /// One cause on every fixture target: the server holds `counts[i]` active passkeys on target `i`, one expected.
    static func activePasskeys(_ counts: [Int]) -> RunResult {
        let cases = counts.enumerated().map { index, count in
            ReportFixtures.testCase(
                ReportFixtures.ac04, "several", "Several passkeys", line: 12, items: ["N2.6-AC04.V3"],
                target: ReportFixtures.targets[index % ReportFixtures.targets.count],
                verdict: .failed, message: "the server holds \(count) active passkey(s) for alice@example.com, expected 1")
        }
        return ReportFixtures.makeRun(criteria: [ReportFixtures.ac04], cases: cases)
    }

    @Test(
        "the summary's failure table groups by cause but shows the values observed: one, two, or a range",
        arguments: [([2, 4, 3], "2–4"), ([3, 2, 3], "2 or 3"), ([2, 2, 2], "2"), ([10, 9, 100], "9–100")])
    func observedValues(counts: [Int], shown: String) throws {
        let summary = MarkdownReporter.summary(Self.activePasskeys(counts))
        let row = try #require(summary.split(separator: "\n").first { $0.hasPrefix("| [cause-1]") })
        #expect(summary.split(separator: "\n").filter { $0.hasPrefix("| [cause-") }.count == 1, "one cause")
        #expect(
            row.contains("| the server holds \(shown) active passkey(s) for alice@example.com, expected 1 |"), "the numbers are kept: \(row)")
        #expect(summary.contains("| Message (values as observed) |"))
    }

    @Test("observed values: targets and opaque tokens show when all agree, else their placeholder; unaligned messages fall back to the key")
    func observedValueKinds() {
        let targets = ReportFixtures.targets
        #expect(ReportModel.observed(["on apple-18: id AAAAAAAAAAAAAAAAAA111 missing"], targets: targets) == "on apple-18: id AAAAAAAAAAAAAAAAAA111 missing")
        #expect(
            ReportModel.observed(["on apple-18: id AAAAAAAAAAAAAAAAAA111 missing", "on apple-17.4: id BBBBBBBBBBBBBBBBBB222 missing"], targets: targets)
                == "on <target>: id … missing")
        #expect(ReportModel.observed(["op-3 at 120 ms", "op-4 at 125 ms", "op-3 at 130 ms"], targets: targets) == "op-3 or 4 at 120–130 ms")
        // The key is what groups; the observed text never changes it.
        #expect(ReportModel.normalised("op-3 at 120 ms on apple-17.4", targets: targets) == "op-N at N ms on <target>")
        #expect(ReportModel.observed(["N2 x", "NN x"], targets: targets) == "NN x", "two messages with one key but other values: the key")
    }

    @Test("a criterion: verdict, derived marker, source, statement, references, verify items with scenarios and verdicts")
    func criterionHeader() {
        let ac01 = section("## N2.6-AC01 — No conditional registration before the complete sign-in policy")
        #expect(
            ac01.contains(
                """
                **Verdict: ❌ failed** · Level: Core · Group: N2.6\\
                **Source criterion:** numbered by the source document.\\
                **Source:** 000\\_48fd21300f093a6c.txt, N2.6 AC01\\
                **Criterion file:** `N2.6/AC01-complete-sign-in.feature`

                **Statement.** The app requests a conditional registration only after the account's whole sign-in policy is complete.

                **References:**

                - androidx.credentials 1.6.0 CreatePublicKeyCredentialRequest

                ### How it was verified

                Each scenario signs in with a password and varies the second factor; the transcript shows whether a request was made.

                - **N2.6-AC01.V1** — second factor not yet given → no request
                  - *Second factor pending* (`N2.6/AC01-complete-sign-in.feature:9`): apple-18 ✅ passed · android-15-gpm ❌ failed
                - **N2.6-AC01.V2** — second factor wrong → no request
                  - *Second factor outcome wrong* (`N2.6/AC01-complete-sign-in.feature:20`): apple-18 ✅ passed · android-15-gpm ✅ passed
                - **N2.6-AC01.V3** — second factor expired → no request
                  - *Second factor outcome expired* (`N2.6/AC01-complete-sign-in.feature:21`): apple-18 ✅ passed · android-15-gpm ✅ passed

                ### Verdict per target

                | Target | Verdict | Test cases |
                |---|---|---|
                | apple-18 | ✅ passed | 3 passed |
                | android-15-gpm | ❌ failed | 2 passed, 1 failed |
                | apple-17.4 | n/a | the criterion does not apply to this target |
                """))
        let x01 = section("## N2.6-X01 — Server accepts UP=0 and UV=0 for conditional registrations")
        #expect(x01.contains("**Derived criterion:** the harness derives it from the source's text; it is not one of the source's numbered criteria."))
        #expect(x01.contains("### Failures, errors and unverified cases\n\nNone: all 2 test cases passed."))
    }

    @Test("a verify item no scenario covers is stated as not covered")
    func uncoveredItem() {
        let ac04 = section("## N2.6-AC04 — Known credential ids in every exclusion input")
        #expect(
            ac04.contains(
                "- **N2.6-AC04.V3** — accounts with zero, one and several known credentials\n  - **Not covered:** no scenario of this run covers this item."))
        #expect(ac04.contains("**Verdict: 🟡 waived** (run verdict: failed) · Level: Core · Group: N2.6"))
    }

    @Test("a failure shows why, its steps, the transcript excerpt and how to re-run it alone")
    func failure() {
        let failure = section("#### ❌ failed: Second factor pending · android-15-gpm")
        #expect(
            failure == """
                #### ❌ failed: Second factor pending · android-15-gpm

                - **Meaning:** the relying party broke the criterion.
                - **Test case:** `N2.6-AC01/second-factor-pending@android-15-gpm`
                - **Scenario:** `N2.6/AC01-complete-sign-in.feature:9`
                - **Verify items:** N2.6-AC01.V1
                - **Virtual time:** 1500 ms

                **Why:**
                ```text
                a conditional registration request was made before the second factor
                ```

                **Steps:**

                | Status | Step | Line | Message |
                |---|---|--:|---|
                | ✅ passed | Given an account that requires a second factor | 10 |  |
                | ✅ passed | When the user signs in with a password | 11 |  |
                | ❌ failed | Then no conditional registration request is made | 12 | 1 request was made |

                **Evidence** (transcript excerpt; time is virtual, from the start of the test case):

                | # | Time | Channel | Name | Summary |
                |--:|--:|---|---|---|
                | 3 | 120 ms | harness→rp | `user.password-sign-in` | alice signs in with a password |
                | 4 | 125 ms | rp→platform | `platform.createCredential` | conditional create &lt;isConditional=true&gt; &amp; "excludeCredentials" \\| 0 ids |
                | 5 | 125 ms | step | `assert.no-request` | expected no request before the second factor |

                Re-run it alone:
                ```sh
                swift run passkey-conformance run --criterion N2.6-AC01 --target android-15-gpm --seed 18446744073709551557 --scenario "Second factor pending"
                ```

                <a id="N2.6-AC04"></a>

                """)
    }

    @Test("a waived failure names its waiver and keeps its evidence")
    func waivedCase() {
        let waived = section("#### 🟡 waived: Known ids in the excluded-credentials list · apple-17.4")
        #expect(waived.contains("**Waived by** `N2.6-AC04@apple-17.4` (owner ios-team, holds through 2026-03-31): exclusion list ships in 4.2"))
        #expect(waived.contains("| 7 | 300 ms | rp→platform | `platform.createCredential` | excludedCredentials: 1 of 3 known ids |"))
        #expect(
            waived.contains("--criterion N2.6-AC04 --target apple-17.4 --seed 18446744073709551557 --scenario \"Known ids in the excluded-credentials list\""))
    }

    @Test("not verified, error and undefined are each stated as what they are")
    func otherVerdicts() {
        let notVerified = section("#### ⬜ not verified: Signal API available · apple-18")
        #expect(notVerified.contains("- **Meaning:** a capability or target the scenario needs is missing; nothing was shown, and this is not a pass."))
        #expect(notVerified.contains("the adapter does not declare the capability signals"))
        #expect(!notVerified.contains("Re-run"))

        let error = section("#### 💥 error: Signal API available · android-15-gpm")
        #expect(error.contains("- **Meaning:** the harness, the adapter or the transport failed; this test case was not decided."))
        #expect(error.contains("| 💥 error | When the user signs in with a passkey | 9 | adapter exited |"))
        #expect(
            error.contains("| 2 | 40 ms | harness→rp | `adapter.exit` | adapter exited: \\u{1B}\\[31mSIGSEGV\\u{1B}\\[0m |"), "control characters made visible")
        #expect(error.contains("Re-run it alone:"))

        let undefined = section("#### ❓ undefined: Absent credential id · android-15-gpm")
        #expect(
            undefined.contains(
                "- **Meaning:** a step matches no step definition (or several): a defect in the criterion file, not a verdict on the relying party."))
        #expect(undefined.contains("**Evidence:** no transcript excerpt was recorded."))
        #expect(undefined.contains("| ❓ undefined | When the user waves | 6 |  |"))
    }

    @Test("test cases of an undescribed criterion get a section of their own")
    func undescribed() {
        var run = ReportFixtures.run
        run.criteria.removeLast()
        let text = MarkdownReporter.render(run)
        #expect(text.contains("| [N3.2-AC02](#N3.2-AC02) | (not described in this run) | ? | ❓ | n/a | ❓ | n/a |"))
        #expect(
            text.contains(
                "## N3.2-AC02 (not described in this run)\n\n**Verdict: ❓ undefined**. The run has test cases for this criterion but no description of it."))
        #expect(text.contains("#### ❓ undefined: Absent credential id · android-15-gpm"))
    }

    @Test("matches the golden report (re-record with RECORD_GOLDEN=1)")
    func golden() throws {
        let url = ReportFixtures.packageRoot.appendingPathComponent("Tests/ConformanceReportsTests/Golden/report.md")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: url, options: .atomic)
            Issue.record("re-recorded \(url.path); unset RECORD_GOLDEN and run again")
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        guard text != golden else { return }
        let produced = text.split(separator: "\n", omittingEmptySubsequences: false)
        let expected = golden.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(produced.count, expected.count)).first { produced[$0] != expected[$0] } ?? min(produced.count, expected.count)
        let got = line < produced.count ? String(produced[line]) : "(end of report)"
        let want = line < expected.count ? String(expected[line]) : "(end of golden file)"
        Issue.record(
            """
            report.md differs from Golden/report.md at line \(line + 1):
              golden:   \(want)
              produced: \(got)
            If the change is intended, re-record with RECORD_GOLDEN=1 and review the diff.
            """)
    }
}
