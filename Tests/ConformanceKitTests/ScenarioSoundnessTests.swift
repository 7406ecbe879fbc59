import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// Defects that a scenario's steps only show when it runs, reported when it loads instead.
@Suite("Criteria loader: sound scenarios")
struct ScenarioSoundnessTests {
    @Test("a step that uses an account no earlier step created is a located error")
    func accountNeverCreated() {
        let text = CriterionText.criterion(scenarios: [
            .init(
                "bob was never created",
                steps: [
                    #"Given an account "alice" with the sign-in policy "password only""#,
                    #"When the user signs in as "bob" typing the password by hand"#,
                    #"Then "alice" is signed in"#,
                ])
        ])
        let result = CriterionText.load([("N9.9-AC01.feature", text)])
        let errors = result.diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(
            errors == [
                #"N9.9-AC01.feature:14:5: error: step "the user signs in as "bob" typing the password by hand" uses the account "bob", which no earlier step of the scenario creates (create it first, e.g. with 'an account "bob" with the sign-in policy "password only"')"#
            ], "\(errors)")
    }

    @Test("a scenario without an outcome check counts for no verify item and is an error when it carries @verify tags")
    func noOutcomeCheck() throws {
        let text = CriterionText.criterion(
            items: ["V1", "V2"],
            scenarios: [
                .init(
                    "only a Given", tags: ["@verify:N9.9-AC01.V1", "@verify:N9.9-AC01.V2"],
                    steps: [#"Given an account "alice" with the sign-in policy "password only""#])
            ])
        let result = CriterionText.load([("N9.9-AC01.feature", text)])
        let errors = result.diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(
            errors == [
                "N9.9-AC01.feature:2:1: error: verify item N9.9-AC01.V1 is covered by no scenario",
                "N9.9-AC01.feature:2:1: error: verify item N9.9-AC01.V2 is covered by no scenario",
                "N9.9-AC01.feature:13:3: error: scenario \"only a Given\" has no outcome check (no Then step), so it verifies nothing; its @verify tags (N9.9-AC01.V1, N9.9-AC01.V2) cannot count for those items",
            ], "\(errors)")
    }

    @Test("the package's criteria have neither defect")
    func packageCriteria() {
        #expect(CriterionText.packageCriteria().diagnostics.isEmpty)
    }
}
