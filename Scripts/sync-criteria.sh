#!/usr/bin/env bash
# Copies Criteria/ into the resource bundle the passkey-conformance binary ships
# (Sources/PasskeyConformanceCLI/Resources/Criteria). Run it after editing a criterion file;
# the test "the shipped criteria are the package's criteria" fails until then.
# A copy rather than a symbolic link: SwiftPM copies a link into the bundle as a link, which breaks
# as soon as the bundle moves.
set -euo pipefail
cd "$(dirname "$0")/.."
target=Sources/PasskeyConformanceCLI/Resources/Criteria
rm -rf "$target"
mkdir -p "$(dirname "$target")"
cp -R Criteria "$target"
echo "synced $target from Criteria/"
