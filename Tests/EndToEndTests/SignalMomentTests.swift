import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Signals at moments the run's own handlers did not cover before: while the criteria load, and
/// during `explore`. Each moment is reached through a named pipe the test holds (the binary blocks
/// reading or writing it), so nothing waits on the clock.
@Suite("The gate: signals at any moment", binaryBuilt)
struct SignalMomentTests {
    @Test(
        "a signal while the criteria load ends the run with an interrupted report set and the signal's status",
        arguments: [(SIGINT, Int32(130), "SIGINT", "interrupted"), (SIGTERM, Int32(143), "SIGTERM", "terminated"), (SIGHUP, Int32(129), "SIGHUP", "hangup")])
    func whileCriteriaLoad(number: Int32, status: Int32, name: String, statusName: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-signal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let criteria = directory.appendingPathComponent("criteria")
        try FileManager.default.createDirectory(at: criteria, withIntermediateDirectories: true)
        let original = try Data(contentsOf: PackagePaths.criteria.appendingPathComponent("N2.6-automatic-upgrade/N2.6-X02.feature"))
        let fifo = criteria.appendingPathComponent("N2.6-X02.feature").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let out = directory.appendingPathComponent("reports")
        let launched = try LaunchedBinary(["run", "--criteria", criteria.path, "--out", out.path], in: directory, fifos: [fifo])
        // The open returns once the binary opened the file to read it: it is loading the criteria.
        signal(SIGPIPE, SIG_IGN)  // a write to a reader that went away fails the test, not the test process
        let writer = await LaunchedBinary.open(fifo: fifo, flags: O_WRONLY)
        try #require(writer >= 0)
        launched.signal(number)
        _ = original.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        close(writer)
        let result = await launched.wait()
        #expect(result.byExit && result.status == status, "\(result)")
        let json = try ReportSet.json(out)
        #expect(json["metadata"]?["interruption"]?.stringValue == name)
        #expect(json["summary"]?["status"]?.stringValue == statusName)
        #expect(json["summary"]?["exitStatus"]?.numberValue == Double(status))
    }

    /// An adapter that, in `session.open`, writes its process group to the named pipe in
    /// `$SIGNAL_FIFO` and then never answers; it fails `adapter.hello` in mode `fail`.
    static let adapter = #"""
        import json, os, sys, time
        mode = sys.argv[1]
        def send(m):
            sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
        for line in sys.stdin:
            m = json.loads(line)
            method, i = m.get("method"), m.get("id")
            if method == "adapter.hello":
                if mode == "fail":
                    sys.exit(5)
                send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": "1.0", "name": "hanging", "version": "1",
                      "targets": ["apple-26.2"], "capabilities": ["conditional-create"], "relyingPartyIDs": ["example.com"]}})
            elif method == "session.open":
                with open(os.environ["SIGNAL_FIFO"], "w") as f:
                    f.write(str(os.getpgrp()))
                time.sleep(3600)
            elif i is not None:
                send({"jsonrpc": "2.0", "id": i, "result": {}})
        """#

    @Test(
        "explore stopped by SIGTERM stops its adapter and writes its report marked interrupted; its status is the report's", .enabled(if: GateAdapter.hasPython)
    )
    func exploreInterrupted() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-signal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("adapter.py")
        try Data(Self.adapter.utf8).write(to: script)
        let fifo = directory.appendingPathComponent("adapter.fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let out = directory.appendingPathComponent("reports")
        let launched = try LaunchedBinary(
            Binary.patient(["explore", "--adapter-command", "exec python3 -u '\(script.path)' hang", "--budget", "5", "--out", out.path]),
            in: directory, environment: ["SIGNAL_FIFO": fifo], fifos: [fifo])
        let reader = await LaunchedBinary.open(fifo: fifo, flags: O_RDONLY)
        try #require(reader >= 0)
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        close(reader)
        #expect(count > 0, "the adapter reached session.open")
        launched.signal(SIGTERM)
        let result = await launched.wait()
        #expect(result.byExit && result.status == 143, "\(result)")
        let json = try ReportSet.json(out)
        #expect(json["metadata"]?["interruption"]?.stringValue == "SIGTERM")
        #expect(json["summary"]?["exitStatus"]?.numberValue == 143)
    }

    @Test("explore writes its report when the adapter fails, with the status it exits with", .enabled(if: GateAdapter.hasPython))
    func exploreFault() async throws {
        let directory = try PackagePaths.temporaryDirectory("e2e-signal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("adapter.py")
        try Data(Self.adapter.utf8).write(to: script)
        let out = directory.appendingPathComponent("reports")
        let result = try await Binary.run(["explore", "--adapter-command", "exec python3 -u '\(script.path)' fail", "--budget", "5", "--out", out.path])
        #expect(result.status == 2, "\(result)")
        let json = try ReportSet.json(out)
        #expect(json["metadata"]?["fault"] != .null)
        #expect(json["summary"]?["exitStatus"]?.numberValue == 2)

        let clean = try await Binary.run(["explore", "--budget", "5", "--out", out.path, "--quiet"])
        #expect(clean.status == 0, "\(clean)")
        #expect(try ReportSet.json(out)["summary"]?["exitStatus"]?.numberValue == 0)
    }
}
