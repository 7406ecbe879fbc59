#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ConformanceModel
import ConformanceReports

/// Reads a `report.json` back into the run it reports: the metadata, the criteria's descriptions,
/// every test case with its steps and evidence, and the wall time. What the reporters derive from
/// those (verdicts per criterion and target, outcomes, counts) is not read: it is computed again.
///
/// `passkey-conformance merge` reads shard reports through it.
package enum ReportReader {
    /// Why a report could not be read.
    package struct ReadError: Error, Sendable, CustomStringConvertible {
        /// The problem, in words.
        package var description: String
    }

    /// The run a report of schema major version 1 describes.
    package static func run(from bytes: Data) throws(ReadError) -> RunResult {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: bytes)
        } catch {
            throw ReadError(description: "not a run report of this harness: \(error)")
        }
        guard document.schemaVersion.split(separator: ".").first == "1" else {
            throw ReadError(description: "schema version \(document.schemaVersion); this harness reads 1.x")
        }
        guard let seed = UInt64(document.metadata.seed) else { throw ReadError(description: "metadata.seed is not a decimal seed") }
        let source = document.metadata
        var metadata = RunMetadata(
            harnessVersion: source.harnessVersion, criteriaDigest: source.criteriaDigest, adapter: source.adapter.info, targets: source.targets,
            seed: seed, startedAt: source.startedAt, filters: source.filters, allowNotVerified: source.allowNotVerified,
            interruption: source.interruption, fault: source.fault, criteriaRoot: source.criteria)
        metadata.criteriaSource = document.bundledSuite.map { $0.used ? .bundled : .other(bundledDigest: $0.bundledDigest) }
        metadata.harnessCommit = source.harnessCommit
        metadata.harnessModified = source.harnessModified
        metadata.harnessBinarySHA256 = source.harnessBinarySHA256
        metadata.host = source.host
        metadata.shard = source.shard
        metadata.gate = source.gate
        metadata.subject = source.subject
        if source.evidence == "all" { metadata.transcriptsForPasses = true }
        metadata.harnessCommand = document.testCases.first.flatMap { harnessCommand(inRerun: $0.rerun) }
        let criteria = document.criteria.compactMap(\.info).map { CriterionResult(criterion: $0, verdict: .notVerified, targets: [:]) }
        let cases = document.testCases.map(\.result)
        return RunResult(
            metadata: metadata, criteria: criteria, testCases: cases, verdict: .notVerified, wallSeconds: document.summary.wallSeconds,
            virtualMillis: 0)
    }

    /// The harness executable a test case's re-run command names (`RerunCommand`): `nil` for
    /// `swift run passkey-conformance`, else its first word, unquoted.
    static func harnessCommand(inRerun line: String) -> String? {
        if line.hasPrefix("swift run passkey-conformance run") { return nil }
        guard line.hasPrefix("\"") else { return line.split(separator: " ").first.map(String.init) }
        var word = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped {
                word.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return word
            } else {
                word.append(character)
            }
        }
        return nil
    }

    /// The waiver file a report names, if any (a merge refuses shards run with waivers).
    package static func waiverFile(from bytes: Data) -> String? {
        (try? JSONDecoder().decode(Document.self, from: bytes))?.waivers.file
    }

    /// The waivers a report records as its input (the file, the waivers and the day they were
    /// judged on), evaluated again against `run`: what the report's waivers must say if nothing
    /// was changed after the run. `.none` for a report run without waivers.
    static func waivers(from bytes: Data, against run: RunResult) throws(ReadError) -> WaiverEvaluation {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: bytes)
        } catch {
            throw ReadError(description: "not a run report of this harness: \(error)")
        }
        let recorded = document.waivers
        guard let day = recorded.evaluatedOn else {
            guard recorded.entries?.isEmpty ?? true else { throw ReadError(description: "waivers.entries lists waivers, but waivers.evaluatedOn is null") }
            return .none
        }
        guard let today = CalendarDate(day) else { throw ReadError(description: "waivers.evaluatedOn is not a date (YYYY-MM-DD): \(day)") }
        var clockDay: CalendarDate?
        if let text = recorded.clockDay {
            guard let parsed = CalendarDate(text) else { throw ReadError(description: "waivers.clockDay is not a date (YYYY-MM-DD): \(text)") }
            clockDay = parsed
        }
        var waivers: [Waiver] = []
        for entry in recorded.entries ?? [] {
            guard let expires = CalendarDate(entry.expires) else {
                throw ReadError(description: "waivers.entries: \(entry.id) expires on \(entry.expires), not a date (YYYY-MM-DD)")
            }
            waivers.append(Waiver(criterion: entry.criterion, target: .init(entry.target), reason: entry.reason, owner: entry.owner, expires: expires))
        }
        return WaiverFile(path: recorded.file, waivers: waivers).evaluate(against: run, today: today, clockDay: clockDay)
    }

    struct Document: Decodable {
        struct BundledSuite: Decodable {
            var used: Bool
            var bundledDigest: String?
        }
        struct Metadata: Decodable {
            var harnessVersion: String
            var criteriaDigest: String
            var adapter: Adapter
            var targets: [String]
            var seed: String
            var startedAt: String
            var filters: [String: String]
            var allowNotVerified: Bool
            var criteria: String?
            var interruption: RunMetadata.Interruption?
            var fault: RunFault?
            var harnessCommit: String?
            var harnessModified: Bool?
            var harnessBinarySHA256: String?
            var host: String?
            var shard: RunMetadata.Shard?
            /// Since 1.5.0.
            var gate: Gate?
            /// Since 1.6.0.
            var subject: RunMetadata.Subject?
            /// Since 1.5.0: `failures` or `all`.
            var evidence: String?
        }
        /// The adapter as the report writes it: `protocolVersion` and `ignoredCapabilities` only
        /// when they say something.
        struct Adapter: Decodable {
            var name: String
            var version: String
            var transport: String
            var command: String?
            var connect: String?
            var declaredTargets: [String]?
            var capabilities: [String]?
            var unknownTargets: [String]
            var protocolVersion: String?
            var ignoredCapabilities: [String]?
            var declarations: [String]?

            var info: RunMetadata.AdapterInfo {
                var info = RunMetadata.AdapterInfo(
                    name: name, version: version, transport: transport, command: command, declaredTargets: declaredTargets, capabilities: capabilities,
                    unknownTargets: unknownTargets,
                    // Left out when it is the harness's own (for an adapter that described itself).
                    protocolVersion: protocolVersion ?? (declaredTargets == nil ? nil : adapterProtocolVersion), ignoredCapabilities: ignoredCapabilities ?? [],
                    declarations: declarations ?? [])
                info.connect = connect
                return info
            }
        }
        struct Summary: Decodable {
            var wallSeconds: Double
        }
        struct Criterion: Decodable {
            var id: CriterionID
            var title: String?
            var level: CriterionInfo.Level?
            var group: String?
            var derived: Bool?
            var origin: CriterionInfo.Origin?
            var statement: String?
            var verification: String?
            var verifyItems: [CriterionInfo.VerifyItem]
            var source: String?
            var references: [String]
            var file: String?

            /// The description, for a criterion the run described.
            var info: CriterionInfo? {
                guard let title, let level, let group, let derived, let statement, let verification, let source, let file else { return nil }
                return CriterionInfo(
                    id: id, title: title, level: level, group: group, origin: origin ?? CriterionInfo.Origin(derived: derived), statement: statement,
                    verification: verification,
                    verifyItems: verifyItems, source: source, references: references, file: file)
            }
        }
        struct TestCase: Decodable {
            var id: String
            var criterionID: CriterionID
            var scenario: String
            var file: String
            var line: Int
            var verifyItems: [VerifyItemID]
            var tags: [String]
            var target: String
            var verdict: Verdict
            var message: String?
            var steps: [StepResult]
            var evidence: [TranscriptEntry]
            var virtualMillis: Int64
            var wallSeconds: Double
            var fault: RunFault?
            var notVerified: NotVerifiedReason?
            var rerun: String
            /// Since 1.5.0.
            var observed: [String]?
            /// Since 1.7.0.
            var violations: [MonitorViolation]?

            var result: TestCaseResult {
                TestCaseResult(
                    id: id, criterionID: criterionID, scenario: scenario, file: file, line: line, verifyItems: verifyItems, tags: tags, target: target,
                    outcome: TestCaseOutcome(verdict: verdict, message: message, fault: fault, notVerifiedReason: notVerified), steps: steps,
                    evidence: evidence, virtualMillis: virtualMillis, wallSeconds: wallSeconds, observed: observed ?? [],
                    violations: violations ?? [])
            }
        }
        struct Waivers: Decodable {
            struct Entry: Decodable {
                var id: String
                var criterion: CriterionID
                var target: String
                var reason: String
                var owner: String
                var expires: String
            }
            var file: String?
            var evaluatedOn: String?
            var clockDay: String?
            var entries: [Entry]?
        }
        var schemaVersion: String
        var bundledSuite: BundledSuite?
        var metadata: Metadata
        var summary: Summary
        var criteria: [Criterion]
        var testCases: [TestCase]
        var waivers: Waivers
    }
}
