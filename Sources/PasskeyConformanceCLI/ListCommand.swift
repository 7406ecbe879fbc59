import Foundation
import ConformanceKit

/// `list`: criteria, their verify items and the scenarios covering each; the targets; the steps.
struct ListCommand: CLICommand {
    static let spec = CommandSpec(
        name: "list", summary: "List criteria, verify items with the scenarios covering them, targets, or the step catalogue.",
        usage: "list [--criteria <path>] [--criterion <id>] [--target <id>] [--tags <expr>] [--targets | --monitors | --steps [--markdown]]",
        options: [
            Common.criteriaOption, Common.criterionOption, Common.targetOption, Common.tagsOption, Common.scenarioOption, Common.levelOption,
            .flag("targets", "List only the targets."),
            .flag("monitors", "List the safety monitors that watch every test case: each with the verify item a breach fails and what must hold."),
            .flag("steps", "List every step sentence: parameter types and ranges, the capability and target features it needs, the criteria that use it."),
            .flag("markdown", "With --steps: print the catalogue section of Documentation/criterion-files.md."),
        ])

    /// What is listed.
    enum Listing: Sendable {
        /// The criteria the selection keeps, their verify items and the scenarios covering each.
        case criteria
        /// The target catalogue.
        case targets
        /// The safety monitors, each with its verify items.
        case monitors
        /// The step catalogue, as text or as the Markdown section of the documentation.
        case steps(markdown: Bool)
    }

    var listing: Listing
    var selection: CriteriaSelection

    init(_ parsed: ParsedArguments) throws {
        if parsed.flag("targets") {
            listing = .targets
        } else if parsed.flag("monitors") {
            listing = .monitors
        } else if parsed.flag("steps") {
            listing = .steps(markdown: parsed.flag("markdown"))
        } else if parsed.flag("markdown") {
            throw parsed.usageError("--markdown goes with --steps")
        } else {
            listing = .criteria
        }
        selection = try CriteriaSelection(parsed)
    }

    func run() throws -> Int32 {
        let loaded: CriteriaLoader.Result
        switch listing {
        case .targets:
            Output.out(Self.targets())
            return CLI.Status.ok
        case .monitors:
            Output.out(Self.monitors())
            return CLI.Status.ok
        case .steps(let markdown):
            loaded = try Common.loadCriteria(selection.criteriaPath)
            let catalogue = StepCatalogue.standard(criteria: loaded.criteria)
            Output.out(markdown ? catalogue.markdown() : catalogue.text())
            return CLI.Status.ok
        case .criteria:
            loaded = try Common.loadCriteria(selection.criteriaPath)
        }
        let filter = try selection.filter(criteria: loaded.criteria, defaultLevel: .recommendation)
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
                    let targets = plan.cases.filter { $0.criterion.id == info.id && $0.scenario.slug == scenario.slug }.map(\.target.id.rawValue)
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

    /// The monitors, one paragraph each: name, the item a breach fails (then the others it can
    /// name) and the statement.
    static func monitors() -> String {
        let paragraphs = SafetyMonitor.all.map { monitor in
            "\(monitor.id)  fails \(monitor.item)"
                + (monitor.items.count > 1 ? " (or \(monitor.items.dropFirst().map(\.rawValue).joined(separator: ", ")))" : "") + "\n  "
                + monitor.statement
        }
        return paragraphs.joined(separator: "\n")
            + "\n\n\(SafetyMonitor.all.count) monitors watch every test case of a run whose plan holds their criterion; a breach fails the item in a test case of the monitor's criterion that names where it was seen."
    }

    static func targets() -> String {
        let width = (TargetCatalog.all.map(\.id.rawValue.count).max() ?? 0) + 2
        return TargetCatalog.all.map { target in
            "\(target.id.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)) \(target.title)\n" + String(repeating: " ", count: width + 1)
                + "features: " + target.features.map(\.rawValue).sorted().joined(separator: ", ")
        }.joined(separator: "\n")
    }
}

/// `validate`: every defect of the criterion files, as `file:line:col: error: message`.
struct ValidateCommand: CLICommand {
    static let spec = CommandSpec(
        name: "validate", summary: "Check criterion files and report every defect with its location.",
        usage: "validate [<path> ...]", options: [], positionals: .init(min: 0, max: Int.max, name: "path"))

    /// The files or directories to check; empty for `./Criteria` or the bundled suite.
    var paths: [String]

    init(_ parsed: ParsedArguments) { paths = parsed.positionals }

    func run() throws -> Int32 {
        let roots = paths.isEmpty ? [try CriteriaLocation.validationRoot()] : paths
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
