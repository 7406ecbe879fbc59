import Foundation
import Synchronization

/// Runs a built executable with a time-out, so that a hung binary fails a test instead of hanging it.
public enum ProcessRunner {
    /// How a process ended.
    public struct Result: Sendable, CustomStringConvertible {
        /// The exit status, or the signal's number if the process was killed.
        public var status: Int32
        /// Everything the process wrote to standard output, decoded as UTF-8.
        public var stdout: String
        /// Everything the process wrote to standard error, decoded as UTF-8.
        public var stderr: String
        /// The process was killed because it outlived its time-out.
        public var timedOut: Bool

        /// Both streams, for failure messages.
        public var description: String {
            "exit status \(status)\(timedOut ? " (killed after the time-out)" : "")\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
        }
    }

    /// Runs `executable` with `arguments` in `directory` and waits at most `timeout` seconds.
    ///
    /// Output goes to temporary files rather than pipes, so a chatty process cannot block on a full
    /// pipe while the test waits for it to exit.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let scratch = try PackagePaths.temporaryDirectory("process")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
            FileManager.default.createFile(atPath: errURL.path, contents: nil)
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: scratch.path])
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? scratch
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let watch = Watch()
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in
                watch.state.withLock { $0.exited = true }
                continuation.resume(returning: process.terminationStatus)
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            // A dispatch timer rather than a task: the cooperative pool may be busy with other tests.
            let pid = process.processIdentifier
            let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
                watch.state.withLock { state in
                    guard !state.exited else { return }
                    state.timedOut = true
                    kill(pid, SIGKILL)
                }
            }
        }
        let stdout = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return Result(status: status, stdout: stdout, stderr: stderr, timedOut: watch.state.withLock { $0.timedOut })
    }

    /// Whether the process has exited, and whether the time-out killed it.
    final class Watch: Sendable {
        struct State {
            var exited = false
            var timedOut = false
        }
        let state = Mutex(State())
    }
}

/// The executables of this package's build, found next to the running test bundle.
public enum BuiltProducts {
    /// Directories that may hold the build products, most specific first.
    static var candidateDirectories: [URL] {
        var directories: [URL] = []
        if let override = ProcessInfo.processInfo.environment["PASSKEY_CONFORMANCE_BUILD_DIR"] {
            directories.append(URL(fileURLWithPath: override))
        }
        // The test bundle (`…/debug/<package>PackageTests.xctest`) lives in the products directory.
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        if let executable = Bundle.main.executableURL {
            directories.append(executable.deletingLastPathComponent())
            directories.append(executable.deletingLastPathComponent().deletingLastPathComponent())
        }
        directories.append(PackagePaths.root.appendingPathComponent(".build/debug"))
        return directories
    }

    /// The executable `name` of this build, or `nil` when it has not been built.
    public static func executable(_ name: String) -> URL? {
        for directory in candidateDirectories {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: url.path)
            {
                return url
            }
        }
        return nil
    }
}
