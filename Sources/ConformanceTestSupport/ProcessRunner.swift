import ConformanceKit
import Foundation
import Synchronization

/// Runs a built executable with a time-out, so that a hung binary fails a test instead of hanging it.
package enum ProcessRunner {
    /// How a process ended.
    package struct Result: Sendable, CustomStringConvertible {
        /// The exit status, or the signal's number if the process was killed.
        package var status: Int32
        /// Everything the process wrote to standard output, decoded as UTF-8.
        package var stdout: String
        /// Everything the process wrote to standard error, decoded as UTF-8.
        package var stderr: String
        /// The process was killed because it outlived its time-out.
        package var timedOut: Bool
        /// From the launch to the exit: the time spent waiting for a slot is not in it.
        package var ranFor: Duration

        /// Both streams, for failure messages.
        package var description: String {
            "exit status \(status)\(timedOut ? " (killed after the time-out)" : "")\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
        }
    }

    /// Runs `executable` with `arguments` in `directory` and waits at most `timeout` (by default
    /// `Waiting.hangGuard`: a guard against hangs, never a bound on speed).
    ///
    /// Output goes to temporary files rather than pipes, so a chatty process cannot block on a full
    /// pipe while the test waits for it to exit. At most `ProcessSlots.shared.limit` processes run
    /// at once; a test waits (suspended) for a slot, and its time-out counts from the launch. With
    /// every end-to-end test starting its process at once, a 2-core machine ran a dozen suites side
    /// by side and a one-minute time-out killed processes that only lacked processor time.
    package static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        timeout: Duration = Waiting.hangGuard
    ) async throws -> Result {
        await ProcessSlots.shared.acquire()
        defer { ProcessSlots.shared.release() }
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
        let clock = ContinuousClock()
        let launched = clock.now
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
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) {
                watch.state.withLock { state in
                    guard !state.exited else { return }
                    state.timedOut = true
                    kill(pid, SIGKILL)
                }
            }
        }
        let ranFor = clock.now - launched
        let stdout = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return Result(status: status, stdout: stdout, stderr: stderr, timedOut: watch.state.withLock { $0.timedOut }, ranFor: ranFor)
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

/// A counting limit on the processes the tests run at once, waited for without holding a thread.
package final class ProcessSlots: Sendable {
    /// The slots of the whole test process: the processor count, at least 2.
    package static let shared = ProcessSlots(limit: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// How many processes may run at once.
    package let limit: Int
    private let state: Mutex<(free: Int, waiters: [CheckedContinuation<Void, Never>])>

    /// A limit of `limit` processes at once.
    package init(limit: Int) {
        self.limit = limit
        state = Mutex((limit, []))
    }

    /// Takes a slot, waiting in line for one if none is free.
    package func acquire() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiters.append(waiter)
                return false
            }
            if granted { waiter.resume() }
        }
    }

    /// Gives a slot back: to the first waiter, if any.
    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

/// The executables of this package's build, found next to the running test bundle.
package enum BuiltProducts {
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
    package static func executable(_ name: String) -> URL? {
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
