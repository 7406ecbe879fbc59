import ConformanceTestSupport
import Foundation
import Testing

/// What a report records about the harness, the host and itself, checked against independent
/// tools: Python's hashlib recomputes the binary's digest, the criteria digest (by the recipe in
/// Documentation/report-format.md) and the report's own digest; git knows the commit.
@Suite("Provenance in the reports", binaryBuilt, .enabled(if: Python.path != nil, "needs python3"))
struct ProvenanceTests {
    static let small = ["--criterion", "N3.2-AC07", "--target", "android-15-gpm"]

    static func run(_ extra: [String]) async throws -> (out: URL, json: [String: Any]) {
        let out = try PackagePaths.temporaryDirectory("provenance").appendingPathComponent("reports")
        let result = try await Binary.run(["run", "--quiet", "--out", out.path] + Binary.criteria + small + extra)
        #expect(result.status == 0, "\(result)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        return (out, try #require(json))
    }

    @Test("the commit, the binary's SHA-256, the host and the report's digest are recorded and recompute independently")
    func recorded() async throws {
        let (out, json) = try await Self.run([])
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        let metadata = try #require(json["metadata"] as? [String: Any])
        let commit = try #require(metadata["harnessCommit"] as? String)
        #expect(commit == "unknown" || commit.wholeMatch(of: /[0-9a-f]{40}/) != nil, "\(commit)")
        if commit != "unknown", FileManager.default.fileExists(atPath: PackagePaths.root.appendingPathComponent(".git").path) {
            let known = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["git", "-C", PackagePaths.root.path, "cat-file", "-e", commit + "^{commit}"])
            #expect(known.status == 0, "the recorded commit \(commit) is not a commit of this checkout: \(known)")
        }
        #expect(!((metadata["host"] as? String) ?? "").isEmpty)

        let binary = try #require(Binary.url).path
        let script = """
            import hashlib, json, os, re, sys
            binary, criteria, report = sys.argv[1:4]
            print(hashlib.sha256(open(binary, 'rb').read()).hexdigest())
            # The criteria digest, by the recipe of Documentation/report-format.md.
            paths = []
            for folder, _, names in os.walk(criteria):
                paths += [os.path.relpath(os.path.join(folder, n), criteria) for n in names if n.endswith('.feature')]
            h = hashlib.sha256()
            for rel in sorted(paths, key=lambda p: p.encode('utf-8')):
                h.update(rel.encode('utf-8') + b'\\0' + open(os.path.join(criteria, rel), 'rb').read())
            print(h.hexdigest())
            # The report's digest: its bytes with metadata.reportDigest's value written as 64 zeros.
            data = open(report, 'rb').read()
            digest = json.loads(data)['metadata']['reportDigest']
            print(hashlib.sha256(data.replace(digest.encode(), b'0' * 64)).hexdigest())
            """
        let python = try await ProcessRunner.run(
            URL(fileURLWithPath: try #require(Python.path)),
            ["-c", script, binary, PackagePaths.criteria.path, out.appendingPathComponent("report.json").path])
        let lines = python.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(python)")
        #expect(metadata["harnessBinarySHA256"] as? String == lines[0])
        #expect(metadata["criteriaDigest"] as? String == lines[1])
        #expect(metadata["reportDigest"] as? String == lines[2])

        let markdown = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("- **Harness commit:** `\(commit)`"))
        #expect(markdown.contains("- **Harness binary SHA-256:** `\(lines[0])`"))
        #expect(markdown.contains("- **Report digest:** `\(lines[2])`"))
        let junit = try String(contentsOf: out.appendingPathComponent("report.junit.xml"), encoding: .utf8)
        #expect(junit.contains("<property name=\"harness.binarySHA256\" value=\"\(lines[0])\"/>"))
        #expect(junit.contains("<property name=\"report.digest\" value=\"\(lines[2])\"/>"))
    }

    @Test("--no-build-info leaves the commit, the binary's digest and the host out, so reports are equal across builds")
    func removable() async throws {
        let (out, json) = try await Self.run(["--no-build-info", "--no-timings", "--timestamp", "2026-01-01T00:00:00Z"])
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        let metadata = try #require(json["metadata"] as? [String: Any])
        for key in ["harnessCommit", "harnessModified", "harnessBinarySHA256", "host"] {
            #expect(metadata[key] is NSNull, "\(key): \(String(describing: metadata[key]))")
        }
        #expect((metadata["reportDigest"] as? String)?.count == 64)
        let markdown = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(!markdown.contains("Harness commit") && !markdown.contains("Host:"))
    }

    /// Whether the package is a git checkout (a tarball of it is not).
    static let inGitCheckout = FileManager.default.fileExists(atPath: PackagePaths.root.appendingPathComponent(".git").path)

    @Test("the build stamp is unknown outside a git checkout of the package (a tarball)")
    func buildStampOutsideGit() async throws {
        let script = PackagePaths.root.appendingPathComponent("Scripts/build-stamp.sh").path
        let tarball = try PackagePaths.temporaryDirectory("stamp")
        defer { try? FileManager.default.removeItem(at: tarball) }
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), [script, tarball.path, tarball.appendingPathComponent("out").path])
        #expect(result.status == 0, "\(result)")
        let stamp = try String(contentsOf: tarball.appendingPathComponent("out/BuildStamp.swift"), encoding: .utf8)
        #expect(stamp.contains("static let commit = \"unknown\""), "\(stamp)")
        #expect(stamp.contains("static let modified: Bool? = nil"), "\(stamp)")
    }

    @Test("the build stamp of a git checkout is its HEAD", .enabled(if: inGitCheckout, "the package is not a git checkout (a tarball)"))
    func buildStampInCheckout() async throws {
        let script = PackagePaths.root.appendingPathComponent("Scripts/build-stamp.sh").path
        let directory = try PackagePaths.temporaryDirectory("stamp")
        defer { try? FileManager.default.removeItem(at: directory) }
        let head = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["git", "-C", PackagePaths.root.path, "rev-parse", "HEAD"])
        try #require(head.status == 0, "git cannot read this checkout's HEAD: \(head)")
        let out = directory.appendingPathComponent("checkout")
        let checkout = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), [script, PackagePaths.root.path, out.path])
        #expect(checkout.status == 0, "\(checkout)")
        let stamped = try String(contentsOf: out.appendingPathComponent("BuildStamp.swift"), encoding: .utf8)
        #expect(stamped.contains("static let commit = \"\(head.stdout.trimmingCharacters(in: .whitespacesAndNewlines))\""), "\(stamped)")
    }
}

/// `python3` on the `PATH`, if any.
enum Python {
    static let path: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}
