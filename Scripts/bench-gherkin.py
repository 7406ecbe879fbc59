#!/usr/bin/env python3
"""Companion of bench-gherkin.sh: the official Python Gherkin parser on the same corpus.

Parses and compiles every .feature / .feature.md file of a folder repeatedly, the same work as
Sources/gherkin-bench (sources read once, then parse + pickle compile in memory), and prints
one line: `gherkin-official: <MB/s> MB/s (<files> files, <bytes> bytes, <passes> passes, <s> s)`.
"""
import argparse
import os
import sys
import time

from gherkin.ast_builder import AstBuilder
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler
from gherkin.stream.id_generator import IdGenerator
from gherkin.token_matcher import TokenMatcher
from gherkin.token_matcher_markdown import GherkinInMarkdownTokenMatcher


def main() -> int:
    options = argparse.ArgumentParser()
    options.add_argument("--seconds", type=float, default=5.0)
    options.add_argument("folder")
    args = options.parse_args()
    names = sorted(n for n in os.listdir(args.folder) if n.endswith(".feature") or n.endswith(".feature.md"))
    if not names:
        print(f"bench-gherkin.py: no .feature files in {args.folder}", file=sys.stderr)
        return 64
    sources = []
    for name in names:
        with open(os.path.join(args.folder, name), "rb") as f:
            sources.append((name, f.read().decode("utf-8", "replace")))
    bytes_per_pass = sum(len(text.encode("utf-8")) for _, text in sources)

    def one_pass() -> int:
        checksum = 0
        for uri, text in sources:
            ids = IdGenerator()
            matcher = GherkinInMarkdownTokenMatcher() if uri.endswith(".md") else TokenMatcher()
            try:
                document = Parser(AstBuilder(ids)).parse(text, matcher)
                checksum += len(Compiler(ids).compile({**document, "uri": uri}))
            except Exception:  # a parse error, as in the Swift bench
                checksum += 1
        return checksum

    one_pass()  # warm up
    # CPU time, as the Swift bench measures, so other work on the machine does not count.
    start = time.process_time()
    passes = 0
    while passes == 0 or time.process_time() - start < args.seconds:
        one_pass()
        passes += 1
    elapsed = time.process_time() - start
    rate = bytes_per_pass * passes / elapsed / 1e6
    print(f"gherkin-official: {rate:.2f} MB/s ({len(sources)} files, {bytes_per_pass} bytes, {passes} passes, {elapsed:.2f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
