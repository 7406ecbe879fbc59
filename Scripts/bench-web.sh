#!/usr/bin/env bash
# Whole web test cases per second, beside the in-process rate, in one run (a benchmark, not a test).
#
#   Scripts/bench-web.sh            uses .build/release/passkey-conformance (built if missing)
#
# The web rate is the python-webauthn example's web front end on the four web targets in real
# Chromium (pages pooled and reset between test cases), with one and two test cases at a time; the
# in-process rate is the reference RP's whole native suite. Needs Chromium and the example's
# libraries (python3 -m pip install webauthn fido2).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PASSKEY_CONFORMANCE_BIN:-.build/release/passkey-conformance}
if [[ ! -x $BIN ]]; then swift build -c release --product passkey-conformance >/dev/null; fi
WEB=(--target web-chromium --target web-chromium-declining --target web-chromium-no-signals --target web-chromium-no-conditional-create)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
rate() {  # $1: label, rest: run arguments
  local label=$1; shift
  local start end
  start=$(date +%s.%N)
  "$BIN" run --quiet --format json --out "$OUT/$label" "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  python3 - "$OUT/$label/report.json" "$start" "$end" "$label" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
count = report["summary"]["testCases"]["total"]
seconds = float(sys.argv[3]) - float(sys.argv[2])
print(f"{sys.argv[4]:<34} {count:5d} test cases in {seconds:6.1f} s: {count / seconds:7.2f} test cases/s")
PY
}
echo "cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg)"
rate "in-process reference (native)"
rate "web, 1 at a time" --adapter-command "python3 Examples/python-webauthn/adapter.py" "${WEB[@]}"
rate "web, 2 at a time" --adapter-command "python3 Examples/python-webauthn/adapter.py" "${WEB[@]}" --jobs 2
