import Foundation
import ConformanceModel
import PasskeyConformanceAdapter
import Synchronization

/// An adapter process started with Foundation's `Process`, with the harness's ends of its pipes.
///
/// The process runs in a process group of its own (Foundation starts children that way on Linux), so
/// that stopping it also stops whatever it started (`/bin/sh -c` wrappers, helpers). Where the
/// executable set it up (`ProcessKeeper`), the process is a keeper that runs the adapter and ends
/// every descendant the adapter left, in its group or not, when the adapter or the harness ends. Every live
/// process is also listed in `ChildProcess.registry`, which an `atexit` handler empties with
/// `SIGKILL`: children never outlive the harness, even when nobody called `shutdown()`.
package final class ChildProcess: Sendable {
    /// The ends of the pipes the harness keeps.
    package struct Pipes: Sendable {
        /// Reads the process's standard output.
        package var fromChild: Int32
        /// Writes the process's standard input.
        package var toChild: Int32
    }

    package let process: Process
    package let pid: Int32
    private let isGroupLeader: Bool
    private let standardErrorTail: StandardErrorTail?
    /// Stops the process group if the harness dies (see `GroupWatchdog`).
    private let watchdog: GroupWatchdog?
    private let stopRequested = Atomic<Bool>(false)
    /// Fired by `Process`'s termination handler.
    private let exit: Occurrence

    private init(process: Process, exit: Occurrence, standardErrorTail: StandardErrorTail?, watchdog: GroupWatchdog?) {
        self.process = process
        self.watchdog = watchdog
        self.exit = exit
        self.pid = process.processIdentifier
        self.isGroupLeader = Platform.processGroup(of: process.processIdentifier) == process.processIdentifier
        self.standardErrorTail = standardErrorTail
    }

    /// Starts `executable` with `arguments` and pipes on its standard input and output.
    package static func launch(
        executable: String, arguments: [String], environment: [String: String], workingDirectory: String?,
        captureStandardError: Bool
    ) throws(AdapterFault) -> (ChildProcess, Pipes) {
        Platform.ignoreBrokenPipeSignal()
        _ = registryInstalled
        // Once the harness is stopping (`AdapterProcesses.stopAll`), no adapter starts again: a
        // relaunch would wait for a hello nobody needs, for as long as the launch time-out allows.
        guard !AdapterProcesses.stopping.load(ordering: .relaxed) else {
            throw AdapterFault(.launchFailed, "not started: the harness is stopping")
        }
        let process = Process()
        if let kept = ProcessKeeper.wrapping(executable, arguments) {
            // Under a keeper (see `ProcessKeeper`), which cannot tell the harness that the adapter
            // failed to start: a command that cannot run is refused here, as `Process` would.
            guard access(executable, X_OK) == 0 else {
                throw AdapterFault(.launchFailed, "could not start \(executable): \(String(cString: strerror(errno)))")
            }
            process.executableURL = URL(fileURLWithPath: kept.executable)
            process.arguments = kept.arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let input = Pipe()
        let output = Pipe()
        let errors = captureStandardError ? Pipe() : nil
        process.standardInput = input
        process.standardOutput = output
        if let errors { process.standardError = errors }
        let exit = Occurrence()
        process.terminationHandler = { _ in exit.fire() }
        do {
            try process.run()
        } catch {
            throw AdapterFault(.launchFailed, "could not start \(executable): \(error)")
        }
        // Keep close-on-exec duplicates and let Foundation's handles go, so that each descriptor has one owner.
        let pipes = Pipes(
            fromChild: Platform.duplicate(output.fileHandleForReading.fileDescriptor),
            toChild: Platform.duplicate(input.fileHandleForWriting.fileDescriptor))
        try? output.fileHandleForReading.close()
        try? input.fileHandleForWriting.close()
        var tail: StandardErrorTail?
        if let errors {
            tail = StandardErrorTail(fd: Platform.duplicate(errors.fileHandleForReading.fileDescriptor))
            try? errors.fileHandleForReading.close()
        }
        let pid = process.processIdentifier
        let watchdog = Platform.processGroup(of: pid) == pid ? GroupWatchdog.start(group: pid) : nil
        let child = ChildProcess(process: process, exit: exit, standardErrorTail: tail, watchdog: watchdog)
        registry.withLock { $0[child.pid] = child.isGroupLeader }
        return (child, pipes)
    }

    /// Whether the process is still running.
    package var isRunning: Bool { process.isRunning }

    /// How the process ended, e.g. `exited with status 3`, or `nil` while it runs.
    package var exitDescription: String? {
        guard !process.isRunning else { return nil }
        switch process.terminationReason {
        case .exit: return "exited with status \(process.terminationStatus)"
        case .uncaughtSignal: return "was killed by signal \(process.terminationStatus)"
        @unknown default: return "ended"
        }
    }

    /// The last lines the process wrote to its standard error (when captured).
    package var standardErrorText: String? {
        guard let text = standardErrorTail?.text, !text.isEmpty else { return nil }
        return "stderr: " + text
    }

    /// Waits (without blocking a thread) until the captured standard error has reached its end or
    /// `timeout` has passed, so that a fault carries the last words of a process that just exited.
    package func standardErrorSettled(within timeout: Duration) async {
        guard let standardErrorTail else { return }
        await standardErrorTail.end.wait(within: timeout)
    }

    /// Waits (without blocking a thread) until the process has exited or `timeout` has passed;
    /// returns whether it exited.
    @discardableResult
    package func exited(within timeout: Duration) async -> Bool {
        if !process.isRunning { return true }
        return await exit.wait(within: timeout)
    }

    /// Sends `SIGTERM` to the process group at once and `SIGKILL` after `grace` unless the process
    /// has exited by then; returns immediately. Idempotent.
    package func terminate(grace: Duration) {
        guard !stopRequested.exchange(true, ordering: .relaxed) else { return }
        signal(Platform.terminateSignal)
        // As soon as the process exits, its group goes too (helpers it left behind)…
        Task { [self] in
            if await exited(within: grace) { kill() }
        }
        // …and after the grace period, whatever happened. A private queue's timer fires on a thread
        // of its own, however busy the cooperative pool is.
        Self.killTimers.asyncAfter(deadline: .now() + grace.dispatchInterval) { [self] in kill() }
    }

    /// The queue of the `SIGKILL` timers of `terminate(grace:)`.
    private static let killTimers = DispatchQueue(label: "passkey-conformance.kill-timers")

    private func kill() {
        signal(Platform.killSignal)
        watchdog?.release()
        Self.registry.withLock { _ = $0.removeValue(forKey: pid) }
    }

    /// Stops the process (`SIGTERM`, then `SIGKILL` after `grace`) and waits until it is gone.
    package func stop(grace: Duration) async {
        terminate(grace: grace)
        await exited(within: grace + .seconds(2))
    }

    private func signal(_ signal: Int32) {
        // The group is signalled even after its leader exited, to stop helpers it left behind.
        if isGroupLeader || process.isRunning {
            Platform.send(signal, toGroupOf: pid, isGroupLeader: isGroupLeader)
        }
    }

    deinit {
        if process.isRunning || isGroupLeader { Platform.send(Platform.killSignal, toGroupOf: pid, isGroupLeader: isGroupLeader) }
        Self.registry.withLock { _ = $0.removeValue(forKey: pid) }
    }

    // MARK: - Children never outlive the harness

    /// Live children: pid → whether it leads its own process group.
    package static let registry = Mutex<[Int32: Bool]>([:])

    private static let registryInstalled: Void = {
        Platform.atExit {
            let children = ChildProcess.registry.withLock { $0 }
            for (pid, isGroupLeader) in children {
                Platform.send(Platform.killSignal, toGroupOf: pid, isGroupLeader: isGroupLeader)
            }
        }
    }()
}

/// Drains a child's standard error on a thread of its own and keeps the last 8 KiB.
package final class StandardErrorTail: Sendable {
    package static let capacity = 8192
    private let bytes = Mutex<[UInt8]>([])
    /// Fired when the stream has ended.
    let end = Occurrence()

    package init(fd: Int32) {
        Thread.detachNewThread { [self] in
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
            defer {
                chunk.deallocate()
                Platform.close(fd)
                end.fire()
            }
            while true {
                let count = Platform.read(fd, into: chunk)
                if count <= 0 { return }
                bytes.withLock { tail in
                    tail.append(contentsOf: chunk[0..<count])
                    if tail.count > Self.capacity { tail.removeFirst(tail.count - Self.capacity) }
                }
            }
        }
    }

    /// The captured text, its last 600 characters.
    package var text: String {
        let tail = bytes.withLock { $0 }
        let text = String(decoding: tail, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.count > 600 ? "…" + String(text.suffix(600)) : text
    }
}

/// Every adapter process the harness started, as a whole: for a harness that must stop at once.
package enum AdapterProcesses {
    /// Set by `stopAll`: from then on no adapter process is started.
    static let stopping = Atomic<Bool>(false)

    /// Sends `SIGTERM` to the process group of every live adapter process, and `SIGKILL` to each
    /// group that is still there after `grace`; returns when every group has been signalled with
    /// `SIGKILL` (or was already gone). Called when the harness itself is interrupted, so that the
    /// `sh` wrapper, the adapter and whatever it started never outlive the run.
    package static func stopAll(grace: Duration = .milliseconds(500)) {
        stopping.store(true, ordering: .relaxed)
        let children = ChildProcess.registry.withLock { $0 }
        for (pid, isGroupLeader) in children {
            Platform.send(Platform.terminateSignal, toGroupOf: pid, isGroupLeader: isGroupLeader)
        }
        let deadline = ContinuousClock.now + grace
        // A process group has no exit event to wait for (its leader's exit does not end the helpers
        // it started), so this path, taken only when the harness is interrupted, looks every 10 ms
        // for at most `grace`.
        while ContinuousClock.now < deadline, children.keys.contains(where: { Platform.processGroupExists($0) }) {
            Thread.sleep(forTimeInterval: 0.01)
        }
        for (pid, isGroupLeader) in children {
            Platform.send(Platform.killSignal, toGroupOf: pid, isGroupLeader: isGroupLeader)
        }
    }
}
