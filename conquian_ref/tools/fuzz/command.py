"""The options of `conquian-ref fuzz` (docs/fuzzing.md); the run itself is campaign.run_fuzz."""

from __future__ import annotations

import argparse

from .campaign import DEFAULT_OUT, DEFAULT_SHRINK_SECONDS, REFERENCE, run_fuzz


def configure(parser: argparse.ArgumentParser):
    """Add the options of `conquian-ref fuzz` to `parser`; return its runner (args -> exit status)."""
    from ...spec.profiles import PROFILE_IDS
    from ..options import non_negative_int, positive_int

    parser.add_argument(
        "--impl", default=REFERENCE, metavar="CMD",
        help="the adapter command (docs/protocol.md); 'reference' (default) for the bundled engine; "
        "python:MODULE:FACTORY for an in-process Python adapter",
    )
    parser.add_argument("--profile", default="all", choices=("all", *PROFILE_IDS), metavar="P",
                        help=f"a profile id ({', '.join(PROFILE_IDS)}) or 'all' (default): every profile the implementation supports")
    parser.add_argument("--games", type=positive_int, default=100, metavar="N", help="games per profile (default: 100)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="run seed; game g is dealt and played from seeds derived from S and g (default: a random seed, printed)")
    parser.add_argument("--game", type=non_negative_int, default=0, metavar="G",
                        help="index of the first game (default: 0); --game G --games 1 replays game G alone")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"where to write the scenario of a divergence (default: ./{DEFAULT_OUT}/)")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="per-message timeout (default: 10)")
    parser.add_argument("--shrink-time", type=float, default=DEFAULT_SHRINK_SECONDS, metavar="SECONDS",
                        help=f"time budget of the Hypothesis shrink (default: {DEFAULT_SHRINK_SECONDS:g}; 0: do not shrink)")

    def run(args: argparse.Namespace) -> int:
        result = run_fuzz(
            impl=args.impl, profile=args.profile, games=args.games, seed=args.seed, first_game=args.game,
            out=args.out, timeout=args.timeout, shrink_seconds=args.shrink_time, progress=True,
        )
        return result.exit_status

    return run
