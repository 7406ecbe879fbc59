import ConformanceTestSupport
import Foundation
import Testing

/// The READMEs and documents point to files that exist: a renamed example or document breaks a test,
/// not a reader's trust.
@Suite("Documentation links")
struct DocumentationLinkTests {
    static let documents = [
        "README.md", "Documentation/adapter-protocol.md", "Documentation/criterion-files.md",
        "Documentation/report-format.md", "Examples/python/README.md", "Examples/python-webauthn/README.md",
    ]

    /// The relative targets of Markdown links `[text](target)` and of code spans naming a path in
    /// this repository (`Examples/…`, `Scripts/…`, `Documentation/…`, `Tests/…`).
    static func references(in text: String) -> [String] {
        var found: [String] = []
        let link = /\]\(([^)\s#]+)(#[^)]*)?\)/
        for match in text.matches(of: link) where !match.1.contains("://") && !match.1.hasPrefix("mailto:") {
            found.append(String(match.1))
        }
        let span = /`((?:Examples|Scripts|Documentation|Tests)\/[A-Za-z0-9_.\/-]+)`/
        for match in text.matches(of: span) { found.append(String(match.1)) }
        return found
    }

    @Test("every relative link and repository path named in the documents exists", arguments: documents)
    func linksExist(document: String) throws {
        let url = PackagePaths.root.appendingPathComponent(document)
        let text = try String(contentsOf: url, encoding: .utf8)
        let base = url.deletingLastPathComponent()
        for reference in Self.references(in: text) {
            let fromDocument = base.appendingPathComponent(reference).path
            let fromRoot = PackagePaths.root.appendingPathComponent(reference).path
            #expect(
                FileManager.default.fileExists(atPath: fromDocument) || FileManager.default.fileExists(atPath: fromRoot),
                "\(document) names \(reference), which does not exist")
        }
    }
}
