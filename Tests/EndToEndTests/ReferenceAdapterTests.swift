import ConformanceTestSupport
import Foundation
import Testing

/// `reference-rp-adapter --design` and `--mutant`: the reference's variants through the pipes.
@Suite("reference-rp-adapter options", .heavy)
struct ReferenceAdapterTests {
    static let adapter = PackagePaths.root.appendingPathComponent(".build/debug/reference-rp-adapter")

    @Test(
        "a conforming design passes through the pipes and its mutant fails; an unknown design is a usage error",
        .enabled(if: FileManager.default.isExecutableFile(atPath: adapter.path), "needs the built reference-rp-adapter (swift build)"))
    func designs() async throws {
        func run(_ options: String) async throws -> ProcessRunner.Result {
            try await Binary.run(
                ["run", "--quiet", "--no-reports", "--criterion", "N2.6-AC05", "--adapter-command", "\(Self.adapter.path) \(options)"] + Binary.criteria)
        }
        // Timers across the wire: the design asks 3 s after the sign-in, by `clock.schedule`.
        let conforming = try await run("--design upgrade-after-3s")
        #expect(conforming.status == 0, "\(conforming)")
        let mutant = try await run("--design upgrade-after-3s --mutant double-request")
        #expect(mutant.status == 1, "\(mutant)")

        let unknown = try await ProcessRunner.run(Self.adapter, ["--design", "no-such-design"])
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.stderr.contains("unknown design 'no-such-design'") && unknown.stderr.contains("upgrade-after-3s"), "\(unknown)")
    }
}
