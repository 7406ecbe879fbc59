#!/usr/bin/env bash
# Regenerates the step catalogue in Documentation/criterion-files.md from the step library and the
# criteria (the section between the step-catalogue markers), after building the harness.
# Tests/ConformanceKitTests/StepCatalogueTests.swift fails while the committed section is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product passkey-conformance >/dev/null
section="$(mktemp)"
trap 'rm -f "$section"' EXIT
.build/debug/passkey-conformance list --steps --markdown >"$section"
python3 - "$section" Documentation/criterion-files.md <<'PY'
import sys
section = open(sys.argv[1], encoding="utf-8").read().rstrip("\n")
path = sys.argv[2]
text = open(path, encoding="utf-8").read()
begin, end = section.splitlines()[0], section.splitlines()[-1]
start, stop = text.find(begin), text.find(end)
if start < 0 or stop < start:
    sys.exit(f"{path} lacks the step-catalogue markers")
open(path, "w", encoding="utf-8").write(text[:start] + section + text[stop + len(end):])
print(f"{path}: step catalogue regenerated")
PY
