import ConformanceTestSupport
import ConformanceKit
@testable import ConformanceReports
import Testing

@Suite("Waiver evaluation")
struct WaiverEvaluationTests {
    let run = ReportFixtures.run

    func evaluate(_ waivers: [Waiver], today: String = "2026-01-15") -> WaiverEvaluation {
        WaiverFile(path: "w.json", waivers: waivers).evaluate(against: run, today: CalendarDate(today)!)
    }

    @Test("a live waiver turns the matching failure into a waived result")
    func live() {
        let waiver = ReportFixtures.waiver("N2.6-AC04", "apple-17.4")
        let evaluation = evaluate([waiver])
        #expect(
            evaluation.waived == [
                .init(
                    testCaseID: "N2.6-AC04/apple-exclusion@apple-17.4", criterionID: "N2.6-AC04",
                    target: "apple-17.4", waiver: waiver)
            ])
        #expect(evaluation.entries == [.init(waiver: waiver, status: .active, waivedTestCaseIDs: ["N2.6-AC04/apple-exclusion@apple-17.4"])])
        #expect(evaluation.problems.isEmpty)
        #expect(evaluation.waiver(forTestCase: "N2.6-AC04/apple-exclusion@apple-17.4") == waiver)
        #expect(evaluation.waiver(forTestCase: "N2.6-AC01/second-factor-pending@android-15-gpm") == nil)
        #expect(evaluation.source == "w.json")
        #expect(evaluation.evaluatedOn == CalendarDate("2026-01-15"))
    }

    @Test(
        "a waiver holds through its expiry day and expires the day after",
        arguments: [
            ("2026-03-30", WaiverEvaluation.Status.active), ("2026-03-31", .active), ("2026-04-01", .expired),
        ])
    func expiryDay(today: String, status: WaiverEvaluation.Status) {
        let evaluation = evaluate([ReportFixtures.waiver("N2.6-AC04", "apple-17.4", expires: "2026-03-31")], today: today)
        #expect(evaluation.entries.map(\.status) == [status])
        #expect(evaluation.waived.count == (status == .active ? 1 : 0))
        #expect(evaluation.problems.map(\.kind) == (status == .expired ? [.expired] : []))
    }

    @Test("an expired waiver waives nothing and is a problem")
    func expired() throws {
        let evaluation = evaluate([ReportFixtures.waiver("N2.6-AC04", "apple-17.4", expires: "2026-01-14")])
        #expect(evaluation.waived.isEmpty)
        let problem = try #require(evaluation.problems.first)
        #expect(evaluation.problems.count == 1)
        #expect(problem.kind == .expired)
        #expect(
            problem.description
                == "N2.6-AC04@apple-17.4: expired on 2026-01-14 (owner ios-team); the failures it covered count as failures again. Fix them, or renew the waiver with a new date."
        )
    }

    @Test("a waiver whose failure no longer happens is stale")
    func stale() throws {
        let evaluation = evaluate([ReportFixtures.waiver("N2.6-X01", "*", owner: "server-team"), ReportFixtures.waiver("N2.6-AC04", "apple-18")])
        #expect(evaluation.entries.map(\.status) == [.stale, .stale])
        #expect(evaluation.waived.isEmpty)
        #expect(evaluation.problems.map(\.kind) == [.stale, .stale])
        #expect(
            evaluation.problems[0].description
                == "N2.6-X01@*: N2.6-X01 no longer fails on any target (2 test cases ran, none failed); remove the waiver (owner server-team).")
        #expect(evaluation.problems[1].message.hasPrefix("N2.6-AC04 no longer fails on apple-18 (1 test case ran, none failed)"))
    }

    @Test("an expired waiver that is also stale reports both, expired first")
    func expiredAndStale() {
        let evaluation = evaluate([
            ReportFixtures.waiver("N2.6-X01", "*", expires: "2025-12-31"), ReportFixtures.waiver("N2.6-AC04", "apple-17.4", expires: "2025-12-31"),
        ])
        #expect(evaluation.entries.map(\.status) == [.expired, .expired])
        #expect(evaluation.problems.map(\.kind) == [.expired, .expired, .stale])
        #expect(evaluation.problems.map(\.waiver.id) == ["N2.6-X01@*", "N2.6-AC04@apple-17.4", "N2.6-X01@*"])
    }

    @Test("a waiver whose criterion did not run, or only ended in error, undefined or not verified, is not exercised")
    func notExercised() {
        let evaluation = evaluate([
            ReportFixtures.waiver("N9.9-AC01", "*"), ReportFixtures.waiver("N3.2-AC01", "*"), ReportFixtures.waiver("N3.2-AC02", "android-15-gpm"),
        ])
        #expect(evaluation.entries.map(\.status) == [.notExercised, .notExercised, .notExercised])
        #expect(evaluation.problems.isEmpty)
        #expect(evaluation.waived.isEmpty, "error, undefined and notVerified are never waived")
    }

    @Test("`*` covers every target, and a waiver for the exact target wins over it")
    func wildcard() {
        let any = ReportFixtures.waiver("N2.6-AC01", "*", reason: "any")
        let exact = ReportFixtures.waiver("N2.6-AC01", "android-15-gpm", reason: "exact")
        let evaluation = evaluate([any, exact])
        #expect(evaluation.waived.map(\.waiver) == [exact])
        #expect(evaluation.entries.map(\.status) == [.active, .active])
        #expect(evaluation.entries.map(\.waivedTestCaseIDs) == [[], ["N2.6-AC01/second-factor-pending@android-15-gpm"]])

        let alone = evaluate([any])
        #expect(alone.waived.map(\.testCaseID) == ["N2.6-AC01/second-factor-pending@android-15-gpm"])
    }

    @Test("an expired exact waiver leaves the failure to a live `*` waiver")
    func expiredExactFallsBackToWildcard() {
        let any = ReportFixtures.waiver("N2.6-AC01", "*")
        let exact = ReportFixtures.waiver("N2.6-AC01", "android-15-gpm", expires: "2026-01-01")
        let evaluation = evaluate([exact, any])
        #expect(evaluation.waived.map(\.waiver) == [any])
        #expect(evaluation.entries.map(\.status) == [.expired, .active])
        #expect(evaluation.problems.map(\.kind) == [.expired])
    }

    @Test("no waivers change nothing")
    func none() {
        let evaluation = WaiverEvaluation.none
        #expect(evaluation.entries.isEmpty && evaluation.waived.isEmpty && evaluation.problems.isEmpty)
        #expect(evaluation.evaluatedOn == nil && evaluation.source == nil)
        #expect(WaiverFile(waivers: []).evaluate(against: run, today: ReportFixtures.today).waived.isEmpty)
    }
}

@Suite("Exit status")
struct ExitStatusTests {
    @Test("the documented numbers")
    func numbers() {
        #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 2, 3, 129, 130, 143])
    }

    @Test(
        "maps verdicts and waiver problems to 0, 1 or 2; undefined is 2 (a criterion-file defect decides nothing)",
        arguments: [
            // (verdicts replaced in the mixed fixture run, waivers, expected status)
            ([Verdict.error: Verdict.passed, .undefined: .passed, .failed: .passed], [], ExitStatus.conformant),
            ([.error: .passed, .undefined: .passed, .failed: .passed, .notVerified: .notVerified], [], .conformant),
            ([.error: .passed, .undefined: .passed], [], .nonConformant),
            ([.error: .passed, .failed: .passed], [], .harnessError),
            ([:], [], .harnessError),
            ([.undefined: .passed, .failed: .passed], [], .harnessError),
            ([.error: .passed, .undefined: .passed], ["N2.6-AC04@apple-17.4", "N2.6-AC01@*"], .conformant),
            ([.error: .passed, .undefined: .passed], ["N2.6-AC04@apple-17.4"], .nonConformant),
            ([.error: .passed, .undefined: .passed], ["N2.6-AC04@apple-17.4", "N2.6-AC01@*", "N2.6-X01@*"], .nonConformant),
            ([.error: .passed, .undefined: .passed], ["N2.6-AC04@apple-17.4", "N2.6-AC01@*", "N9.9-AC01@*"], .conformant),
            ([.undefined: .passed], ["N2.6-AC04@apple-17.4", "N2.6-AC01@*"], .harnessError),
        ] as [([Verdict: Verdict], [String], ExitStatus)])
    func mapping(replacements: [Verdict: Verdict], waiverIDs: [String], expected: ExitStatus) {
        let run = ReportFixtures.run(replacing: replacements)
        let waivers = waiverIDs.map { id in
            let parts = id.split(separator: "@").map(String.init)
            return ReportFixtures.waiver(CriterionID(rawValue: parts[0]), parts[1])
        }
        let evaluation = WaiverFile(waivers: waivers).evaluate(against: run, today: ReportFixtures.today)
        #expect(ExitStatus.for(run, evaluation) == expected)
    }

    @Test("an expired waiver fails a run that would otherwise conform")
    func expiredWaiver() {
        let run = ReportFixtures.run(replacing: [.error: .passed, .undefined: .passed, .failed: .passed])
        let evaluation = WaiverFile(waivers: [ReportFixtures.waiver("N2.6-AC04", "apple-17.4", expires: "2020-01-01")])
            .evaluate(against: run, today: ReportFixtures.today)
        #expect(ExitStatus.for(run) == .conformant)
        #expect(ExitStatus.for(run, evaluation) == .nonConformant)
    }

    @Test("a failed criterion verdict without a failed test case behind it is not conformant")
    func failedWithoutCase() {
        var run = ReportFixtures.run(replacing: [.error: .passed, .undefined: .passed, .failed: .passed])
        run.criteria[0].verdict = .failed
        #expect(ExitStatus.for(run) == .nonConformant)
    }
}
