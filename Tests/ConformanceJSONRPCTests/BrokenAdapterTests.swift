import Foundation
import Testing
import ConformanceKit
import ConformanceTestSupport
@testable import ConformanceJSONRPC
@testable import PasskeyConformanceAdapter

/// Deliberately broken adapters (`Fixtures/fixture_adapter.py` and shell one-liners): each fault is
/// an `AdapterFault` of the right kind thrown from the session call, the harness survives, and the
/// next session runs on a fresh process.
@Suite("Broken adapters", .enabled(if: Fixture.hasPython, "needs python3"))
struct BrokenAdapterTests {
    /// For faults that end in a time-out (an adapter that never answers): only the time-out can end
    /// the call, so a short one keeps the test short. Launch and the calls before the fault get the
    /// hang guard. A message-rate limit low enough that a flood is caught even when a loaded
    /// machine reads slowly.
    static let quick = JSONRPCAdapter.Configuration(
        callTimeout: .milliseconds(1500), launchTimeout: Waiting.hangGuard,
        terminationGrace: .milliseconds(500), maximumAdapterMessagesPerSecond: 1000)

    /// For every other fault, and for calls that must succeed: time-outs that only a hang reaches, so
    /// that a loaded machine's slow answer is never mistaken for the fault under test.
    static let patient = JSONRPCAdapter.Configuration(
        callTimeout: Waiting.hangGuard, launchTimeout: Waiting.hangGuard,
        terminationGrace: .milliseconds(500), maximumAdapterMessagesPerSecond: 1000)

    /// Modes whose fault is that the adapter stops answering.
    static let hangingModes: Set<String> = ["hang", "half-then-hang", "ignore-term-hang"]

    /// Opens a session, performs a sign-in, and returns the fault it throws.
    func faultOfPerform(mode: String) async throws -> AdapterFault {
        let adapter = Fixture.adapter(mode: mode, configuration: Self.hangingModes.contains(mode) ? Self.quick : Self.patient)
        defer { Task { await adapter.shutdown() } }
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        do {
            let outcome = try await session.perform(UserAction.passwordSignIn(username: "alice", password: "pw"))
            Issue.record("expected a fault, got \(outcome)")
            return AdapterFault(.protocolViolation, "none")
        } catch let fault as AdapterFault {
            return fault
        }
    }

    @Test("the working fixture adapter works: hello, open, perform with a platform call and a notification, close")
    func workingFixture() async throws {
        let adapter = Fixture.adapter(mode: "ok", configuration: Self.patient)
        let description = try await adapter.describe()
        #expect(description.name == "fixture-adapter")
        let host = RecordingHost()
        let session = try await adapter.openSession(.sample(), host: host)
        #expect(
            try await session.perform(UserAction.passwordSignIn(username: "alice", password: "pw")) == ActionOutcome(.signedIn, message: "password-sign-in"))
        #expect(host.calls.withLock { $0 } == [.now, .show(UIEvent(.screen, "home at 120000"))])
        await session.close()
        await adapter.shutdown()
    }

    @Test(
        "faults that stop the process",
        arguments: [
            ("garbage", AdapterFault.Kind.malformedMessage, "this is not json"),
            ("half-then-exit", .truncatedMessage, #"{"jsonrpc":"2.0","id":"#),
            ("half-then-hang", .timeout, "unfinished line"),
            ("hang", .timeout, "within 1500 ms; the adapter process was stopped (a slower adapter needs a longer per-call time-out: --call-timeout <seconds>)"),
            ("unknown-id", .unknownResponseID, "987654"),
            ("flood", .flood, "within one second"),
            ("oversized", .oversizedMessage, "the limit is 1048576"),
        ])
    func stoppingFaults(mode: String, kind: AdapterFault.Kind, evidence: String) async throws {
        let fault = try await faultOfPerform(mode: mode)
        #expect(fault.kind == kind)
        #expect(fault.method == "session.perform")
        #expect(fault.description.contains(evidence), "\(fault)")
    }

    @Test("a crash is a process-exited fault with the exit status and stderr; the next session runs on a fresh process")
    func crashThenRecover() async throws {
        let adapter = Fixture.adapter(mode: "crash-on-sign-out", configuration: Self.patient)
        let first = try await adapter.openSession(.sample("first"), host: RecordingHost())
        let firstPID = try #require(await adapter.processIdentifier())
        await #expect {
            _ = try await first.perform(UserAction.signOut)
        } throws: { error in
            guard let fault = error as? AdapterFault else { return false }
            return fault.kind == .processExited && fault.message.contains("exited with status 3") && (fault.excerpt ?? "").contains("crashing on sign-out")
        }
        // The dead session stays dead.
        await #expect { _ = try await first.inspectSession() } throws: { ($0 as? AdapterFault)?.kind == .connectionClosed }
        await first.close()
        let second = try await adapter.openSession(.sample("second"), host: RecordingHost())
        #expect(try await second.perform(UserAction.passwordSignIn(username: "alice", password: "pw")).status == .signedIn)
        let secondPID = try #require(await adapter.processIdentifier())
        #expect(secondPID != firstPID)
        await adapter.shutdown()
    }

    @Test("a hung adapter is stopped after the per-call time-out, and the next session works")
    func hangThenRecover() async throws {
        let adapter = Fixture.adapter(mode: "ignore-term-hang", configuration: Self.quick)
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        let pid = try #require(await adapter.processIdentifier())
        // The adapter never answers, so only the per-call time-out can end the call.
        await #expect { _ = try await session.perform(UserAction.signOut) } throws: { ($0 as? AdapterFault)?.kind == .timeout }
        // SIGTERM is ignored: SIGKILL follows after the grace period.
        #expect(await Fixture.processGone(pid))
        let next = try await adapter.openSession(.sample("next"), host: RecordingHost())
        #expect(try await next.inspectSession().stage == .signedOut)
        await adapter.shutdown()
    }

    @Test("a JSON-RPC error answer is an adapter-error fault; the process and the session go on")
    func errorAnswer() async throws {
        let adapter = Fixture.adapter(mode: "error", configuration: Self.patient)
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        await #expect { _ = try await session.perform(UserAction.passwordSignIn(username: "alice", password: "pw")) } throws: { error in
            (error as? AdapterFault)?.kind == .adapterError && "\(error)".contains("the relying party crashed")
        }
        #expect(try await session.perform(UserAction.passwordSignIn(username: "alice", password: "pw")).status == .signedIn)
        await adapter.shutdown()
    }

    @Test("a result of the wrong shape is a protocol violation of that call only")
    func badResult() async throws {
        let adapter = Fixture.adapter(mode: "bad-result", configuration: Self.patient)
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        await #expect { _ = try await session.perform(UserAction.passwordSignIn(username: "alice", password: "pw")) } throws: { error in
            (error as? AdapterFault)?.kind == .protocolViolation && "\(error)".contains("ActionOutcome") && "\(error)".contains("bogus")
        }
        #expect(try await session.inspectSession().stage == .signedOut)
        await adapter.shutdown()
    }

    @Test("a platform call with invalid params is answered with an error and fails the session")
    func badPlatformCall() async throws {
        let adapter = Fixture.adapter(mode: "bad-platform-call", configuration: Self.patient)
        let host = RecordingHost()
        let session = try await adapter.openSession(.sample(), host: host)
        await #expect { _ = try await session.perform(UserAction.passwordSignIn(username: "alice", password: "pw")) } throws: { error in
            (error as? AdapterFault)?.kind == .protocolViolation && "\(error)".contains("platform.createCredential")
        }
        #expect(!host.calls.withLock { $0 }.contains { if case .create = $0 { true } else { false } })
        await #expect { _ = try await session.inspectSession() } throws: { ($0 as? AdapterFault)?.kind == .protocolViolation }
        // Another session of the same process is not affected.
        let other = try await adapter.openSession(.sample("other"), host: RecordingHost())
        #expect(try await other.inspectSession().stage == .signedOut)
        await adapter.shutdown()
    }

    @Test("a platform request carrying both android and apple is a protocol violation (error), never judged as a wrong-platform call")
    func bothPlatforms() async throws {
        let adapter = Fixture.adapter(mode: "both-platforms", configuration: Self.patient)
        let host = RecordingHost()
        let session = try await adapter.openSession(.sample(), host: host)
        await #expect { _ = try await session.perform(UserAction.passwordSignIn(username: "alice", password: "pw")) } throws: { error in
            (error as? AdapterFault)?.kind == .protocolViolation && "\(error)".contains(#"both "android" and "apple""#)
        }
        #expect(!host.calls.withLock { $0 }.contains { if case .create = $0 { true } else { false } }, "the simulator never sees the request")
        await adapter.shutdown()
    }

    @Test("a platform request carrying no platform member is a protocol violation (error), and the simulator never sees it")
    func noPlatform() async throws {
        let adapter = Fixture.adapter(mode: "no-platform", configuration: Self.patient)
        let host = RecordingHost()
        let session = try await adapter.openSession(.sample(), host: host)
        await #expect { _ = try await session.perform(UserAction.passwordSignIn(username: "alice", password: "pw")) } throws: { error in
            (error as? AdapterFault)?.kind == .protocolViolation && "\(error)".contains(#"none of "android", "apple" or "web"; exactly one is required"#)
        }
        #expect(!host.calls.withLock { $0 }.contains { if case .signal = $0 { true } else { false } }, "the simulator never sees the request")
        await adapter.shutdown()
    }

    @Test("clock.schedule with afterMillis 2^63-1 once virtual time is above 0 saturates: no crash, the test case goes on")
    func hugeTimer() async throws {
        let library = StepLibrary(
            TestSteps.definitions + [
                StepDefinition("{word} ms pass") { world, arguments in
                    try await world.advance(byMillis: Int64(arguments[0]) ?? 0)
                    return .passed
                }
            ])
        let text = CriterionText.criterion(scenarios: [
            CriterionText.Scenario(
                "Far timer",
                steps: [
                    "Given 1000 ms pass", "When the user refreshes as alice", "And 60000 ms pass", "Then the step passes",
                ])
        ])
        let loaded = CriterionText.load([("c/N9.9-AC01.feature", text)], library: library)
        try #require(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let adapter = Fixture.adapter(mode: "huge-timer", configuration: Self.patient)
        let description = try await adapter.describe()
        let plan = TestPlan.make(loaded.criteria, filter: .init(targets: ["apple-18"]))
        let result = try #require(await Runner(adapter: adapter, library: library).run(plan, description: description).first)
        await adapter.shutdown()
        #expect(result.verdict == .passed, "\(result.message ?? "")")
        #expect(result.virtualMillis == 61_000)
    }

    @Test("a session.close answered with an error is reported as a typed fault, not swallowed")
    func closeError() async throws {
        let adapter = Fixture.adapter(mode: "close-error", configuration: Self.patient)
        let session = try await adapter.openSession(.sample(), host: RecordingHost())
        let fault = try #require(await session.closeReportingFault())
        #expect(fault.kind == .adapterError)
        #expect(fault.method == "session.close")
        let fine = try await Fixture.adapter(mode: "ok", configuration: Self.patient).openSession(.sample("fine"), host: RecordingHost())
        #expect(await fine.closeReportingFault() == nil)
        await adapter.shutdown()
    }

    @Test("version mismatches are faults at launch", arguments: ["bad-version", "reject-version"])
    func versionMismatch(mode: String) async throws {
        let adapter = Fixture.adapter(mode: mode, configuration: Self.patient)
        await #expect { _ = try await adapter.describe() } throws: { ($0 as? AdapterFault)?.kind == .versionMismatch }
        await adapter.shutdown()
    }

    @Test("stdout noise before hello is a malformed message at launch")
    func noiseBeforeHello() async throws {
        let adapter = Fixture.adapter(mode: "noise-before-hello", configuration: Self.patient)
        await #expect { _ = try await adapter.describe() } throws: { error in
            (error as? AdapterFault)?.kind == .malformedMessage && "\(error)".contains("Starting the fixture adapter")
        }
        await adapter.shutdown()
    }

    @Test("an adapter that cannot start: the exit status, then no more launches after the limit")
    func launchFailures() async throws {
        let adapter = Fixture.adapter(mode: "exit-at-start", configuration: Self.patient)
        for _ in 0..<3 {
            await #expect { _ = try await adapter.openSession(.sample(), host: RecordingHost()) } throws: { error in
                (error as? AdapterFault)?.kind == .processExited && "\(error)".contains("exited with status 2")
            }
        }
        // Only the path that refuses to launch writes this message; a wall-time bound added nothing
        // to it and could be missed on a machine whose processor is taken by other suites.
        await #expect { _ = try await adapter.describe() } throws: { "\($0)".contains("not launched again after 3 failed launches") }
        await adapter.shutdown()
    }

    @Test(
        "shell one-liners",
        arguments: [
            ("exit 7", AdapterFault.Kind.processExited, "status 7"),
            ("/nonexistent/adapter", .processExited, "status 127"),
            ("yes garbage", .malformedMessage, "garbage"),
            ("head -c 3000000 /dev/zero | tr '\\0' x", .oversizedMessage, "xxxx"),
            ("printf '[1,2]\\n'; sleep 600", .protocolViolation, "batches"),
            ("printf '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\\n'; sleep 600", .protocolViolation, "AdapterDescription"),
        ])
    func shellAdapters(command: String, kind: AdapterFault.Kind, evidence: String) async throws {
        let adapter = JSONRPCAdapter(commandLine: command, configuration: Self.patient)
        await #expect { _ = try await adapter.describe() } throws: { error in
            guard let fault = error as? AdapterFault else { return false }
            return fault.kind == kind && fault.description.contains(evidence)
        }
        await adapter.shutdown()
    }

    @Test("shutdown stops the process and whatever it started")
    func noOrphans() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let adapter = Fixture.adapter(mode: "grandchild", environment: ["FIXTURE_PID_FILE": pidFile], configuration: Self.patient)
        _ = try await adapter.describe()
        let pid = try #require(await adapter.processIdentifier())
        let helper = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8)))
        #expect(Fixture.isRunning(helper))
        await adapter.shutdown()
        #expect(await Fixture.processGone(pid))
        #expect(await Fixture.processGone(helper))
        #expect(await adapter.processIdentifier() == nil)
    }
}

enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let script = directory.appendingPathComponent("fixture_adapter.py").path

    static let hasPython: Bool = {
        ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/python3")
        }
    }()

    static func adapter(mode: String, environment: [String: String] = [:], configuration: JSONRPCAdapter.Configuration) -> JSONRPCAdapter {
        JSONRPCAdapter(executable: "/usr/bin/env", arguments: ["python3", "-u", script, mode], environment: environment, configuration: configuration)
    }

    /// Whether a process exists (and is not a zombie).
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        #if os(Linux)
            if let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = status.lastIndex(of: ")")
            {
                let state = status[status.index(close, offsetBy: 2)]
                return state != "Z"
            }
        #endif
        return true
    }

    /// Whether the process ends (it must: the harness kills it); the guard only turns a hang into a failure.
    static func processGone(_ pid: Int32) async -> Bool {
        await Waiting.until { !isRunning(pid) }
    }
}
