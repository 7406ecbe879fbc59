#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ConformanceModel
import ConformanceReports
import ConformanceCrypto

/// An evidence bundle (`run --bundle DIR`): the run's three reports, one transcript file per test
/// case, the criterion files the run used, and `manifest.json` with the SHA-256 and size of every
/// other file; with a signing key, `manifest.sig` holds a detached signature of `manifest.json`.
///
/// ```
/// DIR/manifest.json            the digests (and the signer's key fingerprint)
/// DIR/manifest.sig             ECDSA P-256 (DER) or Ed25519 signature of manifest.json's bytes
/// DIR/report.json, report.md, report.junit.xml
/// DIR/transcripts/0001-<criterion>-<target>.txt   one per test case, in report order
/// DIR/criteria/<path>          the criterion files, by their path below the criteria root
/// ```
///
/// The bundle is written like a report set (`ReportWriter`): staged beside the directory and put in
/// its place in one rename, so it is complete or absent. `verify(_:publicKey:)` checks one.
package enum EvidenceBundle {
    /// `format` in the manifest.
    package static let format = "passkey-conformance-evidence-bundle"
    /// `version` in the manifest.
    package static let version = 1
    /// The manifest's file name.
    package static let manifestName = "manifest.json"
    /// The signature's file name.
    package static let signatureName = "manifest.sig"
    /// The names a bundle directory holds at its top.
    static let ownNames: Set<String> = ReportDirectory.ownNames.union(["transcripts", manifestName, signatureName])

    /// A file of the bundle: its path within the bundle and its bytes.
    package struct File: Sendable, Hashable {
        /// `/`-separated, relative to the bundle.
        package var path: String
        /// The file's contents.
        package var bytes: [UInt8]
        /// A file at `path` with `bytes`.
        package init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// The manifest: what the bundle holds, with digests.
    struct Manifest: Codable {
        struct Entry: Codable, Hashable {
            var path: String
            var sha256: String
            var bytes: Int
        }
        struct Signer: Codable, Hashable {
            var algorithm: String
            /// SHA-256 of the public key's DER SubjectPublicKeyInfo, hex.
            var publicKeySHA256: String
        }
        var format: String
        var version: Int
        var harnessVersion: String
        var harnessCommit: String?
        var criteriaDigest: String
        var reportDigest: String
        var signer: Signer?
        var files: [Entry]
    }

    /// Writes the bundle of `run` into `directory`, replacing what was there.
    ///
    /// - Parameters:
    ///   - criteria: the criterion files the run used, with paths relative to the criteria root.
    ///   - signingKey: signs `manifest.json` when given.
    /// - Returns: the bundle's directory path.
    @discardableResult
    package static func write(
        _ run: RunResult, waivers: WaiverEvaluation = .none, criteria: [File], signingKey: PEMSigningKey? = nil, to directory: String
    ) throws(ReportWriter.WriteError) -> String {
        let target = try ReportDirectory(directory, ownNames: ownNames)
        var model = ReportModel(run, waivers: waivers)
        func failure(_ path: String, _ error: any Error) -> ReportWriter.WriteError {
            .init(path: ReportWriter.join(directory, path), operation: .render, reason: "\(error)")
        }
        var files: [File] = []
        do {
            model = try ReportModel.sealed(run, waivers: waivers)
            for format in ReportFormat.allCases {
                files += try format.files(of: model).map { File(path: $0.path, bytes: $0.bytes) }
            }
        } catch {
            throw failure(ReportFormat.json.fileName, error)
        }
        files += transcripts(model)
        files += criteria.map { File(path: "criteria/" + $0.path, bytes: $0.bytes) }
        files.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        var signer: Manifest.Signer?
        var signature: [UInt8]?
        do {
            if let signingKey {
                let publicKey = try signingKey.publicKey()
                signer = .init(algorithm: publicKey.algorithm.rawValue, publicKeySHA256: fingerprint(publicKey))
            }
            let manifest = Manifest(
                format: format, version: version, harnessVersion: run.metadata.harnessVersion, harnessCommit: run.metadata.harnessCommit,
                criteriaDigest: run.metadata.criteriaDigest, reportDigest: model.reportDigest ?? "", signer: signer,
                files: files.map { .init(path: $0.path, sha256: ReportDigest.sha256Hex($0.bytes), bytes: $0.bytes.count) })
            let manifestBytes = try encode(manifest)
            files.append(File(path: manifestName, bytes: manifestBytes))
            if let signingKey { signature = [UInt8](try signingKey.sign(Data(manifestBytes))) }
        } catch {
            throw failure(manifestName, error)
        }
        if let signature { files.append(File(path: signatureName, bytes: signature)) }
        _ = try target.commit(files.map { ($0.path, $0.bytes) })
        return directory
    }

    /// The SHA-256 of a public key's DER SubjectPublicKeyInfo (the base64 between the PEM lines), hex.
    static func fingerprint(_ key: PEMPublicKey) -> String {
        let body = key.pemRepresentation.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        return ReportDigest.sha256Hex(Data(base64Encoded: body) ?? Data(body.utf8))
    }

    static func encode(_ manifest: Manifest) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(manifest)) + [UInt8(ascii: "\n")]
    }
}
