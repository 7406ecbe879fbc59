import ConformanceKit
import Foundation

/// A shrunk history as a regression scenario: a criterion file holding the violated item only, a
/// Background with the history's fixtures, the history's steps and a `Then` check of the step
/// library that fails on the explored relying party (and, when an oracle is given, passes on it).
package struct ExploreScenario: Sendable {
    /// The criterion file's name, `<criterion id>.feature`, as the loader requires.
    package var fileName: String
    /// The criterion file's text.
    package var text: String
    /// The `Then` check chosen; `nil` when no step of the library states the invariant for this
    /// history (the file then reproduces the history without a check).
    package var check: String?
    /// The scenario run through the runner on the explored relying party: the failed test case the
    /// reports show (or, without a check, the violation as a failed test case).
    package var result: TestCaseResult

    /// The criterion file of a finding with a given check.
    package static func render(_ finding: Explorer.Finding, criterion: CriterionInfo?, check: String?, rerun: String) -> String {
        let violation = finding.violation
        let item = criterion?.verifyItems.first { $0.id == violation.item }
        let local = String(violation.item.local)
        let group = String(violation.invariant.criterion.group)
        let target = TargetCatalog.target(id: finding.shrunk.target)
        let platform = target?.platform.rawValue ?? "android"
        // The scenario runs on the targets with exactly the features of the one it was found on.
        let features = Target.Feature.allCases.map { feature in
            "@requires:" + (target?.has(feature) == false ? "no-" : "") + feature.rawValue
        }.joined(separator: " ")
        var lines = [
            "# Found by passkey-conformance explore (history \(finding.index + 1), shrunk from \(finding.original.steps.count) to \(finding.shrunk.steps.count) steps).",
            "# Re-run: \(rerun)",
            "@criterion:\(violation.invariant.criterion) @level:\(criterion?.level.rawValue ?? "core") @group:\(group)"
                + (criterion?.derived == true ? " @derived" : ""),
            "Feature: \(violation.invariant.criterion) \(criterion?.title ?? "explored regression")",
            "",
            "  Statement:",
            "    \(criterion?.statement ?? violation.invariant.statement)",
            "  Verification:",
            "    A history that explore generated and shrunk; the invariant \(violation.invariant.id) broke: \(violation.invariant.statement)",
            "  Items:",
            "    \(local): \(item?.text ?? violation.invariant.statement)",
            "  Source: \(criterion?.source ?? violation.invariant.criterion.rawValue)",
            "",
            "  Background:",
        ]
        for (index, step) in finding.shrunk.background.enumerated() { lines.append("    \(index == 0 ? "Given" : "And") \(step.sentence)") }
        lines += [
            "", "  @verify:\(violation.item) @platform:\(platform)", "  \(features)",
            "  Scenario: Explored: \(violation.invariant.id) on \(finding.shrunk.target)",
        ]
        for (index, step) in finding.shrunk.steps.enumerated() { lines.append("    \(index == 0 ? "When" : "And") \(step.sentence)") }
        if let check { lines.append("    Then \(check)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs the rendered file's one test case on the finding's target.
    package static func runFile(_ text: String, fileName: String, target: String, adapter: any RelyingPartyAdapter, seed: UInt64) async throws
        -> TestCaseResult?
    {
        let loaded = CriteriaLoader().load(sources: [(path: "explore/" + fileName, bytes: Data(text.utf8))], root: "explore")
        guard !loaded.hasErrors else { return nil }
        let plan = TestPlan.make(loaded.criteria, filter: TestPlan.Filter(targets: [TargetID(rawValue: target)]))
        guard let testCase = plan.cases.first else { return nil }
        let description = try await adapter.describe()
        // The invariant the history broke is the finding; the monitors (which may see the same
        // cause) do not count it a second time in the explore report.
        return await Runner(adapter: adapter, seed: seed).run(testCase, description: description, monitors: [])
    }
}

extension Explorer {
    /// Turns a finding into a regression scenario: tries the library's checks for its invariant and
    /// keeps the first that fails on the explored relying party and passes on the oracle (a
    /// conforming relying party, e.g. the reference RP), when one is given.
    package func scenario(for finding: Finding, criteria: [Criterion], oracle: (any RelyingPartyAdapter)?, rerun: String) async throws -> ExploreScenario {
        let violation = finding.violation
        let info = criteria.first { $0.info.id == violation.invariant.criterion }?.info
        let fileName = violation.invariant.criterion.rawValue + ".feature"
        let created = Set(finding.shrunk.background.compactMap { step -> String? in if case .account(let alias, _) = step { alias } else { nil } })
        let aliases = ["alice", "bob", "carol"].filter(created.contains)
        for check in violation.invariant.checks(aliases: aliases) {
            let text = ExploreScenario.render(finding, criterion: info, check: check, rerun: rerun)
            guard let result = try await ExploreScenario.runFile(text, fileName: fileName, target: finding.shrunk.target, adapter: adapter, seed: seed),
                result.verdict == .failed
            else { continue }
            if let oracle {
                guard let control = try await ExploreScenario.runFile(text, fileName: fileName, target: finding.shrunk.target, adapter: oracle, seed: seed),
                    control.verdict == .passed
                else { continue }
            }
            var annotated = result
            annotated.outcome = result.outcome.replacingMessage(
                "explore: invariant \(violation.invariant.id) (\(violation.item)): \(violation.message); seed \(seed); re-run: \(rerun). "
                    + (result.message ?? ""))
            return ExploreScenario(fileName: fileName, text: text, check: check, result: annotated)
        }
        let text = ExploreScenario.render(finding, criterion: info, check: nil, rerun: rerun)
        let steps =
            (finding.shrunk.background.map { StepResult(keyword: "Given ", text: $0.sentence, line: 0, status: .passed) }
                + finding.shrunk.steps.map { StepResult(keyword: "When ", text: $0.sentence, line: 0, status: .passed) })
        let result = TestCaseResult(
            id: "\(violation.invariant.criterion)/explored-\(violation.invariant.id)@\(finding.shrunk.target)", criterionID: violation.invariant.criterion,
            scenario: "Explored: \(violation.invariant.id) on \(finding.shrunk.target)", file: "explore/" + fileName, line: 1,
            verifyItems: [violation.item], tags: ["@explore"], target: finding.shrunk.target,
            outcome: .failed(
                message:
                    "explore: invariant \(violation.invariant.id) (\(violation.item)): \(violation.message); seed \(seed); re-run: \(rerun). No step of the library states this check for the history; the scenario reproduces it without a Then step."
            ),
            steps: steps, evidence: [], virtualMillis: 0, wallSeconds: 0)
        return ExploreScenario(fileName: fileName, text: text, check: nil, result: result)
    }
}

extension Explorer {
    /// The run result the reporters write for an exploration: the finding's failed test case under
    /// its criterion, or no test case at all when no invariant broke.
    package static func runResult(_ scenario: ExploreScenario?, criteria: [Criterion], metadata: RunMetadata, wallSeconds: Double) -> RunResult {
        var infos: [CriterionInfo] = []
        if let scenario {
            infos = [
                criteria.first { $0.info.id == scenario.result.criterionID }?.info
                    ?? CriterionInfo(
                        id: scenario.result.criterionID, title: "explored regression", level: .core,
                        group: String(scenario.result.criterionID.group), origin: .source,
                        statement: "", verification: "", verifyItems: [], source: "", references: [], file: scenario.result.file)
            ]
        }
        let targets = scenario.flatMap { TargetCatalog.target(id: $0.result.target) }.map { [$0] } ?? []
        let plan = TestPlan(cases: [], criteria: infos, targets: targets)
        return RunResult.assemble(plan: plan, results: scenario.map { [$0.result] } ?? [], metadata: metadata, wallSeconds: wallSeconds)
    }
}
