import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// `run --level`: which criteria a run covers by origin, and what the report says of each.
@Suite("run --level", .heavy)
struct LevelTests {
    /// The criteria of a run's report.json with their origin.
    static func criteria(_ extra: [String]) async throws -> [String: String] {
        let out = try PackagePaths.temporaryDirectory("level")
        let result = try await Binary.run(["run", "--quiet", "--format", "json", "--out", out.path, "--criterion", "N2.6"] + Binary.criteria + extra)
        #expect(result.status == 0, "\(result)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        var origins: [String: String] = [:]
        for criterion in json["criteria"]?.arrayValue ?? [] {
            if let id = criterion["id"]?.stringValue { origins[id] = criterion["origin"]?.stringValue ?? "?" }
        }
        return origins
    }

    @Test("the default gate covers the documents' criteria and the derived ones; recommendations only when asked")
    func levels() async throws {
        let byDefault = try await Self.criteria([])
        #expect(byDefault["N2.6-AC01"] == "source")
        #expect(byDefault["N2.6-X01"] == "derived")
        #expect(byDefault["N2.6-X02"] == nil)
        let source = try await Self.criteria(["--level", "source"])
        #expect(source["N2.6-X01"] == nil && source["N2.6-AC06"] == "source")
        let all = try await Self.criteria(["--level", "recommendation"])
        #expect(all["N2.6-X02"] == "recommendation")
        let named = try await Self.criteria(["--criterion", "N2.6-X02"])
        #expect(named["N2.6-X02"] == "recommendation", "a criterion named by its id runs whatever the level")
    }

    @Test("a level that leaves no criterion selected plans no test case")
    func nothingWithinLevel() async throws {
        let derivedOnly = PackagePaths.criteria.appendingPathComponent("N2.6-automatic-upgrade/N2.6-X01.feature").path
        let result = try await Binary.run(["list", "--criteria", derivedOnly, "--level", "source"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("0 criteria, 0 verify items (0 not covered), 0 test cases on 0 targets"), "\(result)")
        let derived = try await Binary.run(["list", "--criteria", derivedOnly])
        #expect(derived.stdout.contains("1 criteria") || derived.stdout.contains("N2.6-X01"), "\(derived)")
    }

    @Test("an unknown level is a usage error")
    func unknownLevel() async throws {
        let result = try await Binary.run(["run", "--level", "advisory", "--no-reports"] + Binary.criteria)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--level must be source, derived or recommendation"), "\(result)")
    }
}
