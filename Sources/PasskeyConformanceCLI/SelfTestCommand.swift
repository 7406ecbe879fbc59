import ConformanceKit
import Foundation
import ReferenceRP

/// `selftest`: the suite passes on the reference RP and every mutant fails its criterion.
enum SelfTestCommand {
    static let spec = CommandSpec(
        name: "selftest", summary: "Show that every criterion passes on the reference RP and fails on its mutants.",
        usage: "selftest [--criteria <path>] [--mutant <id>] [--list-mutants]",
        options: [Common.criteriaOption, .init(name: "mutant", value: "id", help: "Only these mutants.", repeatable: true),
                  .init(name: "seed", value: "n", help: "Seed (default 1).")],
        flags: [("list-mutants", "List the mutants and what each breaks."), ("quiet", "Print only problems and the verdict."),
                ("full", "Run every mutant against every criterion and show which others also catch it.")],
        positionals: (0, 0, ""))

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        if parsed.flags.contains("list-mutants") {
            for mutation in Mutation.allCases {
                Output.out("\(mutation.id.padding(toLength: 36, withPad: " ", startingAt: 0)) \(mutation.criterion)  \(mutation.summary)")
            }
            return CLI.Status.ok
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
        let report = try await SelfTest.run(criteria: loaded.criteria, digest: loaded.digest, mutations: mutations, seed: seed,
                                           fullMatrix: parsed.flags.contains("full"))
        Output.out(report.text(quiet: parsed.flags.contains("quiet")))
        return report.passed ? CLI.Status.ok : CLI.Status.nonConformant
    }
}
