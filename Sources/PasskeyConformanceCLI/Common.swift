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
    static func loadCriteria(_ parsed: ParsedArguments) throws -> CriteriaLoader.Result {
        try attemptLoadingCriteria(parsed).get()
    }

    /// Loads the criteria, printing every diagnostic; a missing bundle or defective files are the
    /// failure, for a command that reports it instead of stopping.
    static func attemptLoadingCriteria(_ parsed: ParsedArguments) -> Swift.Result<CriteriaLoader.Result, SystemIssue> {
        let root: String
        do {
            root = try parsed.value("criteria") ?? CriteriaLocation.defaultRoot()
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

    /// The plan filter from the command line; unknown ids and bad tag expressions are usage errors.
    static func filter(
        _ parsed: ParsedArguments, criteria: [Criterion], command: String,
        defaultLevel: CriterionInfo.Origin = .derived
    ) throws -> TestPlan.Filter {
        var tags = TagExpression.always
        if let text = parsed.value("tags") {
            do {
                tags = try TagExpression.parse(text)
            } catch {
                throw UsageError("bad --tags: \(error)", command: command)
            }
        }
        let knownTargets = TargetCatalog.all.map(\.id)
        for target in parsed.list("target") where !knownTargets.contains(target) {
            throw UsageError("unknown target '\(target)'; known targets: \(knownTargets.joined(separator: ", "))", command: command)
        }
        let ids = criteria.map(\.info.id)
        let groups = Set(criteria.map(\.info.group))
        for criterion in parsed.list("criterion") where !ids.contains(criterion) && !groups.contains(criterion) {
            throw UsageError(
                "unknown criterion '\(criterion)'; known: \(groups.sorted().joined(separator: ", ")), \(ids.joined(separator: ", "))", command: command)
        }
        let given = parsed.list("criterion")
        var selection = CriterionSelection(given.map { CriterionSelector($0) })
        let gate = try level(parsed, command: command, default: defaultLevel)
        let beyond = criteria.filter { $0.info.origin > gate }.map(\.info.id)
        if !beyond.isEmpty {
            // Criteria beyond the gate run only when named by their own id.
            let named = Set(given).intersection(beyond)
            let wanted = criteria.filter { $0.info.origin <= gate && selection.selects($0.info.id, group: $0.info.group) }.map(\.info.id)
            let ids = wanted + criteria.map(\.info.id).filter(named.contains)
            selection = ids.isEmpty ? .nothing : .matching(ids.map { CriterionSelector($0) })
        }
        return TestPlan.Filter(tags: tags, criteria: selection, targets: parsed.list("target"), scenario: parsed.value("scenario"))
    }

    /// The widest criterion origin the run covers (`--level`, default `derived`: the documents' own
    /// criteria and the requirements derived from them; `recommendation` adds other standards').
    static func level(_ parsed: ParsedArguments, command: String, default fallback: CriterionInfo.Origin = .derived) throws -> CriterionInfo.Origin {
        guard let text = parsed.value("level") else { return fallback }
        guard let origin = CriterionInfo.Origin(rawValue: text) else {
            throw UsageError("--level must be source, derived or recommendation, found '\(text)'", command: command)
        }
        return origin
    }

    /// The `--level` option of `run` and `list`.
    static let levelOption = CommandSpec.Option(
        name: "level", value: "origin",
        help:
            "Which criteria the run covers: source (the documents' own), derived (also the harness's derived requirements; the default) or recommendation (also other standards' recommendations)."
    )

    /// The filters as given, for the report's metadata.
    static func filterText(_ parsed: ParsedArguments) -> [String: String] {
        var text: [String: String] = [:]
        for name in ["tags", "scenario", "level"] { if let value = parsed.value(name) { text[name] = value } }
        for name in ["criterion", "target"] where !parsed.list(name).isEmpty { text[name] = parsed.list(name).joined(separator: ",") }
        return text
    }

    static func seed(_ parsed: ParsedArguments, command: String) throws -> UInt64 {
        guard let text = parsed.value("seed") else { return 1 }
        guard let seed = UInt64(text) else { throw UsageError("--seed must be a whole number from 0 to \(UInt64.max), found '\(text)'", command: command) }
        return seed
    }
}
