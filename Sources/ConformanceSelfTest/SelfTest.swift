import ConformanceKit
import ReferenceRP

/// The harness's proof that its verdicts are worth something, in both directions: every criterion
/// passes on the reference RP and on every conforming variant of it (no false alarm), and every
/// mutant fails the criterion it breaks, on the verify items it names, under the reference design
/// and under every variant it applies to (no blind spot).
package enum SelfTest {
    /// Each of `items` with the mutants that name it and their distinct forms, in the mutants' order.
    package static func itemForms(_ items: [VerifyItemID]) -> [(item: VerifyItemID, mutants: [Mutation], forms: [String])] {
        items.map { item in
            let mutants = Mutation.allCases.filter { $0.verifyItems.contains(item) }
            var forms: [String] = []
            for mutant in mutants where !forms.contains(mutant.form) { forms.append(mutant.form) }
            return (item, mutants, forms)
        }
    }

    /// The verify items of `criteria` that a scenario on a native target covers: the reference RP's
    /// to break. An item only the web targets cover (web wording, beyond the seeds' native scope) is
    /// broken by the web front end's mutants instead (`Scripts/web-selftest.sh`).
    package static func nativeItems(_ criteria: [Criterion]) -> [VerifyItemID] {
        criteria.flatMap { criterion in
            criterion.info.verifyItems.map(\.id).filter { item in
                criterion.scenarios.contains { scenario in
                    scenario.verifyItems.contains(item) && TargetCatalog.all.contains(where: scenario.applies)
                }
            }
        }
    }

    /// Every verify item of `criteria` with its mutants and their forms, as `selftest --list-items` prints it.
    package static func itemListing(_ criteria: [Criterion]) -> String {
        itemForms(nativeItems(criteria)).map { entry in
            let status = entry.forms.count >= 2 ? "\(entry.forms.count) forms" : "FEWER THAN TWO FORMS"
            return "\(entry.item.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)) \(status)\n"
                + entry.mutants.map { "    \($0.id.rawValue.padding(toLength: 36, withPad: " ", startingAt: 0)) \($0.form)" }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// How one conforming design fared over the whole suite.
    package struct DesignResult: Sendable {
        /// The design that was run.
        package var design: ReferenceDesign
        /// The suite's result on it.
        package var run: RunResult
        /// Test cases that did not pass; each is a false alarm.
        package var problems: [TestCaseResult] { run.testCases.filter { $0.verdict != .passed } }
        /// The verdict of each criterion, by id.
        package var verdicts: [CriterionID: Verdict] { Dictionary(run.criteria.map { ($0.criterion.id, $0.verdict) }, uniquingKeysWith: { first, _ in first }) }
    }

    /// How one mutant fared under one design.
    package struct MutantResult: Sendable {
        /// The mutation that was run.
        package var mutation: Mutation
        /// The conforming design it was built on.
        package var design: ReferenceDesign
        /// The verdict of the mutant's criterion.
        package var verdict: Verdict
        /// Verify items with at least one failed test case.
        package var failedItems: Set<VerifyItemID>
        /// Expected items that no failed test case covers.
        package var missedItems: [VerifyItemID]
        /// The first failure's message, as evidence.
        package var evidence: String?
        /// With the full matrix (reference design only): every criterion that failed against the mutant.
        package var failedCriteria: [CriterionID]?
        /// Killed: the criterion failed on every verify item the mutant names.
        package var killed: Bool { verdict == .failed && missedItems.isEmpty }
    }

    /// The whole self-test.
    package struct Report: Sendable {
        /// The reference design and every variant, each over the whole suite (the reference first).
        package var designs: [DesignResult]
        /// How each mutant fared under each design it applies to, mutant by mutant.
        package var mutants: [MutantResult]
        /// Verify items that no mutant names (a criterion item nothing shows can fail).
        package var itemsWithoutMutant: [VerifyItemID]
        /// Every verify item of the loaded criteria, in criterion order.
        package var items: [VerifyItemID] = []

        /// Each verify item of the loaded criteria with the mutants that name it (of all mutants,
        /// whether run or not) and their distinct forms.
        package var itemForms: [(item: VerifyItemID, mutants: [Mutation], forms: [String])] { SelfTest.itemForms(items) }

        /// Verify items broken by fewer than two distinct forms of mutant: a demand whose mutants share one idea of the fault cannot show that its
        /// check sees the others.
        package var itemsWithFewerThanTwoForms: [VerifyItemID] {
            itemForms.filter { $0.forms.count < 2 }.map(\.item)
        }

        /// The suite's result on the reference RP.
        package var reference: RunResult { designs[0].run }
        /// Test cases of the reference RP that did not pass; the self-test expects none.
        package var referenceProblems: [TestCaseResult] { designs[0].problems }
        /// Designs with at least one test case that did not pass.
        package var falseAlarms: [DesignResult] { designs.filter { !$0.problems.isEmpty } }
        /// Whether the self-test passed: every design passed everything, every mutant was killed under
        /// every design it applies to, every verify item has a mutant, and every verify item has
        /// mutants in at least two forms.
        package var passed: Bool {
            falseAlarms.isEmpty && mutants.allSatisfy(\.killed) && itemsWithoutMutant.isEmpty && itemsWithFewerThanTwoForms.isEmpty
        }
    }

    /// Runs every design over the whole suite, then every mutant over its own criterion under each
    /// design it applies to.
    ///
    /// With `fullMatrix`, each mutant also runs against every criterion under the reference design,
    /// so the report shows which other criteria catch it. Runs go `concurrency` at a time.
    package static func run(
        criteria: [Criterion], digest: String, mutations: [Mutation] = Mutation.allCases, designs: [ReferenceDesign] = ReferenceDesign.all,
        seed: UInt64 = 1, fullMatrix: Bool = false, concurrency: Int = 2
    ) async throws -> Report {
        var designs = designs
        if !designs.contains(.reference) { designs.insert(.reference, at: 0) }
        let designResults = try await concurrently(designs, limit: concurrency) { design in
            DesignResult(
                design: design,
                run: try await Suite.run(
                    criteria: criteria, digest: digest, adapter: ReferenceRP(design: design),
                    transport: "in-process", seed: seed))
        }
        // Mutants run under the fixed designs; combinations of knobs only prove there is no false alarm.
        let pairs = mutations.flatMap { mutation in designs.filter { !$0.isCombination && mutation.applies(to: $0) }.map { (mutation, $0) } }
        let results = try await concurrently(pairs, limit: concurrency) { mutation, design in
            let full = fullMatrix && design == .reference
            let filter = full ? TestPlan.Filter() : TestPlan.Filter(criteria: [CriterionSelector(mutation.criterion)])
            let run = try await Suite.run(
                criteria: criteria, digest: digest, adapter: ReferenceRP(mutation: mutation, design: design), transport: "in-process",
                filter: filter, seed: seed)
            let own = run.testCases.filter { $0.criterionID == mutation.criterion }
            let failed = own.filter { $0.verdict == .failed }
            let failedItems = Set(failed.flatMap(\.verifyItems))
            let verdict = run.criteria.first { $0.criterion.id == mutation.criterion }?.verdict ?? .notVerified
            return MutantResult(
                mutation: mutation, design: design, verdict: verdict, failedItems: failedItems,
                missedItems: mutation.verifyItems.filter { !failedItems.contains($0) }, evidence: failed.first?.message,
                failedCriteria: full ? run.criteria.filter { $0.verdict == .failed }.map(\.criterion.id) : nil)
        }
        let named = Set(Mutation.allCases.flatMap(\.verifyItems))
        let items = nativeItems(criteria)
        return Report(designs: designResults, mutants: results, itemsWithoutMutant: items.filter { !named.contains($0) }, items: items)
    }

    /// Maps `body` over `inputs`, at most `limit` at a time, keeping the inputs' order.
    static func concurrently<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], limit: Int,
        _ body: @escaping @Sendable (Input) async throws -> Output
    ) async throws -> [Output] {
        try await withThrowingTaskGroup(of: (Int, Output).self) { group in
            var results = [Output?](repeating: nil, count: inputs.count)
            var next = 0
            for _ in 0..<min(max(1, limit), inputs.count) {
                let index = next
                group.addTask { (index, try await body(inputs[index])) }
                next += 1
            }
            while let (index, output) = try await group.next() {
                results[index] = output
                if next < inputs.count {
                    let index = next
                    group.addTask { (index, try await body(inputs[index])) }
                    next += 1
                }
            }
            return results.map { $0! }
        }
    }
}
