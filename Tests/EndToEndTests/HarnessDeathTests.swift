import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The harness killed from outside (`SIGKILL`, or `SIGHUP` from a closed CI terminal) while an
/// adapter's helper runs: the helper must not outlive it.
@Suite("The harness dies: the adapter's helpers go too", binaryBuilt)
struct HarnessDeathTests {
    /// The adapter: starts a helper (`sleep`) that ignores its input, reports the helper's pid through
    /// a named pipe, answers `adapter.hello` declaring everything, then never answers again.
    static func adapterCommand(pidPipe: String) -> String {
        "sleep 86400 </dev/null >/dev/null 2>&1 & echo $! > '\(pidPipe)'; IFS= read -r l; printf '%s\\n' '\(hello)'; "
            + "while read -r _; do :; done"
    }

    /// The answer to `adapter.hello` (request id 1) of an adapter that declares every capability and
    /// the target apple-18.
    static let hello: String = {
        let capabilities = Capability.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        return #"{"id":1,"jsonrpc":"2.0","result":{"capabilities":["# + capabilities
            + #"],"name":"helper-spawner","protocolVersion":"1.1","relyingPartyIDs":["example.com"],"targets":["apple-18"],"version":"1"}}"#
    }()

    /// Whether a process exists and is not a zombie.
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    /// Reads a named pipe to its end on a thread of its own (opening it blocks until a writer comes).
    static func readToEnd(_ path: String) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
    }

    /// Starts the harness with `arguments` (and patient time-outs), its output discarded. Should it
    /// end before the adapter writes to the named pipe `pidPipe`, the reader is released with nothing.
    static func start(_ binary: URL, _ arguments: [String], releasing pidPipe: String) throws -> Process {
        let harness = Process()
        harness.executableURL = binary
        harness.arguments = Binary.patient(arguments)
        harness.standardOutput = FileHandle.nullDevice
        harness.standardError = FileHandle.nullDevice
        harness.terminationHandler = { _ in
            let fd = open(pidPipe, O_RDWR)
            if fd >= 0 { close(fd) }
        }
        try harness.run()
        return harness
    }

    @Test(
        "SIGKILL or SIGHUP of the harness stops the adapter's helper process", .enabled(if: FileManager.default.fileExists(atPath: "/proc/self")),
        arguments: [SIGKILL, SIGHUP])
    func helperStops(signal: Int32) async throws {
        let binary = try #require(Binary.url)
        let directory = try PackagePaths.temporaryDirectory("harness-death")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidPipe = directory.appendingPathComponent("helper.pid").path
        try #require(mkfifo(pidPipe, 0o600) == 0)
        let harness = try Self.start(
            binary,
            ["run", "--criterion", "N2.6-AC01", "--target", "apple-18", "--no-reports", "--quiet", "--call-timeout", "3600", "--test-case-timeout", "86400"]
                + Binary.criteria + ["--adapter-command", Self.adapterCommand(pidPipe: pidPipe)], releasing: pidPipe)
        let helper = try #require(Int32((await Self.readToEnd(pidPipe)).trimmingCharacters(in: .whitespacesAndNewlines)), "the adapter never started")
        #expect(Self.isRunning(helper))
        kill(harness.processIdentifier, signal)
        harness.waitUntilExit()
        #expect(harness.terminationReason == .uncaughtSignal || harness.terminationStatus != 0)
        // The watchdog stops the group at once; the guard only turns a broken watchdog into a failure
        // instead of a hang.
        let survived = await !Waiting.until { !Self.isRunning(helper) }
        if survived { kill(helper, SIGKILL) }
        #expect(!survived, "the adapter's helper \(helper) outlived the harness killed by signal \(signal)")
    }
}
