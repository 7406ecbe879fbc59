import ConformanceKit
import ReferenceRP

extension SelfTest.Report {
    /// The mutants, grouped: one entry per mutation with its result under each design it ran on.
    var mutantRows: [(mutation: Mutation, results: [SelfTest.MutantResult])] {
        var order: [Mutation] = []
        var byMutation: [Mutation: [SelfTest.MutantResult]] = [:]
        for result in mutants {
            if byMutation[result.mutation] == nil { order.append(result.mutation) }
            byMutation[result.mutation, default: []].append(result)
        }
        return order.map { ($0, byMutation[$0]!) }
    }

    /// The size of both matrices, in one line.
    package var sizeLine: String {
        let criteria = Set(designs.flatMap { $0.run.criteria.map(\.criterion.id) }).count
        let killed = mutants.filter(\.killed).count
        return "\(designs.count) conforming designs × \(criteria) criteria, \(designs.count - falseAlarms.count) without a false alarm; "
            + "\(mutantRows.count) mutants × their designs = \(mutants.count) runs, \(killed) killed"
    }

    /// The matrices and every problem, for the terminal.
    package func text(quiet: Bool) -> String {
        var lines: [String] = []
        if !quiet { lines.append("conforming designs (each must pass every criterion):") }
        for result in designs where !quiet || !result.problems.isEmpty {
            let counts = result.run.counts
            let status = result.problems.isEmpty ? "pass" : "FALSE ALARM"
            lines.append(
                "  " + result.design.id.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0) + status.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + "\(counts[.passed, default: 0])/\(result.run.testCases.count) test cases  \(result.design.summary)")
            for problem in result.problems.prefix(10) {
                lines.append("      \(problem.verdict.rawValue) \(problem.id): \(problem.message ?? "")")
            }
            if !result.problems.isEmpty && result.design.isCombination {
                lines.append("      rerun: passkey-conformance selftest --design '\(result.design.specification)' --no-mutants")
            }
        }
        if !quiet {
            lines.append("")
            lines.append("kill matrix (mutant → its criterion, under every design it applies to):")
        }
        for (mutation, results) in mutantRows {
            let survived = results.filter { !$0.killed }
            guard !quiet || !survived.isEmpty else { continue }
            let status = survived.isEmpty ? "killed" : "SURVIVED"
            let items = Set(results.flatMap(\.failedItems)).sorted().map(\.local).joined(separator: ",")
            lines.append(
                "  " + mutation.id.rawValue.padding(toLength: 36, withPad: " ", startingAt: 0)
                    + mutation.criterion.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
                    + status.padding(toLength: 9, withPad: " ", startingAt: 0) + "\(results.count - survived.count)/\(results.count) designs  " + items)
            if let others = results.first(where: { $0.design == .reference })?.failedCriteria?.filter({ $0 != mutation.criterion }), !others.isEmpty {
                lines.append("      also failed: " + others.joined(separator: ", "))
            }
            for result in survived {
                lines.append(
                    "      under \(result.design.id): verdict \(result.verdict.rawValue); expected failures on \(mutation.verifyItems.joined(separator: ", ")); "
                        + "missed \(result.missedItems.joined(separator: ", ")) (\(mutation.summary))")
            }
        }
        for item in itemsWithoutMutant { lines.append("  verify item \(item) has no mutant") }
        for item in itemsWithFewerThanTwoForms { lines.append("  verify item \(item) is broken in fewer than two forms: " + formsLine(item)) }
        lines.append(sizeLine + "; " + (passed ? "self-test passed" : "self-test FAILED"))
        return lines.joined(separator: "\n")
    }

    /// Both matrices as Markdown, for an auditor: which conforming designs pass which criteria,
    /// and which mutants fail their criterion under which designs.
    package func markdown() -> String {
        let criteria = designs.first.map { $0.run.criteria.map(\.criterion.id) } ?? []
        var out: [String] = ["# Self-test of the criteria", ""]
        out.append(
            "A criterion is worth its verdicts in both directions. Each **conforming design** below is the reference "
                + "relying party with one other, equally conforming choice; it must pass every criterion, or the criterion is "
                + "a false alarm. Each **mutant** is the reference with one deliberate defect; it must fail its criterion, on the "
                + "verify items it names, under the reference design and under every variant it applies to.")
        out.append("")
        out.append("**Result: " + (passed ? "passed" : "FAILED") + ".** " + sizeLine + ".")
        out.append("")
        out.append("## Conforming designs × criteria")
        out.append("")
        out.append("| design | its choice | " + criteria.joined(separator: " | ") + " |")
        out.append("|---|---|" + String(repeating: "---|", count: criteria.count))
        for result in designs {
            let verdicts = result.verdicts
            let cells = criteria.map { id -> String in
                switch verdicts[id] {
                case .passed?: "✅"
                case .failed?: "❌"
                case .some(let other): other.rawValue
                case nil: "n/a"
                }
            }
            out.append("| `\(result.design.id)` | \(result.design.summary) | " + cells.joined(separator: " | ") + " |")
        }
        out.append("")
        out.append("## Mutants × designs")
        out.append("")
        out.append("✅ killed (its criterion failed on every item it names) · ❌ survived · n/a: the defect has nothing to break in that design.")
        out.append("")
        out.append("| mutant | criterion | items | defect | " + designs.map { "`\($0.design.id)`" }.joined(separator: " | ") + " |")
        out.append("|---|---|---|---|" + String(repeating: "---|", count: designs.count))
        for (mutation, results) in mutantRows {
            let byDesign = Dictionary(results.map { ($0.design.id, $0) }, uniquingKeysWith: { first, _ in first })
            let cells = designs.map { design in byDesign[design.design.id].map { $0.killed ? "✅" : "❌" } ?? "n/a" }
            let items = mutation.verifyItems.map(\.local).joined(separator: ", ")
            out.append("| `\(mutation.id)` | \(mutation.criterion) | \(items) | \(mutation.summary) | " + cells.joined(separator: " | ") + " |")
        }
        out.append("")
        out.append("## Verify items × mutants and their forms")
        out.append("")
        out.append(
            "Every verify item is broken by at least two mutants in different forms."
        )
        out.append("")
        out.append("| item | forms | mutants |")
        out.append("|---|---|---|")
        for entry in itemForms {
            out.append(
                "| \(entry.item) | \(entry.forms.count): \(entry.forms.joined(separator: "; ")) | "
                    + entry.mutants.map { "`\($0.id)`" }.joined(separator: ", ") + " |")
        }
        let problems =
            falseAlarms.flatMap { design in design.problems.map { "- false alarm under `\(design.design.id)`: \($0.id): \($0.message ?? "")" } }
            + mutants.filter { !$0.killed }.map { "- `\($0.mutation.id)` survived under `\($0.design.id)`: missed \($0.missedItems.joined(separator: ", "))" }
            + itemsWithoutMutant.map { "- verify item \($0) has no mutant" }
            + itemsWithFewerThanTwoForms.map { "- verify item \($0) is broken in fewer than two forms" }
        if !problems.isEmpty {
            out.append("")
            out.append("## Problems")
            out.append("")
            out += problems
        }
        out.append("")
        return out.joined(separator: "\n")
    }

    /// One item's mutants and forms, in one line.
    func formsLine(_ item: VerifyItemID) -> String {
        guard let entry = itemForms.first(where: { $0.item == item }) else { return "no mutant" }
        return "\(entry.forms.count) form(s): " + entry.mutants.map { "\($0.id) (\($0.form))" }.joined(separator: ", ")
    }
}
