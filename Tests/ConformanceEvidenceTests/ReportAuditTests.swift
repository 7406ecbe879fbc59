import ConformanceEvidence
import ConformanceKit
@testable import ConformanceEvidence
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing

/// `ReportAudit`: a report judged by its test cases, as `merge` and `verify` read it.
@Suite("Report audit")
struct ReportAuditTests {
    /// The fixture run with every test case as the runner ends one: a failure at its failed step, an
    /// error with its fault, a case not verified with its reason; verdicts folded from them.
    static var run: RunResult {
        let base = ReportFixtures.run
        let cases = base.testCases.map { result -> TestCaseResult in
            var result = result
            let given = StepResult(keyword: "Given ", text: "an account", line: result.line + 1, status: .passed)
            switch result.outcome {
            case .passed: result.steps = [given]
            case .failed(let message):
                result.steps = [given, StepResult(keyword: "Then ", text: "it holds", line: result.line + 2, status: .failed, message: message)]
            case .error(let message, _):
                result.outcome = .error(message: message, fault: RunFault(kind: .adapterError, message: message ?? "adapter exited"))
            case .notVerified(let message, _):
                result.steps = [StepResult(keyword: "Given ", text: "an account", line: result.line + 1, status: .skipped)]
                result.outcome = .notVerified(message: message, reason: NotVerifiedReason(kind: .missingCapability, detail: "signals"))
            case .undefined: break
            }
            return result
        }
        return RunResult.folding(criteria: base.criteria.map(\.criterion), results: cases, metadata: base.metadata, wallSeconds: base.wallSeconds)
    }

    static func bytes(_ run: RunResult = run, waivers: WaiverEvaluation = .none) throws -> Data {
        Data(try JSONReporter.render(run, waivers: waivers))
    }

    /// `text` with its first occurrence of `old` replaced; the test fails when there is none.
    static func replacingFirst(_ old: String, with new: String, in data: Data) throws -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let range = try #require(text.range(of: old), "\(old) is not in the report")
        return Data(text.replacingCharacters(in: range, with: new).utf8)
    }

    /// The report's digest written again over changed bytes: a forger who knows the recipe.
    static func redigested(_ data: Data) throws -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let match = try #require(text.firstMatch(of: /"reportDigest" ?: ?"([0-9a-f]{64})"/))
        let zeroed = text.replacingOccurrences(of: String(match.1), with: JSONReporter.digestPlaceholder)
        return Data(zeroed.replacingOccurrences(of: JSONReporter.digestPlaceholder, with: ReportDigest.sha256Hex(Array(zeroed.utf8))).utf8)
    }

    @Test("a report as the harness writes it has no finding, with and without waivers")
    func untouched() throws {
        #expect(try ReportAudit.audit(try Self.bytes()).findings.isEmpty)
        let run = Self.run
        let failed = try #require(run.testCases.first { $0.verdict == .failed })
        let waivers = WaiverFile(
            path: "waivers.json",
            waivers: [
                Waiver(
                    criterion: failed.criterionID, target: .init(failed.target), reason: "known", owner: "team",
                    expires: try #require(CalendarDate("2030-01-01")))
            ]
        ).evaluate(against: run, today: try #require(CalendarDate("2026-12-01")))
        let audited = try ReportAudit.audit(try Self.bytes(run, waivers: waivers))
        #expect(audited.findings.isEmpty, "\(audited.findings)")
        #expect(audited.waivers == waivers)
    }

    /// The report with its first failed test case turned into a pass (verdict and outcome), its
    /// steps and message left as they were.
    static func flipped(_ data: Data) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var cases = try #require(object["testCases"] as? [[String: Any]])
        let index = try #require(cases.firstIndex { $0["verdict"] as? String == "failed" })
        cases[index]["verdict"] = "passed"
        cases[index]["outcome"] = "passed"
        object["testCases"] = cases
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    @Test("a verdict flipped to passed with its failed step left in place is found, with the stale digest")
    func flippedVerdict() throws {
        let flipped = try Self.flipped(try Self.bytes())
        let findings = try ReportAudit.audit(flipped).findings
        #expect(findings.contains { $0.location == "metadata.reportDigest" }, "\(findings)")
        #expect(findings.contains { $0.message.contains("verdict passed, but step line") }, "\(findings)")
        // The digest written again does not help: the verdict still does not follow from the steps.
        let consistentDigest = try ReportAudit.audit(try Self.redigested(flipped)).findings
        #expect(!consistentDigest.contains { $0.location == "metadata.reportDigest" }, "\(consistentDigest)")
        #expect(consistentDigest.contains { $0.message.contains("verdict passed, but step line") }, "\(consistentDigest)")
    }

    @Test("a summary that does not follow from the test cases is found, naming the member and both values")
    func rewrittenSummary() throws {
        let run = Self.run
        let passed = run.testCases.filter { $0.verdict == .passed }.count
        let edited = try Self.redigested(
            try Self.replacingFirst("\"passed\" : \(passed),", with: "\"passed\" : \(passed + 1),", in: try Self.bytes(run)))
        let findings = try ReportAudit.audit(edited).findings
        #expect(findings.map(\.location) == ["summary.testCases.passed"], "\(findings)")
        #expect(findings.first?.message == "says \(passed + 1); its test cases give \(passed)")
    }

    @Test("the exit status cannot be turned green while a failure stands")
    func exitStatus() throws {
        let edited = try Self.redigested(try Self.replacingFirst(#""exitStatus" : 2,"#, with: #""exitStatus" : 0,"#, in: try Self.bytes()))
        let findings = try ReportAudit.audit(edited).findings
        #expect(findings.map(\.location) == ["summary.exitStatus"], "\(findings)")
    }

    @Test(
        "each verdict is held to its steps",
        arguments: [
            (Verdict.passed, [StepResult.Status.passed, .failed], "verdict passed, but step line 2 ended failed"),
            (.failed, [.passed, .passed], "verdict failed, but no step failed"),
            (.failed, [.passed, .notVerified], "verdict failed, but step line 2 ended notVerified"),
            (.notVerified, [.passed, .failed], "verdict notVerified, but step line 2 ended failed"),
            (.undefined, [.passed, .passed], "verdict undefined, but no step is undefined"),
            (.error, [.passed, .passed], "verdict error, but no step erred and no fault is recorded"),
            (.passed, [.failed, .failed], "2 steps did not pass (lines 1, 2), but a test case ends at its first"),
            (.passed, [.skipped, .passed], "step line 2 ran after a skipped step"),
        ])
    func verdictAgainstSteps(verdict: Verdict, statuses: [StepResult.Status], expected: String) throws {
        let steps = statuses.enumerated().map { StepResult(keyword: "When ", text: "step", line: $0.offset + 1, status: $0.element) }
        let result = TestCaseResult(
            id: "x", criterionID: "N2.6-AC01", scenario: "s", file: "f", line: 1, verifyItems: [], tags: [], target: "apple-18",
            outcome: TestCaseOutcome(verdict: verdict, message: "m"), steps: steps, evidence: [], virtualMillis: 0, wallSeconds: 0)
        #expect(result.verdictInconsistency() == expected)
    }

    @Test("what the runner writes is consistent: a pass, a failure at its step, an error after a failed step with a fault, not verified before any step")
    func runnerShapes() {
        func result(_ outcome: TestCaseOutcome, _ statuses: [StepResult.Status]) -> TestCaseResult {
            TestCaseResult(
                id: "x", criterionID: "N2.6-AC01", scenario: "s", file: "f", line: 1, verifyItems: [], tags: [], target: "apple-18", outcome: outcome,
                steps: statuses.enumerated().map { StepResult(keyword: "When ", text: "step", line: $0.offset + 1, status: $0.element) }, evidence: [],
                virtualMillis: 0, wallSeconds: 0)
        }
        let fault = RunFault(kind: .adapterError, message: "session.close failed")
        #expect(result(.passed, [.passed, .passed]).verdictInconsistency() == nil)
        #expect(result(.failed(message: "m"), [.passed, .failed, .skipped]).verdictInconsistency() == nil)
        #expect(result(.error(message: "m", fault: fault), [.passed, .failed, .skipped]).verdictInconsistency() == nil)
        #expect(result(.error(message: "m", fault: fault), [.skipped, .skipped]).verdictInconsistency() == nil)
        #expect(
            result(.notVerified(message: "m", reason: NotVerifiedReason(kind: .undeclaredTarget, detail: "apple-18")), [.skipped]).verdictInconsistency()
                == nil)
        #expect(result(.failed(message: "explore"), [.passed]).verdictInconsistency(exploration: true) == nil)
    }
}
