import ConformanceKit
import ConformanceEvidence
import ConformanceReports
import Foundation
import WebAuthn

/// Combines the reports of the shards of one run (`run --shard i/n`) into the run a single
/// `run` gives: every test case in plan order, the verdicts folded again, the metadata of the
/// whole run.
///
/// The shards must be the `n` shards of one plan, each once, run by the same harness build on the
/// same criteria, seed, adapter, filters and gate; each must have run to its end (no interruption
/// and no fault before the run) and without a waiver file (waivers are given to `merge`).
enum ShardMerge {
    /// A shard's report: where it was read from and the run it holds.
    struct Shard {
        var path: String
        var run: RunResult
        /// The shard's share of the plan: its test cases without the monitors' (which the merge
        /// derives again from the findings of all shards together).
        var planned: [TestCaseResult] { run.testCases.filter { !$0.isMonitorCase } }
    }

    /// Why shards cannot be merged.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads a shard: a report directory, its `report.json`, or an evidence bundle (`run --shard
    /// i/n --bundle DIR`). The report is judged by its test cases (`ReportAudit`): a shard whose
    /// digest, verdicts or summary do not follow from them is refused, and so is a bundle that does
    /// not verify. With `publicKey`, every shard must be a bundle signed by that key.
    static func read(_ path: String, publicKey: PEMPublicKey? = nil) throws(Refusal) -> Shard {
        var isDirectory: ObjCBool = false
        let directory = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        let isBundle = directory && FileManager.default.fileExists(atPath: path + "/" + EvidenceBundle.manifestName)
        if isBundle {
            let verification = EvidenceBundle.verify(path, publicKey: publicKey)
            guard verification.isIntact else {
                let problems = verification.problems.prefix(5).map { Output.inline($0.description) }.joined(separator: "; ")
                throw Refusal("\(path): the evidence bundle does not verify (\(verification.problems.count) problem(s)): \(problems)")
            }
        } else if publicKey != nil {
            throw Refusal(
                "\(path): not an evidence bundle; with --public-key every shard must be a bundle signed by that key (run --shard i/n --bundle DIR, then sign DIR)"
            )
        }
        let file = directory ? path + "/report.json" : path
        guard let bytes = FileManager.default.contents(atPath: file) else { throw Refusal("\(file): cannot be read") }
        if let waivers = ReportReader.waiverFile(from: bytes) {
            throw Refusal("\(file): the shard was run with the waiver file \(waivers); run shards without waivers and give the file to 'merge --waivers'")
        }
        let audited: ReportAudit.Audited
        do {
            audited = try ReportAudit.audit(bytes)
        } catch {
            throw Refusal("\(file): \(error)")
        }
        guard audited.findings.isEmpty else {
            let findings =
                audited.findings.prefix(5).map { Output.inline($0.description) }.joined(separator: "; ")
                + (audited.findings.count > 5 ? "; … \(audited.findings.count - 5) more" : "")
            throw Refusal("\(file): the report does not follow from its own test cases (changed after the run?): \(findings)")
        }
        return Shard(path: file, run: audited.run)
    }

    /// The merged run.
    static func merge(_ shards: [Shard]) throws(Refusal) -> RunResult {
        guard let first = shards.first else { throw Refusal("no shard given") }
        var byIndex: [Int: Shard] = [:]
        for shard in shards {
            let metadata = shard.run.metadata
            guard let part = metadata.shard else { throw Refusal("\(shard.path): not a shard's report (run it with --shard i/n)") }
            if let signal = metadata.interruption {
                throw Refusal("\(shard.path): shard \(part.description) was interrupted by \(signal.rawValue); run it again")
            }
            if let fault = metadata.fault { throw Refusal("\(shard.path): shard \(part.description) did not run (\(fault.description)); run it again") }
            if let earlier = byIndex[part.index] { throw Refusal("shard \(part.description) is given twice: \(earlier.path) and \(shard.path)") }
            try same(first, shard)
            guard shard.planned.count == part.testCases else {
                throw Refusal(
                    "\(shard.path): shard \(part.description) holds \(shard.planned.count) test cases; its share of the plan's \(part.plannedTestCases) is \(part.testCases)"
                )
            }
            byIndex[part.index] = shard
        }
        let count = first.run.metadata.shard!.count
        let missing = (1...count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw Refusal("shard(s) " + missing.map { "\($0)/\(count)" }.joined(separator: ", ") + " missing: merge needs all \(count) shards of the run")
        }
        // Shard i's k-th test case is the plan's (k·n + i − 1)-th.
        let planned = first.run.metadata.shard!.plannedTestCases
        var ordered = [TestCaseResult?](repeating: nil, count: planned)
        var seen: [String: String] = [:]
        for (index, shard) in byIndex {
            for (position, result) in shard.planned.enumerated() {
                if let other = seen[result.id] { throw Refusal("test case \(result.id) is in both \(other) and \(shard.path)") }
                seen[result.id] = shard.path
                ordered[RunMetadata.Shard.planPosition(of: position, inShard: index, count: count)] = result
            }
        }
        var metadata = first.run.metadata
        metadata.shard = nil
        metadata.startedAt = shards.map(\.run.metadata.startedAt).min() ?? metadata.startedAt
        var hosts: [String] = []
        for shard in (1...count).compactMap({ byIndex[$0] }) {
            if let host = shard.run.metadata.host, !hosts.contains(host) { hosts.append(host) }
        }
        metadata.host = hosts.isEmpty ? nil : hosts.joined(separator: "; ")
        let plan = TestPlan(cases: [], criteria: first.run.criteria.map(\.criterion), targets: [])
        return RunResult.assemble(
            plan: plan, results: ordered.compactMap { $0 }, metadata: metadata, wallSeconds: shards.map(\.run.wallSeconds).max() ?? 0)
    }

    /// Refuses a shard that does not belong to the same run as `first`, naming what differs.
    private static func same(_ first: Shard, _ shard: Shard) throws(Refusal) {
        let a = first.run.metadata
        let b = shard.run.metadata
        func check<T: Equatable>(_ what: String, _ left: T, _ right: T, _ show: (T) -> String) throws(Refusal) {
            guard left == right else {
                throw Refusal("\(shard.path) and \(first.path) are not shards of one run: different \(what) (\(show(right)) and \(show(left)))")
            }
        }
        let text = { (value: String?) in value ?? "not recorded" }
        try check("criteria digests", a.criteriaDigest, b.criteriaDigest) { $0 }
        try check("seeds", a.seed, b.seed) { String($0) }
        try check("harness versions", a.harnessVersion, b.harnessVersion) { $0 }
        try check("harness commits", a.harnessCommit, b.harnessCommit, text)
        try check("harness builds (modified sources)", a.harnessModified, b.harnessModified) { $0.map(String.init) ?? "not recorded" }
        try check("harness binaries (SHA-256)", a.harnessBinarySHA256, b.harnessBinarySHA256, text)
        try check("harness executables", a.harnessCommand, b.harnessCommand) { $0 ?? "swift run passkey-conformance" }
        try check("adapters", adapterText(a.adapter), adapterText(b.adapter)) { $0 }
        try check("filters", a.filters, b.filters) { filters in
            filters.isEmpty ? "none" : filters.keys.sorted().map { "\($0)=\(filters[$0] ?? "")" }.joined(separator: " ")
        }
        try check("criteria roots", a.criteriaRoot, b.criteriaRoot) { $0 ?? "default" }
        try check("gates (--allow-not-verified)", a.allowNotVerified, b.allowNotVerified) { String($0) }
        try check("gates (--gate)", a.gate ?? .all, b.gate ?? .all) { $0.rawValue }
        try check("evidence (--evidence)", a.transcriptsForPasses ?? false, b.transcriptsForPasses ?? false) { $0 ? "all" : "failures" }
        try check("targets", a.targets, b.targets) { $0.joined(separator: ",") }
        try check("criteria", first.run.criteria.map(\.criterion), shard.run.criteria.map(\.criterion)) { $0.map(\.id).joined(separator: ",") }
        try check("shard counts", a.shard?.count, b.shard?.count) { $0.map { "\($0) shards" } ?? "none" }
        try check("plans", a.shard?.plannedTestCases, b.shard?.plannedTestCases) { $0.map { "\($0) test cases" } ?? "none" }
    }

    private static func adapterText(_ adapter: RunMetadata.AdapterInfo) -> String {
        "\(adapter.name) \(adapter.version) (\(adapter.transport)\(adapter.command.map { ", \($0)" } ?? ""))"
            + " targets \(adapter.declaredTargets?.joined(separator: ",") ?? "-") capabilities \(adapter.capabilities?.joined(separator: ",") ?? "-")"
    }
}
