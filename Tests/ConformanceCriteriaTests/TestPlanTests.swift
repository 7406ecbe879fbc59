import ConformanceCriteria
import ConformanceModel
import Foundation
import TestSupportCore
import Testing

@Suite("Test plans")
struct TestPlanTests {
    static let package = CriterionText.packageCriteria().criteria

    /// Every (criterion, scenario, target) the unfiltered plan must hold.
    static func expectedCases(_ criteria: [Criterion], where include: (Criterion, CriterionScenario, Target) -> Bool = { _, _, _ in true }) -> [String] {
        criteria.flatMap { criterion in
            criterion.scenarios.flatMap { scenario in
                TargetCatalog.all.filter { scenario.applies(to: $0) && include(criterion, scenario, $0) }
                    .map { "\(criterion.info.id)/\(scenario.slug)@\($0.id)" }
            }
        }
    }

    @Test("without a filter the plan is every scenario on every target it applies to, with unique, stable ids")
    func unfiltered() throws {
        try #require(!Self.package.isEmpty)
        let plan = TestPlan.make(Self.package)
        let ids = plan.cases.map(\.id)
        #expect(ids == Self.expectedCases(Self.package))
        #expect(Set(ids).count == ids.count)
        #expect(TestPlan.make(Self.package).cases.map(\.id) == ids)
        for testCase in plan.cases {
            #expect(testCase.scenario.applies(to: testCase.target))
            #expect(testCase.id == "\(testCase.criterion.id)/\(testCase.scenario.slug)@\(testCase.target.id)")
        }
        #expect(plan.criteria.map(\.id) == Self.package.map(\.info.id))
        #expect(plan.targets.map(\.id) == TargetCatalog.all.filter { target in plan.cases.contains { $0.target.id == target.id } }.map(\.id))
    }

    @Test(
        "the criterion filter takes whole ids and whole groups, never a partial id",
        arguments: [
            (["N2.6-AC01"], ["N2.6-AC01"]),
            (["N2.6-AC01", "N2.6-X02"], ["N2.6-AC01", "N2.6-X02"]),
            (["N2.6"], ["N2.6-AC01", "N2.6-AC02", "N2.6-AC03", "N2.6-AC04", "N2.6-AC05", "N2.6-AC06", "N2.6-X01", "N2.6-X02"]),
            (["N2.6-AC0"], []),
            (["N2"], []),
            (["N3.2"], (1...10).map { String(format: "N3.2-AC%02d", $0) }),
            (["N3"], []),
        ])
    func criterionFilter(_ filter: [String], _ expected: [String]) {
        let plan = TestPlan.make(Self.package, filter: .init(criteria: CriterionSelection(filter.map { CriterionSelector($0) })))
        #expect(plan.criteria.map(\.id.rawValue) == expected)
        #expect(Set(plan.cases.map(\.criterion.id.rawValue)) == Set(expected))
        let all = Self.expectedCases(Self.package) { criterion, _, _ in expected.contains(criterion.info.id.rawValue) }
        #expect(plan.cases.map(\.id) == all)
    }

    @Test("an empty selection plans nothing, where no selector at all plans everything")
    func emptySelection() {
        #expect(TestPlan.make(Self.package, filter: .init(criteria: .nothing)).cases.isEmpty)
        #expect(CriterionSelection([]) == .all)
        #expect(TestPlan.make(Self.package, filter: .init(criteria: [])).criteria.count == Self.package.count)
    }

    @Test("a selector takes an id, the ids that continue it after a hyphen, and its group")
    func selector() {
        let group: CriterionSelector = "N3.2"
        #expect(group.selects("N3.2-AC01") && group.selects("X", group: "N3.2"))
        #expect(!group.selects("N3.20-AC01") && !CriterionSelector("N3.2-AC0").selects("N3.2-AC01"))
        #expect(!CriterionSelection.nothing.selects("N3.2-AC01", group: "N3.2") && CriterionSelection.all.selects("anything"))
    }

    @Test("the target filter keeps only the named targets", arguments: [["apple-18"], ["android-15-gpm", "apple-17.4"], ["no-such-target"]])
    func targetFilter(_ names: [String]) {
        let targets = names.map(TargetID.init(rawValue:))
        let plan = TestPlan.make(Self.package, filter: .init(targets: targets))
        #expect(plan.cases.map(\.id) == Self.expectedCases(Self.package) { _, _, target in targets.contains(target.id) })
        #expect(Set(plan.targets.map(\.id)).isSubset(of: Set(targets)))
    }

    @Test(
        "tag expressions see the scenario's tags and the synthetic level, platform, target and criterion tags",
        arguments: [
            "@android", "@apple", "@apple-17.4", "not @android", "@core", "@quality", "@N2.6-AC04", "@N2.6-AC04 and @apple",
            "@verify:N2.6-AC01.V1", "@needs:recovery-sign-in", "@derived", "@android-15-gpm or @apple-26.2", "not (@core or @quality)",
        ])
    func tagFilter(_ text: String) throws {
        let expression = try TagExpression.parse(text)
        let plan = TestPlan.make(Self.package, filter: .init(tags: expression))
        let expected = Self.expectedCases(Self.package) { criterion, scenario, target in
            var tags = Set(scenario.tags)
            tags.formUnion(["@\(criterion.info.level.rawValue)", "@\(target.platform.rawValue)", "@\(target.id)", "@\(criterion.info.id)"])
            return expression.matches(tags)
        }
        #expect(plan.cases.map(\.id) == expected)
    }

    @Test("synthetic tags select what they name")
    func syntheticTags() throws {
        func cases(_ text: String) throws -> [TestPlan.Case] { TestPlan.make(Self.package, filter: .init(tags: try TagExpression.parse(text))).cases }
        let android = try cases("@android")
        try #require(!android.isEmpty)
        #expect(android.allSatisfy { $0.target.platform == .android })
        let apple174 = try cases("@apple-17.4")
        try #require(!apple174.isEmpty)
        #expect(apple174.allSatisfy { $0.target.id == "apple-17.4" })
        // N3.2-AC10 is the one Quality criterion; every other criterion is Core.
        let all = TestPlan.make(Self.package).cases
        #expect(try cases("@core").count == all.filter { $0.criterion.level == .core }.count)
        #expect(try cases("@quality").map(\.criterion.id).allSatisfy { $0 == "N3.2-AC10" })
        #expect(try !cases("@quality").isEmpty)
        #expect(try cases("@core").count + cases("@quality").count == all.count)
        #expect(try !cases("@N2.6-AC04").isEmpty && cases("@N2.6-AC04").allSatisfy { $0.criterion.id == "N2.6-AC04" })
        #expect(try !cases("@derived").isEmpty && cases("@derived").allSatisfy { $0.criterion.derived })
    }

    @Test("the level tag follows the criterion's level")
    func qualityLevel() throws {
        let core = CriterionText.criterion(id: "N9.9-AC01", scenarios: [.init("Core", steps: ["Then no passkey registration request has been issued"])])
        let quality = CriterionText.criterion(
            id: "N9.9-AC02", level: "quality", scenarios: [.init("Quality", steps: ["Then no passkey registration request has been issued"])])
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", core), ("c/N9.9-AC02.feature", quality)])
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let plan = TestPlan.make(loaded.criteria, filter: .init(tags: try TagExpression.parse("@quality")))
        #expect(Set(plan.cases.map(\.criterion.id)) == ["N9.9-AC02"])
        #expect(plan.cases.count == TargetCatalog.all.count)
    }

    @Test("the scenario filter keeps scenarios whose name contains the text, case-sensitively")
    func scenarioFilter() {
        let plan = TestPlan.make(Self.package, filter: .init(scenario: "second factor"))
        #expect(!plan.cases.isEmpty)
        #expect(plan.cases.allSatisfy { $0.scenario.name.contains("second factor") })
        #expect(plan.cases.map(\.id) == Self.expectedCases(Self.package) { _, scenario, _ in scenario.name.contains("second factor") })
        #expect(TestPlan.make(Self.package, filter: .init(scenario: "SECOND FACTOR")).cases.isEmpty)
    }

    @Test("filters combine: every one of them must hold")
    func combined() throws {
        let plan = TestPlan.make(
            Self.package,
            filter: .init(
                tags: try TagExpression.parse("@android"), criteria: ["N2.6-AC01"],
                targets: ["android-15-gpm", "apple-18"], scenario: "policy"))
        #expect(!plan.cases.isEmpty)
        #expect(plan.cases.allSatisfy { $0.criterion.id == "N2.6-AC01" && $0.target.id == "android-15-gpm" && $0.scenario.name.contains("policy") })
        #expect(plan.targets.map(\.id) == ["android-15-gpm"])
    }

    @Test("outline rows with the same name get distinct slugs, so case ids stay unique")
    func outlineSlugs() throws {
        let text = """
            @criterion:N9.9-AC01 @level:core @group:N9.9
            Feature: N9.9-AC01 Outline rows

              Statement: s
              Verification: v
              Items:
                V1: the item
              Source: a test

              @verify:N9.9-AC01.V1
              Scenario Outline: Time passes
                Then <n> seconds pass

                Examples:
                  | n |
                  | 1 |
                  | 2 |
            """
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)])
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let scenarios = try #require(loaded.criteria.first).scenarios
        #expect(scenarios.map(\.slug) == ["Time passes", "Time passes [line 17]"])
        #expect(scenarios.map(\.line) == [16, 17])
        let ids = TestPlan.make(loaded.criteria, filter: .init(targets: ["apple-18"])).cases.map(\.id)
        #expect(ids == ["N9.9-AC01/Time passes@apple-18", "N9.9-AC01/Time passes [line 17]@apple-18"])
    }

    @Test("@platform and @requires restrict the targets a scenario is planned on")
    func platformAndRequires() throws {
        let text = CriterionText.criterion(scenarios: [
            .init("Apple with signals", tags: ["@platform:apple", "@requires:signals"], steps: ["Then no passkey registration request has been issued"]),
            .init("No conditional API", tags: ["@requires:no-conditional-create-api"], steps: ["Then no passkey registration request has been issued"]),
        ])
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)])
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let plan = TestPlan.make(loaded.criteria)
        #expect(
            plan.cases.filter { $0.scenario.name == "Apple with signals" }.map(\.target.id) == [
                "apple-26.0", "apple-26.1", "apple-26.2", "macos-26.2", "visionos-26.2",
            ])
        #expect(plan.cases.filter { $0.scenario.name == "No conditional API" }.map(\.target.id) == ["apple-17.4", "macos-14", "android-15-androidx-1.5"])
    }
}
