import ConformanceKit
import Foundation

/// Options and steps shared by the commands that load and select criteria.
enum Common {
    static let criteriaOption = CommandSpec.Option(
        name: "criteria", value: "path", help: "Criterion files: a directory or one file (default: the suite shipped with the harness).")
    static let criterionOption = CommandSpec.Option(name: "criterion", value: "id", help: "Only these criteria or groups (N2.6-AC01, N3.2).", repeatable: true)
    static let targetOption = CommandSpec.Option(name: "target", value: "id", help: "Only these targets (see 'list').", repeatable: true)
    static let tagsOption = CommandSpec.Option(name: "tags", value: "expression", help: "Cucumber tag expression, e.g. '@core and not @android'.")
    static let scenarioOption = CommandSpec.Option(
        name: "scenario", value: "text", help: "Only the scenario with exactly this name, or if none has it, those whose name contains it.")

    /// Loads the criteria; defects are printed and turned into an error.
    static func loadCriteria(_ path: String?) throws -> CriteriaLoader.Result {
        try attemptLoadingCriteria(path).get()
    }

    /// Loads the criteria at `path` (`--criteria`; the bundled suite when `nil`), printing every
    /// diagnostic; a missing bundle or defective files are the failure, for a command that reports
    /// it instead of stopping.
    static func attemptLoadingCriteria(_ path: String?) -> Swift.Result<CriteriaLoader.Result, SystemIssue> {
        let root: String
        do {
            root = try path ?? CriteriaLocation.defaultRoot()
        } catch let issue as SystemIssue {
            return .failure(issue)
        } catch {
            return .failure(SystemIssue("\(error)"))
        }
        let result = CriteriaLoader().load(root: root)
        for diagnostic in result.diagnostics { Output.error(diagnostic.description) }
        if result.hasErrors {
            let errors = result.diagnostics.filter { $0.severity == .error }
            let first = errors.prefix(3).map(\.description).joined(separator: "; ")
            return .failure(
                SystemIssue(
                    "the criterion files have \(errors.count) defect(s): \(first)\(errors.count > 3 ? "; …" : ""); fix them or run 'passkey-conformance validate'"
                ))
        }
        return .success(result)
    }

    /// The line that says the criteria are not the suite shipped with the harness, with both
    /// digests; `nil` when they are.
    static func criteriaNotice(digest: String, bundled: String?) -> String? {
        guard digest != bundled else { return nil }
        return "warning: the criteria are NOT the suite shipped with this harness: digest \(digest.isEmpty ? "none (not loaded)" : digest), bundled suite "
            + (bundled ?? "missing (no resource bundle beside the executable)")
    }

    /// The `--level` option of `run` and `list`.
    static let levelOption = CommandSpec.Option(
        name: "level", value: "origin",
        help:
            "Which criteria the run covers: source (the documents' own), derived (also the harness's derived requirements; the default) or recommendation (also other standards' recommendations)."
    )

    /// `--seed`: any 64-bit whole number, 1 by default.
    static func seed(_ parsed: ParsedArguments) throws(UsageError) -> UInt64 {
        try parsed.wholeNumber("seed", in: UInt64.min...UInt64.max, described: "a whole number from 0 to \(UInt64.max)") ?? 1
    }

    /// `--target`: ids of the catalogue; an unknown one is a usage error listing the known ones.
    static func targets(_ parsed: ParsedArguments) throws(UsageError) -> [String] {
        let knownTargets = TargetCatalog.known.map(\.id.rawValue)
        for target in parsed.list("target") where !knownTargets.contains(target) {
            throw parsed.usageError(option: "target", "unknown target '\(target)'; known targets: \(knownTargets.joined(separator: ", "))")
        }
        return parsed.list("target")
    }
}

/// The options that choose which criteria, scenarios and targets run (`--criteria`, `--criterion`,
/// `--target`, `--tags`, `--scenario`, `--level`), read and checked as far as they can be before the
/// criteria load; the criterion ids are checked against the loaded criteria by `filter(criteria:)`.
struct CriteriaSelection: Sendable {
    /// `--criteria`: the criterion files; `nil` for the suite shipped with the harness.
    var criteriaPath: String?
    /// `--criterion`: criterion ids or groups.
    var criteria: [String]
    /// `--target`: target ids, all known.
    var targets: [String]
    /// `--tags` as given, and parsed.
    var tagsText: String?
    var tags: TagExpression
    /// `--scenario`.
    var scenario: String?
    /// `--level`, when given.
    var level: CriterionInfo.Origin?
    /// The command whose help a usage error points to.
    var command: String

    init(_ parsed: ParsedArguments) throws(UsageError) {
        command = parsed.command
        criteriaPath = parsed.value("criteria")
        criteria = parsed.list("criterion")
        tagsText = parsed.value("tags")
        tags = .always
        if let tagsText {
            do {
                tags = try TagExpression.parse(tagsText)
            } catch {
                throw parsed.usageError("bad --tags: \(error)")
            }
        }
        targets = try Common.targets(parsed)
        scenario = parsed.value("scenario")
        level = try parsed.choice("level", ["source": .source, "derived": .derived, "recommendation": .recommendation])
    }

    /// Where the criterion files are, for the reports: `--criteria` or the bundled suite.
    var criteriaDescription: String { criteriaPath ?? "the bundled suite" }

    /// The plan filter; criterion ids that the loaded criteria do not know are usage errors.
    func filter(criteria loaded: [Criterion], defaultLevel: CriterionInfo.Origin = .derived) throws(UsageError) -> TestPlan.Filter {
        let ids = loaded.map(\.info.id)
        let groups = Set(loaded.map(\.info.group))
        for criterion in criteria where !ids.contains(where: { $0.rawValue == criterion }) && !groups.contains(criterion) {
            throw UsageError(
                "--criterion: unknown criterion '\(criterion)'; known: \(groups.sorted().joined(separator: ", ")), \(ids.joined(separator: ", "))",
                command: command)
        }
        var selection = CriterionSelection(criteria.map { CriterionSelector($0) })
        let gate = level ?? defaultLevel
        let beyond = loaded.filter { $0.info.origin > gate }.map(\.info.id)
        if !beyond.isEmpty {
            // Criteria beyond the gate run only when named by their own id.
            let named = Set(beyond.filter { criteria.contains($0.rawValue) })
            let wanted = loaded.filter { $0.info.origin <= gate && selection.selects($0.info.id, group: $0.info.group) }.map(\.info.id)
            let ids = wanted + loaded.map(\.info.id).filter(named.contains)
            selection = ids.isEmpty ? .nothing : .matching(ids.map { CriterionSelector($0) })
        }
        return TestPlan.Filter(tags: tags, criteria: selection, targets: targets.map(TargetID.init(rawValue:)), scenario: scenario)
    }

    /// The filters as given, for the report's metadata.
    var filterText: [String: String] {
        var text: [String: String] = [:]
        if let tagsText { text["tags"] = tagsText }
        if let scenario { text["scenario"] = scenario }
        if let level { text["level"] = level.rawValue }
        if !criteria.isEmpty { text["criterion"] = criteria.joined(separator: ",") }
        if !targets.isEmpty { text["target"] = targets.joined(separator: ",") }
        return text
    }
}
