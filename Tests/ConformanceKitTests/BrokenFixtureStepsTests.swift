import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// The criteria loader's tests judge the broken fixtures' steps with a table of their own; the
/// standard step library must judge those steps the same way, so that the fixtures stay true to
/// the steps the criteria are written in.
@Suite("Standard steps on the broken criterion fixtures")
struct BrokenFixtureStepsTests {
    static let broken = PackagePaths.fixtures("ConformanceCriteriaTests").appendingPathComponent("broken")

    /// Each step text of the fixtures, with the judgement the loader's tests give it.
    static let judgements: [(String, StepCheck)] = [
        (#"an account "alice" with the sign-in policy "password only""#, StepCheck.defined),
        (#"the user signs in as "alice" with the autofilled password"#, .defined),
        (#"the user signs in as "alice" typing the password by hand"#, .defined),
        (#""alice" is signed in"#, .defined),
        ("no passkey registration request has been issued", .defined),
        (
            #"an account "alice" with the sign-in policy "password maybe""#,
            .invalidArguments(#""password maybe" is not one of "password only", "password and second factor""#)
        ),
        (#"the authenticator reports the flags "UP=2 UV=0 BE=0 BS=0""#, .invalidArguments(#"flags must read like "UP=0 UV=0 BE=1 BS=1", found "UP=2""#)),
        (#"the user signs in as "alice" by shouting the password"#, .undefined),
        ("the moon is full", .undefined),
        ("the user waves 3 times", .undefined),
    ]

    @Test("the standard library judges each fixture step as the loader's tests assume", arguments: judgements)
    func judged(_ text: String, _ expected: StepCheck) {
        #expect(StepLibrary.standard.check(text) == expected)
    }

    @Test("every step of the broken fixtures is one of those judged above")
    func everyFixtureStepIsJudged() throws {
        let keywords = /^\s*(?:Given|When|Then|And|But) (.*)$/
        var steps: Set<String> = []
        let walker = try #require(FileManager.default.enumerator(at: Self.broken, includingPropertiesForKeys: nil))
        for case let url as URL in walker where url.pathExtension == "feature" {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }  // the invalid-UTF-8 fixture
            for line in text.split(separator: "\n") { if let match = String(line).wholeMatch(of: keywords) { steps.insert(String(match.1)) } }
        }
        try #require(steps.count > 5, "the fixtures' steps were not found under \(Self.broken.path)")
        #expect(steps.subtracting(Self.judgements.map(\.0)).sorted() == [])
    }
}
