#!/usr/bin/env python3
"""Companion of bench-gherkin-print.sh.

`generate <path> [bytes]` writes a deterministic Gherkin feature file of about `bytes` bytes
(default 3.6 MB): tagged scenarios, scenario outlines with examples tables, data tables, doc
strings, rules, backgrounds, comments and descriptions, with quotes, backslashes, escaped pipes
and non-ASCII text along the way.

`print [--no-source] [--no-ast] [--no-pickles] <file>...` prints the NDJSON messages of the files
with the official Python implementation (PyPI gherkin-official), as its `python -m gherkin`
command does in the cucumber/gherkin repository (that entry point is not part of the wheel):
one `json.dumps` line per message, source first, then the document, then the pickles, or the
parse errors.

`count <file>` reads NDJSON and prints `<pickles> <steps> <names-digest>`, so two printers'
outputs can be compared whatever their ids and key order.
"""
import hashlib
import json
import sys


def generate(path: str, size: int) -> None:
    words = ["account", "passkey", "credential", "server", "browser", "token", "challenge",
             "user", "device", "origin", "naïve", "café", "résumé", "日本語", "émoji 🙂"]
    out = ["# A generated feature for benchmarking Gherkin printers.\n",
           "@generated @bench\n",
           "Feature: Generated benchmark feature\n",
           "  A long feature written by a generator, so that parsing and printing\n",
           "  take long enough to measure.\n\n",
           "  Background:\n",
           "    Given a fresh \"system\" with a \\ backslash\n",
           "    And the clock reads 2026-12-01\n\n"]
    total = sum(len(s.encode()) for s in out)
    n = 0
    while total < size:
        w = words[n % len(words)]
        v = words[(n * 7 + 3) % len(words)]
        block = []
        kind = n % 5
        if n % 40 == 0:
            block.append(f"  Rule: rule {n // 40} about {w}\n\n")
        if kind == 0:
            block += [f"  @scenario @n{n}\n",
                      f"  Scenario: plain scenario {n} with {w}\n",
                      f"    Given the {w} number {n} exists\n",
                      f"    When the {v} asks for \"{w}\"\n",
                      f"    Then the answer is {n * 3}\n",
                      "    But nothing else happens\n\n"]
        elif kind == 1:
            block += [f"  # comment before outline {n}\n",
                      f"  @outline\n",
                      f"  Scenario Outline: outline {n} <what> and <count>\n",
                      f"    An outline with a description line about {w}.\n\n",
                      f"    Given a <what> called \"{v}\"\n",
                      f"    When it is used <count> times\n",
                      f"    Then the result is <result>\n\n",
                      f"    @examples-{n}\n",
                      f"    Examples: first\n",
                      f"      | what | count | result |\n"]
            for i in range(4):
                block.append(f"      | {words[(n + i) % len(words)]} | {i + n} | r\\|{i} |\n")
            block += ["\n", "    Examples: second\n", "      | what | count | result |\n",
                      f"      | {v} | 0 | none |\n\n"]
        elif kind == 2:
            block += [f"  Scenario: table {n}\n",
                      f"    Given these {w} rows:\n",
                      "      | name    | value | note        |\n"]
            for i in range(5):
                block.append(f"      | {words[(n + 2 * i) % len(words)]} | {n * 10 + i} | a \\\\ b \\n c |\n")
            block += [f"    Then there are 5 rows of {v}\n\n"]
        elif kind == 3:
            block += [f"  @docstring\n",
                      f"  Scenario: doc string {n}\n",
                      f"    Given a request body for {w}:\n",
                      "      \"\"\"json\n",
                      "      {\n",
                      f"        \"id\": {n},\n",
                      f"        \"name\": \"{v}\",\n",
                      "        \"path\": \"a/b\\\\c\",\n",
                      "        \"tab\": \"\t\"\n",
                      "      }\n",
                      "      \"\"\"\n",
                      "    When it is sent\n",
                      "    Then the reply is:\n",
                      "      ```\n",
                      f"      accepted {w}\n",
                      "        indented line\n",
                      "      ```\n\n"]
        else:
            block += [f"  Example: short {n}\n",
                      f"    * a step with <angle> brackets and {w}\n",
                      "    * another step\n\n"]
        text = "".join(block)
        out.append(text)
        total += len(text.encode())
        n += 1
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(out))


def print_messages(args: list) -> int:
    from gherkin.stream.gherkin_events import GherkinEvents
    from gherkin.stream.source_events import SourceEvents

    flags = {"--no-source", "--no-ast", "--no-pickles"}
    paths = [a for a in args if a not in flags]
    options = GherkinEvents.Options(
        print_source="--no-source" not in args,
        print_ast="--no-ast" not in args,
        print_pickles="--no-pickles" not in args,
    )
    events = GherkinEvents(options)
    from pathlib import Path
    for source in SourceEvents([Path(p) for p in paths]).enum():
        for event in events.enum(source):
            print(json.dumps(event))
    return 0


def count(path: str) -> None:
    pickles = steps = 0
    digest = hashlib.sha256()
    with open(path, encoding="utf-8") as f:
        for line in f:
            message = json.loads(line)
            pickle = message.get("pickle")
            if pickle is None:
                continue
            pickles += 1
            steps += len(pickle["steps"])
            digest.update(pickle["name"].encode())
            for step in pickle["steps"]:
                digest.update(step["text"].encode())
                digest.update(json.dumps(step.get("argument"), sort_keys=True).encode())
    print(pickles, steps, digest.hexdigest()[:16])


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "generate":
        generate(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3_600_000)
        return 0
    if len(sys.argv) >= 2 and sys.argv[1] == "print":
        return print_messages(sys.argv[2:])
    if len(sys.argv) == 3 and sys.argv[1] == "count":
        count(sys.argv[2])
        return 0
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main())
