import ConformanceModel
import Foundation
import Synchronization

/// A Chromium driven over its DevTools pipe: the browser reads commands on its file descriptor 3
/// and writes answers and events on 4, each message a JSON object followed by a NUL byte
/// (`--remote-debugging-pipe`). No socket, no port: nothing else on the machine can reach it.
///
/// `send` writes a command and waits for its answer; events go to the handler given at launch, in
/// the order the browser wrote them, on the pipe's reading thread (a handler must not block).
/// When the browser exits or the pipe breaks, every command waiting and every later one fails
/// with the reason.
///
/// The browser cannot outlive the harness: Chromium ends itself and every process it started as
/// soon as its command pipe closes, which the kernel does when the harness exits however it exits
/// (`RealBrowserTests` checks it).
package final class DevToolsPipe: Sendable {
    /// An event the browser sent: its method, parameters and the session it belongs to.
    package struct Event: Sendable {
        /// The event's method, e.g. `WebAuthn.credentialAdded`.
        package var method: String
        /// Its parameters.
        package var params: JSONValue
        /// The session of the page it came from (flattened sessions), `nil` for the browser's own.
        package var sessionID: String?
    }

    /// A command the browser refused, or a pipe that ended.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, naming the command.
        package var description: String

        /// A failure described in words.
        package init(description: String) {
            self.description = description
        }
    }

    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        /// The guard of each waiting command, cancelled when its answer comes.
        var guards: [Int: Task<Void, Never>] = [:]
        var ended: String?
    }

    private let process: Process
    private let commands: FileHandle
    private let state = Mutex(State())
    private let events: @Sendable (Event) -> Void
    private let profile: URL

    /// The Chromium executables tried in order when none is named: Debian's, then the usual names.
    package static let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"]

    /// The first Chromium found among `candidates` (or `PASSKEY_CONFORMANCE_CHROMIUM` when set).
    package static func findBrowser(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let named = environment["PASSKEY_CONFORMANCE_CHROMIUM"], !named.isEmpty {
            return FileManager.default.isExecutableFile(atPath: named) ? named : nil
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The flags every browser of the harness starts with: headless, a fresh profile, no network
    /// but the routes the harness answers itself (every host resolves to nothing), no first-run
    /// work, and the pipe.
    static func flags(profile: URL) -> [String] {
        [
            "--headless=new", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "--no-first-run", "--no-default-browser-check",
            "--disable-gpu", "--disable-extensions", "--disable-background-networking", "--disable-sync", "--disable-component-update",
            "--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND", "--mute-audio", "about:blank",
        ]
    }

    /// Starts the browser at `executable` with a fresh profile; `events` gets every event.
    package static func launch(executable: String, events: @escaping @Sendable (Event) -> Void) throws -> DevToolsPipe {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("pkc-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let process = Process()
        // The shell moves the two pipes to the descriptors the browser reads and writes (3 and 4),
        // then gives the browser an empty input and a discarded output of its own.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$@\" 3<&0 4>&1 0</dev/null 1>/dev/null 2>/dev/null", "sh", executable] + flags(profile: profile)
        let toBrowser = Pipe()
        let fromBrowser = Pipe()
        process.standardInput = toBrowser
        process.standardOutput = fromBrowser
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: profile)
            throw Failure(description: "the browser \(executable) could not start: \(error)")
        }
        let pipe = DevToolsPipe(process: process, commands: toBrowser.fileHandleForWriting, events: events, profile: profile)
        let reading = fromBrowser.fileHandleForReading
        let thread = Thread { [pipe] in pipe.read(reading) }
        thread.name = "devtools-pipe"
        thread.start()
        return pipe
    }

    private init(process: Process, commands: FileHandle, events: @escaping @Sendable (Event) -> Void, profile: URL) {
        self.process = process
        self.commands = commands
        self.events = events
        self.profile = profile
    }

    /// How long a command may go unanswered before it fails: a guard against a browser that hangs,
    /// far above what any command takes (a page's script waits on virtual time, never on this).
    package static let answerDeadline: Duration = .seconds(120)

    /// Sends `method` with `params` (to the page of `session`, when given) and returns its result; a
    /// command the browser leaves unanswered for `deadline` fails, saying so.
    package func send(
        _ method: String, _ params: [String: JSONValue] = [:], session: String? = nil, deadline: Duration = answerDeadline
    ) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { continuation in
            let id: Int? = state.withLock { state in
                if let ended = state.ended {
                    continuation.resume(throwing: Failure(description: "\(method): \(ended)"))
                    return nil
                }
                let id = state.nextID
                state.nextID += 1
                state.waiting[id] = continuation
                state.guards[id] = Task { [weak self] in
                    guard (try? await Task.sleep(for: deadline)) != nil, let self else { return }
                    self.expire(id, "\(method): the browser gave no answer within \(deadline)")
                }
                return id
            }
            guard let id else { return }
            var message: [String: JSONValue] = ["id": .number(Double(id)), "method": .string(method), "params": .object(params)]
            if let session { message["sessionId"] = .string(session) }
            do {
                var bytes = try JSONEncoder().encode(JSONValue.object(message))
                bytes.append(0)
                try commands.write(contentsOf: bytes)
            } catch {
                if let waiting = state.withLock({ state in
                    state.guards.removeValue(forKey: id)?.cancel()
                    return state.waiting.removeValue(forKey: id)
                }) {
                    waiting.resume(throwing: Failure(description: "\(method): the pipe to the browser is closed: \(error)"))
                }
            }
        }
    }

    /// Fails waiting command `id` with `reason`, if it is still waiting.
    private func expire(_ id: Int, _ reason: String) {
        let continuation = state.withLock { state in
            state.guards.removeValue(forKey: id)
            return state.waiting.removeValue(forKey: id)
        }
        continuation?.resume(throwing: Failure(description: reason))
    }

    /// Closes the browser (`Browser.close`, then the process is ended) and removes its profile.
    package func close() async {
        _ = try? await send("Browser.close")
        try? commands.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: profile)
    }

    /// Closes only the harness's end of the command pipe, as the kernel does when the harness
    /// dies, and waits for the browser to end; returns its exit status.
    func dropPipe() -> Int32 {
        try? commands.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: profile)
        return process.terminationStatus
    }

    /// Whether the browser process is still running.
    var isRunning: Bool { process.isRunning }

    /// Reads messages until the pipe ends, answering commands and passing events on.
    private func read(_ handle: FileHandle) {
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let end = buffer.firstIndex(of: 0) {
                let message = buffer[buffer.startIndex..<end]
                buffer.removeSubrange(buffer.startIndex...end)
                dispatch(Data(message))
            }
        }
        let waiting = state.withLock { state in
            state.ended = "the browser closed its DevTools pipe"
            defer {
                state.waiting = [:]
                state.guards.values.forEach { $0.cancel() }
                state.guards = [:]
            }
            return state.waiting
        }
        for (_, continuation) in waiting { continuation.resume(throwing: Failure(description: "the browser closed its DevTools pipe")) }
    }

    private func dispatch(_ bytes: Data) {
        guard let message = try? JSONValue.parse(bytes) else { return }
        if let id = message["id"]?.numberValue.map({ Int($0) }) {
            let answered = state.withLock { state in
                state.guards.removeValue(forKey: id)?.cancel()
                return state.waiting.removeValue(forKey: id)
            }
            guard let continuation = answered else { return }
            if let error = message["error"] {
                let text = error["message"]?.stringValue ?? "\(error)"
                continuation.resume(throwing: Failure(description: "the browser refused command \(id): \(text)"))
            } else {
                continuation.resume(returning: message["result"] ?? .object([:]))
            }
            return
        }
        guard let method = message["method"]?.stringValue else { return }
        events(Event(method: method, params: message["params"] ?? .object([:]), sessionID: message["sessionId"]?.stringValue))
    }
}
