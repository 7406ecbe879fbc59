#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ConformanceCrypto
import ConformanceModel
import ConformanceReports

extension EvidenceBundle {
    /// What `verify` found: every problem, each naming the file it is about, and remarks that are
    /// not problems (a signature left unchecked).
    package struct Verification: Sendable, Hashable {
        /// A file that does not match the manifest, or a manifest or signature that does not hold.
        package struct Problem: Sendable, Hashable, CustomStringConvertible {
            /// The file, relative to the bundle.
            package var path: String
            /// What is wrong with it.
            package var message: String
            /// `report.json: …`
            package var description: String { "\(path): \(message)" }
        }
        /// Every problem, manifest and signature first, then the files in path order.
        package var problems: [Problem] = []
        /// Remarks: what was checked, and what could not be.
        package var notes: [String] = []
        /// How many files the manifest lists.
        package var files = 0
        /// Whether every digest and, when a key was given, the signature hold.
        package var isIntact: Bool { problems.isEmpty }
    }

    /// Checks a bundle, by its bytes and by their meaning:
    /// - `manifest.json` is a manifest of this format; with `publicKey`, `manifest.sig` is a valid
    ///   signature of it by that key;
    /// - every file it lists is there with its SHA-256 and size, and the bundle holds no file it
    ///   does not list; paths are compared byte for byte (two spellings of one name in Unicode
    ///   are two files);
    /// - it holds the criterion files, and they give the criteria digest the manifest and the
    ///   report name;
    /// - `report.json` follows from its own test cases (`ReportAudit`: its digest, each verdict
    ///   against its steps, the summary, criteria and waivers computed again), its digest is the
    ///   manifest's, and every other report and every transcript is what this harness writes from it
    ///   (a transcript for each test case, none for a test case the report does not name).
    package static func verify(_ directory: String, publicKey: PEMPublicKey?) -> Verification {
        var result = Verification()
        func problem(_ path: String, _ message: String) { result.problems.append(.init(path: path, message: message)) }
        let root = URL(fileURLWithPath: directory)
        func read(_ path: String) -> Data? { try? Data(contentsOf: root.appendingPathComponent(path)) }

        guard let manifestBytes = read(manifestName) else {
            problem(manifestName, "missing or unreadable: \(directory) is not an evidence bundle")
            return result
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: manifestBytes)
        } catch {
            problem(manifestName, "not a manifest of an evidence bundle (\(error))")
            return result
        }
        guard manifest.format == format, manifest.version == version else {
            problem(manifestName, "format \(manifest.format) version \(manifest.version); this harness reads \(format) version \(version)")
            return result
        }
        guard manifest.files.count == Set(manifest.files.map { PathBytes($0.path) }).count else {
            problem(manifestName, "lists a file more than once")
            return result
        }
        result.files = manifest.files.count
        checkSignature(manifest, manifestBytes: manifestBytes, signature: read(signatureName), publicKey: publicKey, into: &result)

        let listed = Set(manifest.files.map { PathBytes($0.path) })
        let present = regularFiles(below: root, into: &result)
        var contents: [PathBytes: Data] = [:]
        for entry in manifest.files.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
            guard present.contains(PathBytes(entry.path)), let bytes = read(entry.path) else {
                problem(entry.path, "listed in \(manifestName) but missing from the bundle")
                continue
            }
            let digest = ReportDigest.sha256Hex(bytes)
            if digest != entry.sha256 {
                problem(entry.path, "SHA-256 \(digest) does not match \(entry.sha256) in \(manifestName)")
            } else if bytes.count != entry.bytes {
                problem(entry.path, "\(bytes.count) bytes, \(manifestName) says \(entry.bytes)")
            } else {
                contents[PathBytes(entry.path)] = bytes
            }
        }
        for path in present.sorted() where !listed.contains(path) && path.text != manifestName && path.text != signatureName {
            problem(path.text, "in the bundle but not listed in \(manifestName)")
        }
        checkCriteria(manifest, contents: contents, into: &result)
        checkMeaning(manifest, contents: contents, into: &result)
        return result
    }

    /// A path as its bytes: `String`'s equality would take canonically equivalent spellings
    /// (`K` and the Kelvin sign U+212A) for one name, where a file system holds two files.
    struct PathBytes: Hashable, Comparable {
        var bytes: [UInt8]
        init(_ text: String) { bytes = Array(text.utf8) }
        var text: String { String(decoding: bytes, as: UTF8.self) }
        static func < (left: PathBytes, right: PathBytes) -> Bool { left.bytes.lexicographicallyPrecedes(right.bytes) }
    }

    /// The criterion files: there, and giving the digest the manifest names.
    private static func checkCriteria(_ manifest: Manifest, contents: [PathBytes: Data], into result: inout Verification) {
        let entries = manifest.files.filter { $0.path.hasPrefix("criteria/") }
        guard !entries.isEmpty else {
            result.problems.append(
                .init(
                    path: "criteria/",
                    message: "the bundle holds no criterion file; the run's criteria digest \(manifest.criteriaDigest) names files an auditor cannot read"))
            return
        }
        let criteria = entries.compactMap { entry in contents[PathBytes(entry.path)].map { (String(entry.path.dropFirst("criteria/".count)), $0) } }
        guard criteria.count == entries.count else { return }  // a missing or changed file is reported already
        let digest = criteriaDigest(criteria)
        if digest != manifest.criteriaDigest {
            result.problems.append(
                .init(
                    path: "criteria/", message: "the criterion files give the criteria digest \(digest), not \(manifest.criteriaDigest) as \(manifestName) says"
                ))
        }
    }

    /// `report.json` judged by its test cases, and every other report and transcript against what
    /// this harness writes from it.
    private static func checkMeaning(_ manifest: Manifest, contents: [PathBytes: Data], into result: inout Verification) {
        func problem(_ path: String, _ message: String) { result.problems.append(.init(path: path, message: message)) }
        let json = ReportFormat.json.fileName
        guard let bytes = contents[PathBytes(json)] else {
            if !manifest.files.contains(where: { $0.path == json }) { problem(json, "missing: a bundle holds the run's report") }
            return
        }
        let audited: ReportAudit.Audited
        do {
            audited = try ReportAudit.audit(bytes)
        } catch {
            problem(json, "\(error)")
            return
        }
        for finding in audited.findings { problem(json, finding.description) }
        var model = ReportModel(audited.run, waivers: audited.waivers)
        model.reportDigest = try? JSONReporter.reportDigest(of: model)
        if let digest = model.reportDigest, digest != manifest.reportDigest {
            problem(manifestName, "names the report digest \(manifest.reportDigest); report.json's test cases give \(digest)")
        }
        if audited.run.metadata.criteriaDigest != manifest.criteriaDigest {
            problem(manifestName, "names the criteria digest \(manifest.criteriaDigest); report.json names \(audited.run.metadata.criteriaDigest)")
        }
        guard audited.findings.isEmpty else { return }  // the other files would only repeat the report's problems
        var expected: [PathBytes: [UInt8]] = [:]
        for format in ReportFormat.allCases where format != .json {
            guard let files = try? format.files(of: model) else { continue }
            for file in files { expected[PathBytes(file.path)] = file.bytes }
        }
        for file in transcripts(model) { expected[PathBytes(file.path)] = file.bytes }
        for path in expected.keys.sorted() {
            let name = path.text
            guard let recorded = contents[path] else {
                if !manifest.files.contains(where: { PathBytes($0.path) == path }) {
                    problem(
                        name, name.hasPrefix("transcripts/") ? "missing: report.json names this test case, and its transcript is not in the bundle" : "missing")
                }
                continue
            }
            if let line = firstDifferingLine([UInt8](recorded), expected[path] ?? []) {
                problem(name, "does not follow from report.json (line \(line) differs from what its test cases give)")
            }
        }
        for entry in manifest.files where entry.path.hasPrefix("transcripts/") && expected[PathBytes(entry.path)] == nil {
            problem(entry.path, "a transcript of no test case in report.json")
        }
    }

    /// The first line (from 1) at which two texts differ, or `nil` when they are equal.
    static func firstDifferingLine(_ left: [UInt8], _ right: [UInt8]) -> Int? {
        guard left != right else { return nil }
        var line = 1
        for (a, b) in zip(left, right) {
            if a != b { return line }
            if a == UInt8(ascii: "\n") { line += 1 }
        }
        return line
    }

    /// The criteria digest of files given by their path below the criteria root (the recipe in
    /// `Documentation/report-format.md`): SHA-256 over, for each file in byte order of its path,
    /// the path's UTF-8 bytes, one zero byte and the file's bytes.
    package static func criteriaDigest(_ files: [(path: String, bytes: Data)]) -> String {
        var input = Data()
        for file in files.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
            input.append(Data(file.path.utf8))
            input.append(0)
            input.append(file.bytes)
        }
        return ReportDigest.sha256Hex(input)
    }

    private static func checkSignature(
        _ manifest: Manifest, manifestBytes: Data, signature: Data?, publicKey: PEMPublicKey?, into result: inout Verification
    ) {
        func problem(_ path: String, _ message: String) { result.problems.append(.init(path: path, message: message)) }
        guard let publicKey else {
            if signature != nil || manifest.signer != nil {
                result.notes.append("the bundle is signed, but no --public-key was given: the signature was not checked")
            }
            return
        }
        guard let signer = manifest.signer else {
            problem(manifestName, "the bundle is not signed (no signer in \(manifestName)), but a public key was given")
            return
        }
        let fingerprint = fingerprint(publicKey)
        if signer.publicKeySHA256 != fingerprint || signer.algorithm != publicKey.algorithm.rawValue {
            problem(
                manifestName,
                "signed by another key: \(signer.algorithm) key \(signer.publicKeySHA256), not the given \(publicKey.algorithm.rawValue) key \(fingerprint)")
            return
        }
        guard let signature else {
            problem(signatureName, "missing: \(manifestName) says the bundle is signed")
            return
        }
        if !publicKey.isValidSignature(signature, for: manifestBytes) {
            problem(manifestName, "the signature in \(signatureName) does not match \(manifestName) under the given key (one of the two was changed)")
        } else {
            result.notes.append("signature: valid \(signer.algorithm) signature of \(manifestName) by the key \(fingerprint)")
        }
    }

    /// The paths of the regular files below `root`, relative to it; anything else (a symbolic link,
    /// a device) is a problem.
    private static func regularFiles(below root: URL, into result: inout Verification) -> Set<PathBytes> {
        var files: Set<PathBytes> = []
        let manager = FileManager.default
        guard let paths = try? manager.subpathsOfDirectory(atPath: root.path) else {
            result.problems.append(.init(path: ".", message: "\(root.path) cannot be listed"))
            return files
        }
        for path in paths {
            let type = (try? manager.attributesOfItem(atPath: root.appendingPathComponent(path).path))?[.type] as? FileAttributeType
            switch type {
            case .typeRegular?: files.insert(PathBytes(path))
            case .typeDirectory?: break
            default: result.problems.append(.init(path: path, message: "not a regular file (a bundle holds only files and folders)"))
            }
        }
        return files
    }
}
