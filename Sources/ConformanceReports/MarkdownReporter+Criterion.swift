import ConformanceModel

extension MarkdownReporter.Document {
    typealias Reporter = MarkdownReporter

    /// One criterion: what it says, how it was verified, its verdict per target, and every test
    /// case that did not pass.
    mutating func criterion(_ section: ReportModel.Section, in model: ReportModel) {
        block("<a id=\"\(Self.anchor(section.id.rawValue))\"></a>")
        guard let info = section.info else {
            block("## \(TextEscaping.markdownInline(section.id.rawValue)) (not described in this run)")
            block("**Verdict: \(Reporter.labelled(section.outcome))**. The run has test cases for this criterion but no description of it.")
            perTarget(section, in: model)
            cases(section, in: model)
            return
        }
        block("## \(TextEscaping.markdownInline(section.id.rawValue)) — \(TextEscaping.markdownInline(info.title))")
        var facts = "**Verdict: \(Reporter.labelled(section.outcome))**"
        if section.outcome != ReportOutcome(section.verdict, waived: false) { facts += " (run verdict: \(section.verdict.rawValue))" }
        facts += " · Level: \(Self.level(info.level)) · Group: \(TextEscaping.markdownInline(info.group))"
        let origin =
            switch info.origin {
            case .source: "**Source criterion:** numbered by the source document."
            case .derived: "**Derived criterion:** the harness derives it from the source's text; it is not one of the source's numbered criteria."
            case .recommendation:
                "**Recommendation:** from another standard, next to the source; outside the default gate (`run --level recommendation` includes it)."
            }
        block(
            facts + "\\", origin + "\\", "**Source:** \(TextEscaping.markdownInline(info.source))\\",
            "**Criterion file:** \(TextEscaping.markdownCode(info.file))")
        block("**Statement.** \(info.statement)")
        if !info.references.isEmpty {
            block(["**References:**", ""] + info.references.map { "- \(TextEscaping.markdownInline($0))" })
        }
        verification(info, section, in: model)
        perTarget(section, in: model)
        cases(section, in: model)
    }

    /// The verify items, each with the scenarios that cover it and their verdicts per target.
    private mutating func verification(_ info: CriterionInfo, _ section: ReportModel.Section, in model: ReportModel) {
        block("### How it was verified")
        if !info.verification.isEmpty { block(info.verification) }
        let scenarios = Self.scenarios(section.cases)
        var lines: [String] = []
        for item in info.verifyItems {
            lines.append("- **\(TextEscaping.markdownInline(item.id.rawValue))** — \(TextEscaping.markdownInline(item.text))")
            let covering = scenarios.filter { $0.cases[0].result.verifyItems.contains(item.id) }
            if covering.isEmpty {
                lines.append("  - **Not covered:** no scenario of this run covers this item.")
            }
            for scenario in covering { lines.append("  - " + Self.describe(scenario, in: model)) }
        }
        let known = Set(info.verifyItems.map(\.id))
        let untied = scenarios.filter { scenario in !scenario.cases[0].result.verifyItems.contains(where: known.contains) }
        if !untied.isEmpty {
            lines.append("- **Scenarios tied to no verify item of this criterion**")
            for scenario in untied { lines.append("  - " + Self.describe(scenario, in: model)) }
        }
        if lines.isEmpty { lines.append("The criterion lists no verify items and no scenario ran.") }
        block(lines)
    }

    /// A scenario (or outline row): its test cases on the run's targets, in run order.
    struct Scenario {
        package var cases: [ReportModel.Case]
    }

    /// Test cases grouped by scenario name, file and line, in order of first appearance.
    static func scenarios(_ cases: [ReportModel.Case]) -> [Scenario] {
        var order: [String] = []
        var groups: [String: [ReportModel.Case]] = [:]
        for item in cases {
            let key = "\(item.result.file):\(item.result.line):\(item.result.scenario)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(item)
        }
        return order.map { Scenario(cases: groups[$0]!) }
    }

    /// `*Scenario* (`file:line`): apple-18 ✅ passed · android-15 ❌ failed`
    static func describe(_ scenario: Scenario, in model: ReportModel) -> String {
        let first = scenario.cases[0].result
        let verdicts = scenario.cases.map { "\(TextEscaping.markdownInline($0.result.target)) \(Reporter.labelled($0.outcome))" }
        return "*\(TextEscaping.markdownInline(first.scenario))* (\(TextEscaping.markdownCode("\(first.file):\(first.line)"))): "
            + verdicts.joined(separator: " · ")
    }

    /// The verdict on every target of the run, not-applicable ones included.
    private mutating func perTarget(_ section: ReportModel.Section, in model: ReportModel) {
        block("### Verdict per target")
        var lines = ["| Target | Verdict | Test cases |", "|---|---|---|"]
        for target in model.targets {
            let name = TextEscaping.markdownInline(target)
            if let cell = section.cells[target] {
                lines.append("| \(name) | \(Reporter.labelled(cell.outcome)) | \(Self.countedBriefly(section.cases(on: target).map(\.outcome))) |")
            } else {
                lines.append("| \(name) | \(Reporter.notApplicable) | the criterion does not apply to this target |")
            }
        }
        block(lines)
    }

    /// Every test case that did not pass, with its evidence.
    private mutating func cases(_ section: ReportModel.Section, in model: ReportModel) {
        let open = section.cases.filter { $0.outcome != .passed }
        block("### Failures, errors and unverified cases")
        if section.cases.isEmpty {
            block("No test case of this criterion ran.")
            return
        }
        if open.isEmpty {
            block(section.cases.count == 1 ? "None: its one test case passed." : "None: all \(section.cases.count) test cases passed.")
            return
        }
        let groups = model.groups.filter { $0.criterion == section.id }
        block(
            "\(TextEscaping.count(open.count, "test case")) did not pass, for \(TextEscaping.count(groups.count, "cause")). Test cases with the same "
                + "outcome, verify items and message (targets, numbers and ids aside) share a cause; each cause shows the steps and "
                + "transcript of its first test case and lists the others.")
        for group in groups { self.group(group, metadata: model.run.metadata) }
    }

    /// One cause: its test cases, then the evidence of the first.
    private mutating func group(_ group: ReportModel.FailureGroup, metadata: RunMetadata) {
        let item = group.representative
        let label = group.isWarning ? "⚠️ warning (failed below the gate)" : Reporter.labelled(group.outcome)
        block("<a id=\"\(group.id)\"></a>")
        let place =
            group.cases.count == 1
            ? TextEscaping.markdownInline(item.result.target)
            : "\(TextEscaping.count(group.cases.count, "test case")) on \(TextEscaping.count(group.targets.count, "target"))"
        block("#### \(label): \(TextEscaping.markdownInline(item.result.scenario)) · \(place)")
        if group.cases.count > 1 {
            block(
                ["**Test cases of this cause:**", ""]
                    + group.cases.map {
                        "- \(TextEscaping.markdownCode($0.result.id)) (\(TextEscaping.markdownCode("\($0.result.file):\($0.result.line)")))"
                            + ($0.waiver.map { " waived by \(TextEscaping.markdownCode($0.id))" } ?? "")
                    })
            block("**Evidence of the first, \(TextEscaping.markdownCode(item.result.id)):**")
        }
        testCase(item, metadata: metadata)
    }

    private mutating func testCase(_ item: ReportModel.Case, metadata: RunMetadata) {
        let result = item.result
        block(
            [
                "- **Meaning:** " + Self.meaning(item),
                "- **Test case:** \(TextEscaping.markdownCode(result.id))",
                "- **Scenario:** \(TextEscaping.markdownCode("\(result.file):\(result.line)"))",
                "- **Verify items:** "
                    + (result.verifyItems.isEmpty ? "none" : result.verifyItems.map { TextEscaping.markdownInline($0.rawValue) }.joined(separator: ", ")),
                "- **Virtual time:** \(result.virtualMillis) ms",
            ] + Self.typedOutcome(result, runFault: metadata.fault))
        if let waiver = item.waiver {
            block(
                "**Waived by** \(TextEscaping.markdownCode(waiver.id)) (owner \(TextEscaping.markdownInline(waiver.owner)), "
                    + "holds through \(waiver.expires)): \(TextEscaping.markdownInline(waiver.reason))")
        }
        if let message = result.message, !message.isEmpty {
            // One line: a line break in the message (it may quote the adapter) is shown, not kept.
            block("**Why:**", TextEscaping.markdownFence(TextEscaping.visible(message)))
        } else {
            block("**Why:** the run gave no message.")
        }
        // The adapter's standard error line by line; the run's own fault shows it once, at the top.
        if let fault = result.fault, fault != metadata.fault, let lines = ReportNotices.standardErrorLines(fault) {
            block("**The adapter's standard error** (its last lines):", TextEscaping.markdownFence(lines.joined(separator: "\n")))
        }
        if result.steps.contains(where: { $0.status != .passed }) { steps(result.steps) }
        if item.outcome != .notVerified || !result.evidence.isEmpty { evidence(result.evidence) }
        if item.outcome != .notVerified {
            block("Re-run it alone:", TextEscaping.markdownFence(RerunCommand.line(for: result, metadata: metadata), info: "sh"))
        }
    }

    /// The fault's kind, method and excerpt, or the not-verified reason's kind, as list items. An
    /// excerpt of the adapter's standard error is shown apart, line by line (and the run fault's
    /// once, at the top of the report).
    static func typedOutcome(_ result: TestCaseResult, runFault: RunFault? = nil) -> [String] {
        var lines: [String] = []
        if let fault = result.fault {
            lines.append("- **Fault:** \(TextEscaping.markdownCode(fault.kind.rawValue))" + (fault.method.map { " in \(TextEscaping.markdownCode($0))" } ?? ""))
            if let excerpt = fault.excerpt, !excerpt.isEmpty {
                if fault == runFault {
                    lines.append("- **Excerpt:** the run fault's, shown once at the top of the report")
                } else if ReportNotices.standardErrorLines(fault) == nil {
                    lines.append("- **Excerpt:** \(TextEscaping.markdownCode(excerpt))")
                }
            }
        }
        if let reason = result.notVerifiedReason {
            lines.append("- **Not verified:** \(TextEscaping.markdownCode(reason.kind.rawValue)): \(TextEscaping.markdownInline(reason.detail))")
        }
        return lines
    }

    static func meaning(_ item: ReportModel.Case) -> String {
        if item.isWarning {
            return "the relying party broke the criterion; the criterion is below the run's gate, so this is a warning that does not change the exit status."
        }
        return switch item.outcome {
        case .passed: "passed."
        case .failed: "the relying party broke the criterion."
        case .waived: "the relying party broke the criterion; a live waiver accepts this failure for now."
        case .error: "the harness, the adapter or the transport failed; this test case was not decided."
        case .notVerified: "a capability or target the scenario needs is missing; nothing was shown, and this is not a pass."
        case .undefined: "a step matches no step definition (or several): a defect in the criterion file, not a verdict on the relying party."
        }
    }

    private mutating func steps(_ steps: [StepResult]) {
        var lines = ["| Status | Step | Line | Message |", "|---|---|--:|---|"]
        for step in steps {
            let text = TextEscaping.markdownInline(step.keyword.trimmingSpaces() + " " + step.text)
            lines.append("| \(Self.stepStatus(step.status)) | \(text) | \(step.line) | \(TextEscaping.markdownInline(step.message ?? "")) |")
        }
        block(["**Steps:**", ""] + lines)
    }

    static func stepStatus(_ status: StepResult.Status) -> String {
        switch status {
        case .passed: Reporter.labelled(.passed)
        case .failed: Reporter.labelled(.failed)
        case .error: Reporter.labelled(.error)
        case .notVerified: Reporter.labelled(.notVerified)
        case .undefined: Reporter.labelled(.undefined)
        case .skipped: "⏭ skipped"
        }
    }

    private mutating func evidence(_ entries: [TranscriptEntry]) {
        guard !entries.isEmpty else {
            block("**Evidence:** no transcript excerpt was recorded.")
            return
        }
        var lines = [
            "**Evidence** (transcript excerpt; time is virtual, from the start of the test case):", "",
            "| # | Time | Channel | Name | Summary |", "|--:|--:|---|---|---|",
        ]
        for entry in entries {
            lines.append(
                "| \(entry.sequence) | \(entry.atMillis) ms | \(TextEscaping.markdownInline(entry.channel.rawValue)) | "
                    + "\(TextEscaping.markdownCode(entry.name, inTable: true)) | \(TextEscaping.markdownInline(entry.summary)) |")
        }
        block(lines)
    }
}

extension String {
    /// The string without leading and trailing spaces (Gherkin keywords carry a trailing one).
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return String(slice)
    }
}
