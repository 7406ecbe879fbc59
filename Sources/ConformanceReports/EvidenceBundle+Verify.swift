#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ConformanceCrypto

extension EvidenceBundle {
    /// What `verify` found: every problem, each naming the file it is about, and remarks that are
    /// not problems (a signature left unchecked).
    public struct Verification: Sendable, Hashable {
        /// A file that does not match the manifest, or a manifest or signature that does not hold.
        public struct Problem: Sendable, Hashable, CustomStringConvertible {
            /// The file, relative to the bundle.
            public var path: String
            /// What is wrong with it.
            public var message: String
            /// `report.json: …`
            public var description: String { "\(path): \(message)" }
        }
        /// Every problem, manifest and signature first, then the files in path order.
        public var problems: [Problem] = []
        /// Remarks: what was checked, and what could not be.
        public var notes: [String] = []
        /// How many files the manifest lists.
        public var files = 0
        /// Whether every digest and, when a key was given, the signature hold.
        public var isIntact: Bool { problems.isEmpty }
    }

    /// Checks a bundle: `manifest.json` is a manifest of this format; with `publicKey`, `manifest.sig`
    /// is a valid signature of it by that key; every file it lists is there with its SHA-256 and
    /// size; the bundle holds no file it does not list; the criterion files give the manifest's
    /// criteria digest.
    public static func verify(_ directory: String, publicKey: PEMPublicKey?) -> Verification {
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
        guard manifest.files.count == Set(manifest.files.map(\.path)).count else {
            problem(manifestName, "lists a file more than once")
            return result
        }
        result.files = manifest.files.count
        checkSignature(manifest, manifestBytes: manifestBytes, signature: read(signatureName), publicKey: publicKey, into: &result)

        let listed = Dictionary(uniqueKeysWithValues: manifest.files.map { ($0.path, $0) })
        let present = regularFiles(below: root, into: &result)
        for entry in manifest.files.sorted(by: { $0.path < $1.path }) {
            guard present.contains(entry.path), let bytes = read(entry.path) else {
                problem(entry.path, "listed in \(manifestName) but missing from the bundle")
                continue
            }
            let digest = ReportDigest.sha256Hex(bytes)
            if digest != entry.sha256 {
                problem(entry.path, "SHA-256 \(digest) does not match \(entry.sha256) in \(manifestName)")
            } else if bytes.count != entry.bytes {
                problem(entry.path, "\(bytes.count) bytes, \(manifestName) says \(entry.bytes)")
            }
        }
        for path in present.sorted() where listed[path] == nil && path != manifestName && path != signatureName {
            problem(path, "in the bundle but not listed in \(manifestName)")
        }
        let criteria = manifest.files.filter { $0.path.hasPrefix("criteria/") }.compactMap { entry in
            read(entry.path).map { (String(entry.path.dropFirst("criteria/".count)), $0) }
        }
        if criteria.count == manifest.files.filter({ $0.path.hasPrefix("criteria/") }).count, !criteria.isEmpty {
            let digest = criteriaDigest(criteria)
            if digest != manifest.criteriaDigest {
                problem("criteria/", "the criterion files give the criteria digest \(digest), not \(manifest.criteriaDigest) as \(manifestName) says")
            }
        }
        return result
    }

    /// The criteria digest of files given by their path below the criteria root (the recipe in
    /// `Documentation/report-format.md`): SHA-256 over, for each file in byte order of its path,
    /// the path's UTF-8 bytes, one zero byte and the file's bytes.
    public static func criteriaDigest(_ files: [(path: String, bytes: Data)]) -> String {
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
    private static func regularFiles(below root: URL, into result: inout Verification) -> Set<String> {
        var files: Set<String> = []
        let manager = FileManager.default
        guard let paths = try? manager.subpathsOfDirectory(atPath: root.path) else {
            result.problems.append(.init(path: ".", message: "\(root.path) cannot be listed"))
            return files
        }
        for path in paths {
            let type = (try? manager.attributesOfItem(atPath: root.appendingPathComponent(path).path))?[.type] as? FileAttributeType
            switch type {
            case .typeRegular?: files.insert(path)
            case .typeDirectory?: break
            default: result.problems.append(.init(path: path, message: "not a regular file (a bundle holds only files and folders)"))
            }
        }
        return files
    }
}
