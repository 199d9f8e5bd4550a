"""`conquian-ref lint`: its options (tools/lint.py runs it)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref lint`; returns its runner (args -> exit status)."""
    parser.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders (default: the bundled corpus)")

    parser.add_argument(
        "--corpus", action="append", default=[], metavar="DIR",
        help="the corpus the files belong to: their ids must not be used by any other file in DIR "
        "(repeatable; the shipped corpus is always compared)",
    )

    def run(args: argparse.Namespace) -> int:
        from ..lint import run

        return run(args.paths, args.corpus)

    return run
