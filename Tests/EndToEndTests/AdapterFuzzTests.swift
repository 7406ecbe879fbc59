import ConformanceReports
import ConformanceKit
import ConformanceTestSupport
import Foundation
import Testing

/// An adapter that mutates its own messages, by seed: garbage, truncated lines, JSON-RPC errors with
/// control characters, results of the wrong shape, unknown ids, timers at the ends of Int64, platform
/// requests with both platforms, floods, deep nesting, slowness, sudden exits.
enum FuzzAdapter {
    static let script = #"""
        import json, os, random, sys, time
        rnd = random.Random(int(sys.argv[1]))
        def out(text):
            sys.stdout.write(text); sys.stdout.flush()
        def send(m):
            out(json.dumps(m) + "\n")
        def answer(request, result, session=None, rate=0.25):
            m = {"jsonrpc": "2.0", "id": request.get("id"), "result": result}
            if rnd.random() > rate:
                return send(m)
            k = rnd.randrange(12)
            if k == 0: out("garbage \x1b[31m not json\n")
            elif k == 1: out(json.dumps(m)[: rnd.randrange(1, 20)] + "\n")
            elif k == 2: send({"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": -32000, "message": "boom \x1b]0;t\x07\r\x85"}})
            elif k == 3: send({"jsonrpc": "2.0", "id": request.get("id"), "result": {"status": 12, "x": [None]}})
            elif k == 4: send({"jsonrpc": "2.0", "id": 987654321, "result": {}})
            elif k == 5 and session:
                send({"jsonrpc": "2.0", "id": rnd.randrange(10**6), "method": "clock.schedule",
                      "params": {"session": session, "afterMillis": rnd.choice([9223372036854775807, -9223372036854775808, -1, 1e300]), "label": "x"}})
                send(m)
            elif k == 6 and session:
                send({"jsonrpc": "2.0", "id": rnd.randrange(10**6), "method": "platform.createCredential", "params": {"session": session, "request": {
                    "android": {"requestJson": "{}", "isConditional": True, "preferImmediatelyAvailableCredentials": False, "isAutoSelectAllowed": False},
                    "apple": {"relyingPartyIdentifier": "example.com", "challenge": "AAAA", "name": "a", "userID": "AAAA", "userVerificationPreference": "preferred"}}}})
                send(m)
            elif k == 7 and session:
                for i in range(300):
                    send({"jsonrpc": "2.0", "method": "ui.show", "params": {"session": session, "event": {"kind": "message", "text": "\x1b[2J%d" % i}}})
                send(m)
            elif k == 8: out('{"a":' * 600 + "1" + "}" * 600 + "\n")
            elif k == 9:
                time.sleep(0.6); send(m)
            elif k == 10: os._exit(rnd.choice([0, 1, 3]))
            else: send(dict(m, jsonrpc="1.0"))
        account = {"username": "alice", "accountID": "a1", "userHandle": "AAAA", "rpID": "example.com", "name": "alice",
                   "displayName": "Alice", "credentials": []}
        for line in sys.stdin:
            try:
                m = json.loads(line)
            except Exception:
                continue
            method, params = m.get("method"), m.get("params") or {}
            if method is None or "id" not in m:
                continue
            session = params.get("session")
            if method == "adapter.hello":
                answer(m, {"protocolVersion": "1.0", "name": "fuzz\x1b[1m", "version": "1", "targets": ["apple-18", "windows-11"],
                           "capabilities": ["conditional-create", "second-factor"], "relyingPartyIDs": ["example.com"]}, rate=0.1)
            elif method == "session.open": answer(m, {"session": session}, session)
            elif method == "session.perform": answer(m, {"status": "done"}, session)
            elif method == "session.inspectAccount": answer(m, account, session)
            elif method == "session.inspectSession": answer(m, {"stage": "signed-out"}, session)
            elif method == "adapter.shutdown":
                send({"jsonrpc": "2.0", "id": m["id"], "result": {}}); break
            else: answer(m, {}, session)
        """#
}

/// Runs the built binary against the fuzzing adapter, seed after seed, for a few seconds: every run
/// must end with a documented exit status, in time, with all three reports.
@Suite("Adapter fuzzing", binaryBuilt, .heavy, .enabled(if: GateAdapter.hasPython, "needs python3"))
struct AdapterFuzzTests {
    @Test("mutated adapter messages end as error verdicts or faults, never a crash or a hang, and a report set is always written")
    func mutatedMessages() async throws {
        let directory = try PackagePaths.temporaryDirectory("fuzz-adapter")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("fuzz_adapter.py")
        try Data(FuzzAdapter.script.utf8).write(to: script)
        var random = FuzzGenerator(seed: FuzzSeed.value)
        let deadline = ContinuousClock.now + .seconds(6)
        var runs = 0
        while runs < 3 || ContinuousClock.now < deadline {
            runs += 1
            let seed = UInt32.random(in: 0...UInt32.max, using: &random)
            let out = directory.appendingPathComponent("reports-\(runs)")
            let result = try await Binary.run(
                ["run"] + Binary.criteria + [
                    "--criterion", "N2.6-AC01", "--target", "apple-18", "--call-timeout", "0.3", "--quiet",
                    "--adapter-command", "exec python3 -u '\(script.path)' \(seed)", "--out", out.path,
                ])
            let context = "fuzz seed \(FuzzSeed.value), adapter seed \(seed) (run \(runs)): exit \(result.status)\n\(result.stderr.suffix(800))"
            #expect(!result.timedOut, "\(context)")
            #expect([0, 1, 2, 3].contains(result.status), "\(context)")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: out.path).sorted()) ?? []
            #expect(files == ReportFormat.allCases.flatMap(\.fileNames).sorted(), "\(context)")
            guard let data = try? Data(contentsOf: out.appendingPathComponent("report.json")),
                let json = try? JSONDecoder().decode(JSONValue.self, from: data)
            else {
                Issue.record("no readable report.json: \(context)")
                continue
            }
            let cases = json["testCases"]?.arrayValue ?? []
            // Every error carries its typed fault; a run that exits 2 shows why.
            for testCase in cases where testCase["verdict"]?.stringValue == "error" {
                #expect(testCase["fault"]?["kind"]?.stringValue != nil, "\(context): \(testCase["id"]?.stringValue ?? "?") has no fault kind")
            }
            if result.status == 2 {
                let erred = cases.contains { ["error", "undefined"].contains($0["verdict"]?.stringValue ?? "") }
                #expect(erred || json["metadata"]?["fault"] != .null, "\(context): exit 2 without an error in the report")
            }
            #expect(!result.stderr.unicodeScalars.contains("\u{1B}"), "\(context): a raw escape reached the terminal")
        }
    }
}
