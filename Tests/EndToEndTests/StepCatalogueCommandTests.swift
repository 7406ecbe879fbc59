import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

@Suite("passkey-conformance list --steps", binaryBuilt)
struct StepCatalogueCommandTests {
    @Test("list --steps prints every step sentence with its parameters and users")
    func text() async throws {
        let result = try await Binary.run(["list", "--steps"] + Binary.criteria)
        #expect(result.status == 0, "\(result)")
        for definition in StepLibrary.standard.definitions {
            #expect(result.stdout.contains("  \(definition.pattern.source)\n"), "missing: \(definition.pattern.source)")
        }
        #expect(result.stdout.contains("    parameters: {int} 0…86,400\n"))
        #expect(result.stdout.contains("    needs capability: passkey-sign-in\n"))
        #expect(result.stdout.contains("\(StepLibrary.standard.definitions.count) step definitions"))
    }

    @Test("list --steps --markdown prints the section that Documentation/criterion-files.md holds")
    func markdown() async throws {
        let result = try await Binary.run(["list", "--steps", "--markdown"] + Binary.criteria)
        #expect(result.status == 0, "\(result)")
        let document = try String(contentsOf: PackagePaths.root.appendingPathComponent("Documentation/criterion-files.md"), encoding: .utf8)
        #expect(document.contains(result.stdout.trimmingCharacters(in: .newlines)), "stale: run Scripts/update-step-catalogue.sh")
    }

    @Test("--markdown without --steps is a usage error")
    func markdownAlone() async throws {
        let result = try await Binary.run(["list", "--markdown"] + Binary.criteria)
        #expect(result.status == 64, "\(result)")
    }
}
