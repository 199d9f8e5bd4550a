"""`conquian-ref check`: its options, and the reports it prints and writes (conformance/check.py runs it)."""

from __future__ import annotations

import argparse

from ..options import add_profile_option


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref check`; returns its runner (args -> exit status)."""
    parser.add_argument(
        "--impl", default="reference", metavar="CMD",
        help="the adapter command to run (JSON lines over stdin/stdout, docs/protocol.md); "
        "'reference' (default) for the bundled reference engine; python:MODULE:FACTORY for an in-process Python adapter",
    )
    add_profile_option(parser)
    parser.add_argument("-k", dest="patterns", action="append", default=[], metavar="PATTERN",
                        help="only scenarios whose id, title or file within the corpus contains PATTERN (or whose id matches it as a glob); repeatable")
    parser.add_argument("--corpus", metavar="DIR", help="a scenario folder to run instead of the bundled corpus")
    parser.add_argument("--known-failures", metavar="FILE", help="YAML list of scenario ids the implementation is known to fail, with reasons")
    parser.add_argument("--json", dest="json_path", metavar="FILE", help="write the JSON report (schema/report.schema.json) to FILE")
    parser.add_argument("--junit", dest="junit_path", metavar="FILE", help="write a JUnit XML report to FILE")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="per-message timeout (default: 10)")
    parser.add_argument("--deadline", type=_seconds, metavar="SECONDS",
                        help="end the run after SECONDS, the scenarios left reported as not run (default: 30 + 2 per scenario selected)")
    parser.add_argument("--validate-messages", action="store_true", help="check every protocol message against schema/protocol.schema.json")
    parser.add_argument("-v", "--verbose", action="store_true", help="also list skipped scenarios and known failures with their reasons")
    return run


def _seconds(text: str) -> float:
    """A --deadline: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: a deadline is a positive number of seconds")
    return value


def run(args: argparse.Namespace) -> int:
    """Run the corpus against the implementation; print the text report, write the others; 0 if it conforms."""
    from ...conformance.check import run_check
    from ...conformance.reports import text_report, write_json, write_junit
    from ...spec.known import load_known_failures

    known = load_known_failures(args.known_failures) if args.known_failures else {}
    result = run_check(
        impl=args.impl, corpus=args.corpus, profile=args.profile, patterns=args.patterns, known=known,
        timeout=args.timeout, progress=True, validate_messages=args.validate_messages, deadline=args.deadline,
    )
    print(text_report(result, verbose=args.verbose))
    if args.json_path:
        write_json(result, args.json_path)
    if args.junit_path:
        write_junit(result, args.junit_path)
    print(result.summary_line())
    return 0 if result.ok else 1
