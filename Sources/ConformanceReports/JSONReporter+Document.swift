import ConformanceModel

// The report document of schema version 1, member for member as
// `Reports/schema/run-report.v1.schema.json` describes it. Kept apart from the result model's own
// `Codable` shape on purpose: a change to the model must not change the published format unnoticed.
extension JSONReporter {
    /// A member that is always present, `null` when there is no value (the synthesised `Encodable`
    /// would leave an optional member out instead).
    struct Nullable<Wrapped: Encodable>: Encodable {
        var value: Wrapped?
        init(_ value: Wrapped?) { self.value = value }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let value { try container.encode(value) } else { try container.encodeNil() }
        }
    }

    /// Whether the run used the suite shipped with the harness; a member that sorts right after
    /// `$schema`, so that it is among the first lines of the file.
    struct BundledSuite: Encodable {
        var used: Bool
        var criteriaDigest: String
        var bundledDigest: Nullable<String>
        var notice: Nullable<String>
    }

    /// That the platforms are simulated, what a pass proves, and what each target simulated.
    struct Fidelity: Encodable {
        struct TargetFidelity: Encodable {
            var title: Nullable<String>
            var simulated: String
        }
        var simulated: Bool
        var statement: String
        var passProves: String
        var passDoesNotProve: String
        var notes: String
        var targets: [String: TargetFidelity]
    }

    /// Failures and gaps below the gate: reported, never deciding the exit status.
    struct Warnings: Encodable {
        var testCases: [String]
        var gaps: [ExitStatus.Gap]
    }

    struct Document: Encodable {
        var schema: String
        var schemaVersion: String
        var bundledSuite: Nullable<BundledSuite>
        var fidelity: Fidelity
        var metadata: Metadata
        var summary: Summary
        var criteria: [Criterion]
        var testCases: [TestCase]
        var waivers: Waivers

        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case schemaVersion, bundledSuite, fidelity, metadata, summary, criteria, testCases, waivers
        }
    }

    struct Metadata: Encodable {
        struct Adapter: Encodable {
            var name: String
            var version: String
            var transport: String
            var command: Nullable<String>
            /// Only for an adapter the harness connected to: its socket address (absent otherwise).
            var connect: String?
            var declaredTargets: Nullable<[String]>
            var capabilities: Nullable<[String]>
            var unknownTargets: [String]
            /// Only when it is not the harness's own version (an adapter of another minor).
            var protocolVersion: String?
            /// Only when the adapter declared capabilities the harness does not know.
            var ignoredCapabilities: [String]?
            /// Since 1.7.0, only when the adapter declared something about the relying party's model.
            var declarations: [String]?
        }
        struct Fault: Encodable {
            var kind: String
            var message: String
            var method: Nullable<String>
            var excerpt: Nullable<String>

            init(_ fault: RunFault) {
                kind = fault.kind.rawValue
                message = fault.message
                method = .init(fault.method)
                excerpt = .init(fault.excerpt)
            }
        }
        var harnessVersion: String
        var criteriaDigest: String
        var adapter: Adapter
        var targets: [String]
        /// Decimal digits: a 64-bit seed does not survive a JSON number in every consumer.
        var seed: String
        var startedAt: String
        var filters: [String: String]
        var allowNotVerified: Bool
        var criteria: Nullable<String>
        var interruption: Nullable<RunMetadata.Interruption>
        var fault: Nullable<Fault>
        var gate: Gate
        /// `failures` (transcripts for test cases that did not pass) or `all` (`--evidence all`).
        var evidence: String
        var harnessCommit: Nullable<String>
        var harnessModified: Nullable<Bool>
        var harnessBinarySHA256: Nullable<String>
        var host: Nullable<String>
        var shard: Nullable<RunMetadata.Shard>
        /// Since 1.6.0: the variant of the reference RP (`--design`, `--mutant`), `null` otherwise.
        var subject: Nullable<RunMetadata.Subject>
        /// The SHA-256 of the report itself with this member's value written as 64 zeros.
        package var reportDigest: String
    }

    struct Counts: Encodable {
        var total: Int
        var passed: Int
        var failed: Int
        var waived: Int
        var error: Int
        var notVerified: Int
        var undefined: Int

        init(_ counts: [ReportOutcome: Int]) {
            total = counts.values.reduce(0, +)
            passed = counts[.passed] ?? 0
            failed = counts[.failed] ?? 0
            waived = counts[.waived] ?? 0
            error = counts[.error] ?? 0
            notVerified = counts[.notVerified] ?? 0
            undefined = counts[.undefined] ?? 0
        }
    }

    struct Summary: Encodable {
        var verdict: Verdict
        package var outcome: ReportOutcome
        var status: String
        var exitStatus: Int32
        var criteria: Counts
        var testCases: Counts
        var waiverProblems: Int
        var gaps: [ExitStatus.Gap]
        var warnings: Warnings
        var wallSeconds: Double
        var virtualMillis: Int64
    }

    struct Cell: Encodable {
        var verdict: Verdict
        package var outcome: ReportOutcome
    }

    struct VerifyItem: Encodable {
        var id: VerifyItemID
        var text: String
        var testCases: [String]
    }

    struct Criterion: Encodable {
        var id: CriterionID
        var described: Bool
        var title: Nullable<String>
        var level: Nullable<CriterionInfo.Level>
        var group: Nullable<String>
        var derived: Nullable<Bool>
        var origin: Nullable<CriterionInfo.Origin>
        var gated: Bool
        var statement: Nullable<String>
        var verification: Nullable<String>
        var verifyItems: [VerifyItem]
        var source: Nullable<String>
        var references: [String]
        var file: Nullable<String>
        var verdict: Verdict
        package var outcome: ReportOutcome
        var targets: [String: Cell]
        var testCases: [String]
    }

    struct Step: Encodable {
        var keyword: String
        var text: String
        package var line: Int
        var status: StepResult.Status
        var message: Nullable<String>
    }

    struct Entry: Encodable {
        var sequence: Int
        var atMillis: Int64
        var channel: TranscriptEntry.Channel
        var name: String
        var summary: String
        var payload: Nullable<JSONValue>
    }

    struct TestCase: Encodable {
        var id: String
        var criterionID: CriterionID
        var scenario: String
        var file: String
        package var line: Int
        var verifyItems: [VerifyItemID]
        var tags: [String]
        var target: String
        var verdict: Verdict
        package var outcome: ReportOutcome
        var waivedBy: Nullable<String>
        var message: Nullable<String>
        var steps: [Step]
        var evidence: [Entry]
        var observed: [String]
        var warning: Bool
        var rerun: String
        var virtualMillis: Int64
        var wallSeconds: Double
        var fault: Nullable<Metadata.Fault>
        var notVerified: Nullable<NotVerifiedReason>
        /// Since 1.7.0: the safety monitors' findings in this test case; left out when there is none.
        var violations: [MonitorViolation]?
    }

    struct Waiver: Encodable {
        var id: String
        var criterion: CriterionID
        var target: String
        var reason: String
        var owner: String
        var expires: String
        var status: WaiverEvaluation.Status
        var waivedTestCases: [String]
    }

    struct Problem: Encodable {
        var kind: WaiverEvaluation.Problem.Kind
        package var waiver: String
        var message: String
    }

    struct Waivers: Encodable {
        var file: Nullable<String>
        var evaluatedOn: Nullable<String>
        var clockDay: Nullable<String>
        var revived: [String]
        var entries: [Waiver]
        var problems: [Problem]
    }
}

extension JSONReporter.Document {
    init(_ model: ReportModel) {
        typealias R = JSONReporter
        let run = model.run
        let metadata = run.metadata
        schema = JSONReporter.schemaID
        schemaVersion = JSONReporter.schemaVersion
        bundledSuite = .init(
            metadata.criteriaSource.map { source in
                let bundled: String? =
                    switch source {
                    case .bundled: metadata.criteriaDigest
                    case .other(let digest): digest
                    }
                return R.BundledSuite(
                    used: source == .bundled, criteriaDigest: metadata.criteriaDigest, bundledDigest: .init(bundled),
                    notice: .init(ReportNotices.criteria(metadata)))
            })
        self.metadata = R.Metadata(
            harnessVersion: metadata.harnessVersion, criteriaDigest: metadata.criteriaDigest,
            adapter: .init(
                name: metadata.adapter.name, version: metadata.adapter.version, transport: metadata.adapter.transport,
                command: .init(metadata.adapter.command), connect: metadata.adapter.connect, declaredTargets: .init(metadata.adapter.declaredTargets),
                capabilities: .init(metadata.adapter.capabilities), unknownTargets: metadata.adapter.unknownTargets,
                protocolVersion: metadata.adapter.protocolVersion.flatMap { $0 == adapterProtocolVersion ? nil : $0 },
                ignoredCapabilities: metadata.adapter.ignoredCapabilities.isEmpty ? nil : metadata.adapter.ignoredCapabilities,
                declarations: metadata.adapter.declarations.isEmpty ? nil : metadata.adapter.declarations),
            targets: metadata.targets, seed: String(metadata.seed), startedAt: metadata.startedAt, filters: metadata.filters,
            allowNotVerified: metadata.allowNotVerified, criteria: .init(metadata.criteriaRoot), interruption: .init(metadata.interruption),
            fault: .init(metadata.fault.map(R.Metadata.Fault.init)), gate: model.gate,
            evidence: metadata.transcriptsForPasses == true ? "all" : "failures", harnessCommit: .init(metadata.harnessCommit),
            harnessModified: .init(metadata.harnessModified), harnessBinarySHA256: .init(metadata.harnessBinarySHA256), host: .init(metadata.host),
            shard: .init(metadata.shard), subject: .init(metadata.subject), reportDigest: JSONReporter.digestPlaceholder)
        let header = ReportFidelity.header(targetIDs: model.targets)
        fidelity = R.Fidelity(
            simulated: header.simulated, statement: header.statement, passProves: header.passProves,
            passDoesNotProve: header.passDoesNotProve, notes: ReportFidelity.notes,
            targets: Dictionary(
                model.targets.map {
                    ($0, R.Fidelity.TargetFidelity(title: .init(TargetCatalog.target(id: $0)?.title), simulated: ReportFidelity.simulated(targetID: $0)))
                },
                uniquingKeysWith: { first, _ in first }))
        summary = R.Summary(
            verdict: run.verdict, outcome: model.outcome, status: model.exitStatus.name, exitStatus: model.exitStatus.rawValue,
            criteria: .init(model.criterionCounts), testCases: .init(model.caseCounts), waiverProblems: model.waivers.problems.count,
            gaps: model.gaps, warnings: R.Warnings(testCases: model.warnings.map(\.result.id), gaps: model.warningGaps),
            wallSeconds: ReportModel.finite(run.wallSeconds), virtualMillis: run.virtualMillis)
        criteria = model.sections.map { section in
            let info = section.info
            let items = (info?.verifyItems ?? []).map { item in
                R.VerifyItem(
                    id: item.id, text: item.text,
                    testCases: section.cases.filter { $0.result.verifyItems.contains(item.id) }.map(\.result.id))
            }
            return R.Criterion(
                id: section.id, described: info != nil, title: .init(info?.title), level: .init(info?.level), group: .init(info?.group),
                derived: .init(info?.derived), origin: .init(info?.origin), gated: section.gated, statement: .init(info?.statement),
                verification: .init(info?.verification),
                verifyItems: items, source: .init(info?.source), references: info?.references ?? [], file: .init(info?.file),
                verdict: section.verdict, outcome: section.outcome,
                targets: section.cells.mapValues { R.Cell(verdict: $0.verdict, outcome: $0.outcome) },
                testCases: section.cases.map(\.result.id))
        }
        testCases = model.cases.map { item in
            let result = item.result
            return R.TestCase(
                id: result.id, criterionID: result.criterionID, scenario: result.scenario, file: result.file, line: result.line,
                verifyItems: result.verifyItems, tags: result.tags, target: result.target, verdict: result.verdict,
                outcome: item.outcome, waivedBy: .init(item.waiver?.id), message: .init(result.message),
                steps: result.steps.map { R.Step(keyword: $0.keyword, text: $0.text, line: $0.line, status: $0.status, message: .init($0.message)) },
                evidence: result.evidence.map {
                    R.Entry(
                        sequence: $0.sequence, atMillis: $0.atMillis, channel: $0.channel, name: $0.name, summary: $0.summary,
                        payload: .init($0.payload))
                },
                observed: result.observed, warning: item.isWarning,
                rerun: RerunCommand.line(for: result, metadata: model.run.metadata),
                virtualMillis: result.virtualMillis, wallSeconds: ReportModel.finite(result.wallSeconds),
                fault: .init(result.fault.map(R.Metadata.Fault.init)), notVerified: .init(result.notVerifiedReason),
                violations: result.violations.isEmpty ? nil : result.violations)
        }
        let evaluation = model.waivers
        waivers = R.Waivers(
            file: .init(evaluation.source), evaluatedOn: .init(evaluation.evaluatedOn?.description),
            clockDay: .init(evaluation.clockDay?.description), revived: evaluation.revived,
            entries: evaluation.entries.map {
                R.Waiver(
                    id: $0.waiver.id, criterion: $0.waiver.criterion, target: $0.waiver.target.description, reason: $0.waiver.reason,
                    owner: $0.waiver.owner, expires: $0.waiver.expires.description, status: $0.status,
                    waivedTestCases: $0.waivedTestCaseIDs)
            },
            problems: evaluation.problems.map { R.Problem(kind: $0.kind, waiver: $0.waiver.id, message: $0.message) })
    }
}
