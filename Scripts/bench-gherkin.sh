#!/usr/bin/env bash
# Benchmarks the Swift Gherkin parser against the official Python one (PyPI gherkin-official)
# on the same files, and prints both throughputs and their ratio.
#
# Usage: Scripts/bench-gherkin.sh [seconds-per-run] [rounds]
#   seconds-per-run  CPU seconds each measurement runs (default 5)
#   rounds           measurements of each parser, alternating; the best of each counts (default 3)
# Environment:
#   GHERKIN_TESTDATA  the corpus (default ../shared/gherkin/testdata beside the package); its good/ folder is used
#   PYTHON            the Python 3 to use or to create the virtual environment with (default python3)
#
# Both sides read every .feature and .feature.md file once, then parse and compile them to pickles
# in memory, again and again, and divide the bytes processed by the CPU time used. gherkin-official
# is installed into .build/gherkin-bench-venv if the Python at hand does not have it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-5}"
rounds="${2:-3}"
testdata="${GHERKIN_TESTDATA:-$root/../shared/gherkin/testdata}"
if [ ! -d "$testdata/good" ]; then
    echo "bench-gherkin: no corpus at $testdata/good (set GHERKIN_TESTDATA to the cucumber/gherkin testdata folder)" >&2
    exit 64
fi
corpus="$(cd "$testdata/good" && pwd)"

echo "bench-gherkin: building gherkin-bench (release)…" >&2
swift build -c release --package-path "$root" --build-path "$root/.build" --product gherkin-bench >&2
bench="$(swift build -c release --package-path "$root" --build-path "$root/.build" --show-bin-path)/gherkin-bench"

python="${PYTHON:-python3}"
venv="$root/.build/gherkin-bench-venv"
if "$python" -c 'import gherkin.parser, gherkin.pickles.compiler' 2>/dev/null; then
    py="$python"
else
    if ! "$venv/bin/python" -c 'import gherkin.parser' 2>/dev/null; then
        echo "bench-gherkin: installing gherkin-official into $venv…" >&2
        "$python" -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check gherkin-official >&2
    fi
    py="$venv/bin/python"
fi
version="$("$py" -c 'import importlib.metadata as m; print(m.version("gherkin-official"))')"

best() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; }
ours=0
theirs=0
for round in $(seq "$rounds"); do
    line="$("$bench" --seconds "$seconds" "$corpus")"
    echo "  round $round: $line" >&2
    ours="$(best "$ours" "$(echo "$line" | awk '{ print $2 }')")"
    line="$("$py" "$root/Scripts/bench-gherkin.py" --seconds "$seconds" "$corpus")"
    echo "  round $round: $line" >&2
    theirs="$(best "$theirs" "$(echo "$line" | awk '{ print $2 }')")"
done

files="$(find "$corpus" -maxdepth 1 \( -name '*.feature' -o -name '*.feature.md' \) | wc -l | tr -d ' ')"
bytes="$(find "$corpus" -maxdepth 1 \( -name '*.feature' -o -name '*.feature.md' \) -exec cat {} + | wc -c | tr -d ' ')"
ratio="$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.1f", a / b }')"
echo
echo "Gherkin parse + pickle compile, $files files ($bytes bytes) of $corpus, best of $rounds × ${seconds} s CPU"
printf '  %-32s %10s MB/s\n' "Swift (gherkin-bench, release)" "$ours"
printf '  %-32s %10s MB/s\n' "Python (gherkin-official $version)" "$theirs"
printf '  %-32s %10s x\n' "ratio" "$ratio"
