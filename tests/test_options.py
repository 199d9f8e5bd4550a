"""One vocabulary of options across the commands, and shell completion.

Pins: an option spelled the same means the same in every command (checked on the whole parser,
so a new command cannot drift); `--json FILE` writes a file and `--json -` prints, everywhere;
numbers are validated (`--timeout 0` is refused, never silently replaced by the default);
`conquian-ref completion bash|zsh` prints scripts that know every command and option.
"""

from __future__ import annotations

import argparse
import json

import pytest

from conquian_ref.cli import COMMANDS, build_parser, main
from conquian_ref.tools.options import STDOUT, VOCABULARY, existing_folder, positive_seconds


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _option(parser: argparse.ArgumentParser, flag: str) -> argparse.Action | None:
    return next((a for a in parser._actions if flag in a.option_strings), None)


def test_json_means_file_or_stdout_in_every_command():
    with_json = {name: _option(p, "--json") for name, p in _commands().items() if _option(p, "--json")}
    assert {"check", "coverage", "simulate", "bench", "mutants"} <= set(with_json)
    for name, action in with_json.items():
        assert (action.nargs, action.const, action.dest) == ("?", STDOUT, "json_path"), name


def test_corpus_is_named_corpus_and_is_one_folder_everywhere():
    commands = _commands()
    for name, parser in commands.items():
        action = _option(parser, "--corpus")
        if action is not None:
            assert action.type is existing_folder, name
        positional = [a.dest for a in parser._actions if not a.option_strings and a.dest != "help"]
        assert "corpus" not in positional, name
    assert {n for n, p in commands.items() if _option(p, "--corpus")} >= {"check", "coverage", "book", "mutants", "lint", "fmt"}


def test_timeouts_are_validated_everywhere():
    for name, parser in _commands().items():
        action = _option(parser, "--timeout")
        if action is not None:
            assert action.type is positive_seconds, name
    for bad in ("0", "-1", "nan", "inf", "soon"):
        with pytest.raises(argparse.ArgumentTypeError):
            positive_seconds(bad)
    assert positive_seconds("0.5") == 0.5


@pytest.mark.parametrize("value", ["0", "-1"])
def test_timeout_zero_or_negative_is_one_line_error(capsys, value):
    status = main(["check", "--timeout", value])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "greater than 0" in err


def test_json_to_a_file_keeps_the_text_and_dash_prints_json_only(capsys, tmp_path):
    target = tmp_path / "summary.json"
    assert main(["simulate", "--games", "2", "--json", str(target)]) == 0
    text = capsys.readouterr().out
    assert "games" in text and not text.lstrip().startswith("{")
    assert json.loads(target.read_text())["games"] == 2
    assert main(["simulate", "--games", "2", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_a_missing_corpus_folder_is_one_line_error(capsys, tmp_path):
    status = main(["coverage", "--corpus", str(tmp_path / "nowhere")])
    out, err = capsys.readouterr()
    assert status == 2 and "no such folder" in err and err.count("\n") == 1


def test_help_states_the_vocabulary(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    out = capsys.readouterr().out
    for option, meaning in VOCABULARY:
        assert option in out and meaning in out


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_knows_every_command_and_option(capsys, shell):
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    for name in COMMANDS:
        assert name in script
    for flag in ("--corpus", "--known-failures", "--json", "--profile"):
        assert flag in script
