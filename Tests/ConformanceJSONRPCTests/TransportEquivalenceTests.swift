import ConformanceJSONRPC
import ConformanceKit
import ConformanceTestSupport
import Foundation
import ReferenceRP
import Testing

/// The runner must not care which transport it drives: the whole suite gives the same verdicts
/// in-process and through JSON-RPC (in-process pipes, and the stand-alone adapter executable).
// One test at a time, and the in-process runs on a thread of their own: each is a whole suite, and
// the cooperative pool (two threads on 2 cores) must stay free for the JSON-RPC tests beside them.
@Suite("Transport equivalence", .serialized, .loadsMachine)
struct TransportEquivalenceTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let adapterBinary = packageRoot.appendingPathComponent(".build/debug/reference-rp-adapter").path

    static func verdicts(_ adapter: any RelyingPartyAdapter, transport: String, filter: TestPlan.Filter = .init()) async throws -> [String: Verdict] {
        let loaded = CriteriaLoader().load(root: packageRoot.appendingPathComponent("Criteria").path)
        #expect(!loaded.hasErrors)
        let run = try await Suite.run(criteria: loaded.criteria, digest: loaded.digest, adapter: adapter, transport: transport, filter: filter, seed: 7)
        await adapter.shutdown()
        return Dictionary(uniqueKeysWithValues: run.testCases.map { ($0.id, $0.verdict) })
    }

    static func compare(_ expected: [String: Verdict], _ actual: [String: Verdict]) {
        #expect(expected.count == actual.count)
        let differing = expected.keys.sorted().filter { expected[$0] != actual[$0] }
        #expect(
            differing.isEmpty, "verdicts differ: \(differing.prefix(10).map { "\($0): \(expected[$0]!.rawValue) vs \(actual[$0]?.rawValue ?? "missing")" })")
    }

    @Test("The reference RP gives the same verdicts through JSON-RPC pipes as in-process")
    func pipes() async throws {
        let direct = try await withTaskExecutorPreference(DedicatedExecutor.heavy) { try await Self.verdicts(ReferenceRP(), transport: "in-process") }
        try #require(!direct.isEmpty, "the in-process run planned no test case")
        #expect(direct.values.allSatisfy { $0 == .passed })
        let viaJSONRPC = try await Self.verdicts(JSONRPCAdapter(servingInProcess: ReferenceRP(), configuration: .patient()), transport: "json-rpc")
        Self.compare(direct, viaJSONRPC)
    }

    @Test("A mutant fails the same test cases through JSON-RPC as in-process")
    func mutantPipes() async throws {
        // The mutant's group is enough to compare failures; the reference runs compare the whole suite.
        let group = TestPlan.Filter(criteria: ["N3.2"])
        let direct = try await withTaskExecutorPreference(DedicatedExecutor.heavy) {
            try await Self.verdicts(ReferenceRP(mutation: .retryEarly), transport: "in-process", filter: group)
        }
        #expect(direct.values.contains(.failed))
        let viaJSONRPC = try await Self.verdicts(
            JSONRPCAdapter(servingInProcess: ReferenceRP(mutation: .retryEarly), configuration: .patient()), transport: "json-rpc", filter: group)
        Self.compare(direct, viaJSONRPC)
    }

    @Test(
        "The reference-rp-adapter executable gives the same verdicts as in-process",
        .enabled(if: FileManager.default.isExecutableFile(atPath: adapterBinary), "needs the built reference-rp-adapter (swift build)"))
    func childProcess() async throws {
        let direct = try await withTaskExecutorPreference(DedicatedExecutor.heavy) { try await Self.verdicts(ReferenceRP(), transport: "in-process") }
        let viaProcess = try await Self.verdicts(JSONRPCAdapter(executable: Self.adapterBinary, configuration: .patient()), transport: "json-rpc")
        Self.compare(direct, viaProcess)
    }
}
