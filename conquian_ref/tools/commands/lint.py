"""`conquian-ref lint`: its options (tools/lint.py runs it)."""

from __future__ import annotations

import argparse

from ..options import add_cache_option, add_corpus_option, add_json_option


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref lint`; returns its runner (args -> exit status)."""
    parser.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders within the corpus (default: all of it)")
    add_corpus_option(parser, "the corpus the files belong to: their ids must not be used by any other file in it "
                      "(the shipped corpus is always compared)")
    add_cache_option(parser)

    add_json_option(parser, "the problems")
    parser.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE: one testcase per scenario file")

    def run(args: argparse.Namespace) -> int:
        from ..lint import run

        return run(args.paths or ([args.corpus] if args.corpus else []), [args.corpus] if args.corpus else [],
                   json_path=args.json_path, junit_path=args.junit)

    return run
