import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// An installed binary names itself in re-run lines, and carries the notices of what it bundles.
@Suite("Installed binary: re-run lines and notices")
struct InstalledRerunTests {
    /// Copies the built binary and its resource bundles to a fresh directory, as README's "Installing" says.
    static func install() async throws -> URL {
        let built = try #require(InstallTests.builtBinary).resolvingSymlinksInPath()
        let products = built.deletingLastPathComponent()
        let install = try PackagePaths.temporaryDirectory("installed-rerun")
        try await Binary.copyExecutable(built, to: install.appendingPathComponent("passkey-conformance"))
        for name in try FileManager.default.contentsOfDirectory(atPath: products.path) where name.hasSuffix(".resources") {
            try FileManager.default.copyItem(at: products.appendingPathComponent(name), to: install.appendingPathComponent(name))
        }
        return install
    }

    @Test(
        "a failed test case's re-run line names the installed binary, not swift run; the Gherkin table's licence is in its bundle",
        .enabled(if: InstallTests.builtBinary != nil, "the passkey-conformance binary is not built"))
    func rerunNamesInstalledBinary() async throws {
        let install = try await Self.install()
        defer { try? FileManager.default.removeItem(at: install) }
        let notice = install.appendingPathComponent("passkey-conformance_Gherkin.resources/gherkin-languages.LICENSE")
        #expect(try String(contentsOf: notice, encoding: .utf8).contains("Cucumber Ltd"))
        let binary = install.appendingPathComponent("passkey-conformance")
        let result = try await ProcessRunner.run(
            binary, ["run", "--mutant", "send-partial-list", "--criterion", "N3.2-AC04", "--target", "apple-26.2", "--format", "json", "--out", "reports"],
            in: install)
        #expect(result.status == 1, "\(result)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: install.appendingPathComponent("reports/report.json")))
        let reruns = (json["testCases"]?.arrayValue ?? []).compactMap { $0["rerun"]?.stringValue }
        #expect(!reruns.isEmpty)
        let expected = binary.resolvingSymlinksInPath().standardizedFileURL.path + " run --mutant send-partial-list"
        #expect(reruns.allSatisfy { $0.hasPrefix(expected) }, "\(reruns.first ?? "")")
    }
}
