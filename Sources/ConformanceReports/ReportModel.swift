import ConformanceModel

/// The run as every reporter presents it: targets in column order, test cases grouped by
/// criterion, each verdict with its outcome after waivers, counts, and the exit status.
///
/// Computed once per report so that the formats (and the console's summary) cannot disagree, and
/// ordered only by the run's own arrays and sorted keys, never by dictionary order.
package struct ReportModel {
    /// A test case with its outcome after waivers.
    package struct Case {
        package var result: TestCaseResult
        package var outcome: ReportOutcome
        /// The live waiver that covers it, when it is waived.
        package var waiver: Waiver?
        /// Whether the run's gate covers its criterion; a failure below the gate is a warning.
        var gated = true

        /// A failure below the gate: reported, but it does not change the exit status.
        var isWarning: Bool { outcome == .failed && !gated }
    }

    /// The verdict of one criterion on one target.
    struct Cell {
        var verdict: Verdict
        package var outcome: ReportOutcome
    }

    /// One criterion with its test cases.
    struct Section {
        var id: CriterionID
        /// `nil` for test cases whose criterion the run does not describe (kept, never dropped).
        var info: CriterionInfo?
        var verdict: Verdict
        package var outcome: ReportOutcome
        /// Per target id; a target absent here does not apply to the criterion.
        var cells: [String: Cell]
        package var cases: [Case]
        /// Whether the run's gate covers the criterion (`run --gate`).
        var gated = true

        /// The test cases on one target, in run order.
        package func cases(on target: String) -> [Case] { cases.filter { $0.result.target == target } }
    }

    package var run: RunResult
    var waivers: WaiverEvaluation
    /// Column order: the run's targets, then any other target a result names, sorted.
    var targets: [String]
    var sections: [Section]
    /// The run's outcome as the gate sees it, so that it never disagrees with `exitStatus`:
    /// `passed` or `waived` for *conformant*, `failed` for *not conformant*, `error` or `undefined`
    /// for *not decided*, `notVerified` for *incomplete*; the folded outcome for an interrupted run.
    package var outcome: ReportOutcome
    package var exitStatus: ExitStatus { decision.status }
    /// The exit status with every reason behind it, as `ExitStatus.for` decides it.
    var decision: ExitStatus.Decision
    /// Why the run is incomplete (or what `--allow-not-verified` accepted): the gaps of criteria
    /// the gate covers, and the run-wide ones.
    var gaps: [ExitStatus.Gap]
    /// The gaps of criteria below the gate: warnings.
    var warningGaps: [ExitStatus.Gap]
    /// The gate the run applied.
    var gate: Gate
    /// Every test case that did not pass, grouped by cause.
    var groups: [FailureGroup] = []
    /// The JSON report's `metadata.reportDigest`, for the other formats' headers; set by
    /// `ReportWriter` before it renders them (`nil`: not shown).
    package var reportDigest: String?

    /// The model of `run` with `waivers` applied.
    /// The model every file of one report set renders: with the digest of its own JSON report
    /// (`metadata.reportDigest`), so that every format names the same digest.
    package static func sealed(_ run: RunResult, waivers: WaiverEvaluation) throws -> ReportModel {
        var model = ReportModel(run, waivers: waivers)
        model.reportDigest = try JSONReporter.reportDigest(of: model)
        return model
    }

    package init(_ run: RunResult, waivers: WaiverEvaluation) {
        self.run = run
        self.waivers = waivers
        decision = ExitStatus.Decision(run, waivers: waivers)
        gaps = run.metadata.shard == nil ? ExitStatus.Gap.gating(in: run, waivers: waivers) : []
        warningGaps = run.metadata.shard == nil ? ExitStatus.Gap.belowGate(in: run, waivers: waivers) : []
        gate = run.metadata.gate ?? .all

        var casesByCriterion: [CriterionID: [Case]] = [:]
        var criterionOrder: [CriterionID] = []
        for result in run.testCases {
            let waiver = result.verdict == .failed ? waivers.waiver(forTestCase: result.id) : nil
            if casesByCriterion[result.criterionID] == nil { criterionOrder.append(result.criterionID) }
            casesByCriterion[result.criterionID, default: []].append(
                Case(
                    result: result, outcome: ReportOutcome(result.verdict, waived: waiver != nil), waiver: waiver,
                    gated: run.gateCovers(criterion: result.criterionID)))
        }

        /// A verdict with its outcome over the test cases behind it.
        func cell(_ verdict: Verdict, _ cases: [Case]) -> Cell {
            Cell(verdict: verdict, outcome: .folded(verdict, caseOutcomes: cases.map(\.outcome)))
        }
        func section(_ id: CriterionID, _ info: CriterionInfo?, _ verdict: Verdict, _ cells: [String: Cell], _ cases: [Case]) -> Section {
            let overall = cell(verdict, cases)
            return Section(
                id: id, info: info, verdict: verdict, outcome: overall.outcome, cells: cells, cases: cases, gated: run.gateCovers(criterion: id))
        }
        var sections: [Section] = []
        for criterion in run.criteria {
            let cases = casesByCriterion[criterion.criterion.id] ?? []
            var cells: [String: Cell] = [:]
            for (target, verdict) in criterion.targets {
                cells[target] = cell(verdict, cases.filter { $0.result.target == target })
            }
            sections.append(section(criterion.criterion.id, criterion.criterion, criterion.verdict, cells, cases))
        }
        // Test cases of a criterion the run does not describe: kept, with verdicts folded from them.
        let described = Set(run.criteria.map(\.criterion.id))
        for id in criterionOrder where !described.contains(id) {
            let cases = casesByCriterion[id] ?? []
            var cells: [String: Cell] = [:]
            for target in Set(cases.map(\.result.target)) {
                let here = cases.filter { $0.result.target == target }
                cells[target] = cell(Verdict.fold(here.map(\.result.verdict)), here)
            }
            sections.append(section(id, nil, Verdict.fold(cases.map(\.result.verdict)), cells, cases))
        }
        self.sections = sections

        let declared = run.metadata.targets
        let others = Set(sections.flatMap(\.cells.keys) + run.testCases.map(\.target)).subtracting(declared)
        targets = Self.unique(declared) + others.sorted()
        let folded = ReportOutcome.folded(run.verdict, caseOutcomes: sections.flatMap(\.cases).map(\.outcome) + sections.map(\.outcome))
        outcome = Self.outcome(of: decision.status, folded: folded, anyWaived: sections.contains { $0.cases.contains { $0.outcome == .waived } })
        groups = Self.groups(sections, targets: targets)
    }

    /// The model with the JSON report's digest set, for a format rendered on its own.
    static func withDigest(_ run: RunResult, waivers: WaiverEvaluation) -> ReportModel {
        var model = ReportModel(run, waivers: waivers)
        model.reportDigest = try? JSONReporter.reportDigest(of: model)
        return model
    }

    /// The run's outcome that matches its exit status (see `outcome`).
    package static func outcome(of status: ExitStatus, folded: ReportOutcome, anyWaived: Bool) -> ReportOutcome {
        switch status {
        case .conformant: anyWaived ? .waived : .passed
        case .nonConformant: .failed
        case .harnessError: folded == .undefined ? .undefined : .error
        case .incomplete: .notVerified
        case .interrupted, .terminated, .hangup: folded
        }
    }

    /// All test cases, in run order within criterion order.
    package var cases: [Case] { sections.flatMap(\.cases) }

    /// The failures below the gate, in run order.
    var warnings: [Case] { cases.filter(\.isWarning) }

    /// How many test cases ended with each outcome.
    package var caseCounts: [ReportOutcome: Int] { Self.count(cases.map(\.outcome)) }

    /// A criterion's outcome after waivers (`waived` when every failure behind it is waived), `nil`
    /// for a criterion the run does not have.
    package func outcome(ofCriterion id: CriterionID) -> ReportOutcome? {
        sections.first { $0.id == id }?.outcome
    }

    /// `2 passed, 1 failed, 0 waived, …`: every outcome, in report order, as every format counts.
    package static func counted(_ counts: [ReportOutcome: Int]) -> String {
        ReportOutcome.allCases.map { "\(counts[$0] ?? 0) \($0.words)" }.joined(separator: ", ")
    }

    /// How many criteria ended with each outcome.
    var criterionCounts: [ReportOutcome: Int] { Self.count(sections.map(\.outcome)) }

    static func count(_ outcomes: [ReportOutcome]) -> [ReportOutcome: Int] {
        var counts = Dictionary(uniqueKeysWithValues: ReportOutcome.allCases.map { ($0, 0) })
        for outcome in outcomes { counts[outcome, default: 0] += 1 }
        return counts
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    /// `value`, or 0 when it is negative or not a finite number.
    static func finite(_ value: Double) -> Double { value.isFinite && value > 0 ? value : 0 }

    /// Seconds with exactly three decimals (`0.012`), computed with integers so that no locale or
    /// floating-point printing can change the bytes; negative and non-finite values count as 0.
    static func seconds(_ value: Double) -> String {
        let clamped = finite(value)
        let millis = clamped >= Double(Int64.max / 2) / 1000 ? Int64.max / 2 : Int64((clamped * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
