#!/usr/bin/env python3
"""A minimal adapter of the passkey-conformance adapter protocol (JSON-RPC 2.0 over stdio), with
deliberate faults for the transport's tests.

Usage: fixture_adapter.py MODE

MODE is `ok` (a small working adapter) or a fault, which strikes when the harness sends
`session.perform` (unless said otherwise):
  crash-on-sign-out  exit(3) when the action is sign-out; other actions work
  hang               never answer
  garbage            write a line that is not JSON
  half-then-exit     write half a message, then exit
  half-then-hang     write half a message, then wait
  unknown-id         answer with an id the harness never sent
  bad-version        answer adapter.hello with protocolVersion 2.0
  reject-version     answer adapter.hello with error -32002
  flood              send ui.show notifications without end
  oversized          write a 2 MiB line
  error              answer with a JSON-RPC error (the next perform works)
  bad-result         answer with a result that is not an ActionOutcome
  bad-platform-call  call platform.createCredential with an invalid request
  huge-timer         on perform, call clock.schedule with afterMillis 2^63-1 (then work)
  close-error        answer session.close with a JSON-RPC error -32000
  both-platforms     call platform.createCredential with a request carrying both android and apple
  no-platform        call platform.signal with a request carrying neither android nor apple
  exit-at-start      exit(2) before reading anything
  noise-before-hello print a banner on stdout before the first message
  ignore-term-hang   ignore SIGTERM and never answer
  grandchild         start `sleep 300` (its pid written to $FIXTURE_PID_FILE), then work
"""
import json
import os
import signal
import subprocess
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
next_id = 1000
sessions = {}


def send(message):
    sys.stdout.write(json.dumps(message, sort_keys=True, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def call_harness(method, params):
    """Calls the harness and waits for the answer (no other harness request arrives meanwhile in
    these tests, so the next line is the answer)."""
    global next_id
    next_id += 1
    send({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
    answer = json.loads(sys.stdin.readline())
    assert answer.get("id") == next_id, answer
    return answer.get("result"), answer.get("error")


def perform(request_id, params):
    session = params["session"]
    action = params["action"]
    if MODE == "hang" or MODE == "ignore-term-hang":
        time.sleep(3600)
    if MODE == "crash-on-sign-out" and action["kind"] == "sign-out":
        sys.stderr.write("fixture: crashing on sign-out\n")
        sys.stderr.flush()
        os._exit(3)
    if MODE == "garbage":
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
        return
    if MODE == "half-then-exit":
        sys.stdout.write('{"jsonrpc":"2.0","id":')
        sys.stdout.flush()
        os._exit(0)
    if MODE == "half-then-hang":
        sys.stdout.write('{"jsonrpc":"2.0","id":')
        sys.stdout.flush()
        time.sleep(3600)
    if MODE == "unknown-id":
        send({"jsonrpc": "2.0", "id": 987654, "result": {"status": "done"}})
        return
    if MODE == "flood":
        line = json.dumps({"jsonrpc": "2.0", "method": "ui.show",
                           "params": {"session": session, "event": {"kind": "message", "text": "hi"}}}) + "\n"
        try:
            while True:
                sys.stdout.write(line * 100)
                sys.stdout.flush()
        except BrokenPipeError:
            os._exit(0)
    if MODE == "oversized":
        try:
            sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":{"message":"%s"}}\n' % (request_id, "x" * (2 << 20)))
            sys.stdout.flush()
        except BrokenPipeError:
            os._exit(0)
        time.sleep(3600)
    if MODE == "error":
        if sessions[session].get("failed"):
            pass
        else:
            sessions[session]["failed"] = True
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32000, "message": "the relying party crashed"}})
            return
    if MODE == "bad-result":
        send({"jsonrpc": "2.0", "id": request_id, "result": {"status": "bogus"}})
        return
    if MODE == "bad-platform-call":
        call_harness("platform.createCredential", {"session": session, "request": "not an object"})
    if MODE == "huge-timer":
        call_harness("clock.schedule", {"session": session, "afterMillis": 9223372036854775807, "label": "far away"})
    if MODE == "both-platforms":
        call_harness("platform.createCredential", {"session": session, "request": {
            "android": {"requestJson": "{}", "isConditional": True, "preferImmediatelyAvailableCredentials": False,
                        "isAutoSelectAllowed": False},
            "apple": {"relyingPartyIdentifier": "example.com", "challenge": "AAAA", "name": "alice", "userID": "AAAA",
                      "userVerificationPreference": "preferred"}}})
    if MODE == "no-platform":
        call_harness("platform.signal", {"session": session, "request": {"ios": {"method": "report"}}})
    now, _ = call_harness("clock.now", {"session": session})
    send({"jsonrpc": "2.0", "method": "ui.show",
          "params": {"session": session, "event": {"kind": "screen", "text": "home at %d" % now["millis"]}}})
    send({"jsonrpc": "2.0", "id": request_id, "result": {"status": "signed-in", "message": action["kind"]}})


def main():
    if MODE == "exit-at-start":
        sys.exit(2)
    if MODE == "ignore-term-hang":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if MODE == "noise-before-hello":
        print("Starting the fixture adapter ...", flush=True)
    if MODE == "grandchild":
        helper = subprocess.Popen(["sleep", "300"])
        with open(os.environ["FIXTURE_PID_FILE"], "w") as f:
            f.write(str(helper.pid))
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, request_id, params = message.get("method"), message.get("id"), message.get("params", {})
        if method == "adapter.hello":
            if MODE == "reject-version":
                send({"jsonrpc": "2.0", "id": request_id,
                      "error": {"code": -32002, "message": "unsupported", "data": {"supported": "0.9"}}})
                continue
            send({"jsonrpc": "2.0", "id": request_id, "result": {
                "protocolVersion": "2.0" if MODE == "bad-version" else "1.0",
                "name": "fixture-adapter", "version": "1", "targets": ["apple-18"],
                "capabilities": ["conditional-create"], "relyingPartyIDs": ["example.com"]}})
        elif method == "session.open":
            sessions[params["session"]] = {}
            send({"jsonrpc": "2.0", "id": request_id, "result": {"session": params["session"]}})
        elif method == "session.perform":
            perform(request_id, params)
        elif method == "session.inspectSession":
            send({"jsonrpc": "2.0", "id": request_id, "result": {"stage": "signed-out"}})
        elif method == "session.close" and MODE == "close-error":
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32000, "message": "close failed"}})
        elif method == "session.close":
            sessions.pop(params["session"], None)
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})
        elif method == "adapter.shutdown":
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})
            return
        elif request_id is not None:
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})


if __name__ == "__main__":
    main()
