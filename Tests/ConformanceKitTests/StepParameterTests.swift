import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// `{int}` ranges, the argument length bound and linear-time matching: what keeps a criterion file
/// from asking for a negative wait, an overflowing one, or a megabyte-long name.
@Suite("Step parameters")
struct StepParameterTests {
    static func criterion(_ step: String) -> String {
        CriterionText.criterion(scenarios: [.init("One step", steps: ["Then \(step)"])])
    }

    static func diagnostics(_ step: String) -> [String] {
        CriterionText.load([("N9.9-AC01.feature", criterion(step))]).diagnostics.map(\.description)
    }

    @Test("every {int} parameter of the standard library has a range, the default unless declared")
    func everyIntHasARange() {
        for definition in StepLibrary.standard.definitions {
            for parameter in definition.parameters {
                #expect((parameter.kind == .int) == (parameter.range != nil), "\(definition.pattern): \(parameter)")
            }
        }
        let seconds = StepLibrary.standard.definitions.first { $0.pattern.source == "{int} second(s) pass" }
        #expect(seconds?.parameters.first?.range == 0...86_400)
        let count = StepLibrary.standard.definitions.first { $0.pattern.source == "the server holds {int} passkey(s) for {string}" }
        #expect(count?.parameters.map(\.range) == [StepDefinition.defaultIntRange, nil])
    }

    @Test(
        "validate reports an {int} out of its range at the step's location",
        arguments: [
            ("-1 seconds pass", "-1 is out of range for argument 1 ({int}) of \"{int} second(s) pass\": 0…86,400"),
            ("86401 seconds pass", "86401 is out of range for argument 1 ({int}) of \"{int} second(s) pass\": 0…86,400"),
            (
                "9223372036854775807 seconds pass",
                "9223372036854775807 is out of range for argument 1 ({int}) of \"{int} second(s) pass\": 0…86,400"
            ),
            (
                "99999999999999999999 minutes pass",
                "99999999999999999999 is out of range for argument 1 ({int}) of \"{int} minute(s) pass\": 0…1,440"
            ),
        ])
    func outOfRange(step: String, message: String) {
        #expect(Self.diagnostics(step) == ["N9.9-AC01.feature:13:5: error: step \"\(step)\": \(message)"])
    }

    @Test("values at the ends of a range load without a defect", arguments: ["0 seconds pass", "86400 seconds pass", "1440 minutes pass"])
    func inRange(step: String) {
        #expect(Self.diagnostics(step).isEmpty)
    }

    @Test("an argument over the length bound is a defect, and the diagnostic quotes only an excerpt")
    func longArgument() throws {
        let word = String(repeating: "a", count: StepDefinition.maximumArgumentLength + 1)
        let diagnostics = Self.diagnostics("exactly 1 registration requests \(word) been issued")
        let only = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(only.hasPrefix("N9.9-AC01.feature:13:5: error: step \"exactly 1 registration requests aaa"))
        #expect(only.hasSuffix("argument 2 ({word}) is 257 characters long; at most 256 are allowed"))
        #expect(only.count < 400)
        #expect(Self.diagnostics("exactly 1 registration requests \(word.dropLast()) been issued").isEmpty, "256 characters are allowed")
    }

    @Test("ranges print with thousands separators")
    func describeRange() {
        #expect(StepDefinition.describe(0...10_000) == "0…10,000")
        #expect(StepDefinition.describe(-1_000...999) == "-1,000…999")
    }

    /// A backtracking matcher takes quadratic time on these (23 s for a 1 MB word in `validate`);
    /// the automaton reads each character once per live thread. This test checks the answers on
    /// long, adversarial texts; how long matching takes is a benchmark's business, not a unit
    /// test's (a timed assertion fails on a loaded machine and proves nothing on an idle one).
    @Test("long and adversarial texts match correctly")
    func longTexts() {
        let long = String(repeating: "a", count: 200_000)
        #expect(StepPattern("exactly {int} request(s) {word} been issued").match("exactly 1 requests \(long) been issued") == ["1", long])
        #expect(StepPattern("{word}x{int}").match(String(repeating: "x", count: 200_000)) == nil)
        #expect(StepPattern("{word}s are here").match(String(repeating: "s", count: 200_000)) == nil)
    }
}
