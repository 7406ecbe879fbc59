import Gherkin

/// A criterion loaded from its file: what it says, and the scenarios that test it.
public struct Criterion: Sendable {
    public var info: CriterionInfo
    public var scenarios: [CriterionScenario]
    /// Where the `@criterion` tag stands (for diagnostics).
    public var idLocation: (line: Int, column: Int) = (1, 1)
}

/// One scenario of a criterion (one example row of an outline), ready to plan and run.
public struct CriterionScenario: Sendable {
    /// A step with the keyword and line it has in the file.
    public struct Step: Sendable, Hashable {
        public var keyword: String
        public var text: String
        public var line: Int
        public var column: Int
    }

    /// The scenario's name; for outline rows, with the row's values substituted.
    public var name: String
    /// The criterion file.
    public var file: String
    /// The line of the scenario, or of its example row.
    public var line: Int
    /// All tags, inherited ones included (with `@`).
    public var tags: [String]
    public var verifyItems: [String]
    public var steps: [Step]
    /// Capabilities named by `@needs:` tags.
    public var needs: Set<Capability>
    /// `@platform:` restriction, if any.
    public var platform: PlatformFamily?
    /// `@requires:` features the target must have (`true`) or lack (`false`).
    public var requires: [Target.Feature: Bool]
    /// A slug unique within the criterion: the scenario name, and the row for outlines.
    public var slug: String

    /// Whether the scenario applies to a target.
    public func applies(to target: Target) -> Bool {
        if let platform, platform != target.platform { return false }
        return requires.allSatisfy { feature, wanted in target.has(feature) == wanted }
    }
}
