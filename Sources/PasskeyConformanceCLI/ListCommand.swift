import Foundation
import ConformanceKit

/// `list`: criteria, their verify items and the scenarios covering each; the targets; the steps.
enum ListCommand {
    static let spec = CommandSpec(
        name: "list", summary: "List criteria, verify items with the scenarios covering them, targets, or the step catalogue.",
        usage: "list [--criteria <path>] [--criterion <id>] [--target <id>] [--tags <expr>] [--targets | --steps [--markdown]]",
        options: [Common.criteriaOption, Common.criterionOption, Common.targetOption, Common.tagsOption, Common.scenarioOption, Common.levelOption],
        flags: [
            ("targets", "List only the targets."),
            ("steps", "List every step sentence: parameter types and ranges, the capability and target features it needs, the criteria that use it."),
            ("markdown", "With --steps: print the catalogue section of Documentation/criterion-files.md."),
        ],
        positionals: (0, 0, ""))

    static func run(_ parsed: ParsedArguments) throws -> Int32 {
        if parsed.flags.contains("targets") {
            Output.out(targets())
            return CLI.Status.ok
        }
        if parsed.flags.contains("markdown"), !parsed.flags.contains("steps") {
            throw UsageError("--markdown goes with --steps", command: spec.name)
        }
        let loaded = try Common.loadCriteria(parsed)
        if parsed.flags.contains("steps") {
            let catalogue = StepCatalogue.standard(criteria: loaded.criteria)
            Output.out(parsed.flags.contains("markdown") ? catalogue.markdown() : catalogue.text())
            return CLI.Status.ok
        }
        let filter = try Common.filter(parsed, criteria: loaded.criteria, command: spec.name, defaultLevel: .recommendation)
        let plan = TestPlan.make(loaded.criteria, filter: filter)
        var lines: [String] = []
        var uncovered = 0
        for criterion in loaded.criteria where plan.criteria.contains(where: { $0.id == criterion.info.id }) {
            let info = criterion.info
            lines.append("\(info.id) [\(info.level.rawValue)\(info.origin == .source ? "" : ", \(info.origin.rawValue)")] \(info.title)")
            lines.append("  \(info.file)")
            for item in info.verifyItems {
                let scenarios = criterion.scenarios.filter { $0.verifyItems.contains(item.id) }
                if scenarios.isEmpty { uncovered += 1 }
                lines.append("  \(item.id): \(item.text)")
                for scenario in scenarios {
                    let targets = plan.cases.filter { $0.criterion.id == info.id && $0.scenario.slug == scenario.slug }.map(\.target.id)
                    lines.append("    - line \(scenario.line): \(scenario.name)  [\(targets.joined(separator: ", "))]")
                }
                if scenarios.isEmpty { lines.append("    (not covered)") }
            }
        }
        lines.append("")
        lines.append(
            "\(plan.criteria.count) criteria, \(plan.criteria.flatMap(\.verifyItems).count) verify items (\(uncovered) not covered), \(plan.cases.count) test cases on \(plan.targets.count) targets"
        )
        Output.out(lines.joined(separator: "\n"))
        return uncovered == 0 ? CLI.Status.ok : CLI.Status.nonConformant
    }

    static func targets() -> String {
        let width = (TargetCatalog.all.map(\.id.count).max() ?? 0) + 2
        return TargetCatalog.all.map { target in
            "\(target.id.padding(toLength: width, withPad: " ", startingAt: 0)) \(target.title)\n" + String(repeating: " ", count: width + 1)
                + "features: " + target.features.map(\.rawValue).sorted().joined(separator: ", ")
        }.joined(separator: "\n")
    }
}

/// `validate`: every defect of the criterion files, as `file:line:col: error: message`.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate", summary: "Check criterion files and report every defect with its location.",
        usage: "validate [<path> ...]", options: [], flags: [], positionals: (0, Int.max, "path"))

    static func run(_ parsed: ParsedArguments) throws -> Int32 {
        let roots = parsed.positionals.isEmpty ? [try CriteriaLocation.validationRoot()] : parsed.positionals
        var errors = 0
        var files = 0
        var criteria = 0
        var sources: [(path: String, bytes: Data?)] = []
        for root in roots {
            do {
                for file in try CriteriaLoader.featureFiles(at: root) { sources.append((file, FileManager.default.contents(atPath: file))) }
            } catch {
                Output.error("\(root):1:1: error: \(error)")
                errors += 1
            }
        }
        let result = CriteriaLoader().load(sources: sources)
        for diagnostic in result.diagnostics {
            Output.error(diagnostic.description)
            if diagnostic.severity == .error { errors += 1 }
        }
        files = result.files.count
        criteria = result.criteria.count
        Output.out(
            "\(files) file(s), \(criteria) criteria, \(errors) error(s), \(result.diagnostics.count - result.diagnostics.filter { $0.severity == .error }.count) warning(s)"
        )
        return errors == 0 ? CLI.Status.ok : CLI.Status.nonConformant
    }
}
