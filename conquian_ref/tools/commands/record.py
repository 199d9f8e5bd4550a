"""`conquian-ref record`: its options (tools/record.py runs it)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref record`; returns its runner (args -> exit status)."""
    parser.add_argument("file", metavar="FILE", help="a draft scenario with values written as `record`")
    parser.add_argument("--write", action="store_true", help="write the recorded file (otherwise only the diff is shown; on a terminal you are asked)")

    def run(args: argparse.Namespace) -> int:
        from ..record import run

        return run(args.file, args.write)

    return run
