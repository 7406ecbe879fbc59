import ConformanceEvidence
import ConformanceKit
import ConformanceTestSupport
import Foundation
import ConformanceReports
import ReferenceRP
import Testing

/// The harness's deterministic generator (SplitMix64), so that a failing fuzz case is reproduced by its seed.
typealias FuzzGenerator = SplitMix64

/// The seed of a fuzz run: `FUZZ_SEED` when set (to reproduce a failure), else a fresh one; every
/// failure message names it.
enum FuzzSeed {
    static let value: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["FUZZ_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0...UInt64.max)
    }()
}

/// Mutated criterion files never crash or hang the loader or the runner: every defect is a located
/// diagnostic, every fault an `error` verdict, and a report set is always written.
@Suite("Criteria fuzzing", .heavy)
struct CriteriaFuzzTests {
    enum Mutation: CaseIterable {
        case deleteLine, duplicateLine, swapLines, controlCharacter, extremeNumber, truncate, garbageLine, oddTag, longWord,
            brokenKeyword, emptyExamples, unclosedDocString, flipByte

        /// Whether a mutated set that still loads is also run: mutations that change numbers or lengths
        /// of step arguments are only loaded, since the ranges of step arguments are checked by the
        /// step library (owned elsewhere) and not by this suite.
        var isRun: Bool { ![.extremeNumber, .longWord, .flipByte].contains(self) }
    }

    static func mutate(_ text: String, _ mutation: Mutation, using random: inout FuzzGenerator) -> [UInt8] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = Int.random(in: 0..<max(lines.count, 1), using: &random)
        switch mutation {
        case .deleteLine: if !lines.isEmpty { lines.remove(at: index) }
        case .duplicateLine: if !lines.isEmpty { lines.insert(lines[index], at: index) }
        case .swapLines: if lines.count > 1 { lines.swapAt(index, Int.random(in: 0..<lines.count, using: &random)) }
        case .controlCharacter:
            let control = ["\u{1B}[31m", "\u{07}", "\r", "\u{85}", "\u{0}", "\u{2028}"].randomElement(using: &random)!
            lines[index] += control
        case .extremeNumber:
            let extreme = ["-1", "0", "9223372036854775807", "99999999999999999999", "1e9", "-9223372036854775808"].randomElement(using: &random)!
            if let range = lines[index].range(of: #"\b[0-9]+\b"#, options: .regularExpression) { lines[index].replaceSubrange(range, with: extreme) }
        case .truncate:
            let bytes = Array(text.utf8)
            return Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
        case .garbageLine: lines.insert("this line is not Gherkin at all", at: index)
        case .oddTag:
            lines.insert(["@", "@criterion:", "@level:", "@verify:", "@needs:" + String(repeating: "x", count: 300)].randomElement(using: &random)!, at: index)
        case .longWord: lines[index] += " " + String(repeating: "w", count: 10_000)
        case .brokenKeyword: lines[index] = lines[index].replacingOccurrences(of: "Scenario", with: "Scenari")
        case .emptyExamples: lines.insert("    Examples:", at: index)
        case .unclosedDocString: lines.insert("      \"\"\"", at: index)
        case .flipByte:
            var bytes = Array(text.utf8)
            if !bytes.isEmpty { bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random) }
            return bytes
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    @Test("mutated criterion files give located diagnostics or runnable criteria, never a crash; reports are always written")
    func mutatedCriteria() async throws {
        let seed = FuzzSeed.value
        var random = FuzzGenerator(seed: seed)
        let originals = try FileManager.default.subpathsOfDirectory(atPath: PackagePaths.criteria.path).filter { $0.hasSuffix(".feature") }.sorted()
            .map { ($0, try String(contentsOf: PackagePaths.criteria.appendingPathComponent($0), encoding: .utf8)) }
        try #require(!originals.isEmpty)
        let out = try PackagePaths.temporaryDirectory("fuzz-criteria")
        defer { try? FileManager.default.removeItem(at: out) }
        // At least 40 mutations (so that the test means the same on a loaded machine, where the
        // cooperative pool is shared with every other test), then more until 3 s have passed.
        let deadline = ContinuousClock.now + .seconds(3)
        var iterations = 0
        var diagnosed = 0
        var ran = 0
        while iterations < 40 || (ContinuousClock.now < deadline && iterations < 2_000) {
            iterations += 1
            // Loading is synchronous: yield between mutations so the (two-thread) cooperative pool
            // stays available to the tests running beside this one.
            await Task.yield()
            let (path, text) = originals.randomElement(using: &random)!
            let mutation = Mutation.allCases.randomElement(using: &random)!
            let bytes = Self.mutate(text, mutation, using: &random)
            let started = ContinuousClock.now
            defer {
                if ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil {
                    print("iteration \(iterations) \(mutation) \(path): \(ContinuousClock.now - started)")
                }
            }
            let loaded = CriteriaLoader().load(sources: [("Criteria/" + path, Data(bytes))], root: "Criteria")
            for diagnostic in loaded.diagnostics {
                #expect(
                    !diagnostic.file.isEmpty && diagnostic.line >= 1 && diagnostic.column >= 1 && !diagnostic.message.isEmpty,
                    "seed \(seed), iteration \(iterations), \(mutation) of \(path): unlocated diagnostic \(diagnostic)")
            }
            if loaded.hasErrors {
                diagnosed += 1
                continue
            }
            guard mutation.isRun, let criterion = loaded.criteria.first else { continue }
            // One test case of the mutated criterion, end to end: plan, run, report.
            let plan = TestPlan.make([criterion])
            guard let testCase = plan.cases.randomElement(using: &random) else { continue }
            let filter = TestPlan.Filter(criteria: [CriterionSelector(criterion.info.id)], targets: [testCase.target.id], scenario: testCase.scenario.name)
            let run = try await Suite.run(
                criteria: [criterion], digest: loaded.digest, adapter: ReferenceRP(), transport: "in-process", filter: filter,
                seed: seed)
            ran += 1
            #expect(
                run.testCases.allSatisfy { $0.verdict != .error || $0.fault != nil },
                "seed \(seed), iteration \(iterations), \(mutation) of \(path): an error verdict without its typed fault")
            try ReportWriter.write(run, formats: ReportFormat.allCases, to: out.path)
            let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            #expect(
                files == ReportFormat.allCases.flatMap(\.fileNames).sorted(), "seed \(seed), iteration \(iterations): \(files)"
            )
        }
        #expect(diagnosed > 0 && ran > 0, "seed \(seed): \(diagnosed) diagnosed and \(ran) run of \(iterations); the mix should have both")
    }
}
