#!/usr/bin/env bash
# Times printing the pickles of a large generated feature file, whole process, with
# `passkey-conformance gherkin pickles` against the official Python implementation (PyPI
# gherkin-official), and prints both times and their ratio.
#
# Usage: Scripts/bench-gherkin-print.sh [runs] [bytes]
#   runs   runs of each printer, alternating; the best wall time of each counts (default 5)
#   bytes  size of the generated feature file (default 3600000)
# Environment:
#   PYTHON  the Python 3 to use or to create the virtual environment with (default python3)
#
# The feature file is generated deterministically by Scripts/bench-gherkin-print.py into
# .build/gherkin-print-bench/bench.feature: rules, tagged scenarios, scenario outlines with
# examples tables, data tables, doc strings, comments, descriptions, quotes, backslashes and
# non-ASCII text. Both printers print pickles only, one JSON object per line, to /dev/null; the
# Python side runs the same steps as the `python -m gherkin --no-source --no-ast` command of the
# cucumber/gherkin repository, whose entry point the wheel does not ship. Before timing, both
# outputs are checked to describe the same pickles (count, steps, and a digest of names, step
# texts and arguments; ids and key order may differ). gherkin-official is installed into
# .build/gherkin-bench-venv if the Python at hand does not have it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-5}"
size="${2:-3600000}"
helper="$root/Scripts/bench-gherkin-print.py"
work="$root/.build/gherkin-print-bench"
mkdir -p "$work"
feature="$work/bench.feature"

python="${PYTHON:-python3}"
"$python" "$helper" generate "$feature" "$size"
bytes="$(wc -c < "$feature" | tr -d ' ')"

echo "bench-gherkin-print: building passkey-conformance (release)…" >&2
swift build -c release --package-path "$root" --build-path "$root/.build" --product passkey-conformance >&2
ours="$(swift build -c release --package-path "$root" --build-path "$root/.build" --show-bin-path)/passkey-conformance"

venv="$root/.build/gherkin-bench-venv"
if "$python" -c 'import gherkin.stream.gherkin_events' 2>/dev/null; then
    py="$python"
else
    if ! "$venv/bin/python" -c 'import gherkin.stream.gherkin_events' 2>/dev/null; then
        echo "bench-gherkin-print: installing gherkin-official into $venv…" >&2
        "$python" -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check gherkin-official >&2
    fi
    py="$venv/bin/python"
fi
version="$("$py" -c 'import importlib.metadata as m; print(m.version("gherkin-official"))')"

# Same pickles on both sides?
"$ours" gherkin pickles "$feature" > "$work/swift.ndjson"
"$py" "$helper" print --no-source --no-ast "$feature" > "$work/python.ndjson"
swift_summary="$("$python" "$helper" count "$work/swift.ndjson")"
python_summary="$("$python" "$helper" count "$work/python.ndjson")"
if [ "$swift_summary" != "$python_summary" ]; then
    echo "bench-gherkin-print: the printers disagree: Swift '$swift_summary', Python '$python_summary' (pickles steps digest)" >&2
    exit 1
fi
read -r pickles steps _ <<< "$swift_summary"

# Best wall time of a whole-process command, in seconds.
wall() {
    local start end
    start="$(date +%s.%N)"
    "$@" > /dev/null
    end="$(date +%s.%N)"
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }'
}
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
best_ours=1e9
best_theirs=1e9
for run in $(seq "$runs"); do
    t="$(wall "$ours" gherkin pickles "$feature")"
    best_ours="$(least "$best_ours" "$t")"
    u="$(wall "$py" "$helper" print --no-source --no-ast "$feature")"
    best_theirs="$(least "$best_theirs" "$u")"
    echo "  run $run: Swift $t s, Python $u s" >&2
done

ratio="$(awk -v a="$best_theirs" -v b="$best_ours" 'BEGIN { printf "%.1f", a / b }')"
echo
echo "Gherkin pickles printed to /dev/null, whole process, $bytes-byte generated feature ($pickles pickles, $steps steps), best of $runs wall"
printf '  %-40s %8s s\n' "Swift (passkey-conformance, release)" "$best_ours"
printf '  %-40s %8s s\n' "Python (gherkin-official $version)" "$best_theirs"
printf '  %-40s %8s x\n' "ratio" "$ratio"
