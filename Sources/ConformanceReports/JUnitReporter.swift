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
/// When the run as a whole was interrupted, could not start (a fault at launch or `hello`) or is
/// incomplete, a last suite `passkey-conformance.run` holds one test case `run` with an `<error>`
/// of type `interrupted`, `terminated`, `fault` or `incomplete` saying so, so that a CI system that
/// reads only JUnit sees it too.
public enum JUnitReporter {
    /// The report as an XML 1.0 document in UTF-8, ending with a newline.
    public static func render(_ run: RunResult, waivers: WaiverEvaluation = .none) -> String {
        render(ReportModel.withDigest(run, waivers: waivers))
    }

    static func render(_ model: ReportModel) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // What a reader must see first, as comments (a CI system ignores them, a person does not).
        for notice in [ReportNotices.criteria(model.run.metadata), ReportNotices.waiverDate(model.waivers)].compactMap(\.self) {
            xml += "<!-- NOTE: \(comment(notice)) -->\n"
        }
        xml += "<!-- \(comment(ReportFidelity.statement)) \(comment(ReportFidelity.passProves)) \(comment(ReportFidelity.passDoesNotProve)) -->\n"
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
            // What happened to the run as a whole, for a CI system that reads only JUnit: an
            // interruption, a fault before any test case, or a run that verified too little.
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

    /// The run's own problem, when there is one: `interrupted`, `terminated`, `fault` or `incomplete`.
    /// An incomplete run is a `<failure>` (the relying party has not shown enough), the others an
    /// `<error>` (the run itself did not finish).
    static func runIssue(_ model: ReportModel) -> (type: String, message: String, details: String, isFailure: Bool)? {
        let metadata = model.run.metadata
        let exit = "exit status \(model.exitStatus.rawValue)"
        if let signal = metadata.interruption {
            let type = model.exitStatus.name
            return (type, "\(type) by \(signal.rawValue): the report is partial (\(model.run.testCases.count) test cases ran)", exit, false)
        }
        if let fault = metadata.fault {
            var details = [exit, "Fault kind: \(fault.kind.rawValue)"]
            if let method = fault.method { details.append("Fault method: \(method)") }
            if let excerpt = fault.excerpt, !excerpt.isEmpty { details.append("Fault excerpt: \(excerpt)") }
            let what = fault.kind == .criteria ? "the criteria did not load" : "the adapter failed before the run"
            return ("fault", "\(what): \(fault.message)", details.joined(separator: "\n"), false)
        }
        if model.exitStatus == .incomplete {
            let gaps = model.gaps
            let items = gaps.compactMap(\.verifyItem)
            let listed =
                items.isEmpty ? "" : ": unverified " + items.prefix(10).joined(separator: ", ") + (items.count > 10 ? ", … \(items.count - 10) more" : "")
            return (
                "incomplete", "incomplete: \(gaps.count) gap(s)\(listed)",
                ([exit] + gaps.map { "\($0.kind.rawValue): \($0.detail)" }).joined(separator: "\n"), true
            )
        }
        return nil
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
            if let excerpt = fault.excerpt, !excerpt.isEmpty { lines.append("Fault excerpt: \(excerpt)") }
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
    public static func classname(criterion: CriterionID, target: String) -> String {
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
