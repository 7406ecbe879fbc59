import ConformanceModel
import Foundation
import Gherkin

extension CriteriaLoader {
    func loadScenarios(
        document: GherkinDocument, pickles: [Pickle], path: String, display: String, criterionID: CriterionID, items: Set<VerifyItemID>,
        diagnostics: inout [Diagnostic]
    ) -> [CriterionScenario] {
        guard let feature = document.feature else { return [] }
        var astSteps: [String: Gherkin.Step] = [:]
        var astScenarios: [String: Gherkin.Scenario] = [:]
        var astRows: [String: TableRow] = [:]
        func collect(_ steps: [Gherkin.Step]) { for step in steps { astSteps[step.id] = step } }
        func collect(_ scenario: Gherkin.Scenario) {
            astScenarios[scenario.id] = scenario
            collect(scenario.steps)
            for examples in scenario.examples { for row in examples.tableBody { astRows[row.id] = row } }
        }
        var tagLocations: [String: Location] = [:]
        for child in feature.children {
            switch child {
            case .background(let background): collect(background.steps)
            case .scenario(let scenario): collect(scenario)
            case .rule(let rule):
                for ruleChild in rule.children {
                    switch ruleChild {
                    case .background(let background): collect(background.steps)
                    case .scenario(let scenario): collect(scenario)
                    }
                }
            }
        }
        for scenario in astScenarios.values {
            for tag in scenario.tags + scenario.examples.flatMap(\.tags) { tagLocations[tag.id] = tag.location }
        }
        for tag in feature.tags { tagLocations[tag.id] = tag.location }

        var result: [CriterionScenario] = []
        var slugs: Set<String> = []
        for pickle in pickles {
            let line = pickle.location.line
            // Scenario-level defects point at the Scenario keyword (or the example row).
            let scenarioColumn = pickle.location.column ?? 1
            func error(_ message: String, line: Int = line, column: Int = scenarioColumn) {
                diagnostics.append(Diagnostic(file: path, line: line, column: column, message))
            }
            let tags = pickle.tags.map(\.name)
            var verifyItems: [VerifyItemID] = []
            var needs: Set<Capability> = []
            var platform: PlatformFamily?
            var requires: [Target.Feature: Bool] = [:]
            for tag in pickle.tags {
                let location = tagLocations[tag.astNodeId] ?? Location(line: line, column: 1)
                let tagLine = location.line
                let tagColumn = location.column ?? 1
                if tag.name.hasPrefix("@verify:") {
                    let item = VerifyItemID(rawValue: String(tag.name.dropFirst("@verify:".count)))
                    if !items.contains(item) {
                        error("@verify names \(item), which is not an item of \(criterionID)'s Items section", line: tagLine, column: tagColumn)
                    }
                    verifyItems.append(item)
                } else if tag.name.hasPrefix("@needs:") {
                    let name = String(tag.name.dropFirst("@needs:".count))
                    if let capability = Capability(rawValue: name) {
                        needs.insert(capability)
                    } else {
                        error(
                            "unknown capability \"\(name)\" in \(tag.name); known: \(Capability.allCases.map(\.rawValue).joined(separator: ", "))",
                            line: tagLine, column: tagColumn)
                    }
                } else if tag.name.hasPrefix("@platform:") {
                    let name = String(tag.name.dropFirst("@platform:".count))
                    if let family = PlatformFamily(rawValue: name) {
                        platform = family
                    } else {
                        error("unknown platform \"\(name)\" in \(tag.name); use apple or android", line: tagLine, column: tagColumn)
                    }
                } else if tag.name.hasPrefix("@requires:") {
                    var name = String(tag.name.dropFirst("@requires:".count))
                    var wanted = true
                    if name.hasPrefix("no-") {
                        name.removeFirst(3)
                        wanted = false
                    }
                    if let feature = Target.Feature(rawValue: name) {
                        requires[feature] = wanted
                    } else {
                        error(
                            "unknown target feature \"\(name)\" in \(tag.name); known: \(Target.Feature.allCases.map(\.rawValue).joined(separator: ", "))",
                            line: tagLine, column: tagColumn)
                    }
                }
            }
            if verifyItems.isEmpty {
                error("scenario \"\(pickle.name)\" has no @verify tag naming the verify item it covers")
            }
            if !TargetCatalog.known.contains(where: { target in
                (platform == nil || platform == target.platform) && requires.allSatisfy { target.has($0.key) == $0.value }
            }) {
                error("scenario \"\(pickle.name)\" applies to no target: its @platform and @requires tags exclude every target")
            }
            var steps: [CriterionScenario.Step] = []
            var role = CriterionScenario.Step.Role.context
            var created: Set<String> = []
            for pickleStep in pickle.steps {
                let astStep = pickleStep.astNodeIds.first.flatMap { astSteps[$0] }
                let stepLine = astStep?.location.line ?? line
                let column = astStep?.location.column ?? 1
                switch astStep?.keywordType {
                case .context?: role = .context
                case .action?: role = .action
                case .outcome?: role = .outcome
                default: break
                }
                steps.append(.init(keyword: astStep?.keyword ?? "* ", text: pickleStep.text, line: stepLine, column: column, role: role))
                let quoted = StepCheck.excerpt(pickleStep.text)
                let check = matcher.check(pickleStep.text)
                if check == .defined {
                    for alias in matcher.accounts(pickleStep.text).uses where !created.contains(alias) {
                        error(
                            "step \"\(quoted)\" uses the account \"\(StepCheck.excerpt(alias))\", which no earlier step of the scenario creates "
                                + "(create it first, e.g. with 'an account \"\(StepCheck.excerpt(alias))\" with the sign-in policy \"password only\"')",
                            line: stepLine, column: column)
                    }
                }
                // A step that creates an account counts even when its other arguments are wrong:
                // that defect is reported once, for that step.
                created.formUnion(matcher.accounts(pickleStep.text).creates)
                switch check {
                case .defined:
                    break
                case .invalidArguments(let problem):
                    error("step \"\(quoted)\": \(problem)", line: stepLine, column: column)
                case .undefined:
                    error("no step definition matches \"\(quoted)\"", line: stepLine, column: column)
                case .ambiguous(let patterns):
                    error(
                        "\(patterns.count) step definitions match \"\(quoted)\": " + patterns.map { "\"\($0)\"" }.joined(separator: ", "), line: stepLine,
                        column: column)
                }
            }
            if !verifyItems.isEmpty, !steps.contains(where: { $0.role == .outcome }) {
                // A scenario that checks nothing shows nothing: it must not count for its items.
                error(
                    "scenario \"\(pickle.name)\" has no outcome check (no Then step), so it verifies nothing; its @verify tags ("
                        + verifyItems.joined(separator: ", ") + ") cannot count for those items")
                verifyItems = []
            }
            var slug = pickle.name
            if slugs.contains(slug) { slug += " [line \(line)]" }
            slugs.insert(slug)
            result.append(
                CriterionScenario(
                    name: pickle.name, file: display, line: line, tags: tags, verifyItems: verifyItems, steps: steps,
                    needs: needs, platform: platform, requires: requires, slug: slug))
        }
        return result
    }
}

/// The one place the harness calls the Gherkin parser and pickle compiler.
enum GherkinSource {
    struct Parsed {
        var document: GherkinDocument?
        var errors: [GherkinError]
        var pickles: [Pickle]
    }

    /// Parses a file and, when it parsed without errors, compiles its pickles.
    static func parse(_ text: String, uri: String) -> Parsed {
        var ids = IDGenerator()
        let result = GherkinParser().parse(text, uri: uri, ids: &ids)
        guard let document = result.document, result.errors.isEmpty else {
            return Parsed(document: nil, errors: result.errors, pickles: [])
        }
        return Parsed(document: document, errors: [], pickles: PickleCompiler().compile(document, uri: uri, ids: &ids))
    }
}
