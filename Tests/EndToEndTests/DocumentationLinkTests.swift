import ConformanceTestSupport
import Foundation
import Testing

/// The READMEs and documents point to files that exist: a renamed example or document breaks a test,
/// not a reader's trust.
@Suite("Documentation links")
struct DocumentationLinkTests {
    static let documents = [
        "README.md", "Documentation/adapter-protocol.md", "Documentation/architecture.md", "Documentation/criterion-files.md",
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

    @Test("the extractor finds Markdown links and repository paths in code spans, and nothing in plain text")
    func extractorFindsReferences() {
        #expect(
            Self.references(in: "See [the protocol](Documentation/adapter-protocol.md#hello) and `Scripts/sync-criteria.sh`.") == [
                "Documentation/adapter-protocol.md", "Scripts/sync-criteria.sh",
            ])
        #expect(Self.references(in: "No links, [a site](https://example.com), Scripts/not-a-span.sh.") == [])
    }

    @Test("every relative link and repository path named in the documents exists", arguments: documents)
    func linksExist(document: String) throws {
        let url = PackagePaths.root.appendingPathComponent(document)
        let text = try String(contentsOf: url, encoding: .utf8)
        let base = url.deletingLastPathComponent()
        let references = Self.references(in: text)
        // An extractor that finds nothing would pass every document: each of these names at least one path.
        #expect(!references.isEmpty, "no link or repository path found in \(document)")
        for reference in references {
            let fromDocument = base.appendingPathComponent(reference).path
            let fromRoot = PackagePaths.root.appendingPathComponent(reference).path
            #expect(
                FileManager.default.fileExists(atPath: fromDocument) || FileManager.default.fileExists(atPath: fromRoot),
                "\(document) names \(reference), which does not exist")
        }
    }
}
