#!/usr/bin/env bash
# Benchmarks `run --jobs` against a relying party with network-like latency: the whole suite through
# one reference-rp-adapter process whose every session.* answer waits --latency-ms, once with
# --jobs 1 and once with --jobs N, side by side; prints both wall times and their ratio, and checks
# that the two report sets are identical byte for byte (timings are recorded as zero).
#
# Usage: Scripts/bench-jobs.sh [latency-ms] [jobs] [extra run options…]   (defaults: 20 8)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
latency="${1:-20}"
jobs="${2:-8}"
shift $(( $# > 2 ? 2 : $# ))
bench=bench-jobs
# shellcheck source=Scripts/release-products.sh
source "$root/Scripts/release-products.sh"

measure() {
    local n="$1"
    shift
    local start end
    start=$(date +%s.%N)
    "$bin/passkey-conformance" run --quiet --no-timings --timestamp 2026-12-01T00:00:00Z \
        --adapter-command "$bin/reference-rp-adapter --latency-ms $latency" --jobs "$n" --out "$work/jobs-$n" "$@" \
        || { echo "bench-jobs: the run with --jobs $n exited $?" >&2; exit 1; }
    end=$(date +%s.%N)
    python3 -c "print($end - $start)"
}

one=$(measure 1 "$@")
many=$(measure "$jobs" "$@")
if diff -r "$work/jobs-1" "$work/jobs-$jobs" > /dev/null; then same="identical"; else same="DIFFERENT"; fi
cases=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["testCases"]))' "$work/jobs-1/report.json")
printf 'whole suite through reference-rp-adapter --latency-ms %s: %s test cases\n' "$latency" "$cases"
printf '  --jobs 1: %8.2f s\n' "$one"
printf '  --jobs %s: %8.2f s\n' "$jobs" "$many"
printf '  speed-up: %.2fx; reports %s\n' "$(python3 -c "print($one / $many)")" "$same"
[ "$same" = identical ]
