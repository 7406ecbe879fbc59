@testable import ConformanceKit
import Testing

/// Each invariant carries the `Then` steps that state it in a regression scenario: steps the
/// library defines, written for the accounts of the history.
@Suite("explore: invariants carry their checks")
struct ExploreInvariantCheckTests {
    /// The invariants by name (their names make readable test case arguments).
    static let ids = ExploreInvariant.all.map(\.id)

    static func invariant(_ id: String) throws -> ExploreInvariant {
        try #require(ExploreInvariant.all.first { $0.id == id })
    }

    @Test("every invariant states itself through at least one Then step", arguments: ids)
    func everyInvariantHasThenSteps(id: String) throws {
        #expect(!(try Self.invariant(id)).checks(aliases: ["alice", "bob", "carol"]).isEmpty, "\(id)")
    }

    @Test("each Then step of an invariant names exactly one definition of the step library", arguments: ids)
    func thenStepsAreDefined(id: String) throws {
        let invariant = try Self.invariant(id)
        for step in invariant.checks(aliases: ["alice", "bob", "carol"]) {
            guard case .found = StepLibrary.standard.match(step) else {
                Issue.record("\(invariant.id): \"\(step)\" names no single definition")
                continue
            }
        }
    }

    @Test("an invariant's Then steps about accounts name only the accounts the history created")
    func thenStepsFollowTheAliases() {
        let steps = ExploreInvariant.requestForSignedInAccount.checks(aliases: ["bob"])
        #expect(steps.count == 2)
        #expect(steps.allSatisfy { $0.contains("\"bob\"") })
        #expect(ExploreInvariant.requestExcludesKnownPasskeys.checks(aliases: []).isEmpty)
        #expect(ExploreInvariant.oneRequestPerQualifyingSignIn.checks(aliases: []).first == "exactly 0 registration requests have been issued")
    }
}
