import ConformanceTestSupport
import Foundation
import Testing
import WebAuthn

/// `run --shard i/n` and `merge`: shards of a run combine into the reports of the whole run, byte
/// for byte, and shards of different runs are refused.
@Suite("Shards and merge", binaryBuilt, .heavy, .loadsMachine)
struct ShardTests {
    /// A few criteria, enough for every shard to hold test cases of several of them.
    static let selection = ["--criterion", "N2.6-AC02", "--criterion", "N3.2-AC07", "--criterion", "N3.2-AC01"]
    static let stable = ["--quiet", "--no-timings", "--timestamp", "2026-12-01T00:00:00Z"]

    /// Runs the binary into `directory/name` and returns that report directory.
    static func run(_ extra: [String], into directory: URL, name: String, seed: String = "7") async throws -> URL {
        let out = directory.appendingPathComponent(name)
        let result = try await Binary.run(["run", "--out", out.path, "--seed", seed] + Binary.criteria + selection + stable + extra)
        #expect(result.status == 0, "\(name): \(result)")
        return out
    }

    static func merge(_ shards: [URL], into out: URL) async throws -> ProcessRunner.Result {
        try await Binary.run(["merge", "--quiet", "--out", out.path] + shards.map(\.path))
    }

    @Test("four shards merged equal the unsharded run's reports, byte for byte")
    func fourShards() async throws {
        let directory = try PackagePaths.temporaryDirectory("shards")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try await Self.run([], into: directory, name: "whole")
        var shards: [URL] = []
        for index in 1...4 { shards.append(try await Self.run(["--shard", "\(index)/4"], into: directory, name: "shard-\(index)")) }
        let merged = directory.appendingPathComponent("merged")
        // Given in another order than their indices: the merge orders them.
        let result = try await Self.merge(shards.reversed(), into: merged)
        #expect(result.status == 0, "\(result)")
        var total = 0
        for shard in shards {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: shard.appendingPathComponent("report.json"))) as? [String: Any]
            total += ((json?["testCases"] as? [Any]) ?? []).count
        }
        let wholeJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: whole.appendingPathComponent("report.json"))) as? [String: Any]
        #expect(total == ((wholeJSON?["testCases"] as? [Any]) ?? []).count && total > 8)
        for name in ["report.json", "report.md", "report.junit.xml"] {
            let expected = try Data(contentsOf: whole.appendingPathComponent(name))
            let actual = try Data(contentsOf: merged.appendingPathComponent(name))
            #expect(actual == expected, "\(name) of the merged shards differs from the unsharded run's")
        }
        if Python.path != nil {
            let script = PackagePaths.root.appendingPathComponent("Tests/ConformanceReportsTests/Python/validate_report.py").path
            for report in [shards[0], merged] {
                let check = try await ProcessRunner.run(
                    URL(fileURLWithPath: try #require(Python.path)), [script, "--json", report.appendingPathComponent("report.json").path])
                #expect(check.status == 0 || check.status == 3, "\(report.lastPathComponent): \(check)")
            }
        }
    }

    @Test("merge refuses missing and duplicate shards and shards of another seed, filter or split, saying which")
    func refusals() async throws {
        let directory = try PackagePaths.temporaryDirectory("shards-refused")
        defer { try? FileManager.default.removeItem(at: directory) }
        let one = try await Self.run(["--shard", "1/2"], into: directory, name: "one")
        let two = try await Self.run(["--shard", "2/2"], into: directory, name: "two")
        let otherSeed = try await Self.run(["--shard", "2/2"], into: directory, name: "seed", seed: "8")
        let otherFilter = try await Self.run(["--shard", "2/2", "--target", "apple-26.2"], into: directory, name: "filter")
        let otherSplit = try await Self.run(["--shard", "2/3"], into: directory, name: "split")
        let whole = try await Self.run([], into: directory, name: "whole")
        let out = directory.appendingPathComponent("merged")
        let cases: [([URL], String)] = [
            ([one], "shard(s) 2/2 missing"),
            ([one, one, two], "shard 1/2 is given twice"),
            ([one, otherSeed], "different seeds"),
            ([one, otherFilter], "different filters"),
            ([one, otherSplit], "different shard counts"),
            ([one, whole], "not a shard's report"),
        ]
        for (shards, message) in cases {
            let result = try await Self.merge(shards, into: out)
            #expect(result.status == 2, "\(message): \(result)")
            #expect(result.stderr.contains(message), "expected '\(message)': \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path), "a refused merge wrote reports")
    }

    /// The shard's report with every failed test case turned into a pass (verdict and outcome),
    /// its failed steps, messages and digest left in place: the forgery `merge` once took on trust.
    static func flipVerdicts(_ report: URL) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        var cases = try #require(object["testCases"] as? [[String: Any]])
        var flipped = 0
        for index in cases.indices where cases[index]["verdict"] as? String == "failed" {
            cases[index]["verdict"] = "passed"
            cases[index]["outcome"] = "passed"
            flipped += 1
        }
        try #require(flipped > 0, "the shard has no failure to flip")
        object["testCases"] = cases
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: report)
    }

    @Test(
        "merge refuses shards whose verdicts were flipped to passed, and a shard whose digest is stale; signed shard bundles merge, a tampered one is refused")
    func forgedShards() async throws {
        let directory = try PackagePaths.temporaryDirectory("shards-forged")
        defer { try? FileManager.default.removeItem(at: directory) }
        let failing = ["--mutant", "send-partial-list", "--criterion", "N3.2-AC04", "--target", "apple-26.0", "--target", "android-15-gpm"]
        func shard(_ index: Int, _ extra: [String] = []) async throws -> URL {
            let out = directory.appendingPathComponent("shard-\(index)-\(extra.count)")
            let result = try await Binary.run(
                ["run", "--out", out.path, "--seed", "7", "--shard", "\(index)/2"] + Binary.criteria + failing + Self.stable + extra)
            #expect(result.status == 1 || result.status == 0, "\(result)")
            return out
        }
        let one = try await shard(1)
        let two = try await shard(2)
        let out = directory.appendingPathComponent("merged")
        let honest = try await Self.merge([one, two], into: out)
        #expect(honest.status == 1, "the mutant fails: \(honest)")

        // Flipped verdicts, failed steps and stale digest left in place: refused, naming both.
        try Self.flipVerdicts(one.appendingPathComponent("report.json"))
        try Self.flipVerdicts(two.appendingPathComponent("report.json"))
        let forged = try await Self.merge([one, two], into: directory.appendingPathComponent("forged"))
        #expect(forged.status == 2, "\(forged)")
        #expect(forged.stderr.contains("does not follow from its own test cases"), "\(forged.stderr)")
        #expect(forged.stderr.contains("verdict passed, but step line"), "\(forged.stderr)")
        #expect(forged.stderr.contains("metadata.reportDigest"), "\(forged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("forged").path))

        // Only the digest stale: a summary member edited.
        let three = try await shard(1, ["--no-timings"])
        let report = three.appendingPathComponent("report.json")
        let text = try String(contentsOf: report, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"virtualMillis\" : ", with: "\"virtualMillis\" :  ").utf8).write(to: report)
        let stale = try await Self.merge([three, two], into: directory.appendingPathComponent("stale"))
        #expect(stale.status == 2 && stale.stderr.contains("metadata.reportDigest"), "\(stale)")

        // Signed shard bundles: merge --public-key takes them; a tampered one is refused.
        let key = try PEMSigningKey.generate(.ecdsaP256SHA256)
        let keyFile = directory.appendingPathComponent("key.pem")
        let publicFile = directory.appendingPathComponent("public.pem")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        try Data(try key.publicKey().pemRepresentation.utf8).write(to: publicFile)
        var bundles: [URL] = []
        for index in 1...2 {
            let bundle = directory.appendingPathComponent("bundle-\(index)")
            _ = try await shard(index, ["--bundle", bundle.path])
            let signed = try await Binary.run(["sign", bundle.path, "--key", keyFile.path])
            #expect(signed.status == 0, "\(signed)")
            bundles.append(bundle)
        }
        let fromBundles = try await Binary.run(
            ["merge", "--quiet", "--out", directory.appendingPathComponent("b").path, "--public-key", publicFile.path] + bundles.map(\.path))
        #expect(fromBundles.status == 1, "\(fromBundles)")
        #expect(
            try Data(contentsOf: directory.appendingPathComponent("b/report.json")) == Data(contentsOf: out.appendingPathComponent("report.json")),
            "merged from bundles equals merged from reports")
        try Self.flipVerdicts(bundles[0].appendingPathComponent("report.json"))
        let tampered = try await Binary.run(
            ["merge", "--quiet", "--out", directory.appendingPathComponent("t").path, "--public-key", publicFile.path] + bundles.map(\.path))
        #expect(tampered.status == 2 && tampered.stderr.contains("does not verify"), "\(tampered)")
        let plain = try await Binary.run([
            "merge", "--quiet", "--out", directory.appendingPathComponent("p").path, "--public-key", publicFile.path, one.path, two.path,
        ])
        #expect(plain.status == 2 && plain.stderr.contains("not an evidence bundle"), "\(plain)")
    }

    @Test("--shard takes i/n with 1 ≤ i ≤ n, and refuses waivers (given to merge instead)", arguments: ["0/4", "5/4", "1/0", "a/b", "2"])
    func badShard(_ value: String) async throws {
        let result = try await Binary.run(["run", "--no-reports", "--shard", value] + Binary.criteria)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--shard must be i/n"), "\(result)")
    }
}
