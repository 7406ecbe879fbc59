#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ConformanceCrypto
import ConformanceModel
import ConformanceReports

extension EvidenceBundle {
    /// Why a bundle was not signed.
    package struct SignError: Error, Sendable, CustomStringConvertible {
        /// What stopped the signature, in words.
        package var description: String
    }

    /// Signs a bundle that `run --bundle` wrote, as a step of its own that runs after the run and
    /// never beside the relying party's code (`passkey-conformance sign`): the bundle must verify
    /// (digests, meaning, criteria) before it is signed; `manifest.json` then names the signer and
    /// `manifest.sig` holds the signature of its bytes. The bundle is replaced as a whole, in one
    /// rename, so it is signed or left as it was.
    ///
    /// - Returns: what `verify` found in the signed bundle with the key's public half.
    @discardableResult
    package static func sign(_ directory: String, key: PEMSigningKey) throws(SignError) -> Verification {
        let before = verify(directory, publicKey: nil)
        guard before.isIntact else {
            throw SignError(
                description: "the bundle does not verify, so it is not signed: "
                    + before.problems.prefix(5).map { TextEscaping.visible($0.description) }.joined(separator: "; "))
        }
        let root = URL(fileURLWithPath: directory)
        do {
            let manifestBytes = try Data(contentsOf: root.appendingPathComponent(manifestName))
            var manifest = try JSONDecoder().decode(Manifest.self, from: manifestBytes)
            let publicKey = try key.publicKey()
            manifest.signer = .init(algorithm: publicKey.algorithm.rawValue, publicKeySHA256: fingerprint(publicKey))
            var files: [(path: String, bytes: [UInt8])] = []
            for entry in manifest.files {
                files.append((entry.path, [UInt8](try Data(contentsOf: root.appendingPathComponent(entry.path)))))
            }
            let signed = try encode(manifest)
            files.append((manifestName, signed))
            files.append((signatureName, [UInt8](try key.sign(Data(signed)))))
            let target = try ReportDirectory(directory, ownNames: ownNames)
            _ = try target.commit(files)
            let after = verify(directory, publicKey: publicKey)
            guard after.isIntact else {
                throw SignError(description: "the signed bundle does not verify: " + after.problems.map(\.description).joined(separator: "; "))
            }
            return after
        } catch let error as SignError {
            throw error
        } catch {
            throw SignError(description: "\(directory): \(error)")
        }
    }
}
