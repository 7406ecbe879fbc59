#!/bin/sh
# Benchmark of `explore` (not a timed test): 10,000 histories against the in-process reference RP
# and against each of its conforming designs, in release. Prints histories per second; a violation
# on any of them is a false alarm of an invariant and makes the script fail.
# Usage: Scripts/explore-bench.sh [histories]
set -eu
cd "$(dirname "$0")/.."
budget="${1:-10000}"
swift build -c release --product passkey-conformance >/dev/null
binary="$(swift build -c release --show-bin-path)/passkey-conformance"
status=0
for design in reference reconcile-at-every-sign-in coalesce-0s coalesce-30s coalesce-90s batch-to-next-refresh drop-rate-limited \
              skip-unusable-list apple-re-report-name challenge-2min challenge-10min; do
    printf '%-28s ' "$design"
    output="$("$binary" explore --budget "$budget" --design "$design" --no-reports)" || status=1
    echo "$output" | head -2 | tr '\n' ' '
    echo
done
exit $status
