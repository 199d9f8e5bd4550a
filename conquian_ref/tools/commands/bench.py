"""`conquian-ref bench`: its options (tools/bench.py runs it)."""

from __future__ import annotations

import argparse

from ..options import add_json_option, add_profile_option, load_profiles


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref bench`; returns its runner (args -> exit status)."""
    add_profile_option(parser)
    parser.add_argument("--quick", action="store_true", help="a short run (seconds), for smoke tests")
    add_json_option(parser, "every figure (more than the Markdown tables)")

    def run(args: argparse.Namespace) -> int:
        from ..bench import run

        return run(load_profiles(args.profile), quick=args.quick, json_path=args.json_path)

    return run
