import ConformanceKit
import Foundation
import ReferenceRP

/// `selftest`: the suite passes on the reference RP and on every conforming variant, and every
/// mutant fails its criterion under every design it applies to.
enum SelfTestCommand {
    static let spec = CommandSpec(
        name: "selftest", summary: "Show that every criterion passes on the reference RP and its conforming variants, and fails on its mutants.",
        usage: "selftest [--criteria <path>] [--mutant <id>] [--design <id>] [--markdown <file>] [--list-mutants] [--list-designs]",
        options: [
            Common.criteriaOption, .init(name: "mutant", value: "id", help: "Only these mutants.", repeatable: true),
            .init(name: "design", value: "id", help: "Only these conforming designs (the reference always runs).", repeatable: true),
            .init(name: "markdown", value: "file", help: "Also write both matrices as Markdown to this file."),
            .init(name: "seed", value: "n", help: "Seed (default 1)."),
        ],
        flags: [
            ("list-mutants", "List the mutants and what each breaks."), ("list-designs", "List the conforming designs and what each chooses."),
            ("quiet", "Print only problems and the verdict."),
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
            for design in ReferenceDesign.all {
                Output.out("\(design.id.padding(toLength: 28, withPad: " ", startingAt: 0)) \(design.summary)")
            }
            return CLI.Status.ok
        }
        var designs = ReferenceDesign.all
        if !parsed.list("design").isEmpty {
            designs =
                try [.reference]
                + parsed.list("design").map { id in
                    guard let design = ReferenceDesign.all.first(where: { $0.id == id }) else { throw UsageError("unknown design '\(id)'", command: spec.name) }
                    return design
                }.filter { $0 != .reference }
        }
        let loaded = try Common.loadCriteria(parsed)
        let seed = try Common.seed(parsed, command: spec.name)
        // Without --mutant: the mutants of the criteria that were loaded.
        let loadedIDs = Set(loaded.criteria.map(\.info.id))
        var mutations = Mutation.allCases.filter { loadedIDs.contains($0.criterion) }
        if !parsed.list("mutant").isEmpty {
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
}
