import ConformanceModel
import Foundation
import Testing

@Suite("Typed identifiers")
struct IdentifierTests {
    @Test("well-formed criterion ids parse as written", arguments: ["N2.6-AC01", "N2.6-X01", "N3.2-AC10", "N9.9-AC01", "G_1-A-2"])
    func criterionIDs(text: String) throws {
        #expect(try CriterionID(parsing: text).rawValue == text)
    }

    @Test(
        "malformed criterion ids are refused with a message that quotes them",
        arguments: ["", "N2.6", "N2.6-", "-AC01", "N2.6 AC01", "N2.6-AC01.", "N2.6-AC/01", "N2.6-AC01\n"])
    func malformedCriterionIDs(text: String) {
        #expect {
            try CriterionID(parsing: text)
        } throws: { error in
            (error as? IdentifierError)?.message.hasPrefix("\"\(text)\" is not a criterion id") == true
        }
    }

    @Test("a verify item knows its criterion and its local id, whatever dots the criterion holds")
    func verifyItemParts() {
        let item = VerifyItemID(criterion: "N2.6-AC01", local: "V5")
        #expect(item == "N2.6-AC01.V5")
        #expect(item.criterion == "N2.6-AC01")
        #expect(item.local == "V5")
        #expect(CriterionID(rawValue: "N3.2-AC09").group == "N3.2")
    }

    @Test("identifiers are written and read as the bare string, so reports keep their bytes")
    func plainStringCoding() throws {
        let encoded = try JSONEncoder().encode(["c": CriterionID(rawValue: "N2.6-AC01")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"c":"N2.6-AC01"}"#)
        let items = try JSONDecoder().decode([VerifyItemID].self, from: Data(#"["N2.6-AC01.V1","N2.6-AC01.V2"]"#.utf8))
        #expect(items == ["N2.6-AC01.V1", "N2.6-AC01.V2"])
    }
}
