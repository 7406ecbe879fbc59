import ConformanceKit
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

/// The warning tier (`run --gate`) in the exit status and every format, and the JUnit shape CI
/// systems read: classnames, file and line, waived and not verified told apart, the run's gate.
@Suite("Gate tiers and JUnit for CI")
struct GateAndJUnitTests {
    /// N2.6-AC01 (Core) passes; N3.2-AC02 (Quality) fails on android-15-gpm.
    static func qualityFailure(gate: Gate?, verdict: Verdict = .failed) -> RunResult {
        var run = ReportFixtures.makeRun(
            criteria: [ReportFixtures.ac01, ReportFixtures.ac02],
            cases: [
                ReportFixtures.testCase(
                    ReportFixtures.ac01, "pending", "Second factor pending", line: 9, items: ["N2.6-AC01.V1"], target: "apple-18", verdict: .passed),
                ReportFixtures.testCase(
                    ReportFixtures.ac02, "absent-id", "Absent credential id", line: 5, items: ["N3.2-AC02.V1"], target: "android-15-gpm", verdict: verdict,
                    message: "two unknown-credential signals", evidence: ReportFixtures.exclusionEvidence),
            ])
        run.metadata.gate = gate
        return run
    }

    @Test("gates cover criteria by level and origin as documented")
    func gateCoverage() {
        let recommendation = CriterionInfo(
            id: "N2.6-X02", title: "t", level: .core, group: "N2.6", origin: .recommendation, statement: "", verification: "",
            verifyItems: [], source: "", references: [], file: "f")
        #expect(Gate.allCases.map { $0.covers(ReportFixtures.ac01) } == [true, true, true])
        #expect(Gate.allCases.map { $0.covers(ReportFixtures.x01) } == [true, true, true], "derived criteria are gated like source ones")
        #expect(Gate.allCases.map { $0.covers(ReportFixtures.ac02) } == [false, true, true], "Quality level")
        #expect(Gate.allCases.map { $0.covers(recommendation) } == [false, false, true])
    }

    @Test("below the gate a failure is a warning: the status is unchanged, every format says so")
    func warningTier() throws {
        #expect(ExitStatus.for(Self.qualityFailure(gate: nil)) == .nonConformant)
        #expect(ExitStatus.for(Self.qualityFailure(gate: .all)) == .nonConformant)
        #expect(ExitStatus.for(Self.qualityFailure(gate: .quality)) == .nonConformant)
        let run = Self.qualityFailure(gate: .core)
        #expect(ExitStatus.for(run) == .conformant)

        let junit = JUnitReporter.render(run)
        #expect(junit.contains("failures=\"0\" errors=\"0\""))
        #expect(junit.contains("<property name=\"outcome\" value=\"warning\"/>"))
        #expect(junit.contains("<system-out>WARNING (below the gate"))
        let json = try JSONSerialization.jsonObject(with: Data(try JSONReporter.render(run))) as! [String: Any]
        let summary = json["summary"] as! [String: Any]
        #expect((summary["warnings"] as! [String: Any])["testCases"] as! [String] == ["N3.2-AC02/absent-id@android-15-gpm"])
        #expect((json["metadata"] as! [String: Any])["gate"] as! String == "core")
        #expect((json["testCases"] as! [[String: Any]]).map { $0["warning"] as! Bool } == [false, true])
        let summaryMarkdown = MarkdownReporter.summary(run)
        #expect(summaryMarkdown.contains("| N3.2-AC02 | Quality | warns | ⚠️ |"))
        #expect(summaryMarkdown.contains("⚠️ warning"))
        #expect(MarkdownReporter.render(run).contains("Warnings: 1 failed test case of criteria below the gate (`--gate core`)"))
        #expect(HTMLReporter.render(run).contains("class=\"cell o-warning\""))
    }

    @Test("a gap below the gate does not make the run incomplete; it is listed as a warning")
    func gapBelowGate() throws {
        var run = Self.qualityFailure(gate: .core, verdict: .notVerified)
        #expect(ExitStatus.for(run) == .conformant)
        #expect(ExitStatus.Gap.belowGate(in: run).map(\.verifyItem) == ["N3.2-AC02.V1"])
        run.metadata.gate = .all
        #expect(ExitStatus.for(run) == .incomplete)
    }

    @Test("classnames keep no dot inside an id; file and line point at the scenario")
    func classnames() {
        #expect(JUnitReporter.classname(criterion: "N2.6-AC01", target: "apple-26.2") == "N2_6-AC01.apple-26_2")
        let junit = JUnitReporter.render(ReportFixtures.run, waivers: ReportFixtures.waivers)
        #expect(
            junit.contains(
                "<testcase classname=\"N2_6-AC04.apple-17_4\" name=\"Known ids in the excluded-credentials list\" file=\"N2.6/AC04-exclusion-list.feature\" line=\"8\""
            ))
        #expect(!junit.contains("classname=\"N2.6"))
    }

    @Test("waived and not verified are told apart by their properties as well as their message")
    func waivedAndNotVerified() {
        var run = ReportFixtures.run
        let index = run.testCases.firstIndex { $0.verdict == .notVerified }!
        run.testCases[index].outcome = .notVerified(
            message: run.testCases[index].message, reason: NotVerifiedReason(kind: .missingCapability, detail: "signals"))
        let junit = JUnitReporter.render(run, waivers: ReportFixtures.waivers)
        #expect(junit.contains("<property name=\"outcome\" value=\"waived\"/>"))
        #expect(junit.contains("<property name=\"waiver.id\" value=\"N2.6-AC04@apple-17.4\"/>"))
        #expect(junit.contains("<property name=\"outcome\" value=\"notVerified\"/>"))
        #expect(junit.contains("<property name=\"notVerified.kind\" value=\"missingCapability\"/>"))
    }

    @Test("an incomplete run is a failing test case that lists the unverified items")
    func incompleteRunFails() {
        let run = Self.qualityFailure(gate: nil, verdict: .notVerified)
        #expect(ExitStatus.for(run) == .incomplete)
        let junit = JUnitReporter.render(run)
        #expect(junit.contains("<testsuites name=\"passkey-conformance\" tests=\"3\" failures=\"1\" errors=\"0\""))
        #expect(junit.contains("<failure message=\"incomplete: 1 gap(s): unverified N3.2-AC02.V1\" type=\"incomplete\">"))
    }
}
