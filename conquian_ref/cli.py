"""The `conquian-ref` command line.

Each subcommand is one function registered with `@command(name, help)`. The function receives
its argparse sub-parser, adds its options, and returns the function that runs it: that runner
takes the parsed arguments and returns the exit status. Import heavy modules inside the runner,
so that `conquian-ref --help` stays fast. Adding a subcommand is adding one such function:

    @command("lint", "check scenario files against the schemas")
    def _lint(parser):
        parser.add_argument("paths", nargs="*")

        def run(args):
            from .tools.lint import run
            return run(args.paths)

        return run

A module that sets up its own options (a `configure(parser)` returning the runner) is listed
in `DELEGATED` instead: one line.

Errors a user can cause (an unknown profile, a malformed file, a bad option: MalformedInput,
ConquianError, UsageError) are reported as one line on stderr, `conquian-ref: error: ...`, with
exit status 2; never a traceback. A traceback means a bug.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable

from .engine.errors import ConquianError
from .tools.options import non_negative_int, positive_int

PROG = "conquian-ref"
USAGE_ERROR = 2

Runner = Callable[[argparse.Namespace], int]
# name -> (one-line help, function that configures the sub-parser and returns the runner)
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], Runner]]] = {}


def command(name: str, help: str):
    """Register a subcommand (see the module docstring)."""

    def register(configure: Callable[[argparse.ArgumentParser], Runner]):
        COMMANDS[name] = (help, configure)
        return configure

    return register


class UsageError(Exception):
    """A bad command line: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse reporting errors by raising UsageError instead of printing usage and exiting."""

    def error(self, message: str):
        raise UsageError(f"{message} (see '{self.prog} --help')")




def add_profile_option(parser: argparse.ArgumentParser, default: str | None = "all") -> None:
    from .spec.profiles import PROFILE_IDS

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
    from .spec.profiles import PROFILE_IDS, load_profile

    names = PROFILE_IDS if name == "all" else (name,)
    return [load_profile(n) for n in names]


# -- subcommands -----------------------------------------------------------------------------------
@command("simulate", "play seeded random games; summarise wins, endings, lengths")
def _simulate(parser: argparse.ArgumentParser) -> Runner:
    add_profile_option(parser)
    parser.add_argument("--games", type=positive_int, default=100, metavar="N", help="games per profile (default: 100)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="run seed; game i is dealt from a seed derived from S and i (default: 1)")
    parser.add_argument("--json", action="store_true", help="print a JSON summary instead of text")

    def run(args: argparse.Namespace) -> int:
        from .tools.simulate import run

        return run(load_profiles(args.profile), args.games, args.seed, args.json)

    return run


@command("bench", "time the engine: arrangement checks, legal(), random games")
def _bench(parser: argparse.ArgumentParser) -> Runner:
    add_profile_option(parser)
    parser.add_argument("--quick", action="store_true", help="a short run (seconds), for smoke tests")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of Markdown")

    def run(args: argparse.Namespace) -> int:
        from .tools.bench import run

        return run(load_profiles(args.profile), quick=args.quick, as_json=args.json)

    return run


@command("check", "run the scenario corpus against an implementation and report where it deviates")
def _check(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument(
        "--impl", default="reference", metavar="CMD",
        help="the adapter command to run (JSON lines over stdin/stdout, docs/protocol.md); "
        "'reference' (default) for the bundled reference engine; python:MODULE:FACTORY for an in-process Python adapter",
    )
    add_profile_option(parser)
    parser.add_argument("-k", dest="patterns", action="append", default=[], metavar="PATTERN",
                        help="only scenarios whose id, title or file contains PATTERN (or whose id matches it as a glob); repeatable")
    parser.add_argument("--corpus", metavar="DIR", help="a scenario folder to run instead of the bundled corpus")
    parser.add_argument("--known-failures", metavar="FILE", help="YAML list of scenario ids the implementation is known to fail, with reasons")
    parser.add_argument("--json", dest="json_path", metavar="FILE", help="write the JSON report (schema/report.schema.json) to FILE")
    parser.add_argument("--junit", dest="junit_path", metavar="FILE", help="write a JUnit XML report to FILE")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="per-message timeout (default: 10)")
    parser.add_argument("--validate-messages", action="store_true", help="check every protocol message against schema/protocol.schema.json")
    parser.add_argument("-v", "--verbose", action="store_true", help="also list skipped scenarios and known failures with their reasons")

    def run(args: argparse.Namespace) -> int:
        from .conformance.check import run_check
        from .spec.known import load_known_failures
        from .conformance.reports import text_report, write_json, write_junit

        known = load_known_failures(args.known_failures) if args.known_failures else {}
        result = run_check(
            impl=args.impl, corpus=args.corpus, profile=args.profile, patterns=args.patterns, known=known,
            timeout=args.timeout, progress=True, validate_messages=args.validate_messages,
        )
        print(text_report(result, verbose=args.verbose))
        if args.json_path:
            write_json(result, args.json_path)
        if args.junit_path:
            write_junit(result, args.junit_path)
        print(result.summary_line())
        return 0 if result.ok else 1

    return run


@command("lint", "check scenario files: schema, cards, rule ids, unique ids, and that they replay as written")
def _lint(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders (default: the bundled corpus)")

    def run(args: argparse.Namespace) -> int:
        from .tools.lint import run

        return run(args.paths)

    return run


@command("coverage", "list every rule id with the scenarios citing it; flag uncited rules and unexercised reason codes")
def _coverage(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="scenario folders (default: the bundled corpus)")
    parser.add_argument("--json", action="store_true", help="print the coverage as JSON")

    def run(args: argparse.Namespace) -> int:
        from .tools.coverage import run

        return run(args.paths, as_json=args.json)

    return run


# Commands whose module sets up its own options: (name, one-line help, module, function).
# The module is imported only when the command is built, so `--help` stays fast.
DELEGATED = [
    ("book", "render the rules and the scenario corpus as a static HTML rulebook", "tools.book", "configure"),
    ("fuzz", "play random games in lockstep on the reference and an implementation; shrink the first divergence to a scenario", "tools.fuzz", "configure"),
    ("mutants", "run deliberately wrong engines against the corpus; each must be caught by a scenario", "tools.mutation", "configure"),
    ("new", "scaffold a draft scenario: next free id, harmless cards, steps to record", "tools.new", "configure"),
    ("record", "fill in a draft's `record` placeholders from the reference engine; show the diff", "tools.commands.record", "configure"),
    ("fmt", "normalise scenario files: key order, card order, flow style (--check for CI)", "tools.fmt", "configure"),
]


def _delegate(module: str, function: str) -> Callable[[argparse.ArgumentParser], Runner]:
    def configure(parser: argparse.ArgumentParser) -> Runner:
        from importlib import import_module

        return getattr(import_module(f".{module}", __package__), function)(parser)

    return configure


for _name, _help, _module, _function in DELEGATED:
    command(_name, _help)(_delegate(_module, _function))


# -- entry point -------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(
        prog=PROG,
        description="conquian-ref: the executable specification of the card game Conquian.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, (help_text, configure) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        sub_parser.set_defaults(run=configure(sub_parser))
    return parser


def _fail(message: str) -> int:
    first = str(message).strip().splitlines()
    print(f"{PROG}: error: {first[0] if first else 'failed'}", file=sys.stderr)
    return USAGE_ERROR


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help and --version exit through argparse
            return exc.code if isinstance(exc.code, int) else 0
        if args.command is None:
            raise UsageError(f"a command is needed: {', '.join(COMMANDS)} (see '{PROG} --help')")
        return args.run(args)
    except (UsageError, ConquianError) as exc:
        return _fail(str(exc))
    except OSError as exc:  # an unreadable file named on the command line
        if isinstance(exc, BrokenPipeError):  # e.g. piped into `head`: stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
        return _fail(f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc))
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
