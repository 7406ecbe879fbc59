import ConformanceTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The binary started by a test that talks to it while it runs (signals, named pipes), waited for
/// by its exit event, never by the clock.
final class LaunchedBinary: Sendable {
    let process: Process
    let directory: URL
    private let exit = AsyncStream<Int32>.makeStream()

    /// Starts the binary in `directory` with `arguments`; output goes to files there. When it exits,
    /// each named pipe of `fifos` is opened once at both ends, so that a test waiting to open one
    /// is released (and fails its checks) instead of waiting for ever.
    init(
        _ arguments: [String], in directory: URL, executable: URL? = Binary.url, environment: [String: String] = [:], fifos: [String] = []
    ) throws {
        let url = try #require(executable, "the passkey-conformance binary is not built")
        self.directory = directory
        process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("stdout.txt").path, contents: nil)
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("stderr.txt").path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: directory.appendingPathComponent("stdout.txt"))
        process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr.txt"))
        let continuation = exit.continuation
        process.terminationHandler = { process in
            for fifo in fifos {
                let descriptor = Glibc.open(fifo, O_RDWR | O_NONBLOCK)
                if descriptor >= 0 { close(descriptor) }
            }
            continuation.yield(process.terminationStatus)
        }
        try process.run()
    }

    /// Sends a signal to the binary (not to its adapter).
    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// The exit status (or the signal's number if a signal ended it), and what it printed.
    func wait() async -> (status: Int32, byExit: Bool, stdout: String, stderr: String) {
        var status: Int32 = -1
        for await value in exit.stream {
            status = value
            break
        }
        let read = { (name: String) in (try? String(contentsOf: self.directory.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        return (status, process.terminationReason == .exit, read("stdout.txt"), read("stderr.txt"))
    }

    /// Opens a named pipe on a thread of its own (the open waits for the other end) and returns its descriptor.
    static func open(fifo path: String, flags: Int32) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Glibc.open(path, flags)) }
        }
    }
}
