#!/usr/bin/env bash
# Re-records the sample reports in Reports/ (only on request: the test in EndToEndTests checks that
# the committed samples match what the harness produces now).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product passkey-conformance
bin=.build/debug/passkey-conformance
common=(--seed 1 --timestamp 2026-01-01T00:00:00Z --no-timings --no-build-info --quiet)
"$bin" run "${common[@]}" --out Reports/sample/reference-rp || true
"$bin" run "${common[@]}" --mutant upgrade-before-second-factor --criterion N2.6-AC01 --out Reports/sample/mutant-upgrade-before-second-factor || true
"$bin" run "${common[@]}" --mutant send-partial-list --criterion N3.2-AC04 --out Reports/sample/mutant-send-partial-list || true
echo "recorded Reports/sample"
