import Foundation
import ReferenceRP
import Testing

/// The mutant table: every mutant is one value with consistent facts, found by its name.
@Suite("Mutation table")
struct MutationTableTests {
    @Test("every mutant has its own name, and is found by it")
    func namesAreUniqueAndResolve() {
        let ids = Mutation.allCases.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate names: \(ids.filter { id in ids.filter { $0 == id }.count > 1 })")
        for mutation in Mutation.allCases {
            #expect(Mutation(id: mutation.id) == mutation)
            #expect(mutation.rawValue == mutation.id.rawValue && mutation.description == mutation.id.rawValue)
        }
        #expect(Mutation(rawValue: "no-such-mutant") == nil)
    }

    @Test("mutant ids are written as the bare string, so reports keep their bytes")
    func plainStringCoding() throws {
        #expect(try JSONEncoder().encode([MutantID(rawValue: "double-request")]) == Data(#"["double-request"]"#.utf8))
    }

    @Test("every mutant names verify items of its own criterion, and a summary")
    func factsAgree() {
        for mutation in Mutation.allCases {
            #expect(!mutation.verifyItems.isEmpty, "\(mutation.id)")
            #expect(mutation.verifyItems.allSatisfy { $0.criterion == mutation.criterion }, "\(mutation.id): \(mutation.verifyItems)")
            #expect(!mutation.summary.isEmpty && mutation.summary.first?.isLowercase == true, "\(mutation.id)")
        }
    }

    @Test("only the retry-path mutants skip the design that drops rate-limited signals")
    func applicability() throws {
        let drop = try #require(ReferenceDesign.variants.first { $0.rateLimited == .drop })
        let skipped = Mutation.allCases.filter { !$0.applies(to: drop) }.map(\.id)
        #expect(skipped == ["retry-early", "retry-stale-payload", "retry-millis-as-seconds", "retry-list-at-refusal"])
        #expect(Mutation.allCases.allSatisfy { $0.applies(to: .reference) })
    }
}
