"""`conquian-ref lint`: its options (tools/lint.py runs it)."""

from __future__ import annotations

import argparse

from ..options import add_corpus_option


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref lint`; returns its runner (args -> exit status)."""
    parser.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders within the corpus (default: all of it)")
    add_corpus_option(parser, "the corpus the files belong to: their ids must not be used by any other file in it "
                      "(the shipped corpus is always compared)")

    def run(args: argparse.Namespace) -> int:
        from ..lint import run

        return run(args.paths or ([args.corpus] if args.corpus else []), [args.corpus] if args.corpus else [])

    return run
