"""`conquian-ref check`: its options, and the reports it prints and writes (conformance/check.py runs it)."""

from __future__ import annotations

import argparse
import sys

from ...conformance.client import DEFAULT_TIMEOUT
from ..options import STDOUT, add_cache_option, add_corpus_option, add_json_option, add_profile_option, add_timeout_option, emit, non_negative_int, positive_seconds


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref check`; returns its runner (args -> exit status)."""
    parser.add_argument(
        "--impl", dest="impls", action="append", metavar="CMD",
        help="the adapter command to run (JSON lines over stdin/stdout, docs/protocol.md); "
        "'reference' (default) for the bundled reference engine; python:MODULE:FACTORY for an in-process Python adapter; "
        "repeat it to compare several implementations side by side",
    )
    add_profile_option(parser)
    parser.add_argument("-k", dest="patterns", action="append", default=[], metavar="PATTERN",
                        help="only scenarios whose id, title or file within the corpus contains PATTERN (or whose id matches it as a glob); repeatable")
    add_corpus_option(parser, "the scenario folder to run")
    add_cache_option(parser)
    parser.add_argument("--known-failures", action="append", default=[], metavar="FILE",
                        help="YAML list of what the implementation is known to fail (scenario ids, rule ids or causes), with reasons; repeatable (merged)")
    parser.add_argument("--write-known-failures", metavar="FILE", help="write today's failures to FILE as a starting known-failures file")
    parser.add_argument("--max-failures", type=non_negative_int, metavar="N",
                        help="stop after N failing scenarios (known failures not counted); 0: never stop early (default: stop when one adapter failure repeats 5 times in a row)")
    add_json_option(parser, "the report (schema/report.schema.json)")
    parser.add_argument("--junit", dest="junit_path", metavar="FILE", help="write a JUnit XML report to FILE")
    add_timeout_option(parser, DEFAULT_TIMEOUT)
    parser.add_argument("--deadline", type=positive_seconds, metavar="SECONDS",
                        help="end the run after SECONDS, the scenarios left reported as not run (default: 30 + 2 per scenario selected)")
    parser.add_argument("--validate-messages", action="store_true", help="check every protocol message against schema/protocol.schema.json")
    parser.add_argument("-v", "--verbose", action="store_true", help="also list skipped scenarios and known failures with their reasons")
    return run


def run(args: argparse.Namespace) -> int:
    """Run the corpus against the implementation(s); print the text report, write the others; 0 if it conforms."""
    from ...conformance.check import run_check
    from ...conformance.reports import json_report, text_report, write_junit
    from ...spec.known import load_known_failures

    from ...engine.errors import ConquianError

    impls = args.impls or ["reference"]
    if len(impls) > 1 and (args.json_path or args.junit_path or args.write_known_failures):
        raise ConquianError("--json, --junit and --write-known-failures take a single --impl")
    known = load_known_failures(*args.known_failures)
    hypotheses = _hypotheses(known)
    runs = [
        run_check(
            impl=impl, corpus=args.corpus, profile=args.profile, patterns=args.patterns, known=known,
            timeout=args.timeout, progress=True, validate_messages=args.validate_messages, max_failures=args.max_failures,
            deadline=args.deadline, hypotheses=hypotheses,
        )
        for impl in impls
    ]
    if len(runs) > 1:
        from ...conformance.reports import side_by_side

        print(side_by_side(runs))
        for result in runs:
            print(f"{result.impl}: {result.summary_line()}")
        return 0 if all(r.ok for r in runs) else 1
    result = runs[0]
    emit(args.json_path, lambda: json_report(result), lambda: text_report(result, verbose=args.verbose))
    if args.junit_path:
        write_junit(result, args.junit_path)
    if args.write_known_failures:
        _write_known(result, args.write_known_failures)
    print(result.summary_line(), file=sys.stderr if args.json_path == STDOUT else sys.stdout)  # stdout holds only the JSON then
    return 0 if result.ok else 1


def _hypotheses(known):
    """The house rules the diagnosis tries at a divergence (tools/mutants): those the known
    failures name first (a name the library lacks is a usage error, found before the run), then
    the library. With no such name, read only when a failure is diagnosed: importing the mutants
    costs a conforming run a fifth of its set-up."""
    if not any(entry.kind == "house_rule" for entry in known.entries):
        return _HouseRules()
    from ..mutants import house_rules, house_rules_named

    return tuple(dict.fromkeys((*house_rules_named(known), *house_rules())))


class _HouseRules:
    """The library of house rules, imported when first iterated (by the diagnosis of a failure)."""

    def __iter__(self):
        from ..mutants import house_rules

        return iter(house_rules())


def _write_known(run, path: str) -> None:
    """Today's failures as a known-failures file: one entry per cause (by its house rule when one
    explains it, else by the cause), and one per failing scenario with no cause."""
    from ...conformance.reports import causes
    from ...spec.known import known_failures_text

    groups, covered = [], set()
    from ...conformance.reports import divergence_of

    for cause, results in causes(run):
        house_rule = divergence_of(results[0], cause).cause.house_rule
        groups.append(("house_rule", house_rule, [r.scenario.id for r in results]) if house_rule
                      else ("cause", cause, [r.scenario.id for r in results]))
        covered.update(r.scenario.id for r in results)
    for r in run.results:
        if (r.counts_as_failure and r.status != "xpass" or r.status == "xfail") and r.scenario.id not in covered:
            groups.append(("id", r.scenario.id, [r.scenario.id]))
    with open(path, "w", encoding="utf-8") as f:
        f.write(known_failures_text(groups))
