import Foundation
import HarnessBuild

/// The whole pipeline in one call: plan the loaded criteria, run them against an adapter, fold the
/// results. The CLI, the self-test, the benchmarks and the tests all go through here.
public enum Suite {
    /// The harness version reports name (`HarnessBuild.version`).
    public static let harnessVersion = HarnessBuild.version

    /// Runs `criteria` against `adapter`.
    ///
    /// - Parameters:
    ///   - allowNotVerified: recorded in the metadata; relaxes the exit status of a run that left
    ///     criteria unverified (see `ConformanceReports.ExitStatus`).
    ///   - jobs: how many test cases run at once (see `Runner.run(_:description:jobs:onEvent:)`).
    ///   - keepsTranscriptsOfPasses: passes keep their whole transcript as evidence (`--evidence all`).
    /// - Throws: only when the adapter cannot describe itself (a fault of the adapter); every test
    ///   case's own faults become `error` verdicts.
    public static func run(
        criteria: [Criterion], digest: String, adapter: any RelyingPartyAdapter, transport: String,
        command: String? = nil, filter: TestPlan.Filter = .init(), filterText: [String: String] = [:],
        seed: UInt64 = 1, startedAt: Date = Date(), allowNotVerified: Bool = false, jobs: Int = 1,
        keepsTranscriptsOfPasses: Bool = false, onEvent: @Sendable (Runner.Event) -> Void = { _ in }
    ) async throws -> RunResult {
        let clock = ContinuousClock()
        let started = clock.now
        let description = try await describe(adapter)
        let plan = TestPlan.make(criteria, filter: filter)
        let results = await Runner(adapter: adapter, seed: seed, keepsTranscriptsOfPasses: keepsTranscriptsOfPasses).run(
            plan, description: description, jobs: jobs, onEvent: onEvent)
        let elapsed = clock.now - started
        var metadata = Self.metadata(
            plan: plan, description: description, digest: digest, transport: transport,
            subject: command.map(RunSubject.adapterCommand) ?? .reference(design: nil, mutant: nil), filterText: filterText, seed: seed, startedAt: startedAt,
            allowNotVerified: allowNotVerified)
        if keepsTranscriptsOfPasses { metadata.transcriptsForPasses = true }
        return RunResult.assemble(plan: plan, results: results, metadata: metadata, wallSeconds: elapsed.inSeconds)
    }

    /// The adapter's description, checked: a different major protocol version is a fault.
    public static func describe(_ adapter: any RelyingPartyAdapter) async throws -> AdapterDescription {
        let description = try await adapter.describe()
        guard description.protocolVersion.split(separator: ".").first == adapterProtocolVersion.split(separator: ".").first else {
            throw SystemIssue("the adapter speaks protocol \(description.protocolVersion); this harness speaks \(adapterProtocolVersion)")
        }
        return description
    }

    /// The declared target ids that `TargetCatalog` does not know, in declaration order.
    public static func unknownTargets(of description: AdapterDescription) -> [String] {
        let known = Set(TargetCatalog.known.map(\.id))
        var seen: Set<TargetID> = []
        return description.targets.filter { !known.contains($0) && seen.insert($0).inserted }.map(\.rawValue)
    }

    /// The metadata of a run of `plan` against `subject`; `description` is `nil` when the adapter
    /// could not describe itself.
    public static func metadata(
        plan: TestPlan, description: AdapterDescription?, adapterName: String = "unknown", digest: String,
        transport: String, subject: RunSubject, filterText: [String: String], seed: UInt64, startedAt: Date,
        allowNotVerified: Bool, fault: RunFault? = nil
    ) -> RunMetadata {
        let adapter: RunMetadata.AdapterInfo
        if let description {
            adapter = .init(
                name: description.name, version: description.version, transport: transport,
                declaredTargets: description.targets.map(\.rawValue), capabilities: description.capabilities.map(\.rawValue),
                unknownTargets: unknownTargets(of: description), protocolVersion: description.protocolVersion,
                ignoredCapabilities: description.ignoredCapabilities, declarations: description.declarations.map(\.rawValue))
        } else {
            adapter = .init(name: adapterName, version: "unknown", transport: transport)
        }
        var metadata = RunMetadata(
            harnessVersion: harnessVersion, criteriaDigest: digest, adapter: adapter, targets: plan.targets.map(\.id.rawValue),
            seed: seed, startedAt: iso8601(startedAt), filters: filterText, allowNotVerified: allowNotVerified, fault: fault)
        metadata.runSubject = subject
        return metadata
    }

    /// `2026-11-29T13:05:00Z`.
    public static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
