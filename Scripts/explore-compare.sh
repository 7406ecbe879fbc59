#!/bin/sh
# Side-by-side throughput of `explore` (not a timed test): this checkout's release binary against
# another one, run alternately so that both see the same load.
#
#   Scripts/explore-compare.sh <baseline binary> [rounds] [budget] [options for this checkout…]
#       runs `explore --budget <budget> --no-reports` (default 2,000 histories) on the embedded
#       reference RP with each binary in turn, `rounds` times (default 5), prints each run's
#       histories per second as explore reports it, then the median of each binary and their
#       ratio. Both binaries must report the same histories and steps (the same exploration).
#       Further arguments go to this checkout's explore only (e.g. `--jobs 1`, for a baseline
#       that has no such option).
#
# To measure on busy cores, set BUSY_LOOPS=<n>: n shell loops spin on the CPU for the whole
# comparison and are stopped at its end. BUSY_SESSION=own (the default) starts each in its own
# session, as other users' jobs run, so the kernel's autogroups give each loop the share this
# script's session gets; BUSY_SESSION=same starts them in this session, where the CPU is shared
# thread by thread, as between the steps of one CI job.
#
# The baseline is any release build of passkey-conformance with its resource bundles beside it,
# e.g. one built in a worktree of an earlier commit:
#   git worktree add ../explore-base <commit> && (cd ../explore-base && swift build -c release)
#   Scripts/explore-compare.sh ../explore-base/.build/release/passkey-conformance
set -eu
cd "$(dirname "$0")/.."
baseline="${1:?usage: Scripts/explore-compare.sh <baseline binary> [rounds] [budget] [options for this checkout...]}"
rounds="${2:-5}"
budget="${3:-2000}"
shift $(($# < 3 ? $# : 3))
swift build -c release --product passkey-conformance >/dev/null
current="$(swift build -c release --show-bin-path)/passkey-conformance"

# explore's first line: "explore: N histories, M steps in S s (R histories/s), seed 1".
rate() { sed -n 's/^explore: .*(\([0-9]*\) histories\/s).*/\1/p'; }
counts() { sed -n 's/^explore: \([0-9]*\) histories, \([0-9]*\) steps.*/\1 histories, \2 steps/p'; }

busy_pids=""
stop_busy() { [ -z "$busy_pids" ] || kill $busy_pids 2>/dev/null || true; }
trap stop_busy EXIT
# An interrupt ends the script through its exit, so the loops stop then too.
trap 'exit 130' INT TERM
loops="${BUSY_LOOPS:-0}"
while [ "$loops" -gt 0 ]; do
    if [ "${BUSY_SESSION:-own}" = same ]; then
        sh -c 'while :; do :; done' &
    else
        setsid sh -c 'while :; do :; done' &
    fi
    busy_pids="$busy_pids $!"
    loops=$((loops - 1))
done
[ -z "$busy_pids" ] || echo "busy: ${BUSY_LOOPS} spinning loop(s), ${BUSY_SESSION:-own} session(s)"

base_rates=""
current_rates=""
round=1
while [ "$round" -le "$rounds" ]; do
    base_output="$("$baseline" explore --budget "$budget" --no-reports | head -1)"
    current_output="$("$current" explore --budget "$budget" --no-reports "$@" | head -1)"
    if [ "$(echo "$base_output" | counts)" != "$(echo "$current_output" | counts)" ]; then
        echo "the two binaries explored differently: '$base_output' and '$current_output'" >&2
        exit 1
    fi
    base_rate="$(echo "$base_output" | rate)"
    current_rate="$(echo "$current_output" | rate)"
    echo "round $round: baseline $base_rate histories/s, this checkout $current_rate histories/s ($(echo "$current_output" | counts))"
    base_rates="$base_rates $base_rate"
    current_rates="$current_rates $current_rate"
    round=$((round + 1))
done

median() { echo "$@" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
base_median="$(median $base_rates)"
current_median="$(median $current_rates)"
echo "median: baseline $base_median histories/s, this checkout $current_median histories/s, ratio $(awk "BEGIN { printf \"%.2f\", $current_median / $base_median }")"
