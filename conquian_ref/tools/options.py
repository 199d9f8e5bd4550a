"""Command-line options shared by the commands: whole-number types, and --profile."""

from __future__ import annotations

import argparse
from typing import Callable


def _whole_number(minimum: int, wording: str) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `minimum`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected {wording}, got {value}")
        return value

    return parse


non_negative_int = _whole_number(0, "0 or more")
positive_int = _whole_number(1, "at least 1")


def add_profile_option(parser: argparse.ArgumentParser, default: str | None = "all") -> None:
    """--profile: a shipped profile id, 'all', or the path of a profile file (see load_profiles)."""
    from ..spec.profiles import PROFILE_IDS

    parser.add_argument(
        "--profile",
        default=default,
        required=default is None,
        metavar="P",
        help=f"a profile id ({', '.join(PROFILE_IDS)}), 'all' for every shipped profile, "
        f"or the path of a profile YAML file (default: {default})",
    )


def load_profiles(name: str) -> list:
    """The profiles named by a --profile value; MalformedInput (one line) if unknown."""
    from ..spec.profiles import PROFILE_IDS, load_profile

    names = PROFILE_IDS if name == "all" else (name,)
    return [load_profile(n) for n in names]
