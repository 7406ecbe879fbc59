import ConformanceModel
import Testing

/// Folding verdicts: a criterion or a run passes only when everything in it passed.
@Suite("Verdicts")
struct VerdictFoldTests {
    @Test(
        "fold: passed only when every verdict passed; otherwise the most severe wins, in any order",
        arguments: [
            ([Verdict](), Verdict.notVerified),
            ([.passed], .passed),
            ([.passed, .passed, .passed], .passed),
            ([.passed, .notVerified], .notVerified),
            ([.notVerified, .passed, .failed], .failed),
            ([.failed, .undefined, .passed], .undefined),
            ([.undefined, .error, .failed, .notVerified], .error),
            ([.error, .passed], .error),
        ])
    func fold(_ verdicts: [Verdict], _ expected: Verdict) {
        #expect(Verdict.fold(verdicts) == expected)
        #expect(Verdict.fold(verdicts.reversed()) == expected)
        #expect(Verdict.fold(verdicts + [.passed]) == (verdicts.isEmpty ? .passed : expected))
    }

    @Test("no verdict but passed ever folds to passed", arguments: Verdict.allCases.filter { $0 != .passed })
    func oneBadApple(_ bad: Verdict) {
        #expect(Verdict.fold([.passed, .passed, bad, .passed]) == bad)
    }
}
