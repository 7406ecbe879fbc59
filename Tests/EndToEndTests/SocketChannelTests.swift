import ConformanceTestSupport
import Foundation
import PasskeyConformanceAdapter
import ReferenceRP
import Synchronization
import Testing

/// `run --adapter-connect`: the adapter protocol over a stream socket, to an adapter that runs on its
/// own (served here by the adapter library's listener, in this process).
@Suite("Socket channel", .heavy, .loadsMachine)
struct SocketChannelTests {
    static let adapter = PackagePaths.root.appendingPathComponent(".build/debug/reference-rp-adapter").path

    /// Every report file of a run, by name.
    static func reports(_ extra: [String], in directory: URL, status: Int32 = 0) async throws -> [String: String] {
        let out = directory.appendingPathComponent("out-\(UUID().uuidString.prefix(6))")
        let result = try await Binary.run(
            ["run", "--quiet", "--no-timings", "--timestamp", "2026-12-01T00:00:00Z", "--jobs", "4", "--out", out.path] + Binary.criteria + extra)
        #expect(result.status == status, "\(result)")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            files[name] = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    /// A report with what names the channel set aside: the adapter's command or address (in the
    /// metadata, the provenance and every re-run line) and the report digest that covers them.
    static func withoutChannel(_ text: String, endpoint: String, digest: String?) -> String {
        var text = text.replacingOccurrences(of: endpoint, with: "ENDPOINT")
        for quote in ["\"", "\\\"", "&quot;"] {
            text = text.replacingOccurrences(of: "--adapter-command \(quote)ENDPOINT\(quote)", with: "--ADAPTER")
        }
        text = text.replacingOccurrences(of: "--adapter-connect ENDPOINT", with: "--ADAPTER")
        if let digest { text = text.replacingOccurrences(of: digest, with: "DIGEST") }
        let naming = ["\"command\" :", "\"connect\" :", "adapter.command", "adapter.connect", "Adapter command:", "Adapter connection:", "(json-rpc), "]
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in !naming.contains { line.contains($0) } }
            .joined(separator: "\n")
    }

    static func digest(_ files: [String: String]) throws -> String {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(files["report.json"]).utf8))
        return try #require(json["metadata"]?["reportDigest"]?.stringValue)
    }

    @Test(
        "the whole suite over a Unix socket writes the reports of the same adapter over stdio, but for the lines that name the channel",
        .enabled(if: FileManager.default.isExecutableFile(atPath: adapter), "needs the built reference-rp-adapter (swift build)"))
    func wholeSuiteMatchesStdio() async throws {
        let directory = try PackagePaths.temporaryDirectory("socket")
        defer { try? FileManager.default.removeItem(at: directory) }
        let address = "unix:" + directory.appendingPathComponent("rp.sock").path
        // Bound and listening once this returns: a harness that connects from now on is queued.
        let listener = try ChannelListener(address: try ChannelAddress(parsing: address))
        let serving = Task { try await JSONRPCAdapterServer(adapter: ReferenceRP()).run(listener: listener) }
        defer { serving.cancel() }

        let overSocket = try await Self.reports(["--adapter-connect", address], in: directory)
        let overStdio = try await Self.reports(["--adapter-command", Self.adapter], in: directory)
        #expect(overSocket.keys.sorted() == overStdio.keys.sorted())
        #expect(overSocket["report.json"]?.contains("\"connect\" : \"\(address)\"") == true)
        let socketDigest = try Self.digest(overSocket)
        let stdioDigest = try Self.digest(overStdio)
        for (name, stdio) in overStdio {
            let socket = Self.withoutChannel(try #require(overSocket[name]), endpoint: address, digest: socketDigest)
            let expected = Self.withoutChannel(stdio, endpoint: Self.adapter, digest: stdioDigest)
            #expect(socket == expected, "\(name) differs between the socket and stdio")
        }
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(overSocket["report.json"]).utf8))
        #expect((json["testCases"]?.arrayValue?.count ?? 0) > 1000, "the whole suite ran")

        // The listener serves the next harness: the first one's end closed only its sessions.
        let again = try await Self.reports(["--adapter-connect", address, "--criterion", "N2.6-AC06"], in: directory)
        #expect(again["report.json"]?.contains("\"verdict\" : \"passed\"") == true)

        // Cancelled, the server closes its listener (no thread is left waiting in accept): nobody
        // can connect any more.
        serving.cancel()
        _ = await serving.result
        #expect(throws: ChannelError.self) { try MessageChannel.connect(to: try ChannelAddress(parsing: address)).discard() }
    }

    @Test("nobody listening: every test case errs with launch-failed, naming the address and what to check")
    func nobodyListening() async throws {
        let directory = try PackagePaths.temporaryDirectory("socket-refused")
        defer { try? FileManager.default.removeItem(at: directory) }
        let address = "unix:" + directory.appendingPathComponent("nobody.sock").path
        let result = try await Binary.run(["run", "--no-reports", "--criterion", "N2.6-AC06", "--adapter-connect", address] + Binary.criteria)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("launch-failed") || result.stderr.contains("launch-failed"), "\(result)")
        #expect((result.stdout + result.stderr).contains("is the adapter listening there?"), "\(result)")
    }

    @Test(
        "a bad address is a usage error that says what to write",
        arguments: [
            ("tcp:10.0.0.5:9000", "only a loopback host"), ("udp:1", "not a channel address"), ("tcp:127.0.0.1:0", "port"),
            ("unix:", "names no socket path"),
        ])
    func badAddress(_ address: String, _ message: String) async throws {
        let result = try await Binary.run(["run", "--no-reports", "--adapter-connect", address] + Binary.criteria)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test("an adapter that closes every connection at once: the run stops with a fault that names the connection, never hangs")
    func closingAdapter() async throws {
        let directory = try PackagePaths.temporaryDirectory("socket-closing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let address = "unix:" + directory.appendingPathComponent("closing.sock").path
        let listener = try ChannelListener(address: try ChannelAddress(parsing: address))
        // Accepts each connection and ends it before a word is said, until the test wakes it to stop.
        let done = Atomic<Bool>(false)
        let thread = Thread {
            while let channel = try? listener.accept() {
                channel.discard()
                if done.load(ordering: .acquiring) { return }
            }
        }
        thread.start()
        let result = try await Binary.run(["run", "--no-reports", "--criterion", "N2.6-AC06", "--adapter-connect", address] + Binary.criteria)
        done.store(true, ordering: .releasing)
        try MessageChannel.connect(to: try ChannelAddress(parsing: address)).discard()
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("process-exited"), "\(result)")
        #expect(
            result.stdout.contains("the adapter closed the connection") || result.stdout.contains("the connection to the adapter failed"),
            "the fault speaks of the connection, not of a process's output: \(result)")
    }

    @Test("--adapter-connect and --adapter-command exclude each other")
    func exclusive() async throws {
        let result = try await Binary.run(["run", "--no-reports", "--adapter-connect", "unix:/tmp/x.sock", "--adapter-command", "true"] + Binary.criteria)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("exclude each other"), "\(result)")
    }
}
