/// A criterion loaded from its file: what it says, and the scenarios that test it.
public struct Criterion: Sendable {
    /// The criterion's identity and text, as reports show it.
    public var info: CriterionInfo
    /// The scenarios that test it, with outline rows expanded, in file order.
    public var scenarios: [CriterionScenario]
    /// Where the `@criterion` tag stands (for diagnostics).
    public var idLocation: (line: Int, column: Int) = (1, 1)

    /// A criterion with its scenarios.
    public init(info: CriterionInfo, scenarios: [CriterionScenario], idLocation: (line: Int, column: Int) = (1, 1)) {
        self.info = info
        self.scenarios = scenarios
        self.idLocation = idLocation
    }
}

/// One scenario of a criterion (one example row of an outline), ready to plan and run.
public struct CriterionScenario: Sendable {
    /// A step with the keyword and line it has in the file.
    public struct Step: Sendable, Hashable {
        /// What a step does in its scenario: `Given` sets up, `When` is the trigger the checks are
        /// about, `Then` checks. `And`, `But` and `*` continue the role of the step before them.
        public enum Role: String, Sendable, Hashable {
            /// A `Given` step: the situation before the trigger.
            case context
            /// A `When` step: the action the scenario's checks are about.
            case action
            /// A `Then` step: a check.
            case outcome
        }
        /// The Gherkin keyword as written, with its trailing space (`Given `, `And `, `* `).
        public var keyword: String
        /// The step text after the keyword, with outline values substituted.
        public var text: String
        /// The 1-based line of the step in the file.
        public var line: Int
        /// The 1-based column of the step's keyword.
        public var column: Int
        /// The step's role, with `And`/`But`/`*` resolved to the role before them.
        public var role: Role = .context

        /// A step as written in the file.
        public init(keyword: String, text: String, line: Int, column: Int, role: Role = .context) {
            self.keyword = keyword
            self.text = text
            self.line = line
            self.column = column
            self.role = role
        }
    }

    /// The scenario's name; for outline rows, with the row's values substituted.
    public var name: String
    /// The criterion file.
    public var file: String
    /// The line of the scenario, or of its example row.
    public var line: Int
    /// All tags, inherited ones included (with `@`).
    public var tags: [String]
    /// The verify items the scenario covers, from its `@verify:` tags, as full ids (`N2.6-AC01.V1`).
    public var verifyItems: [VerifyItemID]
    /// The steps to run, Background steps first, in order.
    public var steps: [Step]
    /// Capabilities named by `@needs:` tags.
    public var needs: Set<Capability>
    /// `@platform:` restriction, if any.
    public var platform: PlatformFamily?
    /// `@requires:` features the target must have (`true`) or lack (`false`).
    public var requires: [Target.Feature: Bool]
    /// A slug unique within the criterion: the scenario name, and the row for outlines.
    public var slug: String

    /// A scenario with everything planning needs.
    public init(
        name: String, file: String, line: Int, tags: [String], verifyItems: [VerifyItemID], steps: [Step], needs: Set<Capability>,
        platform: PlatformFamily?, requires: [Target.Feature: Bool], slug: String
    ) {
        self.name = name
        self.file = file
        self.line = line
        self.tags = tags
        self.verifyItems = verifyItems
        self.steps = steps
        self.needs = needs
        self.platform = platform
        self.requires = requires
        self.slug = slug
    }

    /// Whether the scenario applies to a target.
    public func applies(to target: Target) -> Bool {
        if let platform, platform != target.platform { return false }
        return requires.allSatisfy { feature, wanted in target.has(feature) == wanted }
    }
}
