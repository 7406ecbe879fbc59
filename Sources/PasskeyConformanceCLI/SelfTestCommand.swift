import ConformanceKit
import ConformanceSelfTest
import Foundation
import ReferenceRP

/// `selftest`: the suite passes on the reference RP and on every conforming variant, and every
/// mutant fails its criterion under every design it applies to.
enum SelfTestCommand {
    static let spec = CommandSpec(
        name: "selftest", summary: "Show that every criterion passes on the reference RP and its conforming variants, and fails on its mutants.",
        usage:
            "selftest [--criteria <path>] [--mutant <id>] [--design <id>|knobs:…] [--designs random:<n>] [--seed <n>] [--no-mutants] [--markdown <file>] [--list-mutants] [--list-designs] [--list-items]",
        options: [
            Common.criteriaOption, .init(name: "mutant", value: "id", help: "Only these mutants.", repeatable: true),
            .init(
                name: "design", value: "id",
                help: "Only these conforming designs (the reference always runs): a fixed design's id, or knobs:name=value;… (see --list-designs).",
                repeatable: true),
            .init(
                name: "designs", value: "random:n",
                help:
                    "Also run n designs with every knob drawn from its whole range, from --seed (default: \(defaultRandomDesigns) beside the fixed designs; random:0 for none)."
            ),
            .init(name: "markdown", value: "file", help: "Also write both matrices as Markdown to this file."),
            .init(name: "seed", value: "n", help: "Seed (default 1)."),
        ],
        flags: [
            ("list-mutants", "List the mutants and what each breaks."),
            ("list-items", "List every verify item of the loaded criteria with its mutants and their forms (each needs two forms)."),
            ("list-designs", "List the conforming designs and what each chooses."),
            ("quiet", "Print only problems and the verdict."), ("no-mutants", "Run the designs only (the no-false-alarm half)."),
            ("full", "Run every mutant against every criterion and show which others also catch it."),
        ],
        positionals: (0, 0, ""))

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        if parsed.flags.contains("list-mutants") {
            for mutation in Mutation.allCases {
                Output.out("\(mutation.id.padding(toLength: 36, withPad: " ", startingAt: 0)) \(mutation.criterion)  \(mutation.summary)")
            }
            return CLI.Status.ok
        }
        if parsed.flags.contains("list-designs") {
            Output.out(designListing())
            return CLI.Status.ok
        }
        if parsed.flags.contains("list-items") {
            Output.out(SelfTest.itemListing(try Common.loadCriteria(parsed).criteria))
            return CLI.Status.ok
        }
        let seed = try Common.seed(parsed, command: spec.name)
        var designs = ReferenceDesign.all
        if !parsed.list("design").isEmpty {
            designs =
                try [.reference]
                + parsed.list("design").map { id in
                    if id.hasPrefix("knobs:") {
                        do { return try ReferenceDesign.parse(id) } catch { throw UsageError("--design: \(error)", command: spec.name) }
                    }
                    guard let design = ReferenceDesign.all.first(where: { $0.id == id }) else {
                        throw UsageError("unknown design '\(id)'; see --list-designs", command: spec.name)
                    }
                    return design
                }.filter { $0 != .reference }
        }
        designs += ReferenceDesign.random(count: try randomDesigns(parsed), seed: seed)
        let loaded = try Common.loadCriteria(parsed)
        // Without --mutant: the mutants of the criteria that were loaded.
        let loadedIDs = Set(loaded.criteria.map(\.info.id))
        var mutations = Mutation.allCases.filter { loadedIDs.contains($0.criterion) }
        if parsed.flags.contains("no-mutants") {
            mutations = []
        } else if !parsed.list("mutant").isEmpty {
            mutations = try parsed.list("mutant").map { id in
                guard let mutation = Mutation(rawValue: id) else { throw UsageError("unknown mutant '\(id)'", command: spec.name) }
                return mutation
            }
        }
        let report = try await SelfTest.run(
            criteria: loaded.criteria, digest: loaded.digest, mutations: mutations, designs: designs, seed: seed,
            fullMatrix: parsed.flags.contains("full"), concurrency: ProcessInfo.processInfo.activeProcessorCount)
        Output.out(report.text(quiet: parsed.flags.contains("quiet")))
        if let path = parsed.value("markdown") {
            do {
                try Data(report.markdown().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                Output.error("selftest: cannot write \(path): \(error.localizedDescription)")
                return CLI.Status.systemError
            }
        }
        return report.passed ? CLI.Status.ok : CLI.Status.nonConformant
    }

    /// Random designs beside the fixed ones when `--designs` is not given: enough to sample every
    /// knob's range on every CI run within its time budget (about a second each in release).
    static let defaultRandomDesigns = 12

    /// `--designs random:N`: how many random designs to run (the default when `--design` names none).
    static func randomDesigns(_ parsed: ParsedArguments) throws -> Int {
        guard let text = parsed.value("designs") else { return parsed.list("design").isEmpty ? defaultRandomDesigns : 0 }
        guard text.hasPrefix("random:"), let count = Int(text.dropFirst("random:".count)), (0...100_000).contains(count) else {
            throw UsageError("--designs takes random:<n> with n from 0 to 100000, found '\(text)'", command: spec.name)
        }
        return count
    }

    /// The knobs with their freedoms and ranges, then the fixed designs with the freedoms they pin.
    static func designListing() -> String {
        var lines = ["knobs (selftest --designs random:N draws each from its whole range; --design knobs:name=value;… sets them):"]
        for knob in ReferenceDesign.knobs {
            lines.append(
                "  \(knob.name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(knob.freedom.padding(toLength: 14, withPad: " ", startingAt: 0)) \(knob.range)  \(knob.summary)"
            )
        }
        lines.append("")
        lines.append("fixed designs:")
        for design in ReferenceDesign.all {
            let freedoms = design.freedoms.isEmpty ? "" : " [\(design.freedoms.joined(separator: ", "))]"
            lines.append("  \(design.id.padding(toLength: 28, withPad: " ", startingAt: 0)) \(design.summary)\(freedoms)")
        }
        return lines.joined(separator: "\n")
    }
}
