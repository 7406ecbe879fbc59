#!/usr/bin/env bash
# Benchmarks the JSON-RPC transport over the whole suite, whole process: `passkey-conformance run`
# in-process against the same command through one reference-rp-adapter process, alternated N times
# so that both see the same machine. Prints, for each, the median wall time, the median CPU time
# (user + system, adapter process included) and the median count of voluntary context switches
# (each one a thread that slept and had to be woken: the figure the transport's design minimises,
# and the one that least depends on how busy the machine is), then the out-of-process / in-process
# ratios. On a virtual machine whose host is busy (see the `st` column of `vmstat`) every wake-up
# costs more, and the wall-time ratio grows with it: quote figures with the steal time beside them.
#
# Then `explore` side by side in the same run: the same budget of histories in-process, over the
# adapter with --jobs 1 (explore's default over an adapter) and with --jobs 8 (sessions multiplexed
# on the one connection), as histories per second of wall time and per CPU second.
#
# Usage: Scripts/bench-transport.sh [runs] [extra run options…]   (default: 7 runs each, --jobs 1)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-7}"
shift $(( $# > 0 ? 1 : 0 ))
bench=bench-transport
# shellcheck source=Scripts/release-products.sh
source "$root/Scripts/release-products.sh"

steal_before=$(awk '/^cpu /{print $9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat 2>/dev/null || echo "0 0")
for _ in $(seq "$runs"); do
    for mode in in out; do
        adapter=()
        [ "$mode" = out ] && adapter=(--adapter-command "$bin/reference-rp-adapter")
        /usr/bin/time -a -o "$work/times" -f "$mode %e %U %S %w" \
            "$bin/passkey-conformance" run --quiet --no-reports --jobs 1 "${adapter[@]}" "$@" \
            || { echo "bench-transport: the $mode run failed" >&2; exit 1; }
    done
done
histories="${EXPLORE_HISTORIES:-600}"
for _ in 1 2 3; do
    for mode in in out1 out8; do
        case "$mode" in
            in) options=(--jobs 1) ;;
            out1) options=(--jobs 1 --adapter-command "$bin/reference-rp-adapter") ;;
            out8) options=(--jobs 8 --adapter-command "$bin/reference-rp-adapter") ;;
        esac
        /usr/bin/time -a -o "$work/explore" -f "$mode %e %U %S" \
            "$bin/passkey-conformance" explore --no-reports --budget "$histories" "${options[@]}" >/dev/null \
            || { echo "bench-transport: the explore $mode run failed" >&2; exit 1; }
    done
done
steal_after=$(awk '/^cpu /{print $9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat 2>/dev/null || echo "0 0")

python3 - "$work/times" "$steal_before" "$steal_after" "$work/explore" "$histories" <<'PY'
import statistics, sys
runs = {"in": [], "out": []}
for line in open(sys.argv[1]):
    mode, wall, user, system, switches = line.split()
    runs[mode].append((float(wall), float(user) + float(system), int(switches)))
def median(mode, field):
    return statistics.median(run[field] for run in runs[mode])
print(f"whole suite, whole process, --jobs 1, {len(runs['in'])} alternated runs each (medians):")
for mode, label in (("in", "in-process"), ("out", "out-of-process (JSON-RPC, reference-rp-adapter)")):
    print(f"  {label}: {median(mode, 0):.2f} s wall, {median(mode, 1):.2f} s CPU, {median(mode, 2):.0f} voluntary context switches")
print(f"  out-of-process / in-process: {median('out', 0) / median('in', 0):.2f}x wall, {median('out', 1) / median('in', 1):.2f}x CPU")
(steal0, total0), (steal1, total1) = (map(int, sys.argv[2].split())), (map(int, sys.argv[3].split()))
if total1 > total0:
    print(f"  steal time meanwhile: {100 * (steal1 - steal0) / (total1 - total0):.0f}% (the host's other guests)")
explore = {}
for line in open(sys.argv[4]):
    mode, wall, user, system = line.split()
    explore.setdefault(mode, []).append((float(wall), float(user) + float(system)))
histories = int(sys.argv[5])
print(f"explore, {histories} histories, whole process, 3 alternated runs each (medians):")
rates = {}
for mode, label in (("in", "in-process"), ("out1", "over the adapter, --jobs 1"), ("out8", "over the adapter, --jobs 8")):
    wall = statistics.median(run[0] for run in explore[mode])
    cpu = statistics.median(run[1] for run in explore[mode])
    rates[mode] = histories / wall
    print(f"  {label}: {histories / wall:.0f} histories/s wall, {histories / cpu:.0f} histories per CPU second")
print(f"  over the adapter, --jobs 8 / --jobs 1: {rates['out8'] / rates['out1']:.2f}x histories/s; in-process / --jobs 1: {rates['in'] / rates['out1']:.1f}x")
PY
