import ConformanceCriteria
import ConformanceModel
import Foundation
import TestSupportCore

/// A step matcher written out as a table, so that the loader is tested without the step library:
/// each step text listed is judged as the table says, every other text as `otherwise` says.
struct StepTable: StepMatcher {
    var checks: [String: StepCheck]
    var otherwise: StepCheck

    func check(_ text: String) -> StepCheck { checks[text] ?? otherwise }

    /// Every step is defined: for tests of what the loader does with well-formed files (plans,
    /// filters, digests), where which steps exist does not matter.
    static let everyStep = StepTable(checks: [:], otherwise: .defined)

    /// The steps of the broken fixtures (`Fixtures/broken`), judged as the standard step library
    /// judges them; any other step is undefined. The kit's tests check that the standard library
    /// agrees on the texts that are not plainly defined.
    static let fixtureSteps = StepTable(
        checks: [
            #"an account "alice" with the sign-in policy "password only""#: .defined,
            #"the user signs in as "alice" with the autofilled password"#: .defined,
            #"the user signs in as "alice" typing the password by hand"#: .defined,
            #""alice" is signed in"#: .defined,
            "no passkey registration request has been issued": .defined,
            #"an account "alice" with the sign-in policy "password maybe""#:
                .invalidArguments(#""password maybe" is not one of "password only", "password and second factor""#),
            #"the authenticator reports the flags "UP=2 UV=0 BE=0 BS=0""#:
                .invalidArguments(#"flags must read like "UP=0 UV=0 BE=1 BS=1", found "UP=2""#),
        ],
        otherwise: .undefined)

    /// The fixture steps with some texts judged otherwise.
    func with(_ overrides: [String: StepCheck]) -> StepTable {
        StepTable(checks: checks.merging(overrides) { _, new in new }, otherwise: otherwise)
    }
}

extension CriteriaLoader {
    /// In these tests a loader without a named matcher checks steps against the broken fixtures'
    /// table (`StepTable.fixtureSteps`), not the standard library, which lives above this module.
    init() { self.init(matcher: StepTable.fixtureSteps) }
}

extension CriterionText {
    /// Loads criterion texts given as `(path, text)`; every step is defined unless `matcher` says
    /// otherwise.
    static func load(_ files: [(path: String, text: String)], matcher: StepTable = .everyStep) -> CriteriaLoader.Result {
        CriteriaLoader(matcher: matcher).load(sources: files.map { ($0.path, Data($0.text.utf8)) })
    }

    /// The package's own criteria, every step taken as defined (the kit's tests load them with the
    /// standard steps).
    static func packageCriteria() -> CriteriaLoader.Result {
        CriteriaLoader(matcher: StepTable.everyStep).load(root: PackagePaths.criteria.path)
    }
}
