"""`conquian-ref coverage`: its options (tools/coverage.py runs it)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref coverage`; returns its runner (args -> exit status)."""
    parser.add_argument("paths", nargs="*", metavar="PATH", help="scenario folders (default: the bundled corpus)")
    parser.add_argument("--json", action="store_true", help="print the coverage as JSON")

    def run(args: argparse.Namespace) -> int:
        from ..coverage import run

        return run(args.paths, as_json=args.json)

    return run
