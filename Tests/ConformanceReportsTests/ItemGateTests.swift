import ConformanceKit
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

/// The gate per verify item: every item a selected test case covers needs a test case that passed.
@Suite("Exit status: the gate per verify item")
struct ItemGateTests {
    static let criterion = ReportFixtures.ac01

    static func testCase(_ item: Int, _ verdict: Verdict, target: String = "apple-18", lacks: NotVerifiedReason? = nil) -> TestCaseResult {
        var result = ReportFixtures.testCase(
            criterion, "v\(item)", "item \(item)", line: 10 + item, items: [VerifyItemID(rawValue: "N2.6-AC01.V\(item)")], target: target, verdict: verdict)
        result.outcome = TestCaseOutcome(verdict: verdict, message: result.message, notVerifiedReason: lacks)
        return result
    }

    static let capability = NotVerifiedReason(kind: .missingCapability, detail: "second-factor")
    static let target = NotVerifiedReason(kind: .undeclaredTarget, detail: "android-15-gpm")

    static func run(_ cases: [TestCaseResult], allowNotVerified: Bool = false) -> RunResult {
        var metadata = ReportFixtures.metadata
        metadata.allowNotVerified = allowNotVerified
        return ReportFixtures.makeRun(criteria: [criterion], cases: cases, metadata: metadata)
    }

    /// Two items shown, the third not verified on either target, each for its own reason.
    static let oneItemUnshown = [
        testCase(1, .passed), testCase(2, .passed), testCase(3, .notVerified, lacks: capability),
        testCase(3, .notVerified, target: "android-15-gpm", lacks: target),
    ]

    @Test("an item whose test cases were all not verified makes the run incomplete, and the gap says what it lacked")
    func unshownItem() throws {
        let run = Self.run(Self.oneItemUnshown)
        #expect(ExitStatus.for(run) == .incomplete)
        let gaps = ExitStatus.Gap.all(in: run)
        #expect(gaps.map(\.kind) == [.verifyItemNotVerified])
        #expect(gaps.first?.verifyItem == "N2.6-AC01.V3")
        #expect(gaps.first?.lacks == [Self.capability, Self.target])
        #expect(gaps.first?.detail == "N2.6-AC01.V3 not verified: declare capability second-factor; or declare target android-15-gpm")
    }

    @Test("an item verified on one target and not on another is no gap")
    func itemShownSomewhere() {
        let run = Self.run([
            Self.testCase(1, .passed), Self.testCase(2, .passed), Self.testCase(3, .passed), Self.testCase(3, .notVerified, target: "apple-17.4"),
        ])
        #expect(ExitStatus.Gap.all(in: run).isEmpty)
        #expect(ExitStatus.for(run) == .conformant)
    }

    @Test("--allow-not-verified accepts unshown items when a test case passed, and never when none did")
    func allowNotVerified() {
        #expect(ExitStatus.for(Self.run(Self.oneItemUnshown, allowNotVerified: true)) == .conformant)
        let nothingPassed = Self.run([Self.testCase(1, .notVerified, lacks: Self.capability), Self.testCase(2, .notVerified)], allowNotVerified: true)
        #expect(ExitStatus.for(nothingPassed) == .incomplete)
        let nothingSelected = Self.run([], allowNotVerified: true)
        #expect(ExitStatus.for(nothingSelected) == .incomplete)
    }

    @Test("a run whose every test case failed under a waiver is incomplete, never conformant, even with --allow-not-verified")
    func everythingWaived() {
        for allow in [false, true] {
            let run = Self.run([Self.testCase(1, .failed), Self.testCase(2, .failed)], allowNotVerified: allow)
            let evaluation = WaiverFile(waivers: [ReportFixtures.waiver("N2.6-AC01", "*")]).evaluate(against: run, today: ReportFixtures.today)
            #expect(ExitStatus.for(run, evaluation) == .incomplete)
            #expect(ExitStatus.Gap.all(in: run, waivers: evaluation).map(\.kind) == [.verifyItemOnlyWaived, .verifyItemOnlyWaived])
        }
    }

    @Test("summary.status and summary.outcome never disagree", arguments: [false, true])
    func statusAndOutcomeAgree(allow: Bool) throws {
        let runs = [
            Self.run(Self.oneItemUnshown, allowNotVerified: allow),
            Self.run([Self.testCase(1, .passed), Self.testCase(2, .passed), Self.testCase(3, .passed), Self.testCase(3, .notVerified, target: "apple-17.4")]),
            Self.run([Self.testCase(1, .passed), Self.testCase(2, .failed)]),
            Self.run([Self.testCase(1, .notVerified)], allowNotVerified: allow),
        ]
        let allowed: [String: Set<String>] = [
            "conformant": ["passed", "waived"], "nonConformant": ["failed"], "harnessError": ["error", "undefined"], "incomplete": ["notVerified"],
        ]
        for run in runs {
            let json = try JSONDecoder().decode(JSONValue.self, from: Data(try JSONReporter.render(run)))
            let status = try #require(json["summary"]?["status"]?.stringValue)
            let outcome = try #require(json["summary"]?["outcome"]?.stringValue)
            #expect(allowed[status]?.contains(outcome) == true, "status \(status) with outcome \(outcome)")
        }
    }

    @Test("a --today before the clock's day is recorded with the expired waivers it revives")
    func revivedWaivers() throws {
        let run = Self.run([Self.testCase(1, .passed), Self.testCase(2, .failed)])
        let file = WaiverFile(path: "waivers.json", waivers: [ReportFixtures.waiver("N2.6-AC01", "*", expires: "2026-01-20")])
        let evaluation = file.evaluate(against: run, today: CalendarDate("2026-01-10")!, clockDay: CalendarDate("2026-02-01")!)
        #expect(evaluation.revived == ["N2.6-AC01@*"])
        let markdown = MarkdownReporter.render(run, waivers: evaluation)
        let head = markdown.split(separator: "\n").prefix(4).joined(separator: "\n")
        #expect(head.contains("Waivers judged on another day"), "\(head)")
        #expect(head.contains("1 waiver(s) expired by 2026-02-01 count as live: N2.6-AC01@\\*"), "\(head)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(try JSONReporter.render(run, waivers: evaluation)))
        #expect(json["waivers"]?["clockDay"]?.stringValue == "2026-02-01")
        #expect(json["waivers"]?["revived"] == JSONValue.array([JSONValue.string("N2.6-AC01@*")]))
        #expect(JUnitReporter.render(run, waivers: evaluation).split(separator: "\n")[1].hasPrefix("<!-- NOTE: waivers judged as of 2026-01-10"))
        let today = file.evaluate(against: run, today: CalendarDate("2026-02-01")!, clockDay: CalendarDate("2026-02-01")!)
        #expect(today.clockDay == nil && today.revived.isEmpty)
    }
}
