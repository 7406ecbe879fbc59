import ConformanceKit
import ConformanceReports
import Foundation
import ReferenceRP

/// `explore`: random histories against the criteria's invariants; the first violation is shrunk
/// and written as a regression scenario and as a failed test case in the reports.
enum ExploreCommand {
    static let spec = CommandSpec(
        name: "explore", summary: "Run random histories against the criteria's invariants and shrink a violation to a scenario.",
        usage: "explore [--budget <n> | --seconds <s>] [--seed <n>] [--mutant <id> | --adapter-command <command>] [--target <id>] [--out <dir>]",
        options: [
            Common.criteriaOption, Common.targetOption,
            .init(name: "criterion", value: "id", help: "Only the invariants of these criteria or groups (N2.6-AC06, N3.2).", repeatable: true),
            .init(name: "budget", value: "n", help: "Histories to run (default 1000)."),
            .init(name: "seconds", value: "s", help: "Stop after this many seconds of wall time instead (the budget still caps the histories)."),
            .init(
                name: "adapter-command", value: "command", help: "Explore an adapter process speaking JSON-RPC over stdio (default: the embedded reference RP)."
            ),
            .init(name: "mutant", value: "id", help: "Explore a faulty variant of the reference RP (see 'selftest --list-mutants')."),
            .init(
                name: "design", value: "id",
                help: "Explore a conforming design of the reference RP (see 'selftest --list-designs'); with --mutant, the mutant built on it."),
            .init(name: "seed", value: "n", help: "Seed of the histories (default 1); the same seed finds and shrinks the same history."),
            .init(name: "out", value: "dir", help: "Report directory (default: explore-report); the regression scenario goes to <dir>/criteria."),
            .init(name: "format", value: "formats", help: "Report formats: json, md, junit (default: all).", repeatable: true),
            .init(name: "call-timeout", value: "seconds", help: "Time-out of one adapter call (default 5)."),
        ],
        flags: [("quiet", "No progress and no summary on the terminal."), ("no-reports", "Write no report or scenario files.")],
        positionals: (0, 0, "")
    )

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let formats = try RunCommand.reportFormats(parsed)
        let seed = try Common.seed(parsed, command: spec.name)
        var budget = 1000
        if let text = parsed.value("budget") {
            guard let value = Int(text), value > 0 else { throw UsageError("--budget must be a positive whole number, found '\(text)'", command: spec.name) }
            budget = value
        }
        var seconds: Double?
        if let text = parsed.value("seconds") {
            guard let value = Double(text), value > 0 else { throw UsageError("--seconds must be a positive number, found '\(text)'", command: spec.name) }
            seconds = value
            if parsed.value("budget") == nil { budget = Int.max }
        }
        let knownTargets = TargetCatalog.all.map(\.id)
        for target in parsed.list("target") where !knownTargets.contains(target) {
            throw UsageError("unknown target '\(target)'; known targets: \(knownTargets.joined(separator: ", "))", command: spec.name)
        }
        let directory = parsed.value("out") ?? "explore-report"
        let writeFiles = !parsed.flags.contains("no-reports")
        if writeFiles {
            do {
                try ReportWriter.prepare(directory: directory)
            } catch {
                Output.error("error: \(error)")
                return CLI.Status.systemError
            }
        }
        let loaded = try Common.loadCriteria(parsed)
        var (chosen, transport, command) = try Adapters.make(parsed, command: spec.name)
        var designNote: String?
        if let id = parsed.value("design") {
            guard let design = ReferenceDesign.all.first(where: { $0.id == id }) else {
                throw UsageError("unknown design '\(id)'; see 'passkey-conformance selftest --list-designs'", command: spec.name)
            }
            if parsed.value("adapter-command") != nil { throw UsageError("--design and --adapter-command exclude each other", command: spec.name) }
            chosen = ReferenceRP(mutation: parsed.value("mutant").flatMap(Mutation.init(rawValue:)), design: design)
            (transport, command) = ("in-process", nil)
            designNote = "--design \(id)"
        }
        let adapter = chosen
        defer { Task { await adapter.shutdown() } }
        let quiet = parsed.flags.contains("quiet")
        let showProgress = !quiet && Output.errorIsTerminal
        var explorer = Explorer(adapter: adapter, seed: seed)
        let groups = Set(ExploreInvariant.all.map { String($0.criterion.split(separator: "-").first ?? "") })
        for criterion in parsed.list("criterion") where !ExploreInvariant.all.contains(where: { $0.criterion == criterion }) && !groups.contains(criterion) {
            throw UsageError("no invariant checks '\(criterion)'; see Criteria/invariants.md", command: spec.name)
        }
        explorer.criteria = parsed.list("criterion")
        let report = try await explorer.explore(budget: budget, seconds: seconds, targets: parsed.list("target")) { done, total in
            guard showProgress else { return }
            let of = total == Int.max ? "" : "/\(total)"
            Output.write(Array("\u{1B}[2K[\(done)\(of)] histories, no violation so far\r".utf8), to: 2)
        }
        if showProgress { Output.write(Array("\u{1B}[2K".utf8), to: 2) }
        var subject: [String] = []
        if let mutant = parsed.value("mutant") { subject.append("--mutant \(mutant)") }
        if let designNote { subject.append(designNote) }
        if let line = parsed.value("adapter-command") { subject.append("--adapter-command '\(line)'") }
        let targets = parsed.list("target").map { "--target \($0)" } + parsed.list("criterion").map { "--criterion \($0)" }
        let limit = parsed.value("seconds") != nil && parsed.value("budget") == nil ? "--budget \(report.histories)" : "--budget \(budget)"
        let rerun = (["passkey-conformance explore --seed \(seed)", limit] + subject + targets).joined(separator: " ")
        let rate = Double(report.histories) / max(report.wallSeconds, 1e-9)
        var scenario: ExploreScenario?
        if let finding = report.finding {
            scenario = try await explorer.scenario(for: finding, criteria: loaded.criteria, oracle: ReferenceRP(), rerun: rerun)
        }
        await adapter.shutdown()
        let description = try? await adapter.describe()
        let metadata = RunMetadata(
            harnessVersion: Suite.harnessVersion, criteriaDigest: loaded.digest,
            adapter: .init(name: description?.name ?? "?", version: description?.version ?? "?", transport: transport, command: command),
            targets: Explorer.targets(
                parsed.list("target"),
                description: description ?? AdapterDescription(name: "?", version: "?", targets: [], capabilities: [], relyingPartyIDs: [])
            ).map(\.id),
            seed: seed, startedAt: Suite.iso8601(Date()), filters: ["explore": "\(report.histories) histories"])
        let run = Explorer.runResult(scenario, criteria: loaded.criteria, metadata: metadata, wallSeconds: report.wallSeconds)
        var lines = [
            String(
                format: "explore: %d histories, %d steps in %.2f s (%.0f histories/s), seed %llu", report.histories, report.steps, report.wallSeconds, rate,
                seed)
        ]
        if let finding = report.finding, let scenario {
            lines.append("Violation: \(finding.violation.invariant.id) (\(finding.violation.invariant.item)): \(finding.violation.message)")
            lines.append(
                "Found in history \(finding.index + 1); shrunk from \(finding.original.steps.count) to \(finding.shrunk.steps.count) steps in \(finding.replays) replays."
            )
            if scenario.check == nil {
                lines.append("No step of the library states this check for the history; the scenario below reproduces it without a Then step.")
            }
            lines += ["", scenario.text]
        } else {
            lines.append("No invariant broken.")
        }
        if writeFiles {
            do {
                var written = try ReportWriter.write(run, formats: formats, to: directory)
                if let scenario {
                    let folder = (directory as NSString).appendingPathComponent("criteria")
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    let path = (folder as NSString).appendingPathComponent(scenario.fileName)
                    try Data(scenario.text.utf8).write(to: URL(fileURLWithPath: path))
                    written.append(path)
                    lines.append(
                        "Run it: passkey-conformance run --criteria \(folder) --target \(scenario.result.target)"
                            + (subject.isEmpty ? "" : " " + subject.joined(separator: " ")))
                }
                lines.append("Reports: " + written.joined(separator: ", "))
            } catch {
                Output.error("error: \(error)")
                return CLI.Status.systemError
            }
        }
        if !quiet { Output.out(lines.joined(separator: "\n")) }
        return report.finding == nil ? CLI.Status.ok : CLI.Status.nonConformant
    }
}
