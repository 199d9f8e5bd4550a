"""The options of `conquian-ref fuzz` (docs/fuzzing.md); the run itself is campaign.run_fuzz."""

from __future__ import annotations

import argparse
import re

from .campaign import DEFAULT_OUT, DEFAULT_SHRINK_SECONDS, REFERENCE, run_fuzz

SHARD = re.compile(r"([0-9]+)/([0-9]+)")


def parse_shard(text: str) -> tuple[int, int]:
    """`--shard K/N`: shard K of N (1 <= K <= N); argparse.ArgumentTypeError (one line) otherwise."""
    match = SHARD.fullmatch(text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"expected K/N (shard K of N, e.g. 2/4), got {text!r}")
    k, n = int(match[1]), int(match[2])
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, got {text!r}")
    return k, n


def configure(parser: argparse.ArgumentParser):
    """Add the options of `conquian-ref fuzz` to `parser`; return its runner (args -> exit status)."""
    from ...spec.profiles import PROFILE_IDS
    from ...conformance.client import DEFAULT_TIMEOUT
    from ..options import add_json_option, add_timeout_option, non_negative_int, non_negative_seconds, positive_int

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
    parser.add_argument("--shard", type=parse_shard, default=(1, 1), metavar="K/N",
                        help="play only shard K of N: the games g with g %% N == K-1 (default: 1/1, every game)")
    parser.add_argument("--causes", type=positive_int, default=1, metavar="N",
                        help="stop once N new causes of divergence are found, each shrunk to its own draft (default: 1)")
    parser.add_argument("--known-failures", action="append", default=[], metavar="FILE",
                        help="a known-failures file (as for check; repeatable): a house rule listed is played by the "
                        "reference; divergences whose cause, or a rule of it, is listed are counted, not shrunk; "
                        "entries by scenario id do not apply")
    parser.add_argument("--every-step", action="store_true",
                        help="compare the legal actions and the state at every step of every game (slower; by default "
                        "the answers at every step and the state at the end, every step only for a game that differs)")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"where to write the draft scenarios (default: ./{DEFAULT_OUT}/)")
    add_timeout_option(parser, DEFAULT_TIMEOUT)
    parser.add_argument("--shrink-time", type=non_negative_seconds, default=DEFAULT_SHRINK_SECONDS, metavar="SECONDS",
                        help=f"time budget of each Hypothesis shrink (default: {DEFAULT_SHRINK_SECONDS:g}; 0: do not shrink)")
    add_json_option(parser, "the campaign (seed, games, each cause with its counts, draft and reproduce line)")

    def run(args: argparse.Namespace) -> int:
        import sys
        from pathlib import Path

        from ...conformance.reports import json_text
        from ..options import STDOUT
        from ..mutants import house_rules
        from .known import read_known
        from .report import fuzz_json

        # With --json - the JSON is stdout's alone: the lines of the campaign go to stderr.
        echo = (lambda line: print(line, file=sys.stderr)) if args.json_path == STDOUT else print
        result = run_fuzz(
            impl=args.impl, profile=args.profile, games=args.games, seed=args.seed, first_game=args.game,
            out=args.out, timeout=args.timeout, shrink_seconds=args.shrink_time, progress=True, echo=echo,
            causes=args.causes, known=read_known(args.known_failures), shard=args.shard, every_step=args.every_step,
            hypotheses=house_rules(),  # the library that names a divergence's house rule, as in check
        )
        if args.json_path == STDOUT:
            sys.stdout.write(json_text(fuzz_json(result)))
        elif args.json_path:
            Path(args.json_path).write_text(json_text(fuzz_json(result)), encoding="utf-8")
        return result.exit_status

    return run
