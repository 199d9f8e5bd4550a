"""`conquian-ref coverage`: its options (tools/coverage.py runs it)."""

from __future__ import annotations

import argparse

from ..options import add_cache_option, add_corpus_option, add_json_option


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref coverage`; returns its runner (args -> exit status)."""
    add_corpus_option(parser, "the scenario folder whose coverage is measured")
    add_cache_option(parser)
    add_json_option(parser, "the coverage")

    def run(args: argparse.Namespace) -> int:
        from ..coverage import run

        return run([args.corpus] if args.corpus else [], json_path=args.json_path)

    return run
