import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// `list --steps`. Lines are compared as whole lines (Swift's own string comparison): Foundation's
/// substring search on Linux crashed intermittently on this output's non-ASCII text.
@Suite("passkey-conformance list --steps", binaryBuilt)
struct StepCatalogueCommandTests {
    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    @Test("list --steps prints every step sentence with its parameters and users")
    func text() async throws {
        let result = try await Binary.run(["list", "--steps"] + Binary.criteria)
        #expect(result.status == 0, "\(result)")
        let lines = Set(Self.lines(result.stdout).map(String.init))
        for definition in StepLibrary.standard.definitions {
            #expect(lines.contains("  \(definition.pattern.source)"), "missing: \(definition.pattern.source)")
        }
        #expect(lines.contains("    parameters: {int} 0…86,400"))
        #expect(lines.contains("    needs capability: passkey-sign-in"))
        #expect(lines.contains { $0.hasPrefix("\(StepLibrary.standard.definitions.count) step definitions") })
    }

    @Test("list --steps --markdown prints the section that Documentation/criterion-files.md holds")
    func markdown() async throws {
        let result = try await Binary.run(["list", "--steps", "--markdown"] + Binary.criteria)
        #expect(result.status == 0, "\(result)")
        let document = try String(contentsOf: PackagePaths.root.appendingPathComponent("Documentation/criterion-files.md"), encoding: .utf8)
        let documentLines = Self.lines(document)
        var printed = Self.lines(result.stdout)
        while printed.last?.isEmpty == true { printed.removeLast() }
        let start = try #require(documentLines.firstIndex(of: printed.first ?? ""), "the document lacks the catalogue")
        #expect(Array(documentLines[start...].prefix(printed.count)) == Array(printed), "stale: run Scripts/update-step-catalogue.sh")
    }

    @Test("--markdown without --steps is a usage error")
    func markdownAlone() async throws {
        let result = try await Binary.run(["list", "--markdown"] + Binary.criteria)
        #expect(result.status == 64, "\(result)")
    }
}
