"""The `conquian-ref` command line: it only registers the commands.

`TABLE` lists every command: its name, its one-line help, and where its set-up lives (a module
under conquian_ref and a function in it). That function, `configure(parser)`, adds the
command's options to its sub-parser and returns the runner, which takes the parsed arguments
and returns the exit status. Only the command being run is set up (its module imported), and a
runner imports the code it runs only when it runs, so `conquian-ref --help` stays fast. Adding
a command is one line in `TABLE` and one `configure` beside the code it runs (or in
conquian_ref/tools/commands/ when that code has another job).

Errors a user can cause (an unknown profile, a malformed file, a bad option: MalformedInput,
ConquianError, UsageError) are reported as one line on stderr, `conquian-ref: error: ...`, with
exit status 2; never a traceback. A traceback means a bug.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module
from typing import Callable, Iterable

from .conformance.collector import set_collector
from .engine.errors import ConquianError

PROG = "conquian-ref"
USAGE_ERROR = 2

# (name, one-line help, module under conquian_ref, function returning the runner), in the order --help lists them:
# the main job first, then the other tools, then the measurements and the shell's completion.
TABLE = (
    ("check", "run the scenario corpus against an implementation and report where it deviates", "tools.commands.check", "configure"),
    ("smoke", "check a new adapter's protocol basics (handshake, errors, seq, stop) and print a checklist", "tools.smoke", "configure"),
    ("lint", "check scenario files: schema, cards, rule ids, unique ids, and that they replay as written", "tools.commands.lint", "configure"),
    ("coverage", "list every rule id with the scenarios citing it; flag uncited rules and unexercised reason codes", "tools.commands.coverage", "configure"),
    ("book", "render the rules and the scenario corpus as a static HTML rulebook", "tools.book", "configure"),
    ("fuzz", "play random games on the reference and an implementation; shrink each new cause of divergence to a scenario", "tools.fuzz", "configure"),
    ("mutants", "run deliberately wrong engines against the corpus; each must be caught by a scenario", "tools.mutation", "configure"),
    ("new", "scaffold a draft scenario: next free id, harmless cards, steps to record", "tools.new", "configure"),
    ("record", "fill in a draft's `record` placeholders from the reference engine; show the diff", "tools.commands.record", "configure"),
    ("fmt", "normalise scenario files: key order, card order, flow style (--check for CI)", "tools.fmt", "configure"),
    ("export", "write the corpus as plain JSON for any language, one file per profile (docs/export.md)", "tools.export", "configure"),
    ("simulate", "play seeded random games; summarise wins, endings, lengths", "tools.commands.simulate", "configure"),
    ("bench", "time the engine: arrangement checks, legal(), random games", "tools.commands.bench", "configure"),
    ("completion", "print a shell completion script for bash, zsh or fish", "cli", "configure_completion"),
)

Runner = Callable[[argparse.Namespace], int]
Configure = Callable[[argparse.ArgumentParser], Runner]


def _imported(module: str, function: str) -> Configure:
    """The set-up function `module.function`, imported when the command is set up."""

    def configure(parser: argparse.ArgumentParser) -> Runner:
        return getattr(import_module(f".{module}", __package__), function)(parser)

    return configure


# name -> (one-line help, set-up function): what build_parser reads (tests add to it).
COMMANDS: dict[str, tuple[str, Configure]] = {name: (text, _imported(module, function)) for name, text, module, function in TABLE}


class UsageError(Exception):
    """A bad command line: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse reporting errors by raising UsageError instead of printing usage and exiting,
    with the nearest option or choice when one is close (`check --proflie`: `--profile`)."""

    _argv: list[str] | None = None  # the arguments parsed (main sets them), to name the command's help

    def error(self, message: str):
        raise UsageError(f"{message}{self._did_you_mean(message)} (see '{self._help_of(message)} --help')")

    def _options(self) -> list[str]:
        """Every option string of this parser and of its commands' parsers."""
        parsers = [self, *_command_parsers(self)]
        return [o for p in parsers for a in p._actions for o in a.option_strings]

    def _did_you_mean(self, message: str) -> str:
        import difflib
        import re

        words = re.findall(r"(?:unrecognized arguments|invalid choice): (.*?)(?: \(choose from (.*)\))?$", message)
        if not words:
            return ""
        given, choices = words[0]
        pool = re.findall(r"'([^']*)'", choices) if choices else self._options()
        hints = [close[0] for word in re.findall(r"'([^']*)'", given) or given.split()
                 for close in [difflib.get_close_matches(word, pool, n=1)] if close]
        return f"; did you mean {' '.join(hints)}?" if hints else ""

    def _help_of(self, message: str) -> str:
        """The help to see: the command's when the error is about its options."""
        if "unrecognized arguments" in message:
            command = _command_in(sys.argv[1:] if self._argv is None else self._argv)
            return f"{self.prog} {command[0]}" if command else self.prog
        return self.prog


class _Version(argparse.Action):
    """`--version`: the installed distribution's version (importlib.metadata, through
    conquian_ref.__version__), looked up only when asked, so that other commands do not pay for it."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help="print the version and exit"):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from . import __version__

        print(f"{PROG} {__version__}")
        parser.exit()


def build_parser(only: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command; with `only`, just those commands get their options (and their
    set-up modules imported), the others are listed with their help."""
    from .tools.options import VOCABULARY

    parser = _Parser(
        prog=PROG,
        description="conquian-ref: the executable specification of the card game Conquian.",
        epilog="options mean the same in every command:\n"
        + "\n".join(f"  {option:<18} {meaning}" for option, meaning in VOCABULARY)
        + f"\nshell completion: {PROG} completion bash|zsh|fish",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    chosen = set(COMMANDS) if only is None else set(only)
    for name, (help_text, configure) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        if name in chosen:
            sub_parser.set_defaults(run=configure(sub_parser))
    return parser


SHELLS = ("bash", "zsh", "fish")


def configure_completion(parser: argparse.ArgumentParser) -> Runner:
    """`conquian-ref completion bash|zsh|fish`: the script, drawn by shtab from the whole parser
    (every command and option as `--help` lists them), so it can never fall behind the commands.
    Install: `conquian-ref completion bash > ~/.local/share/bash-completion/completions/conquian-ref`,
    for zsh a file named `_conquian-ref` in a folder of your `$fpath`, for fish
    `conquian-ref completion fish > ~/.config/fish/completions/conquian-ref.fish`."""
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")

    def run(args: argparse.Namespace) -> int:
        import shtab

        print(shtab.complete(_with_profile_choices(build_parser()), shell=args.shell))
        return 0

    return run


def _with_profile_choices(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The parser with every `--profile` offering the profile ids and 'all' to complete (a
    profile file's path is still accepted when typed): this parser only draws the script."""
    from .spec.profiles import PROFILE_IDS

    for command in _command_parsers(parser):
        for option in command._actions:
            if "--profile" in option.option_strings and option.choices is None:
                option.choices = ("all", *PROFILE_IDS)
    return parser


def _command_parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The sub-parser of each command."""
    return [sub for action in parser._actions if isinstance(action, argparse._SubParsersAction) for sub in action.choices.values()]


def _command_in(argv: list[str]) -> list[str]:
    """The command an argument list names: its first word not starting with '-' (the top-level
    options, --help and --version, take no value), or none."""
    return [word for word in argv if not word.startswith("-")][:1]


def _fail(message: str) -> int:
    first = str(message).strip().splitlines()
    print(f"{PROG}: error: {first[0] if first else 'failed'}", file=sys.stderr)
    return USAGE_ERROR


def _without_cache(args: argparse.Namespace) -> int:
    """Run the command with the corpus cache off (`--no-cache`): through the environment, so
    that the processes the command starts (mutants' workers) leave it off too; restored after,
    for a caller that runs several commands in one process."""
    from .spec.corpus_cache import NO_CACHE

    before = os.environ.get(NO_CACHE)
    os.environ[NO_CACHE] = "1"
    try:
        return args.run(args)
    finally:
        if before is None:
            del os.environ[NO_CACHE]
        else:
            os.environ[NO_CACHE] = before


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    set_collector()
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=_command_in(argv))  # only the command run is set up: --help stays fast
    parser._argv = argv
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help and --version exit through argparse
            return exc.code if isinstance(exc.code, int) else 0
        if args.command is None:
            raise UsageError(f"a command is needed: {', '.join(COMMANDS)} (see '{PROG} --help')")
        if getattr(args, "no_cache", False):
            return _without_cache(args)
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
