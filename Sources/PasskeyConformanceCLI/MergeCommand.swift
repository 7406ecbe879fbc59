import ConformanceKit
import ConformanceEvidence
import ConformanceReports
import Foundation
import WebAuthn

/// `merge`: the reports of a run's shards combined into the reports one `run` gives.
struct MergeCommand: CLICommand {
    static let spec = CommandSpec(
        name: "merge", summary: "Combine the reports of a run's shards (run --shard i/n) into the run's reports.",
        usage:
            "merge <shard report dir, report.json or evidence bundle>… --out <dir> [--format \(ReportFormat.usageList)] [--public-key <pem>] [--waivers <file>] [--today YYYY-MM-DD]",
        options: [
            .init(name: "out", value: "dir", help: "Report directory of the merged run (default: conformance-report)."),
            ReportDestination.formatOption,
            .init(
                name: "public-key", value: "pem",
                help: "Merge only evidence bundles signed by this ECDSA P-256 or Ed25519 public key (PEM): each shard must verify (see 'verify')."),
            .init(name: "waivers", value: "file", help: "Waiver file of expected failures (JSON), applied to the merged run."),
            .init(name: "today", value: "YYYY-MM-DD", help: "The date waivers expire against (default: today, UTC)."),
            .flag("quiet", "No summary on the terminal."),
        ],
        positionals: .init(min: 1, max: Int.max, name: "the shards' report directories")
    )

    /// The shards' report directories (or `report.json` files).
    var shards: [String]
    var reports: ReportDestination
    var today: CalendarDate
    var waiversPath: String?
    /// `--public-key`: every shard must be a bundle signed by it.
    var key: PEMPublicKey?
    var quiet: Bool

    init(_ parsed: ParsedArguments) throws {
        shards = parsed.positionals
        key = try VerifyCommand.publicKey(parsed)
        reports = try ReportDestination(parsed, defaultDirectory: "conformance-report")
        today = try RunCommand.date(parsed)
        waiversPath = parsed.value("waivers")
        quiet = parsed.flag("quiet")
    }

    /// Exit status: that of the merged run (as `run`'s), 2 when the shards cannot be merged or the
    /// reports cannot be written, 64 for bad usage.
    func run() throws -> Int32 {
        let run: RunResult
        do {
            run = try ShardMerge.merge(try shards.map { path throws(ShardMerge.Refusal) in try ShardMerge.read(path, publicKey: key) })
        } catch {
            Output.error("error: cannot merge: \(Output.inline(error.description))")
            return CLI.Status.systemError
        }
        let waivers = try RunCommand.loadWaivers(waiversPath, criterionIDs: Set(run.criteria.map(\.criterion.id)), command: Self.spec.name)
        let evaluation = waivers.map { $0.evaluate(against: run, today: today, clockDay: CalendarDate(utcDayOf: Date())) } ?? .none
        if !quiet { Output.out(Summary.text(run, waivers: evaluation)) }
        do {
            let written = try ReportWriter.write(run, waivers: evaluation, formats: reports.formats, to: reports.directory)
            if !quiet { Output.out("Reports: " + written.map(Output.inline).joined(separator: ", ")) }
        } catch {
            Output.error("error: \(Output.inline(error.description))")
            return CLI.Status.systemError
        }
        return ExitStatus.for(run, evaluation).rawValue
    }
}

/// `verify`: checks an evidence bundle's digests and signature.
struct VerifyCommand: CLICommand {
    static let spec = CommandSpec(
        name: "verify",
        summary:
            "Check an evidence bundle (run --bundle): every file's SHA-256, the manifest's signature, and that the reports, transcripts and criteria follow from report.json's test cases.",
        usage: "verify <bundle dir> [--public-key <pem>]",
        options: [
            .init(name: "public-key", value: "pem", help: "The ECDSA P-256 or Ed25519 public key (PEM) the manifest must be signed with."),
            .flag("quiet", "Print only the problems."),
        ],
        positionals: .init(min: 1, max: 1, name: "the bundle directory")
    )

    var directory: String
    /// `--public-key`, read and checked before the bundle is.
    var key: PEMPublicKey?
    var quiet: Bool

    init(_ parsed: ParsedArguments) throws {
        directory = parsed.positionals[0]
        key = try Self.publicKey(parsed)
        quiet = parsed.flag("quiet")
    }

    /// `--public-key`, read and checked before anything else is.
    static func publicKey(_ parsed: ParsedArguments) throws(UsageError) -> PEMPublicKey? {
        guard let path = parsed.value("public-key") else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw parsed.usageError(option: "public-key", "cannot read the public key \(Output.inline(path))")
        }
        do {
            return try PEMPublicKey(pem: text)
        } catch {
            throw parsed.usageError(option: "public-key", "cannot use the public key \(Output.inline(path)): \(error)")
        }
    }

    /// Exit status: 0 intact, 1 a file, the manifest or the signature does not match, 64 bad usage.
    func run() throws -> Int32 {
        let result = EvidenceBundle.verify(directory, publicKey: key)
        for problem in result.problems { Output.error("error: \(Output.inline(directory))/\(Output.inline(problem.description))") }
        if !quiet {
            for note in result.notes { Output.out(note) }
            Output.out(
                result.isIntact
                    ? "intact: \(result.files) files match \(EvidenceBundle.manifestName)"
                    : "NOT intact: \(result.problems.count) problem(s) in \(Output.inline(directory))")
        }
        return result.isIntact ? CLI.Status.ok : CLI.Status.nonConformant
    }
}

/// `sign`: signs an evidence bundle in a step of its own, after the run and away from the relying
/// party's code.
struct SignCommand: CLICommand {
    static let spec = CommandSpec(
        name: "sign",
        summary:
            "Sign an evidence bundle (run --bundle) after the run, in a job that never runs the relying party's code: it must verify first.",
        usage: "sign <bundle dir> --key <pem>",
        options: [
            .init(name: "key", value: "pem", help: "The ECDSA P-256 or Ed25519 private key (PEM, unencrypted PKCS#8 or SEC 1) that signs the manifest."),
            .flag("quiet", "Print only the problems."),
        ],
        positionals: .init(min: 1, max: 1, name: "the bundle directory")
    )

    var directory: String
    var key: PEMSigningKey
    var quiet: Bool

    init(_ parsed: ParsedArguments) throws {
        directory = parsed.positionals[0]
        guard let path = parsed.value("key") else { throw parsed.usageError("give the signing key: --key <pem>") }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw parsed.usageError(option: "key", "cannot read the signing key \(Output.inline(path))")
        }
        do {
            key = try PEMSigningKey(pem: text)
        } catch {
            throw parsed.usageError(option: "key", "cannot use the signing key \(Output.inline(path)): \(error)")
        }
        quiet = parsed.flag("quiet")
    }

    /// Exit status: 0 signed, 1 the bundle does not verify (left unsigned), 2 it could not be
    /// written, 64 bad usage.
    func run() throws -> Int32 {
        do {
            let verification = try EvidenceBundle.sign(directory, key: key)
            if !quiet {
                for note in verification.notes { Output.out(note) }
                Output.out("signed: \(Output.inline(directory)), \(verification.files) files")
            }
            return CLI.Status.ok
        } catch {
            Output.error("error: \(Output.inline(directory)): \(Output.inline(error.description))")
            return error.description.hasPrefix("the bundle does not verify") ? CLI.Status.nonConformant : CLI.Status.systemError
        }
    }
}
