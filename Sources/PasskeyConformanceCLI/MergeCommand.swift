import ConformanceKit
import ConformanceReports
import Foundation
import WebAuthn

/// `merge`: the reports of a run's shards combined into the reports one `run` gives.
enum MergeCommand {
    static let spec = CommandSpec(
        name: "merge", summary: "Combine the reports of a run's shards (run --shard i/n) into the run's reports.",
        usage: "merge <shard report dir or report.json>… --out <dir> [--format json,md,junit] [--waivers <file>] [--today YYYY-MM-DD]",
        options: [
            .init(name: "out", value: "dir", help: "Report directory of the merged run (default: conformance-report)."),
            .init(name: "format", value: "formats", help: "Report formats: json, md, junit (default: all).", repeatable: true),
            .init(name: "waivers", value: "file", help: "Waiver file of expected failures (JSON), applied to the merged run."),
            .init(name: "today", value: "YYYY-MM-DD", help: "The date waivers expire against (default: today, UTC)."),
        ],
        flags: [("quiet", "No summary on the terminal.")],
        positionals: (1, Int.max, "the shards' report directories")
    )

    /// Exit status: that of the merged run (as `run`'s), 2 when the shards cannot be merged or the
    /// reports cannot be written, 64 for bad usage.
    static func run(_ parsed: ParsedArguments) throws -> Int32 {
        let formats = try RunCommand.reportFormats(parsed)
        let today = try RunCommand.date(parsed)
        let quiet = parsed.flags.contains("quiet")
        let run: RunResult
        do {
            run = try ShardMerge.merge(try parsed.positionals.map { path throws(ShardMerge.Refusal) in try ShardMerge.read(path) })
        } catch {
            Output.error("error: cannot merge: \(Output.inline(error.description))")
            return CLI.Status.systemError
        }
        let waivers = try RunCommand.loadWaivers(parsed, criterionIDs: Set(run.criteria.map(\.criterion.id)))
        let evaluation = waivers.map { $0.evaluate(against: run, today: today, clockDay: CalendarDate(utcDayOf: Date())) } ?? .none
        if !quiet { Output.out(Summary.text(run, waivers: evaluation)) }
        do {
            let written = try ReportWriter.write(run, waivers: evaluation, formats: formats, to: parsed.value("out") ?? "conformance-report")
            if !quiet { Output.out("Reports: " + written.map(Output.inline).joined(separator: ", ")) }
        } catch {
            Output.error("error: \(Output.inline(error.description))")
            return CLI.Status.systemError
        }
        return ExitStatus.for(run, evaluation).rawValue
    }
}

/// `verify`: checks an evidence bundle's digests and signature.
enum VerifyCommand {
    static let spec = CommandSpec(
        name: "verify", summary: "Check an evidence bundle (run --bundle): every file's SHA-256 and the manifest's signature.",
        usage: "verify <bundle dir> [--public-key <pem>]",
        options: [.init(name: "public-key", value: "pem", help: "The ECDSA P-256 or Ed25519 public key (PEM) the manifest must be signed with.")],
        flags: [("quiet", "Print only the problems.")],
        positionals: (1, 1, "the bundle directory")
    )

    /// Exit status: 0 intact, 1 a file, the manifest or the signature does not match, 64 bad usage.
    static func run(_ parsed: ParsedArguments) throws -> Int32 {
        let directory = parsed.positionals[0]
        var key: PEMPublicKey?
        if let path = parsed.value("public-key") {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw UsageError("cannot read the public key \(Output.inline(path))", command: spec.name)
            }
            do {
                key = try PEMPublicKey(pem: text)
            } catch {
                throw UsageError("cannot use the public key \(Output.inline(path)): \(error)", command: spec.name)
            }
        }
        let result = EvidenceBundle.verify(directory, publicKey: key)
        for problem in result.problems { Output.error("error: \(Output.inline(directory))/\(Output.inline(problem.description))") }
        if !parsed.flags.contains("quiet") {
            for note in result.notes { Output.out(note) }
            Output.out(
                result.isIntact
                    ? "intact: \(result.files) files match \(EvidenceBundle.manifestName)"
                    : "NOT intact: \(result.problems.count) problem(s) in \(Output.inline(directory))")
        }
        return result.isIntact ? CLI.Status.ok : CLI.Status.nonConformant
    }
}
