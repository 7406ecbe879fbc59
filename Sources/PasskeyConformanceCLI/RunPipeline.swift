import ConformanceKit
import ConformanceEvidence
import ConformanceReports
import Foundation

/// The stages `run` and `explore` share, in the order they take them: signals handled from the
/// first moment, the criteria loaded (or the fault that says why they did not), the report directory
/// opened before any work, the adapter made and shut down around the work, and the exit status
/// taken from the report so that the two never disagree. `selftest` shares the criteria loading.
struct RunPipeline: Sendable {
    /// Turns signals into an orderly end; made first, so that a signal during the loading counts too.
    let interruptions = InterruptionMonitor()

    /// The digest of the suite shipped with the harness, `nil` without its bundle.
    let bundledDigest = CriteriaLocation.bundledDigest()

    /// Gives the signals their default meaning back once the reports are written.
    func finish() { interruptions.finish() }

    /// Records what every report of the pipeline says about its criteria and its end: where they
    /// came from (`--criteria`, `nil` for the bundled suite), their digest beside the bundled suite's,
    /// and the signal that interrupted the work, if one did.
    func stamp(_ metadata: inout RunMetadata, criteriaPath: String?, digest: String) {
        metadata.interruption = interruptions.signal
        metadata.criteriaRoot = criteriaPath
        metadata.criteriaSource = .init(digest: digest, bundledDigest: bundledDigest)
    }

    /// The criteria a run works on, or why it has none.
    enum LoadedCriteria: Sendable {
        case loaded(CriteriaLoader.Result)
        /// The fault the reports record: the criteria did not load (exit 2).
        case fault(RunFault)
    }

    /// The criteria at `path` (`--criteria`; the bundled suite when `nil`), or the fault of a run
    /// that cannot start: every diagnostic and the error are printed.
    static func loadCriteria(path: String?) -> LoadedCriteria {
        switch Common.attemptLoadingCriteria(path) {
        case .success(let loaded):
            return .loaded(loaded)
        case .failure(let issue):
            // Broken, missing or unreadable criterion files, or no bundle: nothing can run, and the
            // reports say why (exit 2).
            Output.error("error: \(issue)")
            return .fault(RunFault(kind: .criteria, message: issue.message, method: nil, excerpt: path ?? "the bundled suite"))
        }
    }

    /// Runs `work` against `adapter` with the signals handled, then shuts the adapter down, however
    /// the work ended; `abandoned()` is what is left when a signal came and the work did not stop
    /// within the grace period.
    func drive<Value: Sendable>(
        _ adapter: any RelyingPartyAdapter, _ work: @escaping @Sendable () async -> Value, abandoned: @escaping @Sendable () -> Value
    ) async -> Value {
        let value = await interruptions.guarding(work, abandoned: abandoned)
        await adapter.shutdown()
        return value
    }

    /// Writes the reports, and `extraFiles` beside them, into the directory opened before the work:
    /// the paths written, or `nil` after saying why they could not be written.
    static func writeReports(
        _ run: RunResult, waivers: WaiverEvaluation = .none, formats: [ReportFormat], extraFiles: [(path: String, bytes: [UInt8])] = [],
        to directory: ReportDirectory
    ) -> [String]? {
        do {
            return try ReportWriter.write(run, waivers: waivers, formats: formats, extraFiles: extraFiles, to: directory)
        } catch {
            Output.error("error: \(Output.inline(error.description))")
            return nil
        }
    }

    /// Why the report directory cannot be used (already printed).
    struct UnwritableReports: Error {}

    /// The report directory, made before any work so that a run fails before it starts when its
    /// reports cannot be written; `nil` when no reports are wanted.
    static func openReports(_ destination: ReportDestination) throws(UnwritableReports) -> ReportDirectory? {
        guard destination.writesReports else { return nil }
        do {
            return try ReportDirectory(destination.directory)
        } catch {
            Output.error("error: \(Output.inline(error.description))")
            throw UnwritableReports()
        }
    }
}

/// `--out`, `--format` and `--no-reports`: where the reports go and in which formats.
struct ReportDestination: Sendable {
    var directory: String
    var formats: [ReportFormat]
    var writesReports: Bool

    /// Reads the options; `defaultDirectory` is the command's own (`conformance-report`, `explore-report`).
    init(_ parsed: ParsedArguments, defaultDirectory: String) throws(UsageError) {
        formats = try Self.formats(parsed)
        directory = parsed.value("out") ?? defaultDirectory
        writesReports = parsed.spec.option("no-reports") == nil || !parsed.flag("no-reports")
    }

    /// The `--format` option every command that writes reports declares, so that each help lists
    /// exactly the formats `formats(_:)` reads and writes by default.
    static let formatOption = CommandSpec.Option(
        name: "format", value: "formats",
        help: ReportFormat.optionHelp, repeatable: true)

    /// `--format`: the registered formats by name or alias; all of them by default.
    static func formats(_ parsed: ParsedArguments) throws(UsageError) -> [ReportFormat] {
        let names = parsed.list("format")
        if names.isEmpty { return ReportFormat.allCases }
        return try names.map { name throws(UsageError) -> ReportFormat in
            guard let format = ReportFormat(rawValue: name) else {
                throw parsed.usageError(option: "format", "unknown report format '\(name)'; use \(ReportFormat.choiceList)")
            }
            return format
        }
    }
}
