#!/usr/bin/env bash
# Writes the README's figures from a real run: the console of `run` against the embedded reference RP
# (between <!-- figures:run --> and <!-- /figures:run -->) and the verify-item count of `list`
# (<!-- figures:items -->N<!-- /figures:items -->). With --check, writes nothing and exits 1 naming
# each figure that differs from what the harness prints now (wall-clock seconds excepted).
# The binary: $PASSKEY_CONFORMANCE_BIN, else the release build if there is one, else the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-write}
bin=${PASSKEY_CONFORMANCE_BIN:-}
if [ -z "$bin" ]; then
  if [ -x .build/release/passkey-conformance ]; then bin=$PWD/.build/release/passkey-conformance; else
    swift build --product passkey-conformance >/dev/null
    bin=$PWD/.build/debug/passkey-conformance
  fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The run, from a directory of its own so that the report paths read as a vendor's would.
(cd "$work" && "$bin" run --seed 1 --out conformance-report > console.txt) || true
console=$work/console.txt
{
  echo '```'
  sed -n '1p' "$console"
  grep -m1 '^  N2.6-AC01 ' "$console"
  echo '  …'
  grep -m1 '^  N3.2-AC10 ' "$console"
  grep -E '^[0-9]+ test cases:' "$console"
  grep -E '^Result:' "$console"
  grep -E '^Reports:' "$console"
  echo '```'
} > "$work/run.block"
items=$("$bin" list | tail -1 | sed -E 's/.* ([0-9]+) verify items.*/\1/')

python3 - "$mode" "$work/run.block" "$items" <<'PY'
import re, sys
mode, block_file, items = sys.argv[1], sys.argv[2], sys.argv[3]
block = open(block_file, encoding="utf-8").read()
readme = open("README.md", encoding="utf-8").read()
run = re.compile(r"(<!-- figures:run -->\n)(.*?)(<!-- /figures:run -->)", re.S)
count = re.compile(r"(<!-- figures:items -->)(.*?)(<!-- /figures:items -->)")
if not run.search(readme) or not count.search(readme):
    sys.exit("README.md: the figures markers are missing")
wall = lambda text: re.sub(r"[0-9.]+ s wall", "… s wall", text)
if mode == "--check":
    drift = []
    if wall(run.search(readme).group(2)) != wall(block):
        drift.append("README.md, What `run` prints:\n--- README\n" + run.search(readme).group(2) + "--- now\n" + block)
    if count.search(readme).group(2) != items:
        drift.append(f"README.md, verify items: README says {count.search(readme).group(2)}, `list` says {items}")
    if drift:
        print("\n".join(drift) + "\nRe-record with Scripts/readme-figures.sh", file=sys.stderr)
        sys.exit(1)
    print("README figures agree with the harness")
else:
    readme = run.sub(lambda m: m.group(1) + block + m.group(3), readme)
    readme = count.sub(lambda m: m.group(1) + items + m.group(3), readme)
    open("README.md", "w", encoding="utf-8").write(readme)
    print("README figures written")
PY
