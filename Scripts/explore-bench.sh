#!/bin/sh
# Benchmark of `explore` (not a timed test), in release.
#
#   Scripts/explore-bench.sh [histories]
#       histories (default 10,000) against the in-process reference RP and against each of its
#       conforming designs. Prints histories, steps, seconds and histories per second; a violation
#       on any of them is a false alarm of an invariant and makes the script fail.
#
#   Scripts/explore-bench.sh --mutants [histories] [mutant…]
#       explores every mutant (or those named) with the given budget (default 1,000, explore's
#       default) and prints, per mutant, its criterion, the invariant it broke and the history that
#       broke it (marked "no Then check" when no check of the step library fails the mutant and
#       passes the reference RP for the shrunk history), or "not found". Ends with the count found;
#       the figure Criteria/invariants.md gives.
set -eu
cd "$(dirname "$0")/.."
mode=designs
if [ "${1:-}" = "--mutants" ]; then mode=mutants; shift; fi
swift build -c release --product passkey-conformance >/dev/null
binary="$(swift build -c release --show-bin-path)/passkey-conformance"

if [ "$mode" = mutants ]; then
    budget="${1:-1000}"
    [ $# -gt 0 ] && shift
    if [ $# -gt 0 ]; then mutants="$*"; else
        mutants="$("$binary" selftest --list-mutants | awk 'NF && $1 !~ /^(id|mutant|--)/ { print $1 }')"
    fi
    found=0
    total=0
    for mutant in $mutants; do
        total=$((total + 1))
        output="$("$binary" explore --budget "$budget" --mutant "$mutant" --no-reports 2>/dev/null)" && status=0 || status=$?
        summary="$(echo "$output" | head -1 | sed 's/^explore: //')"
        if [ "$status" = 1 ]; then
            found=$((found + 1))
            invariant="$(echo "$output" | sed -n 's/^Violation: \([^ ]*\) (\([^)]*\)).*/\1 (\2)/p')"
            history="$(echo "$output" | sed -n 's/^Found in history \([0-9]*\); shrunk from \([0-9]*\) to \([0-9]*\) steps.*/history \1, \2 -> \3 steps/p')"
            check=""
            if echo "$output" | grep -q '^No step of the library states'; then check=" (no Then check)"; fi
            printf '%-38s found      %-52s %s%s\n' "$mutant" "$invariant" "$history" "$check"
        elif [ "$status" = 0 ]; then
            printf '%-38s not found  (%s)\n' "$mutant" "$summary"
        else
            printf '%-38s error %s\n' "$mutant" "$status"
        fi
    done
    echo "found: $found of $total mutants within $budget histories"
    exit 0
fi

budget="${1:-10000}"
status=0
for design in $("$binary" selftest --list-designs | awk '/^fixed designs:/ { fixed = 1; next } fixed && NF { print $1 }'); do
    printf '%-28s ' "$design"
    output="$("$binary" explore --budget "$budget" --design "$design" --no-reports)" || status=1
    echo "$output" | head -2 | tr '\n' ' '
    echo
done
exit $status
