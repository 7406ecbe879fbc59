import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

@Suite("passkey-conformance explore", binaryBuilt)
struct ExploreCommandTests {
    @Test("on the reference RP explore exits 0 and reports no violation")
    func reference() async throws {
        let result = try await Binary.run(["explore"] + Binary.criteria + ["--budget", "60", "--no-reports"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("explore: 60 histories"), "\(result)")
        #expect(result.stdout.contains("No invariant broken."), "\(result)")
    }

    @Test("on a mutant explore exits 1, writes a regression file that run executes, and reports the finding as a failed test case")
    func mutant() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-explore")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("explore")
        let result = try await Binary.run(["explore"] + Binary.criteria + ["--mutant", "double-request", "--budget", "50", "--seed", "3", "--out", out.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("Violation: one-request-per-qualifying-sign-in (N2.6-AC05.V1)"), "\(result)")
        #expect(result.stdout.contains("Then exactly 1 registration request has been issued"), "\(result)")
        let file = out.appendingPathComponent("criteria/N2.6-AC05.feature")
        #expect(FileManager.default.fileExists(atPath: file.path))

        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        let cases = try #require(json["testCases"]?.arrayValue)
        #expect(cases.count == 1)
        #expect(cases.first?["outcome"]?.stringValue == "failed")
        let junit = try String(contentsOf: out.appendingPathComponent("report.junit.xml"), encoding: .utf8)
        #expect(junit.contains("passkey-conformance explore --seed 3"))

        let criteria = out.appendingPathComponent("criteria").path
        let failing = try await Binary.run(["run", "--criteria", criteria, "--mutant", "double-request", "--no-reports"])
        #expect(failing.status == 1, "\(failing)")
        let passing = try await Binary.run(["run", "--criteria", criteria, "--no-reports"])
        #expect(passing.status == 0, "\(passing)")
    }

    @Test("criteria that do not load: exit 2 and a report set whose fault says why, before any history")
    func brokenCriteria() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-explore-broken")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("explore")
        let result = try await Binary.run(["explore", "--criteria", Binary.broken + "/gherkin-syntax", "--budget", "5", "--out", out.path])
        #expect(result.status == 2, "\(result)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        #expect(json["metadata"]?["fault"]?["kind"]?.stringValue == "criteria", "\(result)")
        #expect(json["summary"]?["exitStatus"]?.numberValue == 2)
        #expect(!result.stdout.contains("histories,"), "no history may run: \(result)")
    }

    @Test("a bad budget is a usage error")
    func usage() async throws {
        let result = try await Binary.run(["explore", "--budget", "zero"])
        #expect(result.status == 64, "\(result)")
    }

    static let adapter = PackagePaths.root.appendingPathComponent(".build/debug/reference-rp-adapter").path

    @Test(
        "over an adapter process explore launches it once, and names it in the report from that process",
        .enabled(if: FileManager.default.isExecutableFile(atPath: adapter), "needs the built reference-rp-adapter (swift build)"))
    func oneLaunch() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-explore-launches")
        defer { try? FileManager.default.removeItem(at: directory) }
        let launches = directory.appendingPathComponent("launches")
        let out = directory.appendingPathComponent("explore")
        // A violation makes explore replay, shrink and run the scenario on the same adapter.
        let command = "echo launched >> '\(launches.path)'; exec '\(Self.adapter)' --mutant double-request"
        let result = try await Binary.run(["explore"] + Binary.criteria + ["--adapter-command", command, "--budget", "50", "--out", out.path])
        #expect(result.status == 1, "\(result)")
        let lines = try String(contentsOf: launches, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1, "the adapter was launched \(lines.count) times")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        #expect(json["metadata"]?["adapter"]?["name"]?.stringValue == "reference-rp+double-request", "\(json["metadata"]?["adapter"] ?? .null)")
    }
}
