import ConformanceModel

/// Writes a run as a Markdown report for auditors (`report.md`).
///
/// The report opens with what is needed to reproduce the run and a one-line summary, then shows a
/// criterion × target matrix, the waivers, and one section per criterion: its statement, how it was
/// verified (verify item by verify item, with the scenarios covering each and their verdicts), the
/// verdict per target, and for every test case that did not pass the reason, the steps, the
/// transcript excerpt that proves it and the command that re-runs it alone.
///
/// `notVerified`, `undefined` and `error` are always stated as what they are, never counted as
/// passes. The output depends only on the run and the waivers: the same input gives the same bytes.
package enum MarkdownReporter: ReportRenderer {
    /// `md`: the summary for a pull-request comment, `report.md`, and the full detail, `report.details.md`.
    static let format = ReportFormat(
        "md", aliases: ["markdown"], fileNames: ["report.md", "report.details.md"], help: "md (report.md, a summary, and report.details.md)")

    static func files(_ model: ReportModel) throws -> [(path: String, bytes: [UInt8])] {
        [(format.fileNames[0], Array(summary(model).utf8)), (format.fileNames[1], Array(render(model).utf8))]
    }

    /// The report as Markdown text, ending with a newline.
    package static func render(_ run: RunResult, waivers: WaiverEvaluation = .none) -> String {
        render(ReportModel.withDigest(run, waivers: waivers))
    }

    static func render(_ model: ReportModel) -> String {
        var document = Document()
        document.header(model)
        document.matrix(model)
        document.targetTable(model, brief: false)
        document.waivers(model)
        for section in model.sections {
            document.criterion(section, in: model)
        }
        return document.text
    }

    /// The symbol of an outcome in the matrix and in headings.
    static func symbol(_ outcome: ReportOutcome) -> String {
        switch outcome {
        case .passed: "✅"
        case .failed: "❌"
        case .waived: "🟡"
        case .error: "💥"
        case .notVerified: "⬜"
        case .undefined: "❓"
        }
    }

    /// The symbol of an outcome, `⚠️` for a failure below the gate (a warning).
    static func symbol(_ outcome: ReportOutcome, warning: Bool) -> String {
        warning && outcome == .failed ? "⚠️" : symbol(outcome)
    }

    /// What a symbol means, for the legend.
    static func legend(_ outcome: ReportOutcome) -> String {
        switch outcome {
        case .passed: "passed"
        case .failed: "failed (the relying party broke the criterion)"
        case .waived: "waived (failed, and a live waiver accepts the failure)"
        case .error: "error (the harness, the adapter or the transport failed; not decided)"
        case .notVerified: "not verified (a capability or target was missing; not a pass)"
        case .undefined: "undefined (a step matches no step definition: a defect in the criterion file)"
        }
    }

    /// `✅ passed`.
    static func labelled(_ outcome: ReportOutcome) -> String { "\(symbol(outcome)) \(outcome.words)" }

    /// The text a not-applicable matrix cell shows.
    static let notApplicable = "n/a"
}

extension MarkdownReporter {
    /// The report being written, block by block, each block separated by one blank line.
    struct Document {
        private(set) var text = ""

        mutating func block(_ lines: String...) {
            block(lines)
        }

        mutating func block(_ lines: [String]) {
            guard !lines.isEmpty else { return }
            if !text.isEmpty { text += "\n" }
            text += lines.joined(separator: "\n") + "\n"
        }

        mutating func header(_ model: ReportModel) {
            let metadata = model.run.metadata
            let adapter = metadata.adapter
            block("# Passkey conformance report")
            for notice in Self.notices(model) { block("> **\(notice.title):** \(notice.text)") }
            fidelity(model)
            var lines = [
                "- **Harness version:** \(TextEscaping.markdownInline(metadata.harnessVersion))",
                "- **Criteria digest:** \(TextEscaping.markdownCode(metadata.criteriaDigest))",
                "- **Adapter:** \(TextEscaping.markdownInline(adapter.name)) \(TextEscaping.markdownInline(adapter.version)), transport \(TextEscaping.markdownInline(adapter.transport))",
            ]
            if let command = adapter.command {
                lines.append("- **Adapter command:** \(TextEscaping.markdownCode(command))")
            }
            if let address = adapter.connect {
                lines.append("- **Adapter connection:** \(TextEscaping.markdownCode(address))")
            }
            lines += Self.provenance(model)
            if let declared = adapter.declaredTargets {
                lines.append(
                    "- **Adapter declares targets:** " + (declared.isEmpty ? "none" : declared.map(TextEscaping.markdownInline).joined(separator: ", ")))
            }
            if !adapter.unknownTargets.isEmpty {
                lines.append("- **Unknown targets declared (ignored):** " + adapter.unknownTargets.map(TextEscaping.markdownInline).joined(separator: ", "))
            }
            if let version = adapter.protocolVersion, version != adapterProtocolVersion {
                lines.append(
                    "- **Adapter protocol:** \(TextEscaping.markdownInline(version)) (the harness speaks \(adapterProtocolVersion); "
                        + "test cases that need a later feature are not verified)")
            }
            if !adapter.ignoredCapabilities.isEmpty {
                lines.append(
                    "- **Unknown capabilities declared (ignored):** " + adapter.ignoredCapabilities.map(TextEscaping.markdownInline).joined(separator: ", "))
            }
            if !adapter.declarations.isEmpty {
                lines.append(
                    "- **Adapter declares about the relying party:** " + adapter.declarations.map(TextEscaping.markdownInline).joined(separator: ", ")
                        + " (fixtures its model cannot hold are not verified)")
            }
            if let capabilities = adapter.capabilities {
                lines.append(
                    "- **Adapter declares capabilities:** "
                        + (capabilities.isEmpty ? "none" : capabilities.map(TextEscaping.markdownInline).joined(separator: ", ")))
            }
            if metadata.allowNotVerified {
                lines.append("- **Gate relaxed:** `--allow-not-verified` (criteria left unverified do not make the run incomplete)")
            }
            if let interruption = metadata.interruption {
                lines.append("- **Interrupted:** by \(interruption.rawValue); this report is partial (test cases not run are missing)")
            }
            if let fault = metadata.fault {
                lines.append("- **Run fault:** \(TextEscaping.markdownInline(ReportNotices.faultLine(fault))); no test case ran")
            }
            lines += [
                "- **Targets:** " + (metadata.targets.isEmpty ? "none" : metadata.targets.map(TextEscaping.markdownInline).joined(separator: ", ")),
                "- **Seed:** \(metadata.seed)",
                "- **Started:** \(TextEscaping.markdownInline(metadata.startedAt))",
                "- **Filters:** "
                    + (metadata.filters.isEmpty
                        ? "none"
                        : metadata.filters.keys.sorted().map {
                            "\(TextEscaping.markdownInline($0)) = \(TextEscaping.markdownCode(metadata.filters[$0] ?? ""))"
                        }.joined(separator: "; ")),
                "- **Waivers:** " + Self.waiverSource(model.waivers),
                "- **Gate:** " + Self.gateText(model.gate),
                "- **Evidence:** " + Self.evidenceText(metadata),
                "- **Duration:** \(ReportModel.seconds(model.run.wallSeconds)) s wall time, \(model.run.virtualMillis) ms virtual time",
            ]
            block(lines)
            runFault(metadata)
            block(Self.summary(model))
        }

        /// What a reader must see before anything else: criteria that are not the bundled suite,
        /// and waivers judged on another day than the clock's.
        static func notices(_ model: ReportModel) -> [(title: String, text: String)] {
            var notices: [(String, String)] = []
            if let text = ReportNotices.criteria(model.run.metadata) {
                notices.append(("Criteria not the bundled suite", TextEscaping.markdownInline(text)))
            }
            if let text = ReportNotices.waiverDate(model.waivers) {
                notices.append(("Waivers judged on another day", TextEscaping.markdownInline(text)))
            }
            return notices
        }

        /// The notices as plain text, for formats that escape on their own.
        static func plainNotices(_ model: ReportModel) -> [(title: String, text: String)] {
            var notices: [(String, String)] = []
            if let text = ReportNotices.criteria(model.run.metadata) { notices.append(("Criteria not the bundled suite", text)) }
            if let text = ReportNotices.waiverDate(model.waivers) { notices.append(("Waivers judged on another day", text)) }
            return notices
        }

        static func waiverSource(_ waivers: WaiverEvaluation) -> String {
            guard let day = waivers.evaluatedOn else { return "none" }
            let file = waivers.source.map { TextEscaping.markdownCode($0) } ?? "given in code"
            return "\(file), \(TextEscaping.count(waivers.entries.count, "waiver")), evaluated on \(day)"
        }

        /// The result paragraph; `brief` counts the gaps instead of listing them (the summary lists them apart).
        static func summary(_ model: ReportModel, brief: Bool = false) -> [String] {
            let cases = model.caseCounts
            let status = model.exitStatus
            var lines = [
                "**Result: \(TextEscaping.markdownInline(status.headline(model.run, waivers: model.waivers)))** (exit status \(status.rawValue)). "
                    + "\(TextEscaping.count(model.sections.count, "criterion", "criteria")): \(counted(model.criterionCounts)). "
                    + "\(TextEscaping.count(model.cases.count, "test case")): \(counted(cases)). "
                    + "Waiver problems: \(model.waivers.problems.count)."
            ]
            let warnings = model.warnings.count
            if let count = cases[.failed], count > warnings {
                lines.append(
                    "Failed: \(TextEscaping.count(count - warnings, "test case")). The relying party broke the criterion and no live waiver accepts it.")
            }
            if warnings > 0 {
                lines.append(
                    "Warnings: \(TextEscaping.count(warnings, "failed test case")) of criteria below the gate (`--gate \(model.gate.rawValue)`). "
                        + "Reported, counted as failed, but they do not change the exit status.")
            }
            if !model.warningGaps.isEmpty && !brief {
                lines.append(
                    "Gaps below the gate (warnings): " + model.warningGaps.map { TextEscaping.markdownInline($0.detail) }.joined(separator: "; ") + ".")
            }
            if let count = cases[.waived], count > 0 {
                lines.append("Waived: \(TextEscaping.count(count, "failed test case")). The failure is known and accepted until its waiver expires.")
            }
            if let count = cases[.error], count > 0 {
                lines.append(
                    "Error: \(TextEscaping.count(count, "test case")). The harness, the adapter or the transport failed, so nothing was decided there.")
            }
            if let count = cases[.undefined], count > 0 {
                lines.append("Undefined: \(TextEscaping.count(count, "test case")). A step matches no step definition: a defect in the criterion file.")
            }
            if let count = cases[.notVerified], count > 0 {
                lines.append("Not verified: \(TextEscaping.count(count, "test case")). A capability or target was missing; not verified is not a pass.")
            }
            let gaps = model.gaps
            if !gaps.isEmpty {
                let relaxed = status == .conformant ? " (accepted by --allow-not-verified)" : ""
                lines.append(
                    brief
                        ? "Gaps\(relaxed): \(gaps.count), listed below."
                        : "Gaps\(relaxed): " + gaps.map { TextEscaping.markdownInline($0.detail) }.joined(separator: "; ") + ".")
            }
            if !model.waivers.problems.isEmpty {
                lines.append(
                    "Waiver problems: \(model.waivers.problems.count), from expired or stale waivers; each makes the run fail by itself (see Waivers).")
            }
            // One paragraph: a trailing backslash is a Markdown line break.
            return lines.enumerated().map { $0.offset < lines.count - 1 ? $0.element + "\\" : $0.element }
        }

        /// `2 passed, 1 failed, 0 waived, …`: every outcome, in report order.
        static func counted(_ counts: [ReportOutcome: Int]) -> String {
            ReportModel.counted(counts)
        }

        /// `3 passed, 1 failed`: only the outcomes that occur.
        static func countedBriefly(_ outcomes: [ReportOutcome]) -> String {
            let counts = ReportModel.count(outcomes)
            let parts = ReportOutcome.allCases.compactMap { counts[$0, default: 0] > 0 ? "\(counts[$0]!) \($0.words)" : nil }
            return parts.isEmpty ? "no test cases" : parts.joined(separator: ", ")
        }

        mutating func matrix(_ model: ReportModel) {
            block("## Criterion × target matrix")
            guard !model.sections.isEmpty else {
                block("The run has no criteria.")
                return
            }
            var lines = [
                "| Criterion | Title | Level | Overall | " + model.targets.map(TextEscaping.markdownInline).joined(separator: " | ") + " |",
                "|---|---|---|:-:|" + String(repeating: ":-:|", count: model.targets.count),
            ]
            for section in model.sections {
                var name = "[\(TextEscaping.markdownInline(section.id.rawValue))](#\(Self.anchor(section.id.rawValue)))"
                if let origin = section.info?.origin, origin != .source { name += " *(\(origin.rawValue))*" }
                let title = section.info.map { TextEscaping.markdownInline($0.title) } ?? "(not described in this run)"
                let level = section.info.map { Self.level($0.level) } ?? "?"
                let warning = !section.gated
                let cells = model.targets.map { target in section.cells[target].map { symbol($0.outcome, warning: warning) } ?? notApplicable }
                lines.append("| \(name) | \(title) | \(level) | \(symbol(section.outcome, warning: warning)) | " + cells.joined(separator: " | ") + " |")
            }
            block(lines)
            block(
                "Legend: " + ReportOutcome.allCases.map { "\(symbol($0)) \(legend($0))" }.joined(separator: " · ")
                    + " · ⚠️ failed below the gate (a warning: it does not change the exit status)"
                    + " · \(notApplicable) the criterion does not apply to the target.")
        }

        mutating func waivers(_ model: ReportModel) {
            let waivers = model.waivers
            block("## Waivers")
            guard waivers.evaluatedOn != nil else {
                block("No waiver file was used: every failure counts.")
                return
            }
            block("Waivers from \(Self.waiverSource(waivers)). A waiver holds through its expiry day.")
            if waivers.entries.isEmpty {
                block("The waiver file lists no waivers.")
            } else {
                var lines = ["| Waiver | Status | Waived test cases | Owner | Expires | Reason |", "|---|---|--:|---|---|---|"]
                for entry in waivers.entries {
                    lines.append(
                        "| \(TextEscaping.markdownCode(entry.waiver.id, inTable: true)) | \(Self.status(entry.status)) | \(entry.waivedTestCaseIDs.count) | "
                            + "\(TextEscaping.markdownInline(entry.waiver.owner)) | \(entry.waiver.expires) | \(TextEscaping.markdownInline(entry.waiver.reason)) |"
                    )
                }
                block(lines)
            }
            if waivers.problems.isEmpty {
                block("No waiver problems.")
            } else {
                block(
                    ["Waiver problems (each makes the run fail):", ""]
                        + waivers.problems.map {
                            "- **\($0.kind.rawValue)** \(TextEscaping.markdownCode($0.waiver.id)): \(TextEscaping.markdownInline($0.message))"
                        })
            }
        }

        static func status(_ status: WaiverEvaluation.Status) -> String {
            switch status {
            case .active: "active"
            case .expired: "**expired**"
            case .stale: "**stale** (the failure no longer happens)"
            case .notExercised: "not exercised in this run"
            }
        }

        static func level(_ level: CriterionInfo.Level) -> String {
            switch level {
            case .core: "Core"
            case .quality: "Quality"
            }
        }

        /// The HTML id of a criterion's section: its id with anything but letters, digits, `.`, `-`
        /// and `_` replaced by `-`.
        static func anchor(_ id: String) -> String {
            String(
                id.unicodeScalars.map { scalar -> Character in
                    let allowed =
                        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar)
                    return allowed ? Character(scalar) : "-"
                })
        }
    }
}
