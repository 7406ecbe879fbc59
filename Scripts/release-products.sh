#!/usr/bin/env bash
# Sourced by the transport benchmarks: builds passkey-conformance and reference-rp-adapter in
# release and sets `bin` (their directory) and `work` (a scratch directory removed on exit).
# Expects `root` (the package root) and `bench` (the benchmark's name, for the progress line).
echo "$bench: building passkey-conformance and reference-rp-adapter (release)…" >&2
swift build -c release --package-path "$root" --product passkey-conformance >&2
swift build -c release --package-path "$root" --product reference-rp-adapter >&2
bin="$(swift build -c release --package-path "$root" --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
