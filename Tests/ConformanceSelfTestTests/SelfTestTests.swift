import ConformanceKit
import ConformanceSelfTest
import ConformanceTestSupport
import Foundation
import ReferenceRP
import Testing

/// The reference RP against the package's own criteria: it conforms, every mutant is caught, and
/// runs reproduce from their seed.
@Suite("Reference RP", .heavy)
struct ReferenceRPTests {
    static let loaded = CriterionText.packageCriteria()
    static let startedAt = Date(timeIntervalSince1970: 1_800_000_000)

    static func run(
        _ adapter: any RelyingPartyAdapter = ReferenceRP(), seed: UInt64 = 1,
        filter: TestPlan.Filter = .init()
    ) async throws -> RunResult {
        try await Suite.run(
            criteria: loaded.criteria, digest: loaded.digest, adapter: adapter, transport: "in-process",
            filter: filter, seed: seed, startedAt: startedAt)
    }

    /// A run of the reference RP with every session's transcript.
    struct RecordedRun: Sendable {
        var result: RunResult
        var transcripts: [String: [TranscriptEntry]]
    }

    static func recordedRun(seed: UInt64, filter: TestPlan.Filter = .init()) async throws -> RecordedRun {
        let adapter = RecordingAdapter(wrapping: ReferenceRP())
        let result = try await run(adapter, seed: seed, filter: filter)
        return RecordedRun(result: result, transcripts: adapter.transcripts)
    }

    /// The mutants whose criterion is among the loaded criteria.
    static var applicableMutations: [Mutation] {
        let ids = Set(loaded.criteria.map(\.info.id))
        return Mutation.allCases.filter { ids.contains($0.criterion) }
    }

    /// The first mutant of each loaded criterion: the self-test's machinery, in a debug build, at a
    /// twentieth of its cost. CI runs the whole self-test (every mutant under every design it
    /// applies to, every fixed design and a random sample of knob combinations) in release, where it
    /// fails the build on any survivor or false alarm.
    static var sampledMutations: [Mutation] {
        var seen: Set<CriterionID> = []
        return applicableMutations.filter { seen.insert($0.criterion).inserted }
    }

    // Full runs shared by the tests below, so that the suite makes each one once. The self-test's
    // own reference run (seed 1) doubles as the second seed-1 run of the determinism test.
    // CPU-heavy runs go to their own thread (DedicatedExecutor), off the cooperative pool.
    static let seedOne = Task(executorPreference: DedicatedExecutor.heavy) { try await recordedRun(seed: 1) }
    static let seedTwo = Task(executorPreference: DedicatedExecutor.heavy) { try await recordedRun(seed: 2) }
    static let selfTest = Task(executorPreference: DedicatedExecutor.heavy) {
        try await SelfTest.run(criteria: loaded.criteria, digest: loaded.digest, mutations: sampledMutations, designs: [.reference], seed: 1, concurrency: 1)
    }

    // Every fixed design and a random sample of knob combinations run in CI's release `selftest`;
    // here one combination, drawn from every knob's range, shows the machinery end to end.
    @Test("no false alarm: a random combination of design knobs passes every criterion")
    func randomDesignPasses() async throws {
        try await withTaskExecutorPreference(DedicatedExecutor.heavy) {
            let design = try #require(ReferenceDesign.random(count: 1, seed: 1).first)
            let run = try await Suite.run(
                criteria: Self.loaded.criteria, digest: Self.loaded.digest, adapter: ReferenceRP(design: design), transport: "in-process", seed: 1)
            let problems = run.testCases.filter { $0.verdict != .passed }
            #expect(!run.testCases.isEmpty)
            #expect(problems.isEmpty, "\(design.specification): \(problems.prefix(5).map { "\($0.id): \($0.message ?? "")" }.joined(separator: "\n"))")
            #expect(run.metadata.adapter.name == "reference-rp+\(design.id)")
        }
    }

    @Test("the package's criteria load without defects")
    func criteriaLoad() throws {
        #expect(Self.loaded.diagnostics.map(\.description) == [])
        try #require(!Self.loaded.criteria.isEmpty)
    }

    @Test("the full suite passes every test case on every target")
    func conformant() async throws {
        let run = try await Self.seedOne.value.result
        let plan = TestPlan.make(Self.loaded.criteria)
        try #require(!plan.cases.isEmpty)
        #expect(run.testCases.map(\.id) == plan.cases.map(\.id))
        let problems = run.testCases.filter { $0.verdict != .passed }
        #expect(problems.isEmpty, "\(problems.map { "\($0.verdict.rawValue) \($0.id): \($0.message ?? "")" }.joined(separator: "\n"))")
        #expect(run.verdict == .passed)
        #expect(run.criteria.map(\.criterion.id) == Self.loaded.criteria.map(\.info.id))
        for criterion in run.criteria {
            #expect(criterion.verdict == .passed, "\(criterion.criterion.id)")
            #expect(!criterion.targets.isEmpty && criterion.targets.values.allSatisfy { $0 == .passed }, "\(criterion.criterion.id): \(criterion.targets)")
        }
        #expect(run.metadata.adapter.name == "reference-rp")
        #expect(run.metadata.criteriaDigest == Self.loaded.digest)
        #expect(run.metadata.targets == plan.targets.map(\.id.rawValue))
    }

    @Test("self-test: the reference passes, the first mutant of every criterion is killed, and every verify item has a mutant")
    func selfTestKillsEveryMutant() async throws {
        let mutations = Self.sampledMutations
        try #require(!mutations.isEmpty)
        let report = try await Self.selfTest.value
        let matrix = report.text(quiet: false)
        #expect(report.referenceProblems.isEmpty, "\(matrix)")
        #expect(report.mutants.map(\.mutation) == mutations)
        #expect(report.mutants.allSatisfy { $0.design == .reference })
        for mutant in report.mutants {
            #expect(mutant.killed, "\(mutant.mutation.id) survived\n\(matrix)")
            #expect(mutant.verdict == .failed, "\(mutant.mutation.id)")
            #expect(Set(mutant.mutation.verifyItems).isSubset(of: mutant.failedItems), "\(mutant.mutation.id) missed \(mutant.missedItems)")
            #expect(mutant.evidence != nil, "\(mutant.mutation.id) has no failure message")
        }
        #expect(report.itemsWithoutMutant == [], "\(matrix)")
        #expect(report.passed, "\(matrix)")
        let named = Set(Self.applicableMutations.flatMap(\.verifyItems))
        // Every item a native scenario covers; the web items are the web front end's mutants' to break.
        for item in SelfTest.nativeItems(Self.loaded.criteria) { #expect(named.contains(item), "\(item) has no mutant") }
    }

    @Test("a mutant's failures carry evidence that names the offending platform call")
    func mutantEvidence() async throws {
        let run = try await Self.run(ReferenceRP(mutation: .upgradeBeforeSecondFactor), filter: .init(criteria: ["N2.6-AC01"]))
        let failed = run.testCases.filter { $0.verdict == .failed }
        try #require(!failed.isEmpty)
        #expect(run.verdict == .failed)
        #expect(run.metadata.adapter.name == "reference-rp+upgrade-before-second-factor")
        #expect(failed.contains { $0.verifyItems.contains("N2.6-AC01.V1") })
        for result in failed {
            #expect(result.evidence.contains { $0.name == "platform.createCredential" }, "\(result.id)")
            #expect(result.message?.contains("registration request") == true, "\(result.message ?? "nil")")
        }
    }

    // MARK: Determinism

    /// The run as JSON with its wall-clock times (run and case durations, start time) zeroed:
    /// everything else, evidence included, must reproduce.
    static func reproducible(_ run: RunResult) throws -> String {
        var run = run
        run.wallSeconds = 0
        run.metadata.startedAt = ""
        for index in run.testCases.indices {
            run.testCases[index].wallSeconds = 0
        }
        return String(decoding: try Wire.encoder(pretty: true).encode(run), as: UTF8.self)
    }

    /// Where two sets of transcripts first differ (test case, entry and both versions), or `nil`.
    static func firstDifference(_ a: [String: [TranscriptEntry]], _ b: [String: [TranscriptEntry]]) -> String? {
        if Set(a.keys) != Set(b.keys) { return "different test cases: \(Set(a.keys).symmetricDifference(Set(b.keys)).sorted())" }
        for id in a.keys.sorted() where a[id] != b[id] {
            let (x, y) = (a[id] ?? [], b[id] ?? [])
            guard let index = Array(zip(x, y)).firstIndex(where: { $0.0 != $0.1 }) else {
                return "\(id): \(x.count) entries against \(y.count)"
            }
            return "\(id), entry \(index + 1):\n  \(Wire.jsonString(x[index]))\n  \(Wire.jsonString(y[index]))"
        }
        return nil
    }

    @Test("two runs with the same seed give the same results and transcripts, wall times and signatures aside")
    func sameSeed() async throws {
        let recorded = try await Self.seedOne.value
        let selfTestReference = try await Self.selfTest.value.reference
        #expect(try Self.reproducible(recorded.result) == Self.reproducible(selfTestReference))
        // Transcripts of every case, passed ones included, from two fresh recorded runs.
        let again = try await Self.recordedRun(seed: 1, filter: .init(criteria: ["N2.6-AC05", "N2.6-AC06"]))
        let transcripts = recorded.transcripts.filter { again.transcripts.keys.contains($0.key) }
        try #require(!again.transcripts.isEmpty && transcripts.count == again.transcripts.count)
        #expect(Self.firstDifference(transcripts, again.transcripts) == nil)
        try #require(recorded.transcripts.count == recorded.result.testCases.count)
        // Failed runs carry transcripts in the result itself; they reproduce too.
        let mutantA = try await Self.run(ReferenceRP(mutation: .doubleRequest), seed: 1, filter: .init(criteria: ["N2.6-AC05"]))
        let mutantB = try await Self.run(ReferenceRP(mutation: .doubleRequest), seed: 1, filter: .init(criteria: ["N2.6-AC05"]))
        #expect(mutantA.testCases.contains { !$0.evidence.isEmpty })
        #expect(try Self.reproducible(mutantA) == Self.reproducible(mutantB))
    }

    @Test("transcripts of passkey sign-ins reproduce from the seed: signatures are recorded as a note, not as random bytes")
    func rawSignatures() async throws {
        let filter = TestPlan.Filter(tags: try TagExpression.parse("@android-15-gpm"), criteria: ["N3.2-AC01", "N3.2-AC02"])
        let a = try await Self.recordedRun(seed: 1, filter: filter)
        let b = try await Self.recordedRun(seed: 1, filter: filter)
        // OpenSSL 3.0 signs with a random ECDSA nonce; the transcript keeps a fixed note in its place.
        let payloads = a.transcripts.values.flatMap { $0 }.compactMap(\.payload).map { Wire.jsonString($0) }
        try #require(payloads.contains { $0.contains("DER ES256 signature") }, "the selected cases sign nothing; pick cases with a passkey sign-in")
        #expect(Self.firstDifference(a.transcripts, b.transcripts) == nil)
    }

    /// The user handles and challenges the app put into its registration requests, per test case.
    static func requestSecrets(_ transcripts: [String: [TranscriptEntry]]) -> [String: [String]] {
        transcripts.mapValues { entries in
            entries.filter { $0.name == "platform.createCredential" }.compactMap { entry -> String? in
                guard let payload = entry.payload else { return nil }
                if let apple = payload["apple"] {
                    return [apple["userID"]?.stringValue, apple["challenge"]?.stringValue].compactMap { $0 }.joined(separator: " ")
                }
                guard let text = payload["android"]?["requestJson"]?.stringValue,
                    let options = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                else { return nil }
                return [options["user"]?["id"]?.stringValue, options["challenge"]?.stringValue].compactMap { $0 }.joined(separator: " ")
            }
        }.filter { !$0.value.isEmpty }
    }

    @Test("another seed changes user handles and challenges but no verdict")
    func otherSeed() async throws {
        let first = try await Self.seedOne.value
        let second = try await Self.seedTwo.value
        let (a, b) = (first.result, second.result)
        #expect(a.testCases.map(\.id) == b.testCases.map(\.id))
        #expect(a.testCases.map(\.verdict) == b.testCases.map(\.verdict))
        #expect(a.criteria.map(\.verdict) == b.criteria.map(\.verdict))
        #expect(a.metadata.seed == 1 && b.metadata.seed == 2)
        let secretsA = Self.requestSecrets(first.transcripts)
        let secretsB = Self.requestSecrets(second.transcripts)
        try #require(!secretsA.isEmpty, "no registration request carried a user handle or challenge")
        #expect(Set(secretsA.keys) == Set(secretsB.keys))
        for (id, values) in secretsA {
            #expect(values.allSatisfy { !$0.isEmpty }, "\(id): a request without user handle or challenge")
            #expect(Set(values).isDisjoint(with: Set(secretsB[id] ?? [])), "\(id): seed 2 repeated a user handle or challenge of seed 1")
        }
    }
}
