import ConformanceModel
import Foundation
import Testing

/// A criterion's origin is its one source of truth: `derived` is read from it, and both are
/// written side by side as they always were.
@Suite("Criterion origin")
struct CriterionInfoTests {
    static func info(_ origin: CriterionInfo.Origin) -> CriterionInfo {
        CriterionInfo(
            id: "N9.9-X01", title: "t", level: .core, group: "N9.9", origin: origin, statement: "s", verification: "v", verifyItems: [],
            source: "src", references: [], file: "f.feature")
    }

    @Test("derived holds for every origin but the source's own", arguments: CriterionInfo.Origin.allCases)
    func derivedFollowsOrigin(origin: CriterionInfo.Origin) {
        #expect(Self.info(origin).derived == (origin != .source))
    }

    @Test("a criterion is written with derived beside origin and reads back equal")
    func codable() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(Self.info(.recommendation)), as: UTF8.self)
        #expect(
            text
                == #"{"derived":true,"file":"f.feature","group":"N9.9","id":"N9.9-X01","level":"core","origin":"recommendation","#
                + #""references":[],"source":"src","statement":"s","title":"t","verification":"v","verifyItems":[]}"#)
        for origin in CriterionInfo.Origin.allCases {
            let info = Self.info(origin)
            #expect(try JSONDecoder().decode(CriterionInfo.self, from: JSONEncoder().encode(info)) == info)
        }
    }

    @Test("a criterion written before origins existed takes its origin from derived")
    func legacyDerived() throws {
        let old =
            #"{"derived":true,"file":"f","group":"N9.9","id":"N9.9-X01","level":"core","references":[],"source":"","statement":"","title":"t","verification":"","verifyItems":[]}"#
        #expect(try JSONDecoder().decode(CriterionInfo.self, from: Data(old.utf8)).origin == .derived)
        #expect(CriterionInfo.Origin(derived: false) == .source)
    }
}
