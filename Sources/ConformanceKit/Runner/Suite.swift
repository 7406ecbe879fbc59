import Foundation

/// The whole pipeline in one call: plan the loaded criteria, run them against an adapter, fold the
/// results. The CLI, the self-test, the benchmarks and the tests all go through here.
public enum Suite {
    /// The harness version reports name.
    public static let harnessVersion = "0.1.0"

    /// Runs `criteria` against `adapter`.
    ///
    /// - Throws: only when the adapter cannot describe itself (a fault of the adapter); every test
    ///   case's own faults become `error` verdicts.
    public static func run(criteria: [Criterion], digest: String, adapter: any RelyingPartyAdapter, transport: String,
                           command: String? = nil, filter: TestPlan.Filter = .init(), filterText: [String: String] = [:],
                           seed: UInt64 = 1, startedAt: Date = Date(), onEvent: @Sendable (Runner.Event) -> Void = { _ in }) async throws -> RunResult {
        let clock = ContinuousClock()
        let started = clock.now
        let description = try await adapter.describe()
        guard description.protocolVersion.split(separator: ".").first == adapterProtocolVersion.split(separator: ".").first else {
            throw SystemIssue("the adapter speaks protocol \(description.protocolVersion); this harness speaks \(adapterProtocolVersion)")
        }
        let plan = TestPlan.make(criteria, filter: filter)
        let results = await Runner(adapter: adapter, seed: seed).run(plan, description: description, onEvent: onEvent)
        let elapsed = clock.now - started
        let metadata = RunMetadata(harnessVersion: harnessVersion, criteriaDigest: digest,
                                   adapter: .init(name: description.name, version: description.version, transport: transport, command: command),
                                   targets: plan.targets.map(\.id), seed: seed, startedAt: iso8601(startedAt), filters: filterText)
        return RunResult.assemble(plan: plan, results: results, metadata: metadata,
                                  wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// `2026-11-29T13:05:00Z`.
    public static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// The default criteria directory: `./Criteria` if present, else the one in this source checkout.
    public static func defaultCriteriaRoot() -> String {
        if FileManager.default.fileExists(atPath: "Criteria") { return "Criteria" }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Criteria").path
    }
}
