import ConformanceKit

/// The harness's proof that its criteria can fail: the suite passes on the reference RP, and every
/// mutant fails the criterion it breaks, on the verify items it names.
public enum SelfTest {
    /// How one mutant fared.
    public struct MutantResult: Sendable {
        /// The mutation that was run.
        public var mutation: Mutation
        /// The verdict of the mutant's criterion.
        public var verdict: Verdict
        /// Verify items with at least one failed test case.
        public var failedItems: Set<String>
        /// Expected items that no failed test case covers.
        public var missedItems: [String]
        /// The first failure's message, as evidence.
        public var evidence: String?
        /// With the full matrix: every criterion that failed against the mutant (its own included).
        public var failedCriteria: [String]?
        /// Killed: the criterion failed on every verify item the mutant names.
        public var killed: Bool { verdict == .failed && missedItems.isEmpty }
    }

    /// The whole self-test.
    public struct Report: Sendable {
        /// The suite's result on the conforming reference RP.
        public var reference: RunResult
        /// How each mutant fared, in the order they ran.
        public var mutants: [MutantResult]
        /// Verify items that no mutant names (a criterion item nothing shows can fail).
        public var itemsWithoutMutant: [String]

        /// The reference RP's test cases that did not pass; the self-test expects none.
        public var referenceProblems: [TestCaseResult] { reference.testCases.filter { $0.verdict != .passed } }
        /// Whether the self-test passed: the reference RP passed everything, every mutant was killed, and
        /// every verify item has a mutant.
        public var passed: Bool { referenceProblems.isEmpty && mutants.allSatisfy(\.killed) && itemsWithoutMutant.isEmpty }

        /// The kill matrix and every problem, for the terminal.
        public func text(quiet: Bool) -> String {
            var lines: [String] = []
            let counts = reference.counts
            lines.append("reference RP: \(reference.testCases.count) test cases, \(counts[.passed, default: 0]) passed"
                         + (referenceProblems.isEmpty ? "" : ", \(referenceProblems.count) NOT passed"))
            for problem in referenceProblems.prefix(20) {
                lines.append("  \(problem.verdict.rawValue) \(problem.id): \(problem.message ?? "")")
            }
            if !quiet {
                lines.append("")
                lines.append("kill matrix (mutant → its criterion):")
            }
            for result in mutants where !quiet || !result.killed {
                let status = result.killed ? "killed" : (result.verdict == .failed ? "PARTIAL" : "SURVIVED")
                lines.append("  " + result.mutation.id.padding(toLength: 36, withPad: " ", startingAt: 0)
                             + result.mutation.criterion.padding(toLength: 11, withPad: " ", startingAt: 0)
                             + status.padding(toLength: 9, withPad: " ", startingAt: 0)
                             + result.failedItems.sorted().map { $0.split(separator: ".").last.map(String.init) ?? $0 }.joined(separator: ","))
                if let others = result.failedCriteria?.filter({ $0 != result.mutation.criterion }), !others.isEmpty {
                    lines.append("      also failed: " + others.joined(separator: ", "))
                }
                if !result.killed {
                    lines.append("      expected failures on \(result.mutation.verifyItems.joined(separator: ", ")); missed \(result.missedItems.joined(separator: ", ")) (\(result.mutation.summary))")
                }
            }
            for item in itemsWithoutMutant { lines.append("  verify item \(item) has no mutant") }
            let killed = mutants.filter(\.killed).count
            lines.append("\(killed)/\(mutants.count) mutants killed; reference \(referenceProblems.isEmpty ? "conformant" : "NOT conformant"); "
                         + (passed ? "self-test passed" : "self-test FAILED"))
            return lines.joined(separator: "\n")
        }
    }

    /// Runs the reference RP over every criterion, then each mutant over its own criterion.
    ///
    /// With `fullMatrix`, each mutant runs against every criterion, so the report also shows which
    /// other criteria catch it (slower: the whole suite once per mutant).
    public static func run(criteria: [Criterion], digest: String, mutations: [Mutation] = Mutation.allCases, seed: UInt64 = 1,
                           fullMatrix: Bool = false) async throws -> Report {
        let reference = try await Suite.run(criteria: criteria, digest: digest, adapter: ReferenceRP(), transport: "in-process", seed: seed)
        var results: [MutantResult] = []
        for mutation in mutations {
            let filter = fullMatrix ? TestPlan.Filter() : TestPlan.Filter(criteria: [mutation.criterion])
            let run = try await Suite.run(criteria: criteria, digest: digest, adapter: ReferenceRP(mutation: mutation), transport: "in-process",
                                          filter: filter, seed: seed)
            let own = run.testCases.filter { $0.criterionID == mutation.criterion }
            let failed = own.filter { $0.verdict == .failed }
            let failedItems = Set(failed.flatMap(\.verifyItems))
            let verdict = run.criteria.first { $0.criterion.id == mutation.criterion }?.verdict ?? .notVerified
            results.append(MutantResult(mutation: mutation, verdict: verdict, failedItems: failedItems,
                                        missedItems: mutation.verifyItems.filter { !failedItems.contains($0) },
                                        evidence: failed.first?.message,
                                        failedCriteria: fullMatrix ? run.criteria.filter { $0.verdict == .failed }.map(\.criterion.id) : nil))
        }
        let named = Set(Mutation.allCases.flatMap(\.verifyItems))
        let items = criteria.flatMap { $0.info.verifyItems.map(\.id) }
        return Report(reference: reference, mutants: results, itemsWithoutMutant: items.filter { !named.contains($0) })
    }
}
