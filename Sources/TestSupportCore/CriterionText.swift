/// Criterion files written in a test, so that each test shows the whole input it judges. Loading
/// them takes a step matcher: each test target that loads them adds the one it tests with.
package enum CriterionText {
    /// One scenario of a generated criterion file.
    package struct Scenario: Sendable {
        /// The scenario's tags, with their `@`.
        package var tags: [String]
        /// The scenario's name, written after `Scenario:`.
        package var name: String
        /// The step lines, each with its keyword.
        package var steps: [String]

        /// Creates a scenario from its name, tags and step lines.
        ///
        /// - Parameters:
        ///   - tags: tags with their `@`; a `@verify:` tag for item `V1` is added unless one is given.
        ///   - steps: step lines with their keyword (`Given …`).
        package init(_ name: String, tags: [String] = [], steps: [String]) {
            self.tags = tags
            self.name = name
            self.steps = steps
        }
    }

    /// A criterion file that loads without defects given step definitions for its steps.
    ///
    /// Line 1 holds the feature tags and line 2 the `Feature:` keyword; each scenario is a blank
    /// line, a line of tags and the `Scenario:` line (column 3), then its steps (column 5).
    package static func criterion(
        id: String = "N9.9-AC01", level: String = "core", group: String = "N9.9",
        featureTags: [String] = [], items: [String] = ["V1"], scenarios: [Scenario]
    ) -> String {
        var lines = [
            (["@criterion:\(id)", "@level:\(level)", "@group:\(group)"] + featureTags).joined(separator: " "),
            "Feature: \(id) A criterion written by a test",
            "",
            "  Statement:",
            "    The relying party does the right thing.",
            "  Verification: Drive it and look.",
            "  Items:",
        ]
        lines += items.map { "    \($0): the item \($0)" }
        lines += ["  Source: a test"]
        for scenario in scenarios {
            lines.append("")
            var tags = scenario.tags
            if !tags.contains(where: { $0.hasPrefix("@verify:") }) { tags.append("@verify:\(id).\(items.first ?? "V1")") }
            lines.append("  " + tags.joined(separator: " "))
            lines.append("  Scenario: \(scenario.name)")
            lines += scenario.steps.map { "    \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
