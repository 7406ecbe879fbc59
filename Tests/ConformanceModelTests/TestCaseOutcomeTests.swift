import ConformanceModel
import Foundation
import Testing

/// A test case's outcome is one value: its verdict carries exactly its own payload, and it is
/// written as the members `verdict`, `message`, `fault` and `notVerifiedReason` side by side.
@Suite("Test case outcome")
struct TestCaseOutcomeTests {
    static let fault = RunFault(kind: .timeout, message: "no answer", method: "session.perform")
    static let reason = NotVerifiedReason(kind: .missingCapability, detail: "signals")

    static func result(_ outcome: TestCaseOutcome) -> TestCaseResult {
        TestCaseResult(
            id: "N9.9-AC01/s@apple-18", criterionID: "N9.9-AC01", scenario: "S", file: "f.feature", line: 3, verifyItems: ["N9.9-AC01.V1"],
            tags: ["@x"], target: "apple-18", outcome: outcome, steps: [], evidence: [], virtualMillis: 5, wallSeconds: 0, observed: ["o"])
    }

    static func json(_ result: TestCaseResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(result), as: UTF8.self)
    }

    @Test("assembled from a report's members, an outcome keeps only what its verdict carries")
    func assemblyDropsWhatTheVerdictCannotCarry() {
        #expect(TestCaseOutcome(verdict: .passed, message: "m", fault: Self.fault, notVerifiedReason: Self.reason) == .passed)
        #expect(TestCaseOutcome(verdict: .failed, message: "m", fault: Self.fault, notVerifiedReason: Self.reason) == .failed(message: "m"))
        #expect(TestCaseOutcome(verdict: .error, message: "m", fault: Self.fault, notVerifiedReason: Self.reason) == .error(message: "m", fault: Self.fault))
        #expect(
            TestCaseOutcome(verdict: .notVerified, message: nil, fault: Self.fault, notVerifiedReason: Self.reason)
                == .notVerified(message: nil, reason: Self.reason))
        #expect(TestCaseOutcome(verdict: .undefined, message: "m", fault: Self.fault) == .undefined(message: "m"))
        for verdict in Verdict.allCases { #expect(TestCaseOutcome(verdict: verdict, message: "m").verdict == verdict) }
    }

    @Test("the accessors read the payload of the outcome and nothing else")
    func accessors() {
        let error = Self.result(.error(message: "broke", fault: Self.fault))
        #expect(error.verdict == .error && error.message == "broke" && error.fault == Self.fault && error.notVerifiedReason == nil)
        let notVerified = Self.result(.notVerified(message: "lacks", reason: Self.reason))
        #expect(notVerified.fault == nil && notVerified.notVerifiedReason == Self.reason)
        #expect(Self.result(.passed).message == nil)
        #expect(TestCaseOutcome.passed.replacingMessage("ignored") == .passed)
        #expect(TestCaseOutcome.error(message: "a", fault: Self.fault).replacingMessage("b") == .error(message: "b", fault: Self.fault))
    }

    @Test("a result is written with the members it always had, absent ones left out, and reads back equal")
    func codableKeepsTheMembers() throws {
        let head = #"{"criterionID":"N9.9-AC01","evidence":[],"#
        let middle = #""file":"f.feature","id":"N9.9-AC01\/s@apple-18","line":3,"#
        let tail = #""observed":["o"],"scenario":"S","steps":[],"tags":["@x"],"target":"apple-18","#
        let items = #""verifyItems":["N9.9-AC01.V1"],"virtualMillis":5,"wallSeconds":0}"#
        let fault = #""fault":{"kind":"timeout","message":"no answer","method":"session.perform"},"#
        #expect(
            try Self.json(Self.result(.error(message: "broke", fault: Self.fault))) == head + fault + middle + #""message":"broke","# + tail
                + #""verdict":"error","# + items)
        #expect(try Self.json(Self.result(.passed)) == head + middle + tail + #""verdict":"passed","# + items)
        let reason = #""notVerifiedReason":{"detail":"signals","kind":"missingCapability"},"#
        #expect(
            try Self.json(Self.result(.notVerified(message: nil, reason: Self.reason))) == head + middle + reason + tail + #""verdict":"notVerified","# + items)
        for outcome in [
            TestCaseOutcome.passed, .failed(message: "f"), .error(message: nil, fault: Self.fault), .notVerified(message: "n", reason: Self.reason),
        ] {
            let result = Self.result(outcome)
            #expect(try JSONDecoder().decode(TestCaseResult.self, from: JSONEncoder().encode(result)) == result)
        }
    }
}
