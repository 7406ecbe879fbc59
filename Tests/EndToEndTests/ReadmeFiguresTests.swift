import ConformanceTestSupport
import Foundation
import Testing

/// The README's figures come from a real run (`Scripts/readme-figures.sh`); this fails when the
/// harness prints something else now, naming each figure that drifted.
@Suite("README figures", binaryBuilt)
struct ReadmeFiguresTests {
    @Test("the console excerpt and the verify-item count in README.md are what the harness prints now")
    func figuresAgree() async throws {
        let binary = try #require(Binary.url)
        let script = PackagePaths.root.appendingPathComponent("Scripts/readme-figures.sh")
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["PASSKEY_CONFORMANCE_BIN=\(binary.path)", "bash", script.path, "--check"], in: PackagePaths.root)
        #expect(result.status == 0, "\(result.stderr)")
    }
}

/// The CI recipes of the README work in a relying party's repository and keep the reports of a
/// failing run: no `swift run` (there is no package there), every report upload and every job that
/// needs another runs whatever came before (`if: always()` / `when: always`).
@Suite("README CI recipes")
struct ReadmeRecipeTests {
    /// The fenced YAML blocks of the README's section "Gating CI on it".
    static func recipes() throws -> [[Substring]] {
        let readme = try String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Gating CI on it\n"), "README.md has no section \"Gating CI on it\"")
        let section = readme[start.upperBound...]
        let body = section[..<(section.range(of: "\n## ")?.lowerBound ?? section.endIndex)]
        return body.components(separatedBy: "```yaml\n").dropFirst().map { block in
            block.components(separatedBy: "```")[0].split(separator: "\n", omittingEmptySubsequences: false)
        }
    }

    @Test("no recipe calls swift run; every upload and every dependent job runs whatever came before")
    func recipesSurviveFailure() throws {
        let blocks = try Self.recipes()
        #expect(blocks.count >= 4, "expected the single-job, GitLab, sharded and signing recipes")
        for (number, lines) in blocks.enumerated() {
            for (index, line) in lines.enumerated() {
                #expect(!line.contains("swift run"), "recipe \(number + 1), line \(index + 1): swift run in a repository with no package: \(line)")
                let next = lines[(index + 1)..<min(lines.count, index + 3)]
                if line.contains("actions/upload-artifact") {
                    #expect(next.contains { $0.contains("if: always()") }, "recipe \(number + 1), line \(index + 1): an upload that a failing run skips")
                }
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("needs:") {
                    #expect(next.contains { $0.contains("if: always()") }, "recipe \(number + 1), line \(index + 1): a job skipped when the one it needs fails")
                }
                if line.trimmingCharacters(in: .whitespaces) == "artifacts:" {
                    #expect(next.contains { $0.contains("when: always") }, "recipe \(number + 1), line \(index + 1): artifacts lost when the job fails")
                }
            }
        }
    }
}
