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
