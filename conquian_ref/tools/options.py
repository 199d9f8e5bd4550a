"""Command-line options shared by the commands: one vocabulary, written once.

Every command that has one of these options takes it from here, so a flag means the same
everywhere; `VOCABULARY` says so in `conquian-ref --help`.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Callable

STDOUT = "-"

# (option, its meaning in every command that has it): printed at the foot of `conquian-ref --help`.
VOCABULARY = (
    ("--corpus DIR", "the scenario folder worked on (default: the bundled corpus)"),
    ("PATH ...", "lint and fmt: the files or folders within the corpus to work on (default: all of it)"),
    ("--no-cache", "read and check every scenario file afresh, without the corpus cache (docs/performance.md)"),
    ("--json [FILE]", "write the JSON form to FILE; '-', or no FILE, prints it instead of the text"),
    ("--profile P", "a shipped profile id, 'all', or the path of a profile file"),
    ("--impl CMD", "the implementation: an adapter command line, 'reference', or python:MODULE:FACTORY"),
    ("--timeout SECONDS", "the per-message time-out, a number greater than 0"),
    ("N, SECONDS", "every number is validated: a bad value is refused, never silently replaced"),
)


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


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds greater than 0 (`--timeout 0` is refused,
    never silently replaced by the default)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds greater than 0, got {text}")
    return value


def non_negative_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds, 0 or more (0 meaning "none", as documented
    by the option that takes it: `fuzz --shrink-time 0` does not shrink)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, 0 or more, got {text}")
    return value


def add_timeout_option(parser: argparse.ArgumentParser, default: float) -> None:
    """--timeout SECONDS: the per-message time-out of a connection to an implementation."""
    parser.add_argument("--timeout", type=positive_seconds, default=default, metavar="SECONDS",
                        help=f"per-message time-out in seconds, greater than 0 (default: {default:g})")


def add_corpus_option(parser: argparse.ArgumentParser, action: str = "the scenario folder to work on") -> None:
    """--corpus DIR: the scenario folder a command works on; the bundled corpus by default."""
    parser.add_argument("--corpus", type=existing_folder, metavar="DIR", help=f"{action} (default: the bundled corpus)")


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    """--no-cache: load the corpus without the cache of loaded and checked files
    (conquian_ref/spec/corpus_cache.py); the command line sets CONQUIAN_REF_NO_CACHE for the run."""
    parser.add_argument("--no-cache", action="store_true",
                        help="read and check every scenario file afresh; neither read nor write the corpus cache "
                        "(also: CONQUIAN_REF_NO_CACHE=1)")


def existing_folder(text: str) -> str:
    """An argparse type: the path of an existing folder."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no such folder")
    return text


def add_json_option(parser: argparse.ArgumentParser, what: str) -> None:
    """--json [FILE]: the JSON form of the command's result, to FILE or (`-`, no FILE) to stdout."""
    parser.add_argument("--json", dest="json_path", nargs="?", const=STDOUT, metavar="FILE",
                        help=f"write {what} as JSON to FILE; '-' or no FILE prints it instead of the text")


def emit(json_path: str | None, data: Callable[[], object], text: Callable[[], str], out=None) -> None:
    """Print the text, or the JSON instead (`--json -`), or both: the text printed and the JSON
    written to the file `--json FILE` names. `data` and `text` are only built when used. The
    JSON is written as every report is (conformance.reports.json_text: strict, UTF-8 safe),
    imported only then: the reports' imports are a tenth of a short `simulate`'s start-up."""
    out = out or sys.stdout
    if json_path == STDOUT:
        out.write(_json_text(data()))
        return
    out.write(text() + "\n")
    if json_path:
        Path(json_path).write_text(_json_text(data()), encoding="utf-8")


def _json_text(data: object) -> str:
    from ..conformance.reports import json_text

    return json_text(data)


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
