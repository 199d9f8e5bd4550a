"""`conquian-ref simulate`: its options (tools/simulate.py runs it)."""

from __future__ import annotations

import argparse

from ..options import add_json_option, add_profile_option, load_profiles, positive_int


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref simulate`; returns its runner (args -> exit status)."""
    add_profile_option(parser)
    parser.add_argument("--games", type=positive_int, default=100, metavar="N", help="games per profile (default: 100)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="run seed; game i is dealt from a seed derived from S and i (default: 1)")
    add_json_option(parser, "the summary")

    def run(args: argparse.Namespace) -> int:
        from ..simulate import run

        return run(load_profiles(args.profile), args.games, args.seed, args.json_path)

    return run
