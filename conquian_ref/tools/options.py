"""Command-line option types shared by the commands (argparse `type=` functions)."""

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
