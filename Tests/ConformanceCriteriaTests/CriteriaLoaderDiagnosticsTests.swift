import ConformanceCriteria
import ConformanceModel
import Foundation
import TestSupportCore
import Testing

/// Every kind of defect a criterion file can have, each in a small broken file under
/// `Fixtures/broken/<kind>/`, with the exact `file:line:col: error: message` line it must produce.
@Suite("Criteria loader diagnostics")
struct CriteriaLoaderDiagnosticsTests {
    static let broken = PackagePaths.fixtures("ConformanceCriteriaTests").appendingPathComponent("broken").path

    /// The fixture file of a kind.
    static func file(_ kind: String, _ name: String = "N9.9-AC01.feature") -> String { "\(broken)/\(kind)/\(name)" }

    struct Defect: Sendable, CustomTestStringConvertible {
        /// The fixture directory below `broken/`.
        var kind: String
        /// The diagnostics expected from loading that directory, as `file:line:col: severity: message`.
        var expected: [String]
        var testDescription: String { kind }
    }

    static func error(_ kind: String, _ line: Int, _ column: Int, _ message: String, file name: String = "N9.9-AC01.feature") -> String {
        "\(file(kind, name)):\(line):\(column): error: \(message)"
    }

    static let capabilities = Capability.allCases.map(\.rawValue).joined(separator: ", ")
    static let features = Target.Feature.allCases.map(\.rawValue).joined(separator: ", ")

    static let defects: [Defect] = [
        Defect(
            kind: "gherkin-syntax",
            expected: [
                error(
                    "gherkin-syntax", 18, 5,
                    "expected: #EOF, #TableRow, #DocStringSeparator, #StepLine, #TagLine, #ExamplesLine, #ScenarioLine, #RuleLine, #Comment, #Empty, got 'this line is not a step'"
                )
            ]),
        Defect(kind: "no-feature", expected: [error("no-feature", 1, 1, "the file has no Feature")]),
        Defect(kind: "missing-criterion", expected: [error("missing-criterion", 3, 1, "the feature has no @criterion:<id> tag")]),
        Defect(
            kind: "id-mismatch",
            expected: [
                error("id-mismatch", 2, 25, "criterion id N9.9-AC02 does not match the file name N9.9-AC01.feature")
            ]),
        Defect(
            kind: "duplicate-id",
            expected: [
                // The second file's @criterion tag (line 2, after the comment) is where the duplicate is declared.
                "\(file("duplicate-id", "second/N9.9-AC01.feature")):2:1: error: duplicate criterion id N9.9-AC01: also declared in \(file("duplicate-id", "first/N9.9-AC01.feature"))"
            ]),
        Defect(kind: "missing-level", expected: [error("missing-level", 3, 1, "the feature has no @level:core or @level:quality tag")]),
        Defect(kind: "unknown-level", expected: [error("unknown-level", 2, 22, #"unknown level "essential" (use core or quality)"#)]),
        Defect(kind: "missing-group", expected: [error("missing-group", 3, 1, "the feature has no @group:<group> tag")]),
        Defect(kind: "wrong-group", expected: [error("wrong-group", 2, 34, "criterion N9.9-AC01 is not in its declared group N9.8")]),
        Defect(kind: "missing-section", expected: [error("missing-section", 3, 1, #"the description has no "Verification:" section"#)]),
        Defect(
            kind: "verify-unknown-item",
            expected: [
                error("verify-unknown-item", 19, 3, "@verify names N9.9-AC01.V7, which is not an item of N9.9-AC01's Items section")
            ]),
        Defect(kind: "uncovered-item", expected: [error("uncovered-item", 3, 1, "verify item N9.9-AC01.V2 is covered by no scenario")]),
        Defect(
            kind: "unknown-requires",
            expected: [
                error("unknown-requires", 13, 24, #"unknown target feature "teleportation" in @requires:teleportation; known: \#(features)"#)
            ]),
        Defect(
            kind: "unknown-platform",
            expected: [
                error("unknown-platform", 13, 24, #"unknown platform "windows" in @platform:windows; use apple or android"#)
            ]),
        Defect(
            kind: "unknown-needs",
            expected: [
                error("unknown-needs", 13, 24, #"unknown capability "telepathy" in @needs:telepathy; known: \#(capabilities)"#)
            ]),
        Defect(
            kind: "unknown-requires-on-feature",
            expected: [
                error("unknown-requires-on-feature", 2, 46, #"unknown target feature "teleportation" in @requires:teleportation; known: \#(features)"#)
            ]),
        Defect(
            kind: "bad-argument",
            expected: [
                error(
                    "bad-argument", 15, 5,
                    #"step "an account "alice" with the sign-in policy "password maybe"": "password maybe" is not one of "password only", "password and second factor""#
                ),
                error(
                    "bad-argument", 16, 5,
                    #"step "the authenticator reports the flags "UP=2 UV=0 BE=0 BS=0"": flags must read like "UP=0 UV=0 BE=1 BS=1", found "UP=2""#),
            ]),
        Defect(
            kind: "undefined-step",
            expected: [
                error("undefined-step", 16, 5, #"no step definition matches "the user signs in as "alice" by shouting the password""#)
            ]),
        Defect(
            kind: "undefined-step-in-background",
            expected: [
                error("undefined-step-in-background", 15, 5, #"no step definition matches "the moon is full""#)
            ]),
        Defect(
            kind: "no-target",
            expected: [
                error(
                    "no-target", 14, 3,
                    #"scenario "An Apple device with the Android signal API" applies to no target: its @platform and @requires tags exclude every target"#)
            ]),
        Defect(
            kind: "no-verify",
            expected: [
                error("no-verify", 19, 3, #"scenario "A scenario covering nothing" has no @verify tag naming the verify item it covers"#)
            ]),
        Defect(kind: "invalid-utf8", expected: [error("invalid-utf8", 1, 1, "the file is not valid UTF-8")]),
    ]

    @Test("each defect gives exactly its own diagnostic, at the right file, line and column", arguments: defects)
    func defect(_ defect: Defect) {
        let result = CriteriaLoader().load(root: "\(Self.broken)/\(defect.kind)")
        #expect(result.diagnostics.map(\.description) == defect.expected)
        #expect(result.hasErrors)
    }

    @Test("a step that two definitions match names both patterns")
    func ambiguousStep() {
        let matcher = StepTable.fixtureSteps.with(["the user waves 3 times": .ambiguous(["the user waves {int} times", "the user waves {word} times"])])
        let result = CriteriaLoader(matcher: matcher).load(root: "\(Self.broken)/ambiguous-step")
        #expect(
            result.diagnostics.map(\.description) == [
                Self.error(
                    "ambiguous-step", 15, 5, #"2 step definitions match "the user waves 3 times": "the user waves {int} times", "the user waves {word} times""#)
            ])
    }

    @Test("the ambiguous fixture loads cleanly with one definition, so only the overlap is its defect")
    func ambiguousFixtureControl() {
        let matcher = StepTable.fixtureSteps.with(["the user waves 3 times": .defined])
        let result = CriteriaLoader(matcher: matcher).load(root: "\(Self.broken)/ambiguous-step")
        #expect(result.diagnostics.isEmpty)
        #expect(result.criteria.map(\.info.id) == ["N9.9-AC01"])
    }

    @Test("a file whose bytes cannot be read is reported, and the other files still load")
    func unreadableBytes() throws {
        let good = CriterionText.criterion(id: "N9.9-AC02", scenarios: [.init("It passes", steps: ["Then no passkey registration request has been issued"])])
        let result = CriteriaLoader().load(sources: [("crit/N9.9-AC01.feature", nil), ("crit/N9.9-AC02.feature", Data(good.utf8))])
        #expect(result.diagnostics.map(\.description) == ["crit/N9.9-AC01.feature:1:1: error: the file cannot be read"])
        #expect(result.criteria.map(\.info.id) == ["N9.9-AC02"])
    }

    @Test("a directory named like a criterion file is reported as unreadable")
    func directoryNamedFeature() throws {
        let root = try PackagePaths.temporaryDirectory("unreadable")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("N9.9-AC01.feature"), withIntermediateDirectories: false)
        let result = CriteriaLoader().load(root: root.path)
        #expect(result.diagnostics.map(\.description) == ["\(root.path)/N9.9-AC01.feature:1:1: error: the file cannot be read"])
    }

    @Test("a criteria root that does not exist is one diagnostic, not a crash")
    func missingRoot() {
        let result = CriteriaLoader().load(root: "/nonexistent/criteria")
        #expect(result.diagnostics.map(\.description) == ["/nonexistent/criteria:1:1: error: /nonexistent/criteria: no such file or directory"])
        #expect(result.criteria.isEmpty)
    }

    @Test("one run over a directory of broken files reports every file, sorted by file and line")
    func collectsEveryDefect() throws {
        let result = CriteriaLoader().load(root: Self.broken)
        let files = try CriteriaLoader.featureFiles(at: Self.broken)
        try #require(files.count >= Self.defects.count + 1)
        let reported = Set(result.diagnostics.filter { $0.severity == .error }.map(\.file))
        #expect(reported == Set(files), "files without a diagnostic: \(Set(files).subtracting(reported).sorted())")
        #expect(result.diagnostics == result.diagnostics.sorted())
        #expect(result.files == files)
        // Each kind's own diagnostics are among the directory-wide ones (duplicate ids aside: across
        // the whole directory, every file shares the id N9.9-AC01).
        let all = Set(result.diagnostics.map(\.description))
        for defect in Self.defects where defect.kind != "duplicate-id" {
            for line in defect.expected { #expect(all.contains(line), "missing: \(line)") }
        }
    }

    @Test("the package's own criteria load without a diagnostic, every verify item covered")
    func packageCriteriaAreClean() throws {
        let result = CriterionText.packageCriteria()
        #expect(result.diagnostics.map(\.description) == [])
        try #require(!result.criteria.isEmpty)
        for criterion in result.criteria {
            let covered = Set(criterion.scenarios.flatMap(\.verifyItems))
            #expect(!criterion.info.verifyItems.isEmpty, "\(criterion.info.id) has no verify item")
            for item in criterion.info.verifyItems { #expect(covered.contains(item.id), "\(item.id) is not covered") }
        }
    }

    @Test("the digest depends on every byte and on the paths, and on nothing else")
    func digest() {
        let text = CriterionText.criterion(scenarios: [.init("It passes", steps: ["Then no passkey registration request has been issued"])])
        func digest(_ path: String, _ text: String) -> String {
            CriteriaLoader().load(sources: [(path, Data(text.utf8))], root: "root").digest
        }
        let base = digest("root/N9.9-AC01.feature", text)
        #expect(base.count == 64)
        #expect(digest("root/N9.9-AC01.feature", text) == base)
        #expect(digest("root/N9.9-AC01.feature", text + " ") != base)
        #expect(digest("root/sub/N9.9-AC01.feature", text) != base)
    }
}
