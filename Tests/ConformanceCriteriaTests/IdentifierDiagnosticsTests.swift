import ConformanceCriteria
import ConformanceModel
import Foundation
import TestSupportCore
import Testing

@Suite("Identifiers in criterion files")
struct IdentifierDiagnosticsTests {
    @Test("a malformed @criterion tag is a diagnostic at the tag")
    func malformedCriterionTag() {
        let text = CriterionText.criterion(id: "N9.9AC01", scenarios: [.init("A", steps: ["Then the step passes"])])
        let result = CriterionText.load([("N9.9AC01.feature", text)])
        let found = result.diagnostics.filter { $0.message.contains("is not a criterion id") }
        #expect(
            found.map(\.description) == [
                #"N9.9AC01.feature:1:1: error: @criterion: "N9.9AC01" is not a criterion id: write a group and a number joined by a hyphen, in ASCII letters, digits, '.' and '_' (N2.6-AC01)"#
            ])
    }

    @Test("an item id with a dot is a diagnostic, since the dot separates the criterion from the item")
    func dottedItemID() {
        let text = CriterionText.criterion(items: ["V1", "V1.2"], scenarios: [.init("A", steps: ["Then the step passes"])])
        let result = CriterionText.load([("N9.9-AC01.feature", text)])
        #expect(result.diagnostics.contains { $0.severity == .error && $0.message.contains("\"V1.2\" is not a verify item's id") })
        #expect(result.criteria.first?.info.verifyItems.map(\.id) == ["N9.9-AC01.V1"])
    }
}
