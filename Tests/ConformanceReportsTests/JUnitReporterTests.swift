import ConformanceKit
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing

@Suite("JUnit XML reporter")
struct JUnitReporterTests {
    let xml = JUnitReporter.render(ReportFixtures.run, waivers: ReportFixtures.waivers)

    func parse(_ text: String) throws -> XMLElement {
        let document = try XMLDocument(data: Data(text.utf8), options: [])
        return try #require(document.rootElement())
    }

    func attributes(_ element: XMLElement, _ names: [String]) -> [String] {
        names.map { element.attribute(forName: $0)?.stringValue ?? "∅" }
    }

    @Test("a well-formed document: one suite per criterion with counts and times")
    func suites() throws {
        // The declaration, the statement that the platforms are simulated (a comment), then the suites.
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Every platform in this report is SIMULATED:"))
        // The totals count the gate test case of the run's exit status 2 (one more test and error).
        #expect(xml.contains(" -->\n<testsuites name=\"passkey-conformance\" tests=\"15\" failures=\"1\" errors=\"3\" skipped=\"2\" time=\"1.250\">\n"))
        let root = try parse(xml)
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        #expect(
            suites.map { $0.attribute(forName: "name")?.stringValue } == [
                "N2.6-AC01", "N2.6-AC04", "N2.6-X01", "N3.2-AC01", "N3.2-AC02", "passkey-conformance.run",
            ])
        let counts = ["tests", "failures", "errors", "skipped", "time"]
        #expect(
            suites.map { attributes($0, counts) } == [
                ["6", "1", "0", "0", "0.033"], ["3", "0", "0", "1", "0.012"], ["2", "0", "0", "0", "0.008"],
                ["2", "0", "1", "1", "0.008"], ["1", "0", "1", "0", "0.004"], ["1", "0", "1", "0", "0.000"],
            ])
        let properties = suites[0].elements(forName: "properties").first?.elements(forName: "property") ?? []
        let named = Dictionary(
            uniqueKeysWithValues: properties.map { ($0.attribute(forName: "name")!.stringValue!, $0.attribute(forName: "value")!.stringValue!) })
        #expect(named["seed"] == "18446744073709551557")
        #expect(named["criterion.title"] == "No conditional registration before the complete sign-in policy")
        #expect(named["criterion.outcome"] == "failed")
        #expect(named["adapter"] == "reference-rp 1.2.0 (in-process)")
    }

    @Test("test cases: classname <criterion>.<target>, the scenario as name, unique pairs")
    func testCases() throws {
        let root = try parse(xml)
        let cases = root.elements(forName: "testsuite").filter { $0.attribute(forName: "name")?.stringValue != JUnitReporter.runSuiteName }
            .flatMap { $0.elements(forName: "testcase") }
        #expect(cases.count == 14)
        let pairs = cases.map { attributes($0, ["classname", "name"]) }
        #expect(Set(pairs.map { $0.joined(separator: "|") }).count == 14)
        #expect(
            pairs.prefix(3) == [
                ["N2_6-AC01.apple-18", "Second factor pending"], ["N2_6-AC01.android-15-gpm", "Second factor pending"],
                ["N2_6-AC01.apple-18", "Second factor outcome wrong"],
            ])
        #expect(cases[1].attribute(forName: "time")?.stringValue == "0.013")
    }

    func testCase(_ classname: String, _ name: String) throws -> XMLElement {
        let root = try parse(xml)
        let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        return try #require(cases.first { attributes($0, ["classname", "name"]) == [classname, name] })
    }

    @Test("failed: <failure type=\"failed\"> with the message and the evidence")
    func failure() throws {
        let item = try testCase("N2_6-AC01.android-15-gpm", "Second factor pending")
        let failure = try #require(item.elements(forName: "failure").first)
        #expect(attributes(failure, ["type", "message"]) == ["failed", "a conditional registration request was made before the second factor"])
        #expect(
            failure.stringValue == """
                a conditional registration request was made before the second factor
                Test case: N2.6-AC01/second-factor-pending@android-15-gpm
                Scenario: N2.6/AC01-complete-sign-in.feature:9
                Verify items: N2.6-AC01.V1
                Step failed: Then no conditional registration request is made (line 12): 1 request was made
                Evidence (virtual time since the test case started):
                  #3 120 ms harness→rp user.password-sign-in: alice signs in with a password
                  #4 125 ms rp→platform platform.createCredential: conditional create <isConditional=true> & "excludeCredentials" | 0 ids
                  #5 125 ms step assert.no-request: expected no request before the second factor
                Re-run: swift run passkey-conformance run --criterion N2.6-AC01 --target android-15-gpm --seed 18446744073709551557 --scenario "Second factor pending"
                """)
        #expect(item.children?.map(\.name) == ["properties", "failure"])
    }

    @Test("error and undefined: <error> with their own type; not verified and waived: <skipped>")
    func otherOutcomes() throws {
        let error = try #require(try testCase("N3_2-AC01.android-15-gpm", "Signal API available").elements(forName: "error").first)
        #expect(attributes(error, ["type", "message"]) == ["error", "the adapter process exited with signal 11"])
        #expect(error.stringValue?.contains("#2 40 ms harness→rp adapter.exit: adapter exited: \\u{1B}[31mSIGSEGV\\u{1B}[0m") == true)

        let undefined = try #require(try testCase("N3_2-AC02.android-15-gpm", "Absent credential id").elements(forName: "error").first)
        #expect(attributes(undefined, ["type", "message"]) == ["undefined", "undefined: no step definition matches \"the user waves\""])

        let notVerified = try #require(try testCase("N3_2-AC01.apple-18", "Signal API available").elements(forName: "skipped").first)
        #expect(notVerified.attribute(forName: "message")?.stringValue == "not verified: the adapter does not declare the capability signals")
        #expect(notVerified.stringValue?.contains("Re-run") == false)

        let waived = try #require(try testCase("N2_6-AC04.apple-17_4", "Known ids in the excluded-credentials list").elements(forName: "skipped").first)
        #expect(
            waived.attribute(forName: "message")?.stringValue
                == "waived: exclusion list ships in 4.2 (waiver N2.6-AC04@apple-17.4, owner ios-team, expires 2026-03-31)")
        #expect(waived.stringValue?.contains("#7 300 ms rp→platform platform.createCredential: excludedCredentials: 1 of 3 known ids") == true)

        let passed = try testCase("N2_6-X01.apple-18", "UP=0 and UV=0 accepted")
        #expect(passed.childCount == 0)
    }

    @Test("without waivers the waived failure is a failure again")
    func unwaived() throws {
        let text = JUnitReporter.render(ReportFixtures.run)
        #expect(text.contains("<testsuites name=\"passkey-conformance\" tests=\"15\" failures=\"2\" errors=\"3\" skipped=\"1\" time=\"1.250\">"))
        #expect(text.contains("<testsuite name=\"N2.6-AC04\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.012\">"))
    }

    /// The gate test case of a report, if it has one: its element (`failure` or `error`), type, message and text.
    func gate(_ text: String) throws -> (element: String, type: String, message: String, text: String)? {
        let root = try parse(text)
        guard let suite = root.elements(forName: "testsuite").first(where: { $0.attribute(forName: "name")?.stringValue == JUnitReporter.runSuiteName })
        else { return nil }
        let cases = suite.elements(forName: "testcase")
        try #require(cases.count == 1)
        #expect(attributes(cases[0], ["classname", "name"]) == ["passkey-conformance.run.gate", "run"])
        let element = try #require(cases[0].children?.compactMap { $0 as? XMLElement }.first)
        return (
            element.name ?? "", element.attribute(forName: "type")?.stringValue ?? "", element.attribute(forName: "message")?.stringValue ?? "",
            element.stringValue ?? ""
        )
    }

    /// Every test case passed except N2.6-AC04 on apple-17.4, which a live waiver accepts; the
    /// fixture waivers also hold one for N2.6-X01, which no longer fails: a stale waiver.
    static var waivedAndStale: (RunResult, WaiverEvaluation) {
        let cases = ReportFixtures.cases.map { item in
            var copy = item
            if item.id != "N2.6-AC04/apple-exclusion@apple-17.4" { copy.outcome = TestCaseOutcome(verdict: .passed, message: nil) }
            return copy
        }
        let run = ReportFixtures.makeRun(
            criteria: [ReportFixtures.ac01, ReportFixtures.ac04, ReportFixtures.x01, ReportFixtures.signals, ReportFixtures.ac02], cases: cases)
        let waivers = WaiverFile(
            path: "waivers.json",
            waivers: [
                ReportFixtures.waiver("N2.6-AC04", "apple-17.4"),
                ReportFixtures.waiver("N2.6-X01", "*", expires: "2026-02-01", owner: "server-team", reason: "UV check fix in review"),
            ]
        ).evaluate(against: run, today: ReportFixtures.today)
        return (run, waivers)
    }

    @Test("a waiver problem fails the JUnit report too: a run whose test cases are all passed or waived gets a failing gate test case")
    func waiverProblemGate() throws {
        let (run, waivers) = Self.waivedAndStale
        #expect(ExitStatus.for(run, waivers) == .nonConformant)
        let text = JUnitReporter.render(run, waivers: waivers)
        #expect(text.contains("<testsuites name=\"passkey-conformance\" tests=\"15\" failures=\"1\" errors=\"0\" skipped=\"1\""))
        let gate = try #require(try gate(text), "exit status 1 has no gate test case: a CI view of the JUnit report would be green")
        #expect(gate.element == "failure")
        #expect(gate.type == "nonConformant")
        #expect(gate.message == "not conformant: 1 waiver problem(s): N2.6-X01@* stale")
        #expect(
            gate.text == """
                exit status 1
                1 waiver problem(s): N2.6-X01@* stale
                  N2.6-X01@*: N2.6-X01 no longer fails on any target (2 test cases ran, none failed); remove the waiver (owner server-team).
                """)
    }

    /// Runs of every exit status, each with the gate test case it must have: element, type and the start of its message.
    static let statuses: [(name: String, run: RunResult, waivers: WaiverEvaluation, gate: (String, String, String)?)] = [
        ("conformant", ReportFixtures.run(replacing: [.failed: .passed, .error: .passed, .undefined: .passed]), .none, nil),
        (
            "failed test cases alone", ReportFixtures.run(replacing: [.error: .passed, .undefined: .passed]), .none,
            ("failure", "nonConformant", "not conformant: 2 failed test cases that no live waiver accepts")
        ),
        ("a waiver problem alone", waivedAndStale.0, waivedAndStale.1, ("failure", "nonConformant", "not conformant: 1 waiver problem(s): N2.6-X01@* stale")),
        (
            "error and undefined test cases", ReportFixtures.run(replacing: [.failed: .passed]), .none,
            ("error", "harnessError", "not decided: 1 test case ended error: the harness, the adapter or the transport failed; 1 test case ended undefined")
        ),
        (
            "a run that could not start",
            {
                var run = ReportFixtures.run(replacing: [.failed: .passed, .undefined: .passed])
                run.metadata.fault = RunFault(kind: .launchFailed, message: "no such file", method: "adapter.hello", excerpt: "stderr: sh: 1: nope: not found")
                return run
            }(), .none, ("error", "fault", "the adapter failed before the run: no such file")
        ),
        (
            "gaps", GateAndJUnitTests.qualityFailure(gate: nil, verdict: .notVerified), .none,
            ("failure", "incomplete", "incomplete: 1 gap(s): unverified N3.2-AC02.V1")
        ),
        (
            "an interruption",
            {
                var run = ReportFixtures.run
                run.metadata.interruption = .sigterm
                return run
            }(), .none, ("error", "terminated", "terminated by SIGTERM: the report is partial (14 test cases ran)")
        ),
    ]

    @Test("every exit status but 0 has exactly one failing gate test case, of the status's type, naming its reasons", arguments: statuses.indices)
    func gateForEveryStatus(index: Int) throws {
        let item = Self.statuses[index]
        let decision = ExitStatus.Decision(item.run, waivers: item.waivers)
        #expect(decision.status == ExitStatus.for(item.run, item.waivers))
        #expect((decision.status == .conformant) == decision.reasons.isEmpty, "\(item.name)")
        let gate = try gate(JUnitReporter.render(item.run, waivers: item.waivers))
        guard let expected = item.gate else {
            #expect(gate == nil, "\(item.name): exit status 0 has no gate test case")
            return
        }
        let found = try #require(gate, "\(item.name): exit status \(decision.status.rawValue) has no gate test case")
        #expect(found.element == expected.0, "\(item.name)")
        #expect(found.type == expected.1, "\(item.name)")
        #expect(found.message.hasPrefix(expected.2), "\(item.name): \(found.message)")
        #expect(found.text.hasPrefix("exit status \(decision.status.rawValue)\n"), "\(item.name): \(found.text)")
        for reason in decision.reasons {
            #expect(found.message.contains(reason.summary), "\(item.name): the message names every reason")
            for line in reason.items { #expect(found.text.contains("  " + line), "\(item.name): the text lists \(line)") }
        }
    }

    @Test("outline rows that share a name get the line, then a counter, to stay unique")
    func duplicateNames() throws {
        let info = ReportFixtures.ac01
        let cases = [20, 21, 21].enumerated().map { index, line in
            ReportFixtures.testCase(info, "outline/\(index)", "Second factor outcome", line: line, items: [], target: "apple-18", verdict: .passed)
        }
        let run = ReportFixtures.makeRun(criteria: [info], cases: cases)
        let root = try parse(JUnitReporter.render(run))
        let names = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }.map { $0.attribute(forName: "name")?.stringValue }
        #expect(names == ["Second factor outcome", "Second factor outcome (line 21)", "Second factor outcome (line 21, 2)"])
    }

    @Test("every character XML 1.0 forbids is made visible; markup characters are escaped")
    func escaping() throws {
        var run = ReportFixtures.run
        let nasty = "a\u{0}b\u{8}c\u{B}d\u{C}e\u{1F}f\u{FFFE}g\u{FFFF}h <&>\"' \t\r\nend"
        run.testCases[1].outcome = run.testCases[1].outcome.replacingMessage(nasty)
        run.testCases[1].scenario = "Row <\"&'> \u{1}"
        let text = JUnitReporter.render(run)
        let root = try parse(text)
        let item = try #require(root.elements(forName: "testsuite").first?.elements(forName: "testcase")[1])
        #expect(item.attribute(forName: "name")?.stringValue == "Row <\"&'> \\u{1}")
        let failure = try #require(item.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == "a\\u{0}b\\u{8}c\\u{B}d\\u{C}e\\u{1F}f\\u{FFFE}g\\u{FFFF}h <&>\"' \t\r\nend")
        #expect(failure.stringValue?.hasPrefix("a\\u{0}b\\u{8}c\\u{B}d\\u{C}e\\u{1F}f\\u{FFFE}g\\u{FFFF}h <&>\"' \t") == true)
        #expect(!text.unicodeScalars.contains { !TextEscaping.isXMLCharacter($0) })
    }

    @Test(
        "seconds with three decimals, never negative or non-finite",
        arguments: [
            (0.0, "0.000"), (0.0004, "0.000"), (0.0005, "0.001"), (1.25, "1.250"), (12.3456, "12.346"), (-1.0, "0.000"),
            (Double.nan, "0.000"), (Double.infinity, "0.000"), (86_400.5, "86400.500"),
        ])
    func seconds(value: Double, text: String) {
        #expect(ReportModel.seconds(value) == text)
    }
}
