import ConformanceTestSupport
import Foundation
import Testing
import WebAuthn

/// `run --bundle`, `sign` and `verify`, through the binary.
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
            ["run", "--quiet", "--no-reports", "--bundle", bundle.path, "--criterion", "N3.2-AC07", "--target", "android-15-gpm"] + Binary.criteria)
        #expect(run.status == 0, "\(run)")
        let unsigned = try await Binary.run(["verify", bundle.path, "--public-key", publicFile.path])
        #expect(unsigned.status == 1 && unsigned.stderr.contains("not signed"), "\(unsigned)")
        let signed = try await Binary.run(["sign", bundle.path, "--key", keyFile.path])
        #expect(signed.status == 0, "\(signed)")
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

    @Test("run refuses --sign-key before anything runs; sign refuses a key that is not one and a bundle that does not verify")
    func badKey() async throws {
        let directory = try PackagePaths.temporaryDirectory("bundle-key")
        defer { try? FileManager.default.removeItem(at: directory) }
        let junk = directory.appendingPathComponent("junk.pem")
        try Data("not a key".utf8).write(to: junk)
        let key = try PEMSigningKey.generate(.ed25519)
        let keyFile = directory.appendingPathComponent("key.pem")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        let marker = directory.appendingPathComponent("adapter-started")
        let bundle = directory.appendingPathComponent("bundle")
        let refused = try await Binary.run(
            ["run", "--no-reports", "--bundle", bundle.path, "--sign-key", keyFile.path, "--adapter-command", "touch '\(marker.path)'; exit 1"]
                + Binary.criteria)
        #expect(refused.status == 64 && refused.stderr.contains("sign <dir> --key <pem>"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the adapter started although the command line was refused")
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
        let made = try await Binary.run(
            ["run", "--quiet", "--no-reports", "--bundle", bundle.path, "--criterion", "N3.2-AC07", "--target", "apple-26.2"] + Binary.criteria)
        #expect(made.status == 0, "\(made)")
        let bad = try await Binary.run(["sign", bundle.path, "--key", junk.path])
        #expect(bad.status == 64 && bad.stderr.contains("cannot use the signing key"), "\(bad)")
        let report = bundle.appendingPathComponent("report.json")
        try Data((try String(contentsOf: report, encoding: .utf8) + " ").utf8).write(to: report)
        let broken = try await Binary.run(["sign", bundle.path, "--key", keyFile.path])
        #expect(broken.status == 1 && broken.stderr.contains("does not verify"), "\(broken)")
        #expect(!FileManager.default.fileExists(atPath: bundle.appendingPathComponent("manifest.sig").path), "a bundle that does not verify was signed")
    }

    /// An adapter that, while it runs, copies what it can read of every ancestor (the harness, and a
    /// keeper between them): command lines, environments and the targets of open descriptors; then
    /// it serves as the reference adapter does.
    static func snoopingAdapter(_ adapter: String, into file: URL) -> String {
        // Every ancestor, not only the parent: the harness may start the adapter through a keeper.
        "{ p=$PPID; while [ \"$p\" -gt 1 ]; do tr '\\0' ' ' < /proc/$p/cmdline; echo; tr '\\0' '\\n' < /proc/$p/environ; "
            + "for fd in /proc/$p/fd/*; do readlink \"$fd\"; done; p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2); done; } "
            + "> '\(file.path)' 2>&1; exec '\(adapter)'"
    }

    @Test(
        "the signing key never meets the relying party: the adapter finds neither its path nor its bytes in the harness's command line, environment or descriptors",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/environ") && BuiltProducts.executable("reference-rp-adapter") != nil))
    func keyOutOfReach() async throws {
        let directory = try PackagePaths.temporaryDirectory("bundle-snoop")
        defer { try? FileManager.default.removeItem(at: directory) }
        let adapter = try #require(BuiltProducts.executable("reference-rp-adapter")).path
        let key = try PEMSigningKey.generate(.ecdsaP256SHA256)
        let keyFile = directory.appendingPathComponent("ci-signing-key.pem")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        let seen = directory.appendingPathComponent("seen.txt")
        let bundle = directory.appendingPathComponent("bundle")
        let run = try await Binary.run(
            [
                "run", "--quiet", "--no-reports", "--bundle", bundle.path, "--criterion", "N3.2-AC07", "--target", "apple-26.2",
                "--adapter-command", Self.snoopingAdapter(adapter, into: seen),
            ] + Binary.criteria)
        #expect(run.status == 0, "\(run)")
        let snooped = try String(contentsOf: seen, encoding: .utf8)
        #expect(snooped.contains("run"), "the adapter read its parent's command line: \(snooped)")
        #expect(!snooped.contains("ci-signing-key") && !snooped.contains("PRIVATE KEY"), "\(snooped)")
        // The key is used only afterwards, by a process that never starts the relying party.
        let signed = try await Binary.run(["sign", bundle.path, "--key", keyFile.path])
        #expect(signed.status == 0, "\(signed)")
    }

    @Test(
        "a run whose criteria folder is renamed during the run writes no bundle and exits 2",
        .enabled(if: BuiltProducts.executable("reference-rp-adapter") != nil))
    func criteriaRenamedDuringRun() async throws {
        let directory = try PackagePaths.temporaryDirectory("bundle-criteria")
        defer { try? FileManager.default.removeItem(at: directory) }
        let adapter = try #require(BuiltProducts.executable("reference-rp-adapter")).path
        let criteria = directory.appendingPathComponent("criteria")
        let copied = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/cp"), ["-R", PackagePaths.criteria.path, criteria.path])
        try #require(copied.status == 0, "\(copied)")
        let bundle = directory.appendingPathComponent("bundle")
        let run = try await Binary.run(
            [
                "run", "--quiet", "--no-reports", "--bundle", bundle.path, "--criteria", criteria.path, "--criterion", "N3.2-AC07", "--target", "apple-26.2",
                "--adapter-command", "mv '\(criteria.path)' '\(criteria.path).gone'; exec '\(adapter)'",
            ])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("the evidence bundle was not written") && run.stderr.contains("cannot be read any more"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
    }
}
