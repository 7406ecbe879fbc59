import ConformanceModel

/// Writes a run as one self-contained HTML page (`report.html`): its styles inline, no script, no
/// request to the network, so that it reads the same from a CI artefact, an e-mail or a file system.
///
/// The page leads with the statement that the platforms are simulated and the result (with the
/// run's fault, when it could not start), then shows the criterion × target matrix as a colour grid,
/// the waivers (each with its status, owner, expiry, reason and the test cases it waived, then the
/// waiver problems), each distinct failure once (grouped by cause as in the Markdown report, with
/// the values its test cases observed) with its transcript in a collapsible `<details>` element,
/// the gaps, and what was simulated for each target. Every piece of text from the run is escaped.
package enum HTMLReporter: ReportRenderer {
    /// `html`: one self-contained page, `report.html`.
    static let format = ReportFormat("html", fileNames: ["report.html"])

    static func files(_ model: ReportModel) throws -> [(path: String, bytes: [UInt8])] { [(format.fileName, Array(render(model).utf8))] }

    /// The page as HTML5 text, ending with a newline.
    package static func render(_ run: RunResult, waivers: WaiverEvaluation = .none) -> String {
        render(ReportModel.withDigest(run, waivers: waivers))
    }

    static func render(_ model: ReportModel) -> String {
        var page = Page()
        page.head(model)
        page.result(model)
        page.grid(model)
        page.waivers(model)
        page.failures(model)
        page.gaps(model)
        page.targets(model)
        page.html += "</main>\n</body>\n</html>\n"
        return page.html
    }

    /// The CSS class of an outcome's cell (`o-failed`; `o-warning` for a failure below the gate).
    static func cssClass(_ outcome: ReportOutcome, warning: Bool = false) -> String {
        warning && outcome == .failed ? "o-warning" : "o-\(outcome.rawValue)"
    }

    /// A cell's mark, in characters every common font has (the colour carries the outcome; the
    /// mark keeps it readable without colour): ✓ passed, ✗ failed, W waived, E error, – not
    /// verified, ? undefined, ! a failure below the gate.
    static func mark(_ outcome: ReportOutcome, warning: Bool = false) -> String {
        if warning && outcome == .failed { return "!" }
        return switch outcome {
        case .passed: "✓"
        case .failed: "✗"
        case .waived: "W"
        case .error: "E"
        case .notVerified: "–"
        case .undefined: "?"
        }
    }

    /// A waiver's status in words, the ones that fail the run in bold.
    static func status(_ status: WaiverEvaluation.Status) -> String {
        switch status {
        case .active: "active"
        case .expired: "<strong>expired</strong>"
        case .stale: "<strong>stale</strong> (the failure no longer happens)"
        case .notExercised: "not exercised in this run"
        }
    }

    /// Text escaped for HTML element content and attribute values, with hidden characters made visible.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\n", "\t": escaped.unicodeScalars.append(scalar)
            default:
                if TextEscaping.isHidden(scalar) { escaped += TextEscaping.visible(String(scalar)) } else { escaped.unicodeScalars.append(scalar) }
            }
        }
        return escaped
    }

    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1b1f24;background:#fff}
        main{max-width:1400px;margin:0 auto;padding:16px 24px}
        h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:24px 0 8px;border-bottom:1px solid #d0d7de}
        .notice{border-left:4px solid #bf8700;background:#fff8c5;padding:8px 12px;margin:8px 0}
        .fidelity{border-left:4px solid #0969da;background:#ddf4ff;padding:8px 12px;margin:8px 0}
        .result{font-size:16px;font-weight:600;padding:8px 12px;border-radius:6px;margin:8px 0}
        table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d0d7de;padding:3px 6px;vertical-align:top}
        th{background:#f6f8fa;text-align:left}
        table.grid td.cell{width:26px;height:22px;text-align:center;font-size:12px;padding:0}
        table.grid th.target{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-weight:400;font-size:12px}
        .o-passed{background:#2da44e;color:#fff}.o-failed{background:#cf222e;color:#fff}.o-waived{background:#d4a72c;color:#000}
        .o-error{background:#8250df;color:#fff}.o-notVerified{background:#d0d7de;color:#000}.o-undefined{background:#bc4c00;color:#fff}
        .o-warning{background:#fb8f44;color:#000}.na{background:#fff;color:#8c959f}
        pre{background:#f6f8fa;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap}
        details{margin:4px 0}summary{cursor:pointer}code{font-size:12px}
        .legend span{display:inline-block;padding:1px 8px;margin:2px;border-radius:3px}
        """

    /// The page being written.
    struct Page {
        var html = ""

        mutating func head(_ model: ReportModel) {
            let metadata = model.run.metadata
            html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            html += "<title>Passkey conformance report: \(escape(metadata.adapter.name)) \(escape(metadata.adapter.version))</title>\n"
            html += "<style>\n\(HTMLReporter.style)\n</style>\n</head>\n<body>\n<main>\n"
            html += "<h1>Passkey conformance report</h1>\n"
            for notice in MarkdownReporter.Document.plainNotices(model) {
                html += "<p class=\"notice\"><strong>\(escape(notice.title)):</strong> \(escape(notice.text))</p>\n"
            }
            let header = ReportFidelity.header(targetIDs: model.targets)
            html += "<div class=\"fidelity\"><p><strong>\(escape(header.title)).</strong> \(escape(header.statement))</p>"
            html += "<p><strong>What a pass proves.</strong> \(escape(header.passProves))</p>"
            html += "<p><strong>What it does not.</strong> \(escape(header.passDoesNotProve))</p></div>\n"
            let adapter = metadata.adapter
            html += "<ul>\n"
            html += "<li><strong>Harness:</strong> \(escape(metadata.harnessVersion)), criteria digest <code>\(escape(metadata.criteriaDigest))</code></li>\n"
            html += "<li><strong>Adapter:</strong> \(escape(adapter.name)) \(escape(adapter.version)) (\(escape(adapter.transport)))"
            if let command = adapter.command { html += ", command <code>\(escape(command))</code>" }
            if let address = adapter.connect { html += ", connected to <code>\(escape(address))</code>" }
            html += "</li>\n<li><strong>Seed:</strong> \(metadata.seed); <strong>started:</strong> \(escape(metadata.startedAt)); "
            html +=
                "<strong>gate:</strong> <code>\(model.gate.rawValue)</code>; <strong>duration:</strong> \(ReportModel.seconds(model.run.wallSeconds)) s wall, "
            html += "\(model.run.virtualMillis) ms virtual</li>\n"
            for (name, value) in JUnitReporter.provenance(model) { html += "<li><strong>\(escape(name)):</strong> <code>\(escape(value))</code></li>\n" }
            html += "</ul>\n"
        }

        package mutating func result(_ model: ReportModel) {
            let status = model.exitStatus
            html += "<p class=\"result \(HTMLReporter.cssClass(model.outcome))\">Result: \(escape(status.headline(model.run, waivers: model.waivers))) "
            html += "(exit status \(status.rawValue))</p>\n"
            let counts = model.caseCounts
            html += "<p>\(model.sections.count) criteria, \(model.cases.count) test cases: "
            html += escape(ReportModel.counted(counts))
            if !model.warnings.isEmpty { html += "; \(model.warnings.count) of the failed are warnings (below the gate)" }
            html += ". Waiver problems: \(model.waivers.problems.count).</p>\n"
            runFault(model.run.metadata)
        }

        /// The run's fault, told once: what failed, the adapter's last standard error lines (each on
        /// its own line) and the first thing to check.
        mutating func runFault(_ metadata: RunMetadata) {
            guard let fault = metadata.fault else { return }
            html += "<p><strong>Run fault:</strong> \(escape(ReportNotices.faultLine(fault))); no test case ran.</p>\n"
            if let lines = ReportNotices.standardErrorLines(fault) {
                html += "<p>The adapter's standard error (its last lines):</p>\n<pre>\(escape(lines.joined(separator: "\n")))</pre>\n"
            }
            if let hint = ReportNotices.faultHint(metadata) { html += "<p><strong>First thing to check:</strong> \(escape(hint))</p>\n" }
        }

        /// Every waiver with its status, owner, expiry, reason and the test cases it waived, then the
        /// waiver problems: the Markdown report's section, in HTML.
        mutating func waivers(_ model: ReportModel) {
            let waivers = model.waivers
            html += "<h2 id=\"waivers\">Waivers</h2>\n"
            guard let day = waivers.evaluatedOn else {
                html += "<p>No waiver file was used: every failure counts.</p>\n"
                return
            }
            let file = waivers.source.map { "<code>\(escape($0))</code>" } ?? "given in code"
            html += "<p>Waivers from \(file), \(TextEscaping.count(waivers.entries.count, "waiver")), evaluated on \(day). "
            html += "A waiver holds through its expiry day.</p>\n"
            if waivers.entries.isEmpty {
                html += "<p>The waiver file lists no waivers.</p>\n"
            } else {
                html += "<table>\n<tr><th>Waiver</th><th>Status</th><th>Owner</th><th>Expires</th><th>Reason</th><th>Waived test cases</th></tr>\n"
                for entry in waivers.entries {
                    let waived = entry.waivedTestCaseIDs
                    let list =
                        waived.isEmpty
                        ? "0"
                        : "<details><summary>\(waived.count)</summary>" + waived.map { "<code>\(escape($0))</code>" }.joined(separator: "<br>")
                            + "</details>"
                    html += "<tr><td><code>\(escape(entry.waiver.id))</code></td>"
                    html += "<td>\(HTMLReporter.status(entry.status))</td><td>\(escape(entry.waiver.owner))</td><td>\(entry.waiver.expires)</td>"
                    html += "<td>\(escape(entry.waiver.reason))</td><td>\(list)</td></tr>\n"
                }
                html += "</table>\n"
            }
            if waivers.problems.isEmpty {
                html += "<p>No waiver problems.</p>\n"
            } else {
                html += "<p>Waiver problems (each makes the run fail):</p>\n<ul>\n"
                for problem in waivers.problems {
                    html += "<li><strong>\(problem.kind.rawValue)</strong> <code>\(escape(problem.waiver.id))</code>: \(escape(problem.message))</li>\n"
                }
                html += "</ul>\n"
            }
        }

        mutating func grid(_ model: ReportModel) {
            html += "<h2 id=\"matrix\">Criterion × target</h2>\n"
            guard !model.sections.isEmpty else {
                html += "<p>The run has no criteria.</p>\n"
                return
            }
            html += "<table class=\"grid\">\n<tr><th>Criterion</th><th>Level</th><th>Overall</th>"
            for target in model.targets {
                html += "<th class=\"target\" title=\"\(escape(ReportFidelity.simulated(targetID: target)))\">\(escape(target))</th>"
            }
            html += "</tr>\n"
            for section in model.sections {
                let warning = !section.gated
                let title = section.info.map(\.title) ?? "(not described in this run)"
                let level = section.info.map { $0.level.rawValue } ?? "?"
                html += "<tr><th title=\"\(escape(title))\">\(escape(section.id.rawValue))</th><td>\(escape(level))\(warning ? " (warns)" : "")</td>"
                html +=
                    "<td class=\"cell \(HTMLReporter.cssClass(section.outcome, warning: warning))\">\(HTMLReporter.mark(section.outcome, warning: warning))</td>"
                for target in model.targets {
                    if let cell = section.cells[target] {
                        let words = warning && cell.outcome == .failed ? "failed below the gate (warning)" : cell.outcome.words
                        html +=
                            "<td class=\"cell \(HTMLReporter.cssClass(cell.outcome, warning: warning))\" title=\"\(escape("\(section.id) on \(target): \(words)"))\">"
                        html += "\(HTMLReporter.mark(cell.outcome, warning: warning))</td>"
                    } else {
                        html += "<td class=\"cell na\" title=\"does not apply\">·</td>"
                    }
                }
                html += "</tr>\n"
            }
            html += "</table>\n<p class=\"legend\">"
            for outcome in ReportOutcome.allCases {
                html += "<span class=\"\(HTMLReporter.cssClass(outcome))\">\(HTMLReporter.mark(outcome)) \(escape(outcome.words))</span>"
            }
            html += "<span class=\"o-warning\">! failed below the gate (warning)</span><span class=\"na\">· does not apply</span></p>\n"
        }

        mutating func failures(_ model: ReportModel) {
            html += "<h2 id=\"failures\">Test cases that did not pass, by cause</h2>\n"
            guard !model.groups.isEmpty else {
                html += "<p>None: every test case passed.</p>\n"
                return
            }
            for group in model.groups {
                let item = group.representative
                let label = group.isWarning ? "warning (failed below the gate)" : group.outcome.words
                html +=
                    "<details id=\"\(group.id)\"><summary><span class=\"\(HTMLReporter.cssClass(group.outcome, warning: group.isWarning))\">&nbsp;\(escape(label))&nbsp;</span> "
                html += "<strong>\(escape(group.criterion.rawValue))</strong> \(escape(group.verifyItems.joined(separator: ", "))): \(escape(group.observed)) "
                html += "(\(group.cases.count) test case\(group.cases.count == 1 ? "" : "s") on \(escape(group.targets.joined(separator: ", "))))</summary>\n"
                html += "<p>Test cases: " + group.cases.map { "<code>\(escape($0.result.id))</code>" }.joined(separator: ", ") + "</p>\n"
                html += "<p>Evidence of <code>\(escape(item.result.id))</code> (<code>\(escape("\(item.result.file):\(item.result.line)"))</code>)</p>\n"
                html += "<pre>\(escape(JUnitReporter.details(item, metadata: model.run.metadata)))</pre>\n</details>\n"
            }
        }

        mutating func gaps(_ model: ReportModel) {
            for (title, gaps) in [("Gaps: what no passed test case shows", model.gaps), ("Gaps below the gate (warnings)", model.warningGaps)]
            where !gaps.isEmpty {
                html += "<h2>\(escape(title)) (\(gaps.count))</h2>\n<details><summary>\(gaps.count) gap\(gaps.count == 1 ? "" : "s")</summary><ul>\n"
                for gap in gaps { html += "<li>\(escape(gap.detail))</li>\n" }
                html += "</ul></details>\n"
            }
        }

        mutating func targets(_ model: ReportModel) {
            html += "<h2 id=\"targets\">Targets (simulated)</h2>\n"
            html +=
                "<p>The facts behind the simulation and their sources: <code>\(escape(ReportFidelity.notes))</code> in the passkey-conformance sources.</p>\n"
            html += "<table>\n<tr><th>Target</th><th>Title</th><th>What was simulated</th></tr>\n"
            for target in model.targets {
                let title = TargetCatalog.target(id: target)?.title ?? "(unknown)"
                html +=
                    "<tr><td><code>\(escape(target))</code></td><td>\(escape(title))</td><td>\(escape(ReportFidelity.simulated(targetID: target)))</td></tr>\n"
            }
            html += "</table>\n"
        }

        func escape(_ text: String) -> String { HTMLReporter.escape(text) }
    }
}
