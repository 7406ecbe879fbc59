import ConformanceModel

extension MarkdownReporter {
    /// The most bytes (UTF-8) the summary may take: well under the 65,536 characters a pull-request
    /// comment holds, whatever the run. Rows that do not fit are counted, not shown.
    package static let summaryBudget = 50_000

    /// The short report (`report.md`), sized for a pull-request comment: the result, the counts,
    /// the matrix by criterion and platform family, each distinct failure once with the targets it
    /// hit, the gaps and the simulated targets. The full detail is in `report.details.md`.
    package static func summary(_ run: RunResult, waivers: WaiverEvaluation = .none) -> String {
        summary(ReportModel.withDigest(run, waivers: waivers))
    }

    static func summary(_ model: ReportModel) -> String {
        var document = Document()
        document.block("# Passkey conformance report: summary")
        for notice in Document.notices(model) { document.block("> **\(notice.title):** \(notice.text)") }
        document.fidelity(model)
        document.block(Document.summary(model, brief: true))
        document.facts(model)
        document.familyMatrix(model)
        document.distinctFailures(model)
        document.gapList(model)
        document.targetTable(model, brief: true)
        document.block(
            "Full detail: \(TextEscaping.markdownCode(ReportFormat.detailsFileName)) (every criterion, every failure with its "
                + "transcript, grouped by cause), \(TextEscaping.markdownCode(ReportFormat.html.fileName)) and "
                + "\(TextEscaping.markdownCode(ReportFormat.json.fileName)) beside this file.")
        return document.text
    }
}

extension MarkdownReporter.Document {
    /// The statement that the platforms are simulated, and what a pass proves.
    mutating func fidelity(_ model: ReportModel) {
        let header = ReportFidelity.header(targetIDs: model.targets)
        block(
            "> **\(header.title).** \(TextEscaping.markdownInline(header.statement))\\",
            "> **What a pass proves.** \(TextEscaping.markdownInline(header.passProves))\\",
            "> **What it does not.** \(TextEscaping.markdownInline(header.passDoesNotProve))")
    }

    /// Harness, adapter, seed, gate and evidence in a few lines.
    mutating func facts(_ model: ReportModel) {
        let metadata = model.run.metadata
        let adapter = metadata.adapter
        block(
            "- **Harness:** \(TextEscaping.markdownInline(metadata.harnessVersion)), criteria digest \(TextEscaping.markdownCode(metadata.criteriaDigest))",
            "- **Adapter:** \(TextEscaping.markdownInline(adapter.name)) \(TextEscaping.markdownInline(adapter.version)) (\(TextEscaping.markdownInline(adapter.transport))); "
                + "seed \(metadata.seed); \(TextEscaping.count(metadata.targets.count, "target"))",
            "- **Gate:** " + Self.gateText(model.gate) + "; **evidence:** " + Self.evidenceText(metadata))
        block(Self.provenance(model))
        var events: [String] = []
        if metadata.allowNotVerified {
            events.append("- **Gate relaxed:** `--allow-not-verified` (gaps do not make the run incomplete while something passed)")
        }
        if let interruption = metadata.interruption {
            events.append("- **Interrupted:** by \(interruption.rawValue); this report is partial (test cases not run are missing)")
        }
        if let fault = metadata.fault { events.append("- **Run fault:** \(TextEscaping.markdownInline(ReportNotices.faultLine(fault))); no test case ran") }
        block(events)
        runFault(metadata)
    }

    /// The run's fault, when it has one, told once: the adapter's last standard error lines (each
    /// kept on its own line, hidden characters made visible) and the first thing to check.
    mutating func runFault(_ metadata: RunMetadata) {
        guard let fault = metadata.fault else { return }
        if let lines = ReportNotices.standardErrorLines(fault) {
            block("**The adapter's standard error** (its last lines):", TextEscaping.markdownFence(lines.joined(separator: "\n")))
        }
        if let hint = ReportNotices.faultHint(metadata) { block("**First thing to check:** \(TextEscaping.markdownInline(hint))") }
    }

    static func gateText(_ gate: Gate) -> String {
        switch gate {
        case .all: "`all` (every selected criterion fails the run)"
        case .quality: "`quality` (source and derived criteria fail the run; recommendations are warnings)"
        case .core: "`core` (Core-level source and derived criteria fail the run; Quality-level criteria and recommendations are warnings)"
        }
    }

    static func evidenceText(_ metadata: RunMetadata) -> String {
        metadata.transcriptsForPasses == true
            ? "every test case keeps its whole transcript (`--evidence all`)"
            : "transcripts for test cases that did not pass; every test case keeps what its checks observed (report.json)"
    }

    /// The platform families of the run's targets, in column order, each with its targets.
    static func families(_ model: ReportModel) -> [(name: String, targets: [String])] {
        var order: [String] = []
        var members: [String: [String]] = [:]
        for target in model.targets {
            let family = ReportFidelity.family(of: target)
            if members[family] == nil { order.append(family) }
            members[family, default: []].append(target)
        }
        return order.map { ($0, members[$0]!) }
    }

    /// A criterion's cell for a family: the folded outcome's symbol and how many of the family's
    /// targets where the criterion applies passed (`✅ 7/7`, `❌ 5/7`), or `n/a`.
    static func familyCell(_ section: ReportModel.Section, targets: [String]) -> String {
        let cells = targets.compactMap { section.cells[$0] }
        guard !cells.isEmpty else { return MarkdownReporter.notApplicable }
        let outcome = ReportOutcome.worst(cells.map(\.outcome))
        let passed = cells.filter { $0.outcome == .passed }.count
        return MarkdownReporter.symbol(outcome, warning: !section.gated) + " \(passed)/\(cells.count)"
    }

    mutating func familyMatrix(_ model: ReportModel) {
        block("## Criterion × platform family")
        guard !model.sections.isEmpty else {
            block("The run has no criteria.")
            return
        }
        let families = Self.families(model)
        var lines = [
            "| Criterion | Level | Gate | Overall | " + families.map { "\($0.name) (\($0.targets.count))" }.joined(separator: " | ") + " |",
            "|---|---|---|:-:|" + String(repeating: ":-:|", count: families.count),
        ]
        for section in model.sections {
            let level = section.info.map { Self.level($0.level) } ?? "?"
            let origin = section.info.map { $0.origin == .source ? "" : " *(\($0.origin.rawValue))*" } ?? ""
            let gate = section.gated ? "gates" : "warns"
            let cells = families.map { Self.familyCell(section, targets: $0.targets) }
            lines.append(
                "| \(TextEscaping.markdownInline(section.id.rawValue))\(origin) | \(level) | \(gate) | \(MarkdownReporter.symbol(section.outcome, warning: !section.gated)) | "
                    + cells.joined(separator: " | ") + " |")
        }
        block(lines)
        block(
            "Each cell: the worst outcome on the family's targets, then targets passed / targets where the criterion applies. Legend: "
                + ReportOutcome.allCases.map { "\(MarkdownReporter.symbol($0)) \($0.words)" }.joined(separator: " · ")
                + " · ⚠️ failed below the gate (a warning) · n/a does not apply.")
    }

    /// Each distinct failure once: criterion, verify items, cause, the targets it hit, how many
    /// test cases; the rows that do not fit the budget are counted.
    mutating func distinctFailures(_ model: ReportModel) {
        let groups = model.groups.filter { $0.outcome != .notVerified }
        let cases = groups.reduce(0) { $0 + $1.cases.count }
        block("## Distinct failures")
        guard !groups.isEmpty else {
            block("None: no test case failed, erred or was undefined.")
            return
        }
        block(
            "\(TextEscaping.count(groups.count, "cause")) behind \(TextEscaping.count(cases, "test case")); each links to its full "
                + "evidence (one transcript per cause) in \(TextEscaping.markdownCode(ReportFormat.detailsFileName)).")
        var lines = ["| Cause | Criterion | Outcome | Verify items | Message (values as observed) | Targets | Test cases |", "|---|---|---|---|---|---|--:|"]
        var shown = 0
        for group in groups {
            let targets = group.targets
            let targetText =
                targets.prefix(8).map(TextEscaping.markdownInline).joined(separator: ", ") + (targets.count > 8 ? " +\(targets.count - 8) more" : "")
            var cause = group.observed
            if cause.count > 300 { cause = String(cause.prefix(299)) + "…" }
            let outcome = group.isWarning ? "⚠️ warning" : MarkdownReporter.labelled(group.outcome)
            let row =
                "| [\(group.id)](\(ReportFormat.detailsFileName)#\(group.id)) | \(TextEscaping.markdownInline(group.criterion.rawValue)) | \(outcome) | "
                + group.verifyItems.map { TextEscaping.markdownInline($0.rawValue) }.joined(separator: ", ")
                + " | \(TextEscaping.markdownInline(cause)) | \(targetText) | \(group.cases.count) |"
            guard text.utf8.count + (lines + [row]).joined(separator: "\n").utf8.count < MarkdownReporter.summaryBudget - 12_000 else { break }
            lines.append(row)
            shown += 1
        }
        block(lines)
        if shown < groups.count {
            block(
                "… and \(TextEscaping.count(groups.count - shown, "more cause")), left out to keep this summary short: see \(TextEscaping.markdownCode(ReportFormat.detailsFileName))."
            )
        }
    }

    /// The gaps (and the gaps below the gate), at most 25 each.
    mutating func gapList(_ model: ReportModel) {
        for (title, gaps) in [("Gaps: what no passed test case shows", model.gaps), ("Gaps below the gate (warnings)", model.warningGaps)] where !gaps.isEmpty {
            block("## \(title) (\(gaps.count))")
            var lines = gaps.prefix(25).map { "- " + TextEscaping.markdownInline($0.detail) }
            if gaps.count > 25 {
                lines.append("- … and \(gaps.count - 25) more: see \(TextEscaping.markdownCode(ReportFormat.detailsFileName)) or `summary.gaps` in report.json")
            }
            block(lines)
        }
    }

    /// Every target of the run and what was simulated for it.
    mutating func targetTable(_ model: ReportModel, brief: Bool) {
        block("## Targets (simulated)")
        block(
            "What the harness simulated for each target; the facts behind the simulation and their sources: \(TextEscaping.markdownCode(ReportFidelity.notes))."
        )
        var lines = ["| Target | Title | What was simulated |", "|---|---|---|"]
        for target in model.targets {
            let title = TargetCatalog.target(id: target)?.title ?? "(unknown)"
            lines.append(
                "| \(TextEscaping.markdownInline(target)) | \(TextEscaping.markdownInline(title)) | \(TextEscaping.markdownInline(ReportFidelity.simulated(targetID: target))) |"
            )
        }
        block(lines)
    }
}
