import ConformanceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `python3` the daemons run as, if there is one on `PATH`.
let daemonPython = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/python3" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// An adapter that starts a daemon the classic way (a double fork and `setsid`: the daemon leaves
/// the adapter's process group and session, and its parent ends at once) must not leave it running:
/// not after a normal run, not after call time-outs that relaunch the adapter, not after the harness
/// itself is killed.
@Suite(
    "No process outlives the run: setsid daemons of the adapter are ended", binaryBuilt,
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat") && daemonPython != nil, "needs /proc and python3 on PATH"))
struct DaemonTests {
    /// A shell snippet that starts a daemon whose command line holds `marker` as an argument of its
    /// own, and appends the daemon's pid to `record` (`>>`), or writes it to a named pipe (`>`).
    /// The marker is quoted in two pieces, so the harness's own command line never holds it whole.
    static func daemon(marker: String, record: String, append: Bool = true) -> String {
        let half = marker.index(marker.startIndex, offsetBy: marker.count / 2)
        return "( setsid python3 -c 'import time; time.sleep(86400)' '\(marker[..<half])''\(marker[half...])' </dev/null >/dev/null 2>&1 & "
            + "echo $! \(append ? ">>" : ">") '\(record)' ); "
    }

    /// The live (not zombie) processes with `marker` as one of their arguments.
    static func survivors(_ marker: String) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { Int32($0) }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return data.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == marker } && HarnessDeathTests.isRunning(pid)
        }
    }

    /// The pids a record file lists.
    static func recorded(_ file: URL) -> [Int32] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
    }

    /// Fails for each survivor of `marker`, and ends it so that one failure does not leak processes.
    static func expectNone(_ marker: String, after what: String) async {
        // The harness has exited, or its keeper is ending what it left; a daemon killed may take a
        // moment to be gone from `/proc`. The guard only turns a survivor into a failure instead of
        // a hang.
        let gone = await Waiting.until { survivors(marker).isEmpty }
        let left = survivors(marker)
        for pid in left { kill(pid, SIGKILL) }
        #expect(gone && left.isEmpty, "\(left.count) daemon(s) \(left) outlived the harness \(what)")
    }

    @Test("after a normal run, the daemon the adapter started is gone")
    func normalRun() async throws {
        let directory = try PackagePaths.temporaryDirectory("daemon-normal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let adapter = try #require(BuiltProducts.executable("reference-rp-adapter")).path
        let marker = "daemon-\(UUID().uuidString)"
        let record = directory.appendingPathComponent("daemons.txt")
        let run = try await Binary.run(
            ["run", "--quiet", "--no-reports", "--criterion", "N2.6-AC01", "--target", "apple-18"] + Binary.criteria
                + ["--adapter-command", Self.daemon(marker: marker, record: record.path) + "exec '\(adapter)'"])
        #expect(run.status == 0, "\(run)")
        #expect(!Self.recorded(record).isEmpty, "the adapter started no daemon")
        await Self.expectNone(marker, after: "a normal run")
    }

    @Test("after call time-outs that relaunch the adapter, none of the daemons its launches started is left")
    func callTimeouts() async throws {
        let directory = try PackagePaths.temporaryDirectory("daemon-timeouts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = "daemon-\(UUID().uuidString)"
        let record = directory.appendingPathComponent("daemons.txt")
        // Answers adapter.hello, then nothing: every call times out and the adapter is relaunched.
        let silent =
            Self.daemon(marker: marker, record: record.path) + "IFS= read -r l; printf '%s\\n' '\(HarnessDeathTests.hello)'; "
            + "while read -r _; do :; done"
        let run = try await Binary.run(
            ["run", "--quiet", "--no-reports", "--criterion", "N2.6-AC01", "--target", "apple-18", "--call-timeout", "0.5"] + Binary.criteria
                + ["--adapter-command", silent])
        #expect(run.status != 0, "\(run)")
        #expect(Self.recorded(record).count >= 2, "the adapter was not relaunched: \(Self.recorded(record))")
        await Self.expectNone(marker, after: "call time-outs")
    }

    @Test("after SIGKILL of the harness, the daemon is gone")
    func harnessKilled() async throws {
        let binary = try #require(Binary.url)
        let directory = try PackagePaths.temporaryDirectory("daemon-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = "daemon-\(UUID().uuidString)"
        let pidPipe = directory.appendingPathComponent("daemon.pid").path
        try #require(mkfifo(pidPipe, 0o600) == 0)
        let harness = try HarnessDeathTests.start(
            binary,
            ["run", "--quiet", "--no-reports", "--criterion", "N2.6-AC01", "--target", "apple-18"] + Binary.criteria
                + [
                    "--adapter-command",
                    Self.daemon(marker: marker, record: pidPipe, append: false) + "IFS= read -r l; printf '%s\\n' '\(HarnessDeathTests.hello)'; "
                        + "while read -r _; do :; done",
                ], releasing: pidPipe)
        let daemon = try #require(
            Int32((await HarnessDeathTests.readToEnd(pidPipe)).trimmingCharacters(in: .whitespacesAndNewlines)), "the adapter never started")
        // The daemon is up once its command line names the marker (the fork comes before the exec).
        #expect(await Waiting.until { Self.survivors(marker) == [daemon] }, "the daemon never started")
        kill(harness.processIdentifier, SIGKILL)
        harness.waitUntilExit()
        await Self.expectNone(marker, after: "was killed with SIGKILL")
    }
}
