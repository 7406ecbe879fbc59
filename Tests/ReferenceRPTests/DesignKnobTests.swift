import ConformanceKit
import ReferenceRP
import Testing

/// The knobs of the conforming designs: every one is drawn over its whole range, a combination
/// reads back from its specification, and a bad specification says what is wrong.
@Suite("Design knobs")
struct DesignKnobTests {
    @Test("a design's specification reads back as the same choices")
    func roundTrip() throws {
        for design in ReferenceDesign.all + ReferenceDesign.random(count: 20, seed: 7) {
            let parsed = try ReferenceDesign.parse(design.specification)
            #expect(parsed.specification == design.specification, "\(design.id)")
            #expect(parsed.isCombination)
        }
    }

    @Test("random designs reproduce from their seed, differ between seeds, and move every knob off the reference's value")
    func randomDraws() {
        let a = ReferenceDesign.random(count: 50, seed: 1)
        let b = ReferenceDesign.random(count: 50, seed: 1)
        let c = ReferenceDesign.random(count: 50, seed: 2)
        #expect(a.map(\.specification) == b.map(\.specification))
        #expect(a.map(\.specification) != c.map(\.specification))
        #expect(Set(a.map(\.id)).count == 50)
        #expect(a.allSatisfy { $0.isCombination })
        let moved = Set(a.flatMap(\.freedoms))
        #expect(moved == Set(ReferenceDesign.knobs.map(\.freedom)))
    }

    @Test("every fixed design names the freedoms it takes, and is not a combination")
    func fixedDesigns() {
        #expect(ReferenceDesign.reference.freedoms.isEmpty)
        for design in ReferenceDesign.variants {
            #expect(!design.freedoms.isEmpty, "\(design.id) changes no knob")
            #expect(!design.isCombination)
        }
    }

    @Test(
        "a bad specification names the knob or value at fault",
        arguments: [
            ("coalesce-ms=5", "starts with 'knobs:'"),
            ("knobs:no-such-knob=1", "unknown knob 'no-such-knob=1'"),
            ("knobs:coalesce-ms=-1", "knob 'coalesce-ms' takes 0…120000 ms, found '-1'"),
            ("knobs:rate-limited=maybe", "knob 'rate-limited' takes retry, drop, found 'maybe'"),
            ("knobs:", "'knobs:' names no knob"),
            ("knobs:coalesce-ms=5;coalesce-ms=6", "knob 'coalesce-ms' is given twice"),
            ("knobs:coalesce-ms=5;", "an empty knob"),
            ("knobs:;coalesce-ms=5", "an empty knob"),
        ])
    func badSpecification(specification: String, message: String) {
        do {
            let design = try ReferenceDesign.parse(specification)
            Issue.record("accepted as \(design.specification)")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }
}
