import ConformanceModel
/// The test cases of a run: criterion × scenario × target, after filtering.
public struct TestPlan: Sendable {
    /// One scenario (or outline row) on one target.
    public struct Case: Sendable {
        /// `<criterion>/<scenario slug>@<target>`: stable and unique within a plan.
        public var id: String
        /// The criterion the scenario belongs to.
        public var criterion: CriterionInfo
        /// The scenario, or outline row, to run.
        public var scenario: CriterionScenario
        /// The simulated platform it runs on.
        public var target: Target
    }

    /// What narrows a plan; every member is optional.
    public struct Filter: Sendable {
        /// Tags of the scenario plus `@core`/`@quality`, `@apple`/`@android`, `@<target id>` and `@<criterion id>`.
        public var tags: TagExpression
        /// The criteria to keep, by id or group (`N2.6-AC01`, `N3.2`); `.all` keeps every criterion.
        public var criteria: CriterionSelection
        /// Target ids to keep (`apple-18`, `android-15-gpm`); empty keeps every target.
        public var targets: [TargetID]
        /// Only the scenario with exactly this name, or, if none has it, those whose name contains it.
        public var scenario: String?

        /// Creates a filter; the defaults keep every case.
        public init(tags: TagExpression = .always, criteria: CriterionSelection = .all, targets: [TargetID] = [], scenario: String? = nil) {
            self.tags = tags
            self.criteria = criteria
            self.targets = targets
            self.scenario = scenario
        }
    }

    /// The test cases in run order: by criterion, then scenario, then target in catalog order.
    public var cases: [Case]
    /// The criteria that have at least one case, in file order.
    public var criteria: [CriterionInfo]
    /// The targets that have at least one case, in catalog order.
    public var targets: [Target]

    /// A plan of these test cases, over these criteria and targets.
    public init(cases: [Case], criteria: [CriterionInfo], targets: [Target]) {
        self.cases = cases
        self.criteria = criteria
        self.targets = targets
    }

    /// Expands criteria × scenarios × targets and applies the filter.
    ///
    /// The catalog is the native targets, and the web targets the filter names: a web target runs
    /// only when asked for (`--target web-chromium`), as it needs a browser and a web front end.
    public static func make(_ criteria: [Criterion], filter: Filter = Filter(), catalog: [Target]? = nil) -> TestPlan {
        let catalog = catalog ?? TargetCatalog.all + TargetCatalog.web.filter { filter.targets.contains($0.id) }
        var cases: [Case] = []
        // A scenario filter that names a scenario exactly selects only that one (re-running one test case).
        let exactScenario = filter.scenario.map { text in criteria.contains { $0.scenarios.contains { $0.name == text } } } ?? false
        for criterion in criteria {
            let id = criterion.info.id
            guard filter.criteria.selects(id, group: criterion.info.group) else { continue }
            for scenario in criterion.scenarios {
                if let text = filter.scenario, exactScenario ? scenario.name != text : !scenario.name.contains(text) { continue }
                for target in catalog where scenario.applies(to: target) {
                    if !filter.targets.isEmpty, !filter.targets.contains(target.id) { continue }
                    var tags = Set(scenario.tags)
                    tags.insert("@\(criterion.info.level.rawValue)")
                    tags.insert("@\(target.platform.rawValue)")
                    tags.insert("@\(target.id)")
                    tags.insert("@\(id)")
                    guard filter.tags.matches(tags) else { continue }
                    cases.append(Case(id: "\(id)/\(scenario.slug)@\(target.id)", criterion: criterion.info, scenario: scenario, target: target))
                }
            }
        }
        let criterionIDs = Set(cases.map(\.criterion.id))
        let targetIDs = Set(cases.map(\.target.id))
        return TestPlan(
            cases: cases,
            criteria: criteria.map(\.info).filter { criterionIDs.contains($0.id) },
            targets: catalog.filter { targetIDs.contains($0.id) })
    }
}
