import ConformanceModel

/// Writes a run as JUnit XML for CI systems (`report.junit.xml`).
///
/// One `<testsuite>` per criterion (named by its id), one `<testcase>` per test case with
/// `classname` `<criterion id>.<target>`, dots inside the ids written as `_` (see
/// `classname(criterion:target:)`), `file` and `line` the scenario in its criterion file, and `name`
/// the scenario's name (outline rows include their
/// values; a name that would repeat within a class gets ` (line N)` appended, so every
/// `classname` + `name` pair is unique). Outcomes map to elements as follows:
///
/// | outcome | element |
/// |---|---|
/// | passed | none |
/// | failed | `<failure type="failed" message="…">` with the evidence |
/// | error | `<error type="error" message="…">`: a fault of the harness, adapter or transport |
/// | undefined | `<error type="undefined" message="…">`: a defect in a criterion file |
/// | notVerified | `<skipped message="not verified: …">`, property `notVerified.kind` |
/// | waived | `<skipped message="waived: …">` with the evidence, properties `waiver.*` |
/// | failed below the gate | none (it passes), property `outcome` `warning`, the evidence in `<system-out>` |
///
/// Counts: `failures` counts failed, `errors` counts error and undefined, `skipped` counts not
/// verified and waived; a warning counts only in `tests`. Times are wall seconds with three decimals.
///
/// Every exit status other than 0 has a failing *gate* test case: a last suite
/// `passkey-conformance.run` holds one test case (`classname` `passkey-conformance.run.gate`, `name`
/// `run`) that names every reason for the status (see `ExitStatus.Decision`), so that a CI system
/// that reads only JUnit shows why the job is red, even when every test case is waived or passed:
///
/// | exit status | gate test case |
/// |---|---|
/// | 0 conformant | none |
/// | 1 not conformant | `<failure type="nonConformant" message="not conformant: …">`: the waiver problems (expired, stale) and the failed test cases no live waiver accepts, each listed in the text; present too when failed test cases alone decide the status, so that the rule has no exception |
/// | 2 not decided | `<error type="fault">` when the run could not start (the adapter failed at launch or in `adapter.hello`, or the criteria did not load), with the fault, the adapter's last standard error lines and the first thing to check; else `<error type="harnessError" message="not decided: …">` naming the test cases that ended error or undefined |
/// | 3 incomplete | `<failure type="incomplete" message="incomplete: N gap(s): unverified …">`, every gap in the text |
/// | 129, 130, 143 | `<error type="hangup\|interrupted\|terminated" message="… by SIG…: the report is partial …">` |
///
/// The gate test case counts in the totals of `<testsuites>` (one more test, and one more failure
/// or error).
package enum JUnitReporter: ReportRenderer {
    /// `junit`: JUnit XML for CI systems, `report.junit.xml`.
    static let format = ReportFormat("junit", aliases: ["xml"], fileNames: ["report.junit.xml"])

    static func files(_ model: ReportModel) throws -> [(path: String, bytes: [UInt8])] { [(format.fileName, Array(render(model).utf8))] }

    /// The report as an XML 1.0 document in UTF-8, ending with a newline.
    package static func render(_ run: RunResult, waivers: WaiverEvaluation = .none) -> String {
        render(ReportModel.withDigest(run, waivers: waivers))
    }

    static func render(_ model: ReportModel) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // What a reader must see first, as comments (a CI system ignores them, a person does not).
        for notice in [ReportNotices.criteria(model.run.metadata), ReportNotices.waiverDate(model.waivers)].compactMap(\.self) {
            xml += "<!-- NOTE: \(comment(notice)) -->\n"
        }
        let header = ReportFidelity.header(targetIDs: model.targets)
        xml += "<!-- \(comment(header.statement)) \(comment(header.passProves)) \(comment(header.passDoesNotProve)) -->\n"
        var all = Tally(model.cases)
        let issue = runIssue(model)
        if let issue {
            all.tests += 1
            if issue.isFailure { all.failures += 1 } else { all.errors += 1 }
        }
        xml += "<testsuites name=\"passkey-conformance\"\(all.attributes) time=\"\(ReportModel.seconds(model.run.wallSeconds))\">\n"
        for section in model.sections {
            suite(section, model: model, into: &xml)
        }
        if let issue {
            // Why the exit status is not 0, for a CI system that reads only JUnit: every reason
            // `ExitStatus.Decision` gives, whichever status it is.
            let failures = issue.isFailure ? 1 : 0
            let tag = issue.isFailure ? "failure" : "error"
            xml += "  <testsuite name=\"\(runSuiteName)\" tests=\"1\" failures=\"\(failures)\" errors=\"\(1 - failures)\" skipped=\"0\" time=\"0.000\">\n"
            xml += "    <testcase classname=\"\(runSuiteName).gate\" name=\"run\" time=\"0.000\">\n"
            xml += "      <\(tag) message=\"\(attribute(issue.message))\" type=\"\(issue.type)\">\(TextEscaping.xmlText(issue.details))</\(tag)>\n"
            xml += "    </testcase>\n"
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Text inside an XML comment: no `--`, and characters XML cannot carry made visible.
    static func comment(_ text: String) -> String {
        var escaped = TextEscaping.xmlText(text)
        while escaped.contains("--") { escaped = escaped.replacing("--", with: "-\u{2010}") }
        return escaped.hasSuffix("-") ? escaped + " " : escaped
    }

    /// The name of the extra suite that reports what happened to the run as a whole.
    static let runSuiteName = "passkey-conformance.run"

    /// The gate test case of a run whose exit status is not 0 (`nil` for exit 0): its type, message,
    /// text and whether it is a `<failure>` (exit 1 and 3: the relying party failed or showed too
    /// little) or an `<error>` (exit 2 and the signals: the run could not decide or did not finish).
    ///
    /// Everything comes from `ExitStatus.Decision`, the value the exit status itself is taken from:
    /// the type is the status's name (`nonConformant`, `harnessError`, `incomplete`, `interrupted`,
    /// `terminated`, `hangup`), or `fault` for a run that could not start; the message names every
    /// reason; the text lists what each concerns.
    static func runIssue(_ model: ReportModel) -> (type: String, message: String, details: String, isFailure: Bool)? {
        let decision = model.decision
        let status = decision.status
        guard status != .conformant else { return nil }
        let startFailed = decision.reasons.first?.kind == .runFault
        let type = startFailed ? "fault" : status.name
        let prefix =
            switch status {
            case .nonConformant: "not conformant: "
            case .harnessError: startFailed ? "" : "not decided: "
            case .incomplete: "incomplete: "
            case .conformant, .interrupted, .terminated, .hangup: ""
            }
        let reasons = decision.reasons.map(\.summary)
        let message = reasons.isEmpty ? status.words : prefix + reasons.joined(separator: "; ")
        var lines = ["exit status \(status.rawValue)"]
        for reason in decision.reasons {
            lines.append(reason.summary)
            if reason.kind == .runFault, let fault = model.run.metadata.fault {
                lines.append("  Fault kind: \(fault.kind.rawValue)")
                if let method = fault.method { lines.append("  Fault method: \(method)") }
                if let excerpt = fault.excerpt, !excerpt.isEmpty { lines.append("  Fault excerpt: \(excerpt)") }
                if let hint = ReportNotices.faultHint(model.run.metadata) { lines.append("  First thing to check: \(hint)") }
            }
            lines += reason.items.map { "  " + $0 }
        }
        return (type, message, lines.joined(separator: "\n"), status == .nonConformant || status == .incomplete)
    }

    /// Test case counts in JUnit's terms.
    struct Tally {
        var tests = 0, failures = 0, errors = 0, skipped = 0

        init(_ cases: [ReportModel.Case]) {
            for item in cases {
                tests += 1
                switch item.outcome {
                case .passed: break
                case .failed: if !item.isWarning { failures += 1 }
                case .error, .undefined: errors += 1
                case .notVerified, .waived: skipped += 1
                }
            }
        }

        var attributes: String {
            " tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
        }
    }

    private static func suite(_ section: ReportModel.Section, model: ReportModel, into xml: inout String) {
        let time = section.cases.reduce(0.0) { $0 + ReportModel.finite($1.result.wallSeconds) }
        xml += "  <testsuite name=\"\(attribute(section.id.rawValue))\"\(Tally(section.cases).attributes) time=\"\(ReportModel.seconds(time))\">\n"
        let metadata = model.run.metadata
        var properties: [(String, String)] = []
        if let info = section.info {
            properties += [
                ("criterion.title", info.title), ("criterion.level", info.level.rawValue), ("criterion.group", info.group),
                ("criterion.derived", String(info.derived)), ("criterion.origin", info.origin.rawValue),
            ]
        }
        properties += [
            ("criterion.verdict", section.verdict.rawValue), ("criterion.outcome", section.outcome.rawValue),
            ("harness.version", metadata.harnessVersion), ("criteria.digest", metadata.criteriaDigest),
            ("adapter", "\(metadata.adapter.name) \(metadata.adapter.version) (\(metadata.adapter.transport))"),
            ("seed", String(metadata.seed)), ("startedAt", metadata.startedAt),
        ]
        properties += provenance(model)
        xml += "    <properties>\n"
        for (name, value) in properties {
            xml += "      <property name=\"\(attribute(name))\" value=\"\(attribute(value))\"/>\n"
        }
        xml += "    </properties>\n"
        var used: Set<String> = []
        for item in section.cases {
            let classname = classname(criterion: section.id, target: item.result.target)
            let name = uniqueName(item.result, classname: classname, used: &used)
            testCase(item, classname: classname, name: name, metadata: metadata, into: &xml)
        }
        xml += "  </testsuite>\n"
    }

    /// The scenario name, made unique within its class by the line, then by a counter.
    static func uniqueName(_ result: TestCaseResult, classname: String, used: inout Set<String>) -> String {
        func key(_ name: String) -> String { classname + "\u{0}" + name }
        var name = result.scenario
        if used.contains(key(name)) { name = "\(result.scenario) (line \(result.line))" }
        var counter = 2
        while used.contains(key(name)) {
            name = "\(result.scenario) (line \(result.line), \(counter))"
            counter += 1
        }
        used.insert(key(name))
        return name
    }

    private static func testCase(_ item: ReportModel.Case, classname: String, name: String, metadata: RunMetadata, into xml: inout String) {
        let result = item.result
        let open =
            "    <testcase classname=\"\(attribute(classname))\" name=\"\(attribute(name))\" file=\"\(attribute(result.file))\" "
            + "line=\"\(result.line)\" time=\"\(ReportModel.seconds(result.wallSeconds))\""
        let message = result.message.flatMap { $0.isEmpty ? nil : $0 }
        let element: (tag: String, attributes: String)
        switch item.outcome {
        case .passed:
            xml += open + "/>\n"
            return
        case .failed where item.isWarning:
            // Below the gate: a passed test case that carries the failure as a warning.
            xml += open + ">\n" + properties(item)
            xml +=
                "      <system-out>\(TextEscaping.xmlText("WARNING (below the gate, the run's status is unchanged): " + details(item, metadata: metadata)))</system-out>\n"
            xml += "    </testcase>\n"
            return
        case .failed:
            element = ("failure", "message=\"\(attribute(message ?? "failed"))\" type=\"failed\"")
        case .error:
            element = ("error", "message=\"\(attribute(message ?? "error"))\" type=\"error\"")
        case .undefined:
            element = ("error", "message=\"\(attribute("undefined: " + (message ?? "a step matches no step definition")))\" type=\"undefined\"")
        case .notVerified:
            element = ("skipped", "message=\"\(attribute("not verified: " + (message ?? "a capability or target is missing")))\"")
        case .waived:
            let waiver = item.waiver
            let text =
                "waived: \(waiver?.reason ?? "") (waiver \(waiver?.id ?? "?"), owner \(waiver?.owner ?? "?"), expires \(waiver?.expires.description ?? "?"))"
            element = ("skipped", "message=\"\(attribute(text))\"")
        }
        xml += open + ">\n" + properties(item)
        xml += "      <\(element.tag) \(element.attributes)>\(TextEscaping.xmlText(details(item, metadata: metadata)))</\(element.tag)>\n"
        xml += "    </testcase>\n"
    }

    /// The evidence of a test case that did not pass, as plain text.
    static func details(_ item: ReportModel.Case, metadata: RunMetadata) -> String {
        let result = item.result
        var lines: [String] = []
        if let message = result.message, !message.isEmpty { lines.append(message) }
        if let fault = result.fault {
            lines.append("Fault kind: \(fault.kind.rawValue)")
            if let method = fault.method { lines.append("Fault method: \(method)") }
            if let excerpt = fault.excerpt, !excerpt.isEmpty {
                // The run's own fault is told once, by the gate test case.
                lines.append(fault == metadata.fault ? "Fault excerpt: the run fault's, see \(runSuiteName).gate" : "Fault excerpt: \(excerpt)")
            }
        }
        if let reason = result.notVerifiedReason { lines.append("Not verified (\(reason.kind.rawValue)): \(reason.detail)") }
        lines.append("Test case: \(result.id)")
        lines.append("Scenario: \(result.file):\(result.line)")
        if !result.verifyItems.isEmpty { lines.append("Verify items: \(result.verifyItems.joined(separator: ", "))") }
        if let step = result.steps.first(where: { $0.status != .passed && $0.status != .skipped }) {
            var text = "Step \(step.status.rawValue): \(step.keyword.trimmingSpaces()) \(step.text) (line \(step.line))"
            if let note = step.message, !note.isEmpty { text += ": \(note)" }
            lines.append(text)
        }
        if !result.evidence.isEmpty {
            lines.append("Evidence (virtual time since the test case started):")
            for entry in result.evidence {
                lines.append("  #\(entry.sequence) \(entry.atMillis) ms \(entry.channel.rawValue) \(entry.name): \(entry.summary)")
            }
        }
        if item.outcome != .notVerified {
            lines.append("Re-run: \(RerunCommand.line(for: result, metadata: metadata))")
        }
        return lines.joined(separator: "\n")
    }

    static func attribute(_ text: String) -> String { TextEscaping.xmlAttribute(text) }

    /// `<criterion>.<target>` with every dot inside an id written as `_` (`N2_6-AC01.apple-26_2`):
    /// Jenkins and GitLab take the last dot of a classname as the line between package and class,
    /// so the only dot left is the one between the criterion (package) and the target (class).
    package static func classname(criterion: CriterionID, target: String) -> String {
        undotted(criterion.rawValue) + "." + undotted(target)
    }

    static func undotted(_ id: String) -> String { id.replacing(".", with: "_") }

    /// The test case's own properties, for a test case that did not pass (or passed with a
    /// warning): its outcome (`failed`, `warning`, `waived`, `notVerified`, `error`, `undefined`),
    /// its id, and what tells waived and not verified apart: the waiver, or the reason's kind.
    static func properties(_ item: ReportModel.Case) -> String {
        var pairs: [(String, String)] = [("outcome", item.isWarning ? "warning" : item.outcome.rawValue), ("testCase", item.result.id)]
        if let waiver = item.waiver {
            pairs += [("waiver.id", waiver.id), ("waiver.owner", waiver.owner), ("waiver.expires", waiver.expires.description)]
        }
        if let reason = item.result.notVerifiedReason { pairs += [("notVerified.kind", reason.kind.rawValue), ("notVerified.detail", reason.detail)] }
        if let fault = item.result.fault { pairs.append(("fault.kind", fault.kind.rawValue)) }
        return "      <properties>\n"
            + pairs.map { "        <property name=\"\(attribute($0.0))\" value=\"\(attribute($0.1))\"/>\n" }.joined() + "      </properties>\n"
    }
}
