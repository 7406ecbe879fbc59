import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// The step catalogue (`list --steps`) and its generated copy in `Documentation/criterion-files.md`.
@Suite("Step catalogue")
struct StepCatalogueTests {
    static let catalogue = StepCatalogue.standard(criteria: CriterionText.packageCriteria().criteria)

    @Test("the catalogue lists every definition of the standard library once, in library order")
    func complete() {
        let listed = Self.catalogue.entries.map(\.pattern)
        #expect(listed.count == Set(listed).count)
        #expect(Set(listed) == Set(StepLibrary.standard.definitions.map(\.pattern.source)))
        #expect(Self.catalogue.sections.first?.title == "Accounts, saved passwords and provider behaviour")
        #expect(Self.catalogue.sections.allSatisfy { !$0.title.isEmpty && !$0.entries.isEmpty })
    }

    @Test("an entry names the criteria that use it, its capability, and the ranges of its numbers")
    func entries() throws {
        let signIn = try #require(Self.catalogue.entries.first { $0.pattern == "the user signs in as {string} with the autofilled password" })
        #expect(signIn.needs == [.conditionalCreate])
        #expect(signIn.criteria.contains("N2.6-AC01") && signIn.criteria.contains("N2.6-X01"))
        #expect(signIn.uses >= signIn.criteria.count)
        let wait = try #require(Self.catalogue.entries.first { $0.pattern == "{int} minute(s) pass" })
        #expect(wait.parameters.map(StepCatalogue.describe) == ["{int} 0…1,440"])
        let held = try #require(Self.catalogue.entries.first { $0.pattern == "the credential manager holds every registration response until it is released" })
        #expect(held.requiredFeatures == [.conditionalCreate])
    }

    @Test("Documentation/criterion-files.md holds the current catalogue (regenerate: Scripts/update-step-catalogue.sh)")
    func documentationIsCurrent() throws {
        let document = try String(contentsOf: PackagePaths.root.appendingPathComponent("Documentation/criterion-files.md"), encoding: .utf8)
        // Whole lines, compared by Swift itself (Foundation's substring search on Linux has crashed on
        // this document's non-ASCII text).
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let begin = try #require(lines.firstIndex(of: StepCatalogue.markdownBegin), "the document lacks the catalogue's first marker")
        let end = try #require(lines[begin...].firstIndex(of: StepCatalogue.markdownEnd), "the document lacks the catalogue's last marker")
        let committed = Array(lines[begin...end])
        let current = Self.catalogue.markdown().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if committed != current {
            let first = zip(committed, current).first { $0 != $1 }
            Issue.record(
                "the step catalogue in Documentation/criterion-files.md is stale; run Scripts/update-step-catalogue.sh. First difference: \(first.map { "\($0.0) ≠ \($0.1)" } ?? "length")"
            )
        }
    }
}
