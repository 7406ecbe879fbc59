import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// The criteria ship with the binary: an installed copy runs the whole suite from anywhere.
@Suite("Runs from anywhere")
struct InstallTests {
    /// Every file below a directory with its bytes, by relative path.
    static func tree(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
        while let entry = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let url = root.appendingPathComponent(entry)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[entry] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test("the shipped criteria are the package's criteria, byte for byte (after editing Criteria/, run Scripts/sync-criteria.sh)")
    func shippedCriteriaAreCurrent() throws {
        let shipped = PackagePaths.root.appendingPathComponent("Sources/PasskeyConformanceCLI/Resources/Criteria")
        let package = try Self.tree(PackagePaths.criteria)
        let copy = try Self.tree(shipped)
        #expect(!package.isEmpty)
        let differing = Set(package.keys).symmetricDifference(copy.keys).union(package.keys.filter { copy[$0] != nil && copy[$0] != package[$0] })
        #expect(differing.isEmpty, "differ between Criteria/ and the shipped copy: \(differing.sorted()); run Scripts/sync-criteria.sh")
    }

    /// The binary to install: the release build (`swift build -c release`, as `.ci/run` does) when
    /// it is at least as new as the debug build the other tests use, else the debug build (same
    /// layout), so that a release binary left from an older build is never tested by mistake.
    static var builtBinary: URL? {
        let release = PackagePaths.root.appendingPathComponent(".build/release/passkey-conformance")
        guard FileManager.default.isExecutableFile(atPath: release.path) else { return Binary.url }
        guard let debug = Binary.url else { return release }
        func modified(_ url: URL) -> Date {
            (try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)[.modificationDate] as? Date) ?? .distantPast
        }
        return modified(release) >= modified(debug) ? release : debug
    }

    @Test(
        "a binary copied with its resource bundles runs the whole suite from an empty directory, every criterion passing",
        .enabled(if: InstallTests.builtBinary != nil, "the passkey-conformance binary is not built; run 'swift build -c release' first"))
    func installedCopyRunsFromAnEmptyDirectory() async throws {
        let built = try #require(Self.builtBinary).resolvingSymlinksInPath()
        let products = built.deletingLastPathComponent()
        let install = try PackagePaths.temporaryDirectory("install")
        let empty = try PackagePaths.temporaryDirectory("empty")
        defer {
            try? FileManager.default.removeItem(at: install)
            try? FileManager.default.removeItem(at: empty)
        }
        // What README's "Installing" section says to copy: the binary and every *.resources bundle beside it.
        try await Binary.copyExecutable(built, to: install.appendingPathComponent("passkey-conformance"))
        for name in try FileManager.default.contentsOfDirectory(atPath: products.path) where name.hasSuffix(".resources") {
            try FileManager.default.copyItem(at: products.appendingPathComponent(name), to: install.appendingPathComponent(name))
        }
        let result = try await ProcessRunner.run(
            install.appendingPathComponent("passkey-conformance"), ["run", "--level", "recommendation", "--out", "reports"],
            in: empty)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Result: conformant"), "\(result.stdout.suffix(500))")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: empty.appendingPathComponent("reports/report.json")))
        let criteria = try #require(json["criteria"]?.arrayValue)
        #expect(criteria.count == 18, "the whole suite: \(criteria.count) criteria")
        #expect(criteria.allSatisfy { $0["verdict"]?.stringValue == "passed" })
        let files = criteria.compactMap { $0["file"]?.stringValue }
        #expect(files.count == criteria.count, "every criterion names its file")
        #expect(files.allSatisfy { $0.hasPrefix("Criteria/") }, "file paths do not depend on where the criteria lie: \(files.prefix(3))")
        #expect(json["metadata"]?["criteria"] == .null)
    }

    @Test("with --criteria, the report records it and every re-run command repeats it", binaryBuilt)
    func rerunRepeatsCriteria() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-criteria")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(
            ["run"] + Binary.criteria + [
                "--criterion", "N2.6-AC01", "--mutant", "upgrade-before-second-factor",
                "--out", out.path,
            ])
        #expect(result.status == 1, "\(result)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        #expect(json["metadata"]?["criteria"]?.stringValue == PackagePaths.criteria.path)
        let reruns = try #require(json["testCases"]?.arrayValue).compactMap { $0["rerun"]?.stringValue }
        #expect(!reruns.isEmpty && reruns.allSatisfy { $0.contains("--criteria \(PackagePaths.criteria.path) ") }, "\(reruns.first ?? "")")
    }
}
