#!/usr/bin/env python3
"""Independent check of passkey-conformance reports.

Validates a JSON run report against the published JSON Schema (draft 2020-12) with `jsonschema`,
checks what a schema cannot say (sorted keys, counts that add up, ids that refer to something),
parses the JUnit XML report with `junitparser` and checks it against the JSON report, and
validates waiver files against their schema.

Usage:
  validate_report.py [--schema-dir DIR] [--json report.json] [--junit report.junit.xml]
                     [--waivers waivers.json ...]

Exit status: 0 every file is valid; 1 a file is invalid (each problem on stderr); 2 usage;
3 a required Python module is missing (`pip install jsonschema junitparser`).
"""

import argparse
import json
import os
import sys

MISSING_MODULE = 3

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:  # pragma: no cover - depends on the machine
    print("missing python module: jsonschema (pip install jsonschema)", file=sys.stderr)
    sys.exit(MISSING_MODULE)
try:
    import junitparser
except ImportError:  # pragma: no cover - depends on the machine
    print("missing python module: junitparser (pip install junitparser)", file=sys.stderr)
    sys.exit(MISSING_MODULE)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "..", "Reports", "schema"))
OUTCOMES = ["passed", "failed", "waived", "error", "notVerified", "undefined"]


class Problems:
    def __init__(self):
        self.items = []

    def add(self, where, message):
        self.items.append(f"{where}: {message}")

    def check(self, condition, where, message):
        if not condition:
            self.add(where, message)


def load_json(path, problems):
    """Parses JSON, recording any object whose keys are not in sorted order."""
    unsorted = []

    def hook(pairs):
        keys = [key for key, _ in pairs]
        if keys != sorted(keys):
            unsorted.append(keys)
        return dict(pairs)

    with open(path, "rb") as handle:
        data = json.loads(handle.read().decode("utf-8"), object_pairs_hook=hook)
    return data, unsorted


def validator(schema_dir, name):
    with open(os.path.join(schema_dir, name), encoding="utf-8") as handle:
        schema = json.load(handle)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def schema_errors(validator_, document, path, problems):
    for error in sorted(validator_.iter_errors(document), key=lambda e: list(e.absolute_path)):
        location = "/".join(str(part) for part in error.absolute_path) or "(document)"
        message = error.message if len(error.message) <= 240 else error.message[:237] + "..."
        problems.add(f"{path}: /{location}", message)


def check_report(path, schema_dir, problems):
    document, unsorted = load_json(path, problems)
    for keys in unsorted:
        problems.add(path, f"object keys not sorted: {keys}")
    schema_errors(validator(schema_dir, "run-report.v1.schema.json"), document, path, problems)
    if not isinstance(document, dict) or problems.items:
        return document

    cases = document["testCases"]
    ids = [case["id"] for case in cases]
    problems.check(len(ids) == len(set(ids)), path, "test case ids are not unique")
    known = set(ids)
    summary = document["summary"]

    def counts(outcomes):
        tally = {name: 0 for name in OUTCOMES}
        for outcome in outcomes:
            tally[outcome] += 1
        tally["total"] = len(outcomes)
        return tally

    problems.check(summary["testCases"] == counts([case["outcome"] for case in cases]), path,
                   f"summary.testCases {summary['testCases']} does not match the test cases")
    problems.check(summary["criteria"] == counts([c["outcome"] for c in document["criteria"]]), path,
                   f"summary.criteria {summary['criteria']} does not match the criteria")
    problems.check(summary["waiverProblems"] == len(document["waivers"]["problems"]), path,
                   "summary.waiverProblems does not match waivers.problems")

    listed = []
    run_targets = set(document["metadata"]["targets"])
    for criterion in document["criteria"]:
        where = f"{path}: criterion {criterion['id']}"
        listed += criterion["testCases"]
        for case_id in criterion["testCases"]:
            problems.check(case_id in known, where, f"lists unknown test case {case_id}")
        for item in criterion["verifyItems"]:
            for case_id in item["testCases"]:
                problems.check(case_id in criterion["testCases"], where, f"verify item {item['id']} lists {case_id}, not one of its test cases")
        for target in criterion["targets"]:
            problems.check(target in run_targets or any(c["target"] == target for c in cases), where, f"unknown target {target}")
    problems.check(sorted(listed) == sorted(ids), path, "criteria[].testCases do not list every test case exactly once")

    waiver_ids = {entry["id"] for entry in document["waivers"]["entries"]}
    waived_by_entries = {case_id for entry in document["waivers"]["entries"] for case_id in entry["waivedTestCases"]}
    for case in cases:
        if case["outcome"] == "waived":
            problems.check(case["waivedBy"] in waiver_ids, f"{path}: test case {case['id']}", f"waived by unknown waiver {case['waivedBy']}")
            problems.check(case["id"] in waived_by_entries, f"{path}: test case {case['id']}", "waived, but no waiver entry lists it")
    problems.check(waived_by_entries == {c["id"] for c in cases if c["outcome"] == "waived"}, path,
                   "waivers.entries[].waivedTestCases differ from the waived test cases")
    for problem in document["waivers"]["problems"]:
        problems.check(problem["waiver"] in waiver_ids, path, f"waiver problem names unknown waiver {problem['waiver']}")

    metadata = document["metadata"]
    gaps = summary.get("gaps", [])
    # The gate per verify item: an item a test case covers needs a test case that passed. Without
    # one, it is a gap: notVerified when all its test cases were, onlyWaived when its verified ones
    # all failed under waivers; no gap when one failed unwaived or ended error/undefined.
    expected_gaps = []
    order = [c["id"] for c in document["criteria"]]
    order += [case["criterionID"] for case in cases if case["criterionID"] not in order]
    items_of = {c["id"]: [item["id"] for item in c["verifyItems"]] for c in document["criteria"]}
    for criterion in dict.fromkeys(order):
        mine = [case for case in cases if case["criterionID"] == criterion]
        if not mine:
            continue
        items = [item for item in items_of.get(criterion, []) if any(item in case["verifyItems"] for case in mine)]
        items += [item for case in mine for item in case["verifyItems"] if item not in items]
        items = list(dict.fromkeys(items))
        if not items:
            if not any(case["verdict"] == "passed" for case in mine):
                expected_gaps.append(("criterionNotVerified", criterion, None))
            continue
        for item in items:
            covering = [case for case in mine if item in case["verifyItems"]]
            outcomes_here = {case["outcome"] for case in covering}
            if "passed" in outcomes_here or outcomes_here & {"failed", "error", "undefined"}:
                continue
            kind = "verifyItemOnlyWaived" if "waived" in outcomes_here else "verifyItemNotVerified"
            expected_gaps.append((kind, criterion, item))
    # Schema 1.4.0: the gaps of criteria below the gate are listed under summary.warnings.gaps instead.
    gated = {c["id"]: c.get("gated", True) for c in document["criteria"]}
    below = summary.get("warnings", {}).get("gaps", [])
    listed = [(g["kind"], g["criterion"], g.get("verifyItem")) for g in gaps if g["kind"] not in ("noTestCase", "noKnownTarget")]
    expected_here = [gap for gap in expected_gaps if gated.get(gap[1], True)]
    problems.check(listed == expected_here, path, f"summary.gaps lists {listed}, expected {expected_here}")
    listed_below = [(g["kind"], g["criterion"], g.get("verifyItem")) for g in below]
    expected_below = [gap for gap in expected_gaps if not gated.get(gap[1], True)]
    problems.check(listed_below == expected_below, path, f"summary.warnings.gaps lists {listed_below}, expected {expected_below}")
    problems.check(any(g["kind"] == "noTestCase" for g in gaps) == (not cases), path, "summary.gaps and the test cases disagree on noTestCase")

    outcomes = {case["outcome"] for case in cases} | {c["outcome"] for c in document["criteria"]}
    interruption = metadata.get("interruption")
    if interruption:
        expected = {"SIGINT": 130, "SIGTERM": 143, "SIGHUP": 129}[interruption]
    elif outcomes & {"error", "undefined"} or summary["verdict"] in ("error", "undefined") or metadata.get("fault"):
        expected = 2
    elif gated_failure(document) or document["waivers"]["problems"]:
        expected = 1
    elif "explore" in metadata.get("filters", {}):
        expected = 0
    elif not gaps:
        expected = 0
    elif (metadata.get("allowNotVerified", False) and any(case["verdict"] == "passed" for case in cases)
          and all(g["kind"] not in ("noTestCase", "noKnownTarget") for g in gaps)):
        expected = 0
    else:
        expected = 3
    by_status = {"conformant": {"passed", "waived"}, "nonConformant": {"failed"}, "harnessError": {"error", "undefined"},
                 "incomplete": {"notVerified"}}
    if summary["status"] in by_status:
        problems.check(summary["outcome"] in by_status[summary["status"]], path,
                       f"summary.outcome {summary['outcome']} disagrees with summary.status {summary['status']}")
    problems.check(summary["exitStatus"] == expected, path, f"exitStatus {summary['exitStatus']}, expected {expected}")
    return document


RUN_SUITE = "passkey-conformance.run"


def gated_failure(document):
    """A failed outcome the gate counts (schema 1.4.0: criteria[].gated, testCases[].warning)."""
    cases = [case for case in document["testCases"] if case["outcome"] == "failed" and not case.get("warning", False)]
    criteria = [c for c in document["criteria"] if c["outcome"] == "failed" and c.get("gated", True)]
    return bool(cases or criteria)


def classname(criterion, target):
    """<criterion>.<target> with the dots inside each id written as '_' (schema 1.4.0's JUnit)."""
    return criterion.replace(".", "_") + "." + target.replace(".", "_")


def check_junit(path, document, problems):
    xml = junitparser.JUnitXml.fromfile(path)
    suites = [xml] if isinstance(xml, junitparser.TestSuite) else list(xml)
    seen = set()
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    by_case = []
    run_suites = [suite for suite in suites if suite.name == RUN_SUITE]
    for suite in run_suites:
        cases_here = list(suite)
        problems.check(len(cases_here) == 1 and cases_here[0].classname == RUN_SUITE + ".gate" and cases_here[0].name == "run",
                       f"{path}: suite {suite.name}", "the run suite holds exactly one test case passkey-conformance.run.gate/run")
        results = cases_here[0].result if cases_here else []
        kind = type(results[0]).__name__ if len(results) == 1 else None
        problems.check((kind == "Failure" and results[0].type in ("nonConformant", "incomplete"))
                       or (kind == "Error" and results[0].type in ("harnessError", "fault", "interrupted", "terminated", "hangup")),
                       f"{path}: suite {suite.name}",
                       "the run suite's test case has one <failure> (nonConformant, incomplete) or <error> (harnessError, fault, a signal)")
        if document is not None and len(results) == 1:
            # The gate test case names the exit status the JSON report gives (every status but 0 has one).
            exit_status = document["summary"]["exitStatus"]
            expected = {1: ("Failure", "nonConformant"), 2: ("Error", "fault" if document["metadata"].get("fault") is not None else "harnessError"),
                        3: ("Failure", "incomplete"), 129: ("Error", "hangup"), 130: ("Error", "interrupted"),
                        143: ("Error", "terminated")}.get(exit_status)
            problems.check((kind, results[0].type) == expected, f"{path}: suite {suite.name}",
                           f"the gate test case is <{kind}> of type {results[0].type}, expected {expected} for exit status {exit_status}")
        failed = 1 if kind == "Failure" else 0
        for name, value in {"tests": 1, "failures": failed, "errors": 1 - failed, "skipped": 0}.items():
            total[name] += value
    suites = [suite for suite in suites if suite.name != RUN_SUITE]
    if document is not None:
        exit_status = document["summary"]["exitStatus"]
        expects_run_suite = exit_status != 0
        problems.check(bool(run_suites) == expects_run_suite, path,
                       f"a {RUN_SUITE} suite {'is missing' if expects_run_suite else 'is there'} for exit status {exit_status}")
    for suite in suites:
        tally = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for case in suite:
            key = (case.classname, case.name)
            problems.check(key not in seen, f"{path}: suite {suite.name}", f"classname+name not unique: {key}")
            seen.add(key)
            problems.check(case.classname.startswith(suite.name.replace(".", "_") + ".") and case.classname.count(".") == 1,
                           f"{path}: {key}", "classname is not <criterion>.<target> with no dot inside an id")
            problems.check(bool(case._elem.get("file")) and (case._elem.get("line") or "").isdigit(), f"{path}: {key}",
                           "testcase without file and line attributes")
            tally["tests"] += 1
            kinds = [type(result).__name__ for result in case.result]
            problems.check(len(kinds) <= 1, f"{path}: {key}", f"more than one result element: {kinds}")
            kind = kinds[0] if kinds else "passed"
            if kind == "Failure":
                tally["failures"] += 1
                problems.check(case.result[0].type == "failed", f"{path}: {key}", f"failure type {case.result[0].type!r}")
                problems.check(bool(case.result[0].text), f"{path}: {key}", "failure without evidence text")
            elif kind == "Error":
                tally["errors"] += 1
                problems.check(case.result[0].type in ("error", "undefined"), f"{path}: {key}", f"error type {case.result[0].type!r}")
            elif kind == "Skipped":
                tally["skipped"] += 1
                message = case.result[0].message or ""
                problems.check(message.startswith("waived: ") or message.startswith("not verified: "), f"{path}: {key}",
                               f"skipped message {message!r}")
            first = case.result[0] if kinds else None
            by_case.append((suite.name, case.classname, kind, first.type if first is not None else None,
                            first.message if first is not None else None))
        for name, value in tally.items():
            total[name] += value
            problems.check(int(getattr(suite, name) or 0) == value, f"{path}: suite {suite.name}",
                           f"{name}={getattr(suite, name)} but it holds {value}")
    if not isinstance(xml, junitparser.TestSuite):
        for name, value in total.items():
            problems.check(int(getattr(xml, name) or 0) == value, f"{path}: testsuites", f"{name}={getattr(xml, name)} but it holds {value}")

    if document is None:
        return
    problems.check([s.name for s in suites] == [c["id"] for c in document["criteria"]], path,
                   "testsuites are not the JSON report's criteria, in order")
    by_id = {case["id"]: case for case in document["testCases"]}
    cases = [by_id[case_id] for criterion in document["criteria"] for case_id in criterion["testCases"]]
    problems.check(len(cases) == len(by_case), path, f"{len(by_case)} testcases, JSON report has {len(cases)}")
    expected = {"passed": ("passed", None), "failed": ("Failure", "failed"), "error": ("Error", "error"),
                "undefined": ("Error", "undefined"), "notVerified": ("Skipped", None), "waived": ("Skipped", None)}
    for case, (suite, classname_, kind, type_, message) in zip(cases, by_case):
        where = f"{path}: {case['id']}"
        problems.check(suite == case["criterionID"] and classname_ == classname(case["criterionID"], case["target"]), where,
                       f"in suite {suite} as {classname_}")
        wanted = ("passed", None) if case.get("warning", False) else expected[case["outcome"]]
        problems.check((kind, type_) == wanted, where, f"{case['outcome']} written as {kind} type {type_!r}")
        if case["outcome"] == "waived":
            problems.check((message or "").startswith("waived: "), where, "waived case without a 'waived: ' message")
        if case["outcome"] == "notVerified":
            problems.check((message or "").startswith("not verified: "), where, "not-verified case without a 'not verified: ' message")


def check_waivers(path, schema_dir, problems):
    with open(path, "rb") as handle:
        document = json.loads(handle.read().decode("utf-8"))
    schema_errors(validator(schema_dir, "waivers.v1.schema.json"), document, path, problems)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schema-dir", default=DEFAULT_SCHEMA_DIR)
    parser.add_argument("--json")
    parser.add_argument("--junit")
    parser.add_argument("--waivers", action="append", default=[])
    args = parser.parse_args(argv)
    if not (args.json or args.junit or args.waivers):
        parser.error("give at least one of --json, --junit, --waivers")

    problems = Problems()
    document = None
    try:
        if args.json:
            document = check_report(args.json, args.schema_dir, problems)
        if args.junit:
            check_junit(args.junit, document if not problems.items else None, problems)
        for path in args.waivers:
            check_waivers(path, args.schema_dir, problems)
    except (OSError, ValueError, jsonschema.SchemaError, junitparser.JUnitXmlError) as error:
        problems.add("error", f"{type(error).__name__}: {error}")
    except Exception as error:  # a malformed XML document, among others
        problems.add("error", f"{type(error).__name__}: {error}")

    if problems.items:
        for item in problems.items:
            print(item, file=sys.stderr)
        print(f"{len(problems.items)} problem(s)", file=sys.stderr)
        return 1
    checked = [name for name, value in (("JSON report", args.json), ("JUnit XML", args.junit)) if value]
    checked += [f"waiver file {path}" for path in args.waivers]
    print("valid: " + ", ".join(checked))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
