#!/usr/bin/env bash
# The web family's self-test against real Chromium: the python-webauthn example's web front end,
# conforming, in its other conforming designs (no false alarm allowed) and with each of its mutants
# (each must fail at least one test case), over the four web targets.
#
#   Scripts/web-selftest.sh            uses .build/release/passkey-conformance (built if missing)
#   PASSKEY_CONFORMANCE_BIN=… Scripts/web-selftest.sh
#
# Needs Chromium (see Documentation/platform-fidelity.md, F4) and the example's libraries
# (python3 -m pip install webauthn fido2). Prints one line per run and a summary; exits 1 when a
# mutant survives or a conforming run fails, 2 when it cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PASSKEY_CONFORMANCE_BIN:-.build/release/passkey-conformance}
if [[ ! -x $BIN ]]; then swift build -c release --product passkey-conformance >/dev/null; fi
if ! command -v chromium >/dev/null && [[ -z ${PASSKEY_CONFORMANCE_CHROMIUM:-} ]]; then
  echo "web-selftest: no Chromium; install it (apt-get install -y chromium)" >&2
  exit 2
fi
TARGETS=(--target web-chromium --target web-chromium-declining --target web-chromium-no-signals --target web-chromium-no-conditional-create)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
MUTANTS=$(python3 -c 'import sys; sys.path.insert(0, "Examples/python-webauthn"); import web; print(" ".join(sorted(web.MUTANTS)))')
DESIGNS=$(python3 -c 'import sys; sys.path.insert(0, "Examples/python-webauthn"); import web; print(" ".join(sorted(web.DESIGNS)))')
problems=0
counts() { python3 - "$1" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))["summary"]["testCases"]
print(summary["total"], summary["passed"], summary["failed"], summary["error"], summary["notVerified"])
PY
}
run() {  # $1: label, $2: expectation (conforms|fails), rest: adapter flags
  local label=$1 expect=$2; shift 2
  local started=$SECONDS
  "$BIN" run --adapter-command "python3 Examples/python-webauthn/adapter.py $*" "${TARGETS[@]}" --quiet --format json --out "$OUT/$label" >/dev/null 2>&1 || true
  read -r total passed failed error notverified < <(counts "$OUT/$label/report.json")
  local verdict
  if [[ $expect == conforms ]]; then
    if (( failed == 0 && error == 0 )); then verdict="no false alarm"; else verdict="FALSE ALARM"; problems=$((problems + 1)); fi
  else
    if (( failed > 0 )); then verdict="killed"; else verdict="SURVIVED"; problems=$((problems + 1)); fi
  fi
  printf '%-40s %-15s %4d test cases: %4d passed %3d failed %3d error %3d not verified (%d s)\n' \
    "$label" "$verdict" "$total" "$passed" "$failed" "$error" "$notverified" $((SECONDS - started))
}
run conforming conforms
for design in $DESIGNS; do run "design:$design" conforms --web-design "$design"; done
for mutant in $MUTANTS; do run "mutant:$mutant" fails --web-mutant "$mutant"; done
if (( problems > 0 )); then echo "web-selftest: $problems run(s) with the wrong verdict"; exit 1; fi
echo "web-selftest: every design conforms, every mutant is killed"
