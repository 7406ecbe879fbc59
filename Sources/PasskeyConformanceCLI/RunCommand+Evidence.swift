import ConformanceKit
import ConformanceEvidence
import ConformanceReports
import Foundation
import WebAuthn

extension RunCommand {
    /// `--shard i/n`: 1 ≤ i ≤ n ≤ 1000.
    static func shard(_ parsed: ParsedArguments) throws(UsageError) -> (index: Int, count: Int)? {
        guard let text = parsed.value("shard") else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...1000).contains(count), (1...count).contains(index) else {
            throw UsageError("--shard must be i/n with 1 ≤ i ≤ n ≤ 1000, such as 2/4, found '\(text)'", command: spec.name)
        }
        if parsed.value("waivers") != nil {
            throw UsageError("--waivers applies to the merged report: give it to 'merge', not to a shard", command: spec.name)
        }
        return (index, count)
    }

    /// `--sign-key` is refused: a key given to `run` is within reach of the relying party's code for
    /// the whole run (the adapter runs as the same user and reads its parent's command line and
    /// files), so a signature made with it would prove nothing. Signing is its own step (`sign`).
    static func refuseSigningKey(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.value("sign-key") != nil else { return }
        throw UsageError(
            "--sign-key is not accepted by run: the relying party's code runs inside the run and could read the key; "
                + "write the bundle with --bundle <dir>, then sign it in a separate step that never runs the relying party: "
                + "passkey-conformance sign <dir> --key <pem>",
            command: spec.name)
    }

    /// The criterion files below `root` as a bundle holds them (paths relative to the root), or a
    /// reason when they changed since the run loaded them (another digest) or cannot be read.
    static func criterionFiles(root: String, digest: String) -> Result<[EvidenceBundle.File], SystemIssue> {
        guard !digest.isEmpty else { return .failure(SystemIssue("the criteria did not load, so there is no run to bundle (the reports say why)")) }
        guard let paths = try? CriteriaLoader.featureFiles(at: root), !paths.isEmpty else {
            return .failure(
                SystemIssue(
                    "the criterion files in \(root) cannot be read any more (moved, renamed or removed during the run): a bundle without the criteria its report names would prove nothing"
                ))
        }
        var files: [EvidenceBundle.File] = []
        for path in paths.sorted() {
            guard let bytes = FileManager.default.contents(atPath: path) else { return .failure(SystemIssue("\(path): cannot be read")) }
            var relative = path.hasPrefix(root) ? String(path.dropFirst(root.count).drop(while: { $0 == "/" })) : path
            if relative.isEmpty { relative = (path as NSString).lastPathComponent }
            files.append(.init(path: relative, bytes: [UInt8](bytes)))
        }
        let found = EvidenceBundle.criteriaDigest(files.map { ($0.path, Data($0.bytes)) })
        guard found == digest else {
            return .failure(SystemIssue("the criterion files in \(root) changed during the run (digest \(found), the run's \(digest))"))
        }
        return .success(files)
    }

    /// Writes the evidence bundle; false (after saying why) when it could not be written.
    func writeBundle(_ run: RunResult, waivers: WaiverEvaluation, criteriaRoot: String) -> Bool {
        guard let directory = bundle else { return true }
        let files: [EvidenceBundle.File]
        switch Self.criterionFiles(root: criteriaRoot, digest: run.metadata.criteriaDigest) {
        case .success(let found): files = found
        case .failure(let issue):
            Output.error("error: the evidence bundle was not written: \(Output.inline(issue.message))")
            return false
        }
        do {
            try EvidenceBundle.write(run, waivers: waivers, criteria: files, to: directory)
            if !quiet { Output.out("Evidence bundle: \(Output.inline(directory)) (unsigned; sign it in a separate step: sign <dir> --key <pem>)") }
            return true
        } catch {
            Output.error("error: \(Output.inline(error.description))")
            return false
        }
    }
}
