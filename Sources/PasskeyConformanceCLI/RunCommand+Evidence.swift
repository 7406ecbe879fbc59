import ConformanceKit
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

    /// `--sign-key`: the private key, read and checked before anything runs.
    static func signingKey(_ parsed: ParsedArguments) throws(UsageError) -> PEMSigningKey? {
        guard let path = parsed.value("sign-key") else { return nil }
        guard parsed.value("bundle") != nil else { throw UsageError("--sign-key signs an evidence bundle: give --bundle <dir> too", command: spec.name) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw UsageError("--sign-key: cannot read the signing key \(Output.inline(path))", command: spec.name)
        }
        do {
            return try PEMSigningKey(pem: text)
        } catch {
            throw UsageError("--sign-key: cannot use the signing key \(Output.inline(path)): \(error)", command: spec.name)
        }
    }

    /// The criterion files below `root` as a bundle holds them (paths relative to the root), or a
    /// reason when they changed since the run loaded them (another digest) or cannot be read.
    static func criterionFiles(root: String, digest: String) -> Result<[EvidenceBundle.File], SystemIssue> {
        guard !digest.isEmpty, let paths = try? CriteriaLoader.featureFiles(at: root) else { return .success([]) }
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
            try EvidenceBundle.write(run, waivers: waivers, criteria: files, signingKey: signingKey, to: directory)
            if !quiet {
                Output.out("Evidence bundle: \(Output.inline(directory))" + (signingKey == nil ? "" : " (manifest signed)"))
            }
            return true
        } catch {
            Output.error("error: \(Output.inline(error.description))")
            return false
        }
    }
}
