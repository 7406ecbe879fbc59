import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

@Suite("passkey-conformance validate, list, gherkin, selftest", binaryBuilt)
struct InspectionCommandTests {
    @Test("validate on the package's criteria exits 0")
    func validateClean() async throws {
        let result = try await Binary.run(["validate", PackagePaths.criteria.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("0 error(s)"), "\(result)")
    }

    @Test("validate on the broken fixtures exits 1 and prints every diagnostic, one per line")
    func validateBroken() async throws {
        let result = try await Binary.run(["validate", Binary.broken])
        #expect(result.status == 1, "\(result)")
        // The same loader in process finds the diagnostics the binary must print, all of them.
        let files = try CriteriaLoader.featureFiles(at: Binary.broken)
        let expected = CriteriaLoader().load(sources: files.map { ($0, FileManager.default.contents(atPath: $0)) }).diagnostics
        try #require(Set(expected.map(\.file)) == Set(files), "every fixture file has a defect")
        let printed = result.stderr.split(separator: "\n").map(String.init)
        #expect(printed == expected.map(\.description))
        let errors = expected.filter { $0.severity == .error }.count
        #expect(result.stdout.contains("\(files.count) file(s)") && result.stdout.contains("\(errors) error(s)"), "\(result)")
        // Two independent spot checks of exact lines.
        #expect(printed.contains("\(Binary.broken)/unknown-level/N9.9-AC01.feature:2:22: error: unknown level \"essential\" (use core or quality)"))
        #expect(printed.contains("\(Binary.broken)/invalid-utf8/N9.9-AC01.feature:1:1: error: the file is not valid UTF-8"))
    }

    @Test("validate takes several paths and reports a missing one")
    func validateSeveralPaths() async throws {
        let result = try await Binary.run(["validate", "\(Binary.broken)/missing-level", "\(Binary.broken)/missing-group", "/nonexistent/criteria"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("missing-level/N9.9-AC01.feature:3:1: error: the feature has no @level"), "\(result)")
        #expect(result.stderr.contains("missing-group/N9.9-AC01.feature:3:1: error: the feature has no @group"), "\(result)")
        #expect(result.stderr.contains("/nonexistent/criteria:1:1: error:"), "\(result)")
    }

    @Test("list exits 0 and shows every N2.6 verify item with at least one scenario")
    func list() async throws {
        let result = try await Binary.run(["list"] + Binary.criteria)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let criteria = CriterionText.packageCriteria().criteria.filter { $0.info.group == "N2.6" }
        try #require(!criteria.isEmpty)
        for criterion in criteria {
            #expect(lines.contains { $0.hasPrefix("\(criterion.info.id) [") }, "\(criterion.info.id) is not listed")
            for item in criterion.info.verifyItems {
                let index = try #require(lines.firstIndex(of: "  \(item.id): \(item.text)"), "\(item.id) is not listed")
                let next = lines.indices.contains(index + 1) ? lines[index + 1] : ""
                #expect(next.hasPrefix("    - line "), "\(item.id) is listed without a scenario: \(next)")
            }
        }
        #expect(!result.stdout.contains("(not covered)"))
        #expect(result.stdout.contains("(0 not covered)"))
    }

    @Test("list --targets shows every target of the catalog")
    func listTargets() async throws {
        let result = try await Binary.run(["list", "--targets"])
        #expect(result.status == 0, "\(result)")
        for target in TargetCatalog.all { #expect(result.stdout.contains(target.id.rawValue), "\(target.id) is missing") }
    }

    @Test("gherkin pickles prints one JSON pickle per line")
    func gherkinPickles() async throws {
        let file = PackagePaths.criteria.appendingPathComponent("N2.6-automatic-upgrade/N2.6-AC01.feature").path
        let result = try await Binary.run(["gherkin", "pickles", file])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        let scenarios = try #require(CriterionText.packageCriteria().criteria.first { $0.info.id == "N2.6-AC01" }).scenarios
        #expect(lines.count == scenarios.count)
        for (line, scenario) in zip(lines, scenarios) {
            let json = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            let pickle = try #require(json["pickle"], "not a pickle: \(line)")
            #expect(pickle["name"]?.stringValue == scenario.name)
            #expect(pickle["uri"]?.stringValue == file)
            #expect(pickle["steps"]?.arrayValue?.count == scenario.steps.count)
        }
    }

    @Test("gherkin errors on a broken file exits 1 and prints the parse error as NDJSON")
    func gherkinErrors() async throws {
        let file = "\(Binary.broken)/gherkin-syntax/N9.9-AC01.feature"
        let result = try await Binary.run(["gherkin", "errors", file])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        try #require(lines.count == 1, "\(result)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(lines[0].utf8))
        #expect(json["parseError"]?["source"]?["location"]?["line"]?.numberValue == 18, "\(lines[0])")
    }

    @Test("selftest with the mutants of one criterion exits 0 and prints the kill matrix")
    func selftest() async throws {
        let result = try await Binary.run(
            ["selftest"] + Binary.criteria + ["--mutant", "upgrade-before-second-factor,never-upgrade", "--design", "coalesce-0s"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains("2 conforming designs × 18 criteria, 2 without a false alarm; 2 mutants × their designs = 4 runs, 4 killed"), "\(result)")
        #expect(result.stdout.contains("self-test passed"), "\(result)")
    }

    @Test("selftest --list-mutants names every mutant")
    func listMutants() async throws {
        let result = try await Binary.run(["selftest", "--list-mutants"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("upgrade-before-second-factor"))
        #expect(result.stdout.split(separator: "\n").count >= 25)
    }
}
