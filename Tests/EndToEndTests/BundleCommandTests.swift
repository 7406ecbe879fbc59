import ConformanceTestSupport
import Foundation
import Testing
import WebAuthn

/// `run --bundle --sign-key` and `verify`, through the binary.
@Suite("Evidence bundle commands", binaryBuilt)
struct BundleCommandTests {
    @Test("a signed bundle verifies with its public key; a flipped byte in a transcript fails, naming the file; a wrong key fails")
    func signAndVerify() async throws {
        let directory = try PackagePaths.temporaryDirectory("bundle-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try PEMSigningKey.generate(.ecdsaP256SHA256)
        let keyFile = directory.appendingPathComponent("key.pem")
        let publicFile = directory.appendingPathComponent("public.pem")
        let otherFile = directory.appendingPathComponent("other.pem")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        try Data(try key.publicKey().pemRepresentation.utf8).write(to: publicFile)
        try Data(try PEMSigningKey.generate(.ed25519).publicKey().pemRepresentation.utf8).write(to: otherFile)
        let bundle = directory.appendingPathComponent("bundle")
        let run = try await Binary.run(
            ["run", "--quiet", "--no-reports", "--bundle", bundle.path, "--sign-key", keyFile.path, "--criterion", "N3.2-AC07", "--target", "android-15-gpm"]
                + Binary.criteria)
        #expect(run.status == 0, "\(run)")
        let criteria = try FileManager.default.subpathsOfDirectory(atPath: bundle.appendingPathComponent("criteria").path).filter { $0.hasSuffix(".feature") }
        #expect(criteria.count == 18, "every criterion file of the run: \(criteria)")

        let intact = try await Binary.run(["verify", bundle.path, "--public-key", publicFile.path])
        #expect(intact.status == 0, "\(intact)")
        #expect(intact.stdout.contains("intact:"), "\(intact)")
        let wrong = try await Binary.run(["verify", bundle.path, "--public-key", otherFile.path])
        #expect(wrong.status == 1, "\(wrong)")
        #expect(wrong.stderr.contains("manifest.json: signed by another key"), "\(wrong)")

        let transcripts = try FileManager.default.contentsOfDirectory(atPath: bundle.appendingPathComponent("transcripts").path).sorted()
        let victim = bundle.appendingPathComponent("transcripts").appendingPathComponent(try #require(transcripts.first))
        var bytes = [UInt8](try Data(contentsOf: victim))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: victim)
        let tampered = try await Binary.run(["verify", bundle.path, "--public-key", publicFile.path])
        #expect(tampered.status == 1, "\(tampered)")
        #expect(tampered.stderr.contains("transcripts/\(transcripts[0]): SHA-256"), "\(tampered)")
    }

    @Test("--sign-key needs --bundle, and a key that is not one is refused before anything runs")
    func badKey() async throws {
        let directory = try PackagePaths.temporaryDirectory("bundle-key")
        defer { try? FileManager.default.removeItem(at: directory) }
        let junk = directory.appendingPathComponent("junk.pem")
        try Data("not a key".utf8).write(to: junk)
        let alone = try await Binary.run(["run", "--no-reports", "--sign-key", junk.path] + Binary.criteria)
        #expect(alone.status == 64 && alone.stderr.contains("give --bundle"), "\(alone)")
        let bundle = directory.appendingPathComponent("bundle")
        let bad = try await Binary.run(["run", "--no-reports", "--bundle", bundle.path, "--sign-key", junk.path] + Binary.criteria)
        #expect(bad.status == 64 && bad.stderr.contains("cannot use the signing key"), "\(bad)")
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
    }
}
