import ConformanceKit
import ConformanceSelfTest
import Foundation
import ReferenceRP

/// `selftest`: the suite passes on the reference RP and on every conforming variant, and every
/// mutant fails its criterion under every design it applies to.
struct SelfTestCommand: CLICommand {
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
            .flag("list-mutants", "List the mutants and what each breaks."),
            .flag("list-items", "List every verify item of the loaded criteria with its mutants and their forms (each needs two forms)."),
            .flag("list-designs", "List the conforming designs and what each chooses."),
            .flag("quiet", "Print only problems and the verdict."), .flag("no-mutants", "Run the designs only (the no-false-alarm half)."),
            .flag("full", "Run every mutant against every criterion and show which others also catch it."),
        ])

    /// What the command does: one of the listings, or the self-test itself.
    enum Action: Sendable {
        case listMutants, listDesigns, listItems, selfTest
    }

    var action: Action
    /// `--criteria`: the criterion files; `nil` for the bundled suite.
    var criteriaPath: String?
    var seed: UInt64
    /// `--design`: the designs named (the reference always runs); empty for every fixed design.
    var designs: [ReferenceDesign]
    /// `--designs random:N`.
    var randomDesigns: Int
    /// `--mutant`: the mutants named; `nil` for those of the loaded criteria.
    var mutations: [Mutation]?
    var withoutMutants: Bool
    var fullMatrix: Bool
    var quiet: Bool
    /// `--markdown`: where to write both matrices.
    var markdownPath: String?

    init(_ parsed: ParsedArguments) throws {
        action =
            parsed.flag("list-mutants") ? .listMutants : parsed.flag("list-designs") ? .listDesigns : parsed.flag("list-items") ? .listItems : .selfTest
        criteriaPath = parsed.value("criteria")
        seed = try Common.seed(parsed)
        designs = try parsed.list("design").map { text throws(UsageError) in try DesignOption.design(text, parsed: parsed, hint: "; see --list-designs") }
        randomDesigns = try Self.randomDesigns(parsed)
        mutations =
            parsed.list("mutant").isEmpty ? nil : try parsed.list("mutant").map { id throws(UsageError) in try MutantOption.mutation(id, parsed: parsed) }
        withoutMutants = parsed.flag("no-mutants")
        fullMatrix = parsed.flag("full")
        quiet = parsed.flag("quiet")
        markdownPath = parsed.value("markdown")
    }

    func run() async throws -> Int32 {
        switch action {
        case .listMutants:
            for mutation in Mutation.allCases {
                Output.out("\(mutation.id.rawValue.padding(toLength: 36, withPad: " ", startingAt: 0)) \(mutation.criterion)  \(mutation.summary)")
            }
            return CLI.Status.ok
        case .listDesigns:
            Output.out(Self.designListing())
            return CLI.Status.ok
        case .listItems:
            Output.out(SelfTest.itemListing(try Common.loadCriteria(criteriaPath).criteria))
            return CLI.Status.ok
        case .selfTest:
            break
        }
        let chosen = designs.isEmpty ? ReferenceDesign.all : [.reference] + designs.filter { $0 != .reference }
        let loaded = try Common.loadCriteria(criteriaPath)
        // Without --mutant: the mutants of the criteria that were loaded.
        let loadedIDs = Set(loaded.criteria.map(\.info.id))
        let mutations = withoutMutants ? [] : self.mutations ?? Mutation.allCases.filter { loadedIDs.contains($0.criterion) }
        let report = try await SelfTest.run(
            criteria: loaded.criteria, digest: loaded.digest, mutations: mutations,
            designs: chosen + ReferenceDesign.random(count: randomDesigns, seed: seed), seed: seed,
            fullMatrix: fullMatrix, concurrency: ProcessInfo.processInfo.activeProcessorCount)
        Output.out(report.text(quiet: quiet))
        if let path = markdownPath {
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
    static func randomDesigns(_ parsed: ParsedArguments) throws(UsageError) -> Int {
        guard let text = parsed.value("designs") else { return parsed.list("design").isEmpty ? defaultRandomDesigns : 0 }
        guard text.hasPrefix("random:"), let count = Int(text.dropFirst("random:".count)), (0...100_000).contains(count) else {
            throw parsed.usageError("--designs takes random:<n> with n from 0 to 100000, found '\(text)'")
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
            lines.append("  \(design.id.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0)) \(design.summary)\(freedoms)")
        }
        return lines.joined(separator: "\n")
    }
}
