import ConformanceModel

/// One deliberate defect of the reference relying party. Each breaks exactly one thing, named by
/// the verify item of the criteria checklist that should catch it, by overriding one named
/// decision point of the reference (`Decisions`).
///
/// Every mutant is one value holding all its facts: its name, criterion, verify items, summary and
/// the decision it overrides. The mutants themselves are in `Mutants.swift` (N2.6) and
/// `Mutants+Signals.swift` (N3.2), with second forms of N3.2 in `Mutants+SignalForms.swift`,
/// `Mutants+ListForms.swift` and `Mutants+EncodingForms.swift`, the mutants the path proofs keep
/// honest in `Mutants+PathForms.swift`, the forms of what the app shows that a reader of English
/// words misses in `Mutants+Text.swift`, the flows that wait for a signal's answer in
/// `Mutants+Waits.swift`, those of an answer lost after the server committed in
/// `Mutants+LostAnswers.swift`, and those of the seed paths (another RP ID, a malformed response,
/// a credential id registered twice, the rate budget across RPs) in `Mutants+SeedPaths.swift`.
package struct Mutation: Sendable, Hashable, Identifiable, CaseIterable, RawRepresentable, CustomStringConvertible {
    /// The mutation's stable name, as `selftest` and the adapter name show it.
    package let id: MutantID
    /// The criterion whose scenarios must fail against this mutant.
    package let criterion: CriterionID
    /// The verify items whose scenarios must fail.
    package let verifyItems: [VerifyItemID]
    /// What the mutant gets wrong, in one sentence.
    package let summary: String
    /// The form the fault takes (for example "a message", "a modal sheet", "a timer-driven upload"),
    /// so that the self-test can show each verify item broken in at least two forms. Mutants that
    /// name none are told apart by their summary.
    package var form: String { explicitForm ?? summary }
    private let explicitForm: String?
    /// The conforming designs under which the defect can show.
    private let appliesTo: @Sendable (ReferenceDesign) -> Bool
    /// The one decision point the mutant overrides.
    private let override: @Sendable (inout Decisions) -> Void

    init(
        _ id: MutantID, _ criterion: CriterionID, _ verifyItems: [VerifyItemID], _ summary: String, form: String? = nil,
        appliesTo: @escaping @Sendable (ReferenceDesign) -> Bool = { _ in true }, _ override: @escaping @Sendable (inout Decisions) -> Void
    ) {
        self.id = id
        self.criterion = criterion
        self.verifyItems = verifyItems
        self.summary = summary
        self.explicitForm = form
        self.appliesTo = appliesTo
        self.override = override
    }

    /// Every mutant, N2.6 first, in the order `selftest` reports them.
    package static let allCases: [Mutation] =
        registrationMutants + signalMutants + signalFormMutants + listFormMutants + encodingFormMutants
        + monitorMutants + pathFormMutants + textMutants + waitMutants + lostAnswerMutants + seedPathMutants

    /// The mutation's name (its `id`), as text.
    package var rawValue: String { id.rawValue }

    /// The mutant named `rawValue` (text from the command line), or `nil` if there is none.
    package init?(rawValue: String) { self.init(id: MutantID(rawValue: rawValue)) }

    /// The mutant of that name, or `nil` if there is none.
    package init?(id: MutantID) {
        guard let found = Self.allCases.first(where: { $0.id == id }) else { return nil }
        self = found
    }

    /// The mutation's name.
    package var description: String { id.rawValue }

    /// The reference's decisions with this mutant's override applied.
    var decisions: Decisions {
        var decisions = Decisions()
        override(&decisions)
        return decisions
    }

    /// Whether the mutant's defect can show under a conforming design: a mutant of the retry
    /// path has nothing to break in a design that drops rate-limited signals.
    package func applies(to design: ReferenceDesign) -> Bool { appliesTo(design) }

    /// Compares mutants by name.
    package static func == (lhs: Mutation, rhs: Mutation) -> Bool { lhs.id == rhs.id }
    /// Hashes a mutant by its name.
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
