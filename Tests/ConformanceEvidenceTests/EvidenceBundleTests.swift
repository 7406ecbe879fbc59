import ConformanceEvidence
import ConformanceKit
@testable import ConformanceEvidence
@testable import ConformanceReports
import ConformanceTestSupport
import Foundation
import Testing
import WebAuthn

/// Evidence bundles: what `run --bundle` writes and `verify` checks, on a synthetic run.
@Suite("Evidence bundle")
struct EvidenceBundleTests {
    /// Two criterion files below a root with a folder, as a run would bundle them.
    static let criteria = [
        EvidenceBundle.File(path: "N2.6/AC01.feature", bytes: Array("Feature: AC01\n".utf8)),
        EvidenceBundle.File(path: "N2.6/AC04.feature", bytes: Array("Feature: AC04\n".utf8)),
    ]

    /// The fixture run as the runner ends test cases, with the criteria digest of `criteria`.
    static var run: RunResult {
        var run = ReportAuditTests.run
        run.metadata.criteriaDigest = EvidenceBundle.criteriaDigest(criteria.map { ($0.path, Data($0.bytes)) })
        return run
    }

    /// A bundle written into a fresh directory.
    static func bundle(signedWith key: PEMSigningKey?) throws -> URL {
        let directory = try PackagePaths.temporaryDirectory("bundle").appendingPathComponent("bundle")
        try EvidenceBundle.write(run, criteria: criteria, signingKey: key, to: directory.path)
        return directory
    }

    /// Every file of a bundle, relative to it, sorted.
    static func files(_ directory: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { path in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
    }

    /// Flips the low bit of one byte (the middle one) of a file.
    static func flipByte(_ file: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: file))
        try #require(!bytes.isEmpty)
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: file)
    }

    @Test("a bundle holds the three reports, a transcript per test case, the criterion files and a manifest; untouched it verifies")
    func layout() throws {
        let key = try PEMSigningKey.generate(.ecdsaP256SHA256)
        let directory = try Self.bundle(signedWith: key)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let files = try Self.files(directory)
        #expect(files.contains("report.json") && files.contains("report.md") && files.contains("report.junit.xml"))
        #expect(files.contains("manifest.json") && files.contains("manifest.sig"))
        #expect(files.contains("criteria/N2.6/AC01.feature") && files.contains("criteria/N2.6/AC04.feature"))
        #expect(files.filter { $0.hasPrefix("transcripts/") }.count == Self.run.testCases.count)
        let first = try String(contentsOf: directory.appendingPathComponent(try #require(files.first { $0.hasPrefix("transcripts/") })), encoding: .utf8)
        #expect(first.hasPrefix("test case: \(ReportModel(Self.run, waivers: .none).cases[0].result.id)\n"), "\(first)")

        let verified = EvidenceBundle.verify(directory.path, publicKey: try key.publicKey())
        #expect(verified.isIntact, "\(verified.problems)")
        #expect(verified.files == files.count - 2)
        #expect(verified.notes.contains { $0.hasPrefix("signature: valid ecdsa-p256-sha256") })
    }

    @Test("flipping one byte of any file of a signed bundle fails verify, naming the file", arguments: SignatureAlgorithm.allCases)
    func flippedByte(_ algorithm: SignatureAlgorithm) throws {
        let key = try PEMSigningKey.generate(algorithm)
        let publicKey = try key.publicKey()
        let pristine = try Self.bundle(signedWith: key)
        defer { try? FileManager.default.removeItem(at: pristine.deletingLastPathComponent()) }
        let files = try Self.files(pristine)
        #expect(files.count > 8)
        for file in files {
            let copy = pristine.deletingLastPathComponent().appendingPathComponent("copy")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: pristine, to: copy)
            try Self.flipByte(copy.appendingPathComponent(file))
            let verified = EvidenceBundle.verify(copy.path, publicKey: publicKey)
            // A changed signature is a signature that does not match the manifest: both are named.
            let named = file == EvidenceBundle.signatureName ? EvidenceBundle.manifestName : file
            #expect(!verified.isIntact, "a flipped byte in \(file) went unnoticed")
            #expect(verified.problems.contains { $0.path == named }, "\(file): \(verified.problems)")
        }
    }

    @Test("without a key, a flipped byte in a report, a transcript or a criterion file still fails verify, naming it")
    func unsignedFlips() throws {
        let pristine = try Self.bundle(signedWith: nil)
        defer { try? FileManager.default.removeItem(at: pristine.deletingLastPathComponent()) }
        let files = try Self.files(pristine)
        #expect(!files.contains(EvidenceBundle.signatureName))
        let chosen = ["report.json", "report.md", "report.junit.xml", try #require(files.first { $0.hasPrefix("transcripts/") }), "criteria/N2.6/AC04.feature"]
        for file in chosen {
            let copy = pristine.deletingLastPathComponent().appendingPathComponent("copy")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: pristine, to: copy)
            try Self.flipByte(copy.appendingPathComponent(file))
            let verified = EvidenceBundle.verify(copy.path, publicKey: nil)
            #expect(verified.problems.contains { $0.path == file && $0.message.contains("SHA-256") }, "\(file): \(verified.problems)")
        }
    }

    @Test("a wrong key fails verify; a bundle signed with none fails when a key is asked for")
    func wrongKey() throws {
        let key = try PEMSigningKey.generate(.ed25519)
        let directory = try Self.bundle(signedWith: key)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        for other in [try PEMSigningKey.generate(.ed25519), try PEMSigningKey.generate(.ecdsaP256SHA256)] {
            let verified = EvidenceBundle.verify(directory.path, publicKey: try other.publicKey())
            #expect(verified.problems.contains { $0.path == "manifest.json" && $0.message.contains("signed by another key") }, "\(verified.problems)")
        }
        // The signer's fingerprint in the manifest could be rewritten, but then the signature does not match.
        let unsigned = try Self.bundle(signedWith: nil)
        defer { try? FileManager.default.removeItem(at: unsigned.deletingLastPathComponent()) }
        #expect(EvidenceBundle.verify(unsigned.path, publicKey: nil).isIntact)
        let asked = EvidenceBundle.verify(unsigned.path, publicKey: try key.publicKey())
        #expect(asked.problems.contains { $0.path == "manifest.json" && $0.message.contains("not signed") }, "\(asked.problems)")
    }

    @Test("a file added to or removed from a bundle fails verify, naming it")
    func addedOrRemoved() throws {
        let key = try PEMSigningKey.generate(.ecdsaP256SHA256)
        let directory = try Self.bundle(signedWith: key)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        try Data("extra".utf8).write(to: directory.appendingPathComponent("transcripts/9999-extra.txt"))
        let added = EvidenceBundle.verify(directory.path, publicKey: try key.publicKey())
        #expect(added.problems.map(\.path) == ["transcripts/9999-extra.txt"], "\(added.problems)")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("transcripts/9999-extra.txt"))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("criteria/N2.6/AC01.feature"))
        let removed = EvidenceBundle.verify(directory.path, publicKey: try key.publicKey())
        #expect(removed.problems.contains { $0.path == "criteria/N2.6/AC01.feature" && $0.message.contains("missing") }, "\(removed.problems)")
    }

    @Test("the criteria digest recipe over files below the root matches what the loader computes")
    func criteriaDigestRecipe() throws {
        let root = PackagePaths.criteria.path
        let loaded = CriteriaLoader().load(root: root)
        let files = try CriteriaLoader.featureFiles(at: root).map { path in
            (String(path.dropFirst(root.count).drop { $0 == "/" }), try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(EvidenceBundle.criteriaDigest(files) == loaded.digest)
    }

    @Test("the report digest is the SHA-256 of report.json with its own value written as zeros")
    func reportDigest() throws {
        let bytes = try JSONReporter.render(Self.run)
        let text = String(decoding: bytes, as: UTF8.self)
        let match = try #require(text.firstMatch(of: /"reportDigest" : "([0-9a-f]{64})"/))
        let zeroed = text.replacingOccurrences(of: String(match.1), with: String(repeating: "0", count: 64))
        #expect(ReportDigest.sha256Hex(Array(zeroed.utf8)) == String(match.1))
    }

    /// The manifest's digests and sizes written again over the bundle's files: what a forger of an
    /// unsigned bundle does after editing one.
    static func remanifest(_ directory: URL) throws {
        let url = directory.appendingPathComponent(EvidenceBundle.manifestName)
        var manifest = try JSONDecoder().decode(EvidenceBundle.Manifest.self, from: Data(contentsOf: url))
        let present = try Set(files(directory).filter { $0 != EvidenceBundle.manifestName && $0 != EvidenceBundle.signatureName })
        manifest.files = try present.sorted().map { path in
            let bytes = try Data(contentsOf: directory.appendingPathComponent(path))
            return .init(path: path, sha256: ReportDigest.sha256Hex(bytes), bytes: bytes.count)
        }
        try Data(try EvidenceBundle.encode(manifest)).write(to: url)
    }

    @Test("an unsigned bundle whose report.json was edited, manifest and digest made to match, does not verify")
    func editedUnsignedReport() throws {
        let directory = try Self.bundle(signedWith: nil)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let report = directory.appendingPathComponent("report.json")
        try ReportAuditTests.redigested(try ReportAuditTests.flipped(Data(contentsOf: report))).write(to: report)
        try Self.remanifest(directory)
        let verified = EvidenceBundle.verify(directory.path, publicKey: nil)
        #expect(verified.problems.contains { $0.path == "report.json" && $0.message.contains("verdict passed, but step line") }, "\(verified.problems)")
        #expect(!verified.isIntact)
    }

    @Test("a summary that does not follow from the test cases, and a Markdown report that does not follow from report.json, do not verify")
    func summaryAndDerivedReports() throws {
        let directory = try Self.bundle(signedWith: nil)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let report = directory.appendingPathComponent("report.json")
        let passed = Self.run.testCases.filter { $0.verdict == .passed }.count
        try ReportAuditTests.redigested(
            try ReportAuditTests.replacingFirst("\"passed\" : \(passed),", with: "\"passed\" : \(passed + 3),", in: Data(contentsOf: report))
        ).write(to: report)
        let markdown = directory.appendingPathComponent("report.md")
        let text = try String(contentsOf: markdown, encoding: .utf8)
        try Data((text + "\nResult: conformant\n").utf8).write(to: markdown)
        try Self.remanifest(directory)
        let verified = EvidenceBundle.verify(directory.path, publicKey: nil)
        #expect(verified.problems.contains { $0.description == "report.json: summary.testCases.passed: says \(passed + 3); its test cases give \(passed)" })
        try ReportAuditTests.redigested(
            try ReportAuditTests.replacingFirst("\"passed\" : \(passed + 3),", with: "\"passed\" : \(passed),", in: Data(contentsOf: report))
        ).write(to: report)
        try Self.remanifest(directory)
        let markdownOnly = EvidenceBundle.verify(directory.path, publicKey: nil)
        #expect(markdownOnly.problems.map(\.path) == ["report.md"], "\(markdownOnly.problems)")
        #expect(markdownOnly.problems.first?.message.contains("does not follow from report.json") == true)
    }

    @Test("a bundle without its criteria folder does not verify")
    func missingCriteria() throws {
        let directory = try Self.bundle(signedWith: nil)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        try FileManager.default.removeItem(at: directory.appendingPathComponent("criteria"))
        try Self.remanifest(directory)
        let verified = EvidenceBundle.verify(directory.path, publicKey: nil)
        #expect(verified.problems.map(\.path) == ["criteria/"], "\(verified.problems)")
        #expect(verified.problems.first?.message.contains("holds no criterion file") == true)
    }

    @Test("an unlisted file whose name is canonically equivalent to a listed one (U+212A beside K) is found")
    func unicodeEquivalentPath() throws {
        let criteria = Self.criteria + [EvidenceBundle.File(path: "N2.6/K.feature", bytes: Array("Feature: K\n".utf8))]
        var run = Self.run
        run.metadata.criteriaDigest = EvidenceBundle.criteriaDigest(criteria.map { ($0.path, Data($0.bytes)) })
        let key = try PEMSigningKey.generate(.ecdsaP256SHA256)
        let directory = try PackagePaths.temporaryDirectory("bundle").appendingPathComponent("bundle")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        try EvidenceBundle.write(run, criteria: criteria, signingKey: key, to: directory.path)
        let kelvin = "criteria/N2.6/\u{212A}.feature"
        #expect(kelvin == "criteria/N2.6/K.feature", "Swift's String equality takes the two spellings for one")
        try Data("planted".utf8).write(to: directory.appendingPathComponent(kelvin))
        let verified = EvidenceBundle.verify(directory.path, publicKey: try key.publicKey())
        #expect(verified.problems.map { Array($0.path.utf8) } == [Array(kelvin.utf8)], "\(verified.problems)")
        #expect(verified.problems.first?.message.contains("not listed") == true)
    }

    @Test("a transcript removed with its manifest entry, or one added for no test case, does not verify")
    func transcriptsMatchTestCases() throws {
        let directory = try Self.bundle(signedWith: nil)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let transcripts = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("transcripts").path).sorted()
        let removed = "transcripts/" + (try #require(transcripts.first))
        try FileManager.default.removeItem(at: directory.appendingPathComponent(removed))
        try Data("extra".utf8).write(to: directory.appendingPathComponent("transcripts/9999-N2.6-AC01-apple-18.txt"))
        try Self.remanifest(directory)
        let verified = EvidenceBundle.verify(directory.path, publicKey: nil)
        #expect(verified.problems.contains { $0.path == removed && $0.message.contains("its transcript is not in the bundle") }, "\(verified.problems)")
        #expect(
            verified.problems.contains { $0.path == "transcripts/9999-N2.6-AC01-apple-18.txt" && $0.message.contains("no test case") }, "\(verified.problems)")
    }

    @Test("a transcript never carries the adapter's escape or bidirectional bytes raw")
    func transcriptEscaping() throws {
        var run = Self.run
        let index = try #require(run.testCases.firstIndex { $0.verdict == .failed })
        run.testCases[index].evidence = [
            TranscriptEntry(sequence: 1, atMillis: 0, channel: .harnessToRP, name: "ui.event", summary: "\u{1B}[2J\u{202E}Result: conformant")
        ]
        let model = ReportModel(run, waivers: .none)
        let text = EvidenceBundle.transcripts(model).map { String(decoding: $0.bytes, as: UTF8.self) }.joined()
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        #expect(text.contains("\\u{1B}[2J\\u{202E}Result: conformant"))
    }
}
