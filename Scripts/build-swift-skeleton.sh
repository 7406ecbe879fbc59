#!/usr/bin/env bash
# Writes the Swift adapter skeleton (`passkey-conformance init-adapter swift`) to
# .build/init-adapter-skeletons/swift and builds it. Building it compiles the harness's libraries a
# second time (about 25 s on the project's 2-core machine), too heavy to do inside `swift test`
# next to the other tests; Tests/EndToEndTests/InitAdapterTests.swift runs the built skeleton against
# the suite, and skips with a note when it has not been built. `.ci/run` calls this script.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product passkey-conformance >/dev/null
directory=.build/init-adapter-skeletons/swift
.build/debug/passkey-conformance init-adapter swift --out "$directory" --package-path "$PWD" --force >/dev/null
swift build --package-path "$directory"
echo "built $directory/.build/debug/MyRelyingPartyAdapter"
