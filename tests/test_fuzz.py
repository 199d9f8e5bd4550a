"""`conquian-ref fuzz` (conquian_ref/tools/fuzz/): differential fuzzing against the reference engine.

* The reference against itself (in-process, and as a subprocess over the protocol) never diverges.
* Against deliberately wrong adapters (tests/fuzz_adapters/fuzz_mutants.py, loaded in direct
  mode as python:fuzz_mutants:<Class>) the fuzzer finds the divergence, shrinks it with
  Hypothesis, and writes a scenario that validates and lints clean, passes against the reference
  and fails against the mutant; the shrunk game is small.
* The command line: options, the printed seed and reproduction command, exit statuses.
"""

from __future__ import annotations

import argparse
import random
import re
import shlex
import sys
from pathlib import Path

import pytest
import yaml

from conquian_ref import cli
from conquian_ref.engine.actions import parse_action
from conquian_ref.conformance.check import run_check
from conquian_ref.engine.errors import ConquianError, IllegalAction
from conquian_ref.tools.fuzz import configure, run_fuzz
from conquian_ref.tools.fuzz.agent import decode, illegal_candidates
from conquian_ref.engine.game import Game
from conquian_ref.tools.lint import lint
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile
from conquian_ref.spec.rulebook import rules_for

REPO = Path(__file__).resolve().parents[1]
MUTANTS = REPO / "tests" / "fuzz_adapters"
LATE_PASS = "python:fuzz_mutants:LatePassRefused"
LEGAL_ERROR = "python:fuzz_mutants:LegalErrorLate"


@pytest.fixture
def mutants(monkeypatch):
    monkeypatch.syspath_prepend(str(MUTANTS))


def quiet(lines: list[str]):
    return lines.append


def action_steps(path: Path) -> int:
    return sum("action" in step for step in yaml.safe_load(path.read_text())["steps"])


# -- no divergence -----------------------------------------------------------------------------------
def test_the_reference_does_not_diverge_from_itself_in_process(tmp_path):
    run = run_fuzz(impl="reference", games=10, seed=11, out=tmp_path, echo=quiet([]))
    assert run.divergence is None and run.exit_status == 0
    assert run.games == 10 * len(PROFILE_IDS) and run.actions > 1000
    assert run.summary_line() == f"fuzz: {run.games} games, {run.actions} actions, 0 divergences"
    assert not list(tmp_path.iterdir())


def test_the_reference_does_not_diverge_from_itself_as_a_subprocess(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    impl = f"{shlex.quote(sys.executable)} -m conquian_ref.conformance.adapter"
    run = run_fuzz(impl=impl, games=4, seed=12, out=tmp_path, echo=quiet([]))
    assert run.divergence is None and run.games == 4 * len(PROFILE_IDS)


# -- a wrong implementation ----------------------------------------------------------------------------
def test_a_wrong_refusal_is_found_shrunk_and_written_as_a_scenario(tmp_path, mutants):
    out = tmp_path / "out"
    lines: list[str] = []
    run = run_fuzz(impl=LATE_PASS, profile="anglo-american-v1", games=30, seed=1, out=out, shrink_seconds=30, echo=lines.append)
    assert run.exit_status == 1
    assert run.divergence.kind == "result" and run.divergence.action == {"type": "pass"}
    path = run.scenario
    assert path == out / "aa-9900.yaml" and path.is_file()
    assert lines[-1] == f"fuzz: {run.games} game{'s' * (run.games != 1)}, {run.actions} actions, 1 divergence: scenario written to {path}"
    assert any(line.startswith("fuzz: reproduce: conquian-ref fuzz --impl python:fuzz_mutants:LatePassRefused") for line in lines)
    assert "seed 1" in lines[0]

    # (i) schema-valid and lint-clean, with the draft's markings
    assert lint([path]) == (1, [])
    data = yaml.safe_load(path.read_text())
    assert data["title"].startswith("Fuzz: ") and data["tags"] == ["fuzz", "needs-review"]
    assert data["annotation"].startswith("NEEDS REVIEW: recorded from the reference engine by conquian-ref fuzz (seed 1, game")
    assert "cannot_pass_rival_card" in data["annotation"]
    assert "deck" in data["setup"] and len(data["setup"]["deck"]) == 40
    assert data["rules"] and all(r in rules_for("anglo-american-v1") for r in data["rules"])
    assert "C-TURN-5" in data["rules"]  # the reference passes under C-TURN-5
    last = data["steps"][-1]
    assert last["action"] == {"type": "pass"} and "expect" not in last and "state" in last["check"]
    assert "legal" in data["steps"][-2]["check"]
    # (ii) passes against the reference, (iii) fails against the mutant, at the pass
    assert run_check(impl="reference", corpus=out).ok
    mutant = run_check(impl=LATE_PASS, corpus=out)
    assert [r.status for r in mutant.results] == ["failed"]
    assert mutant.results[0].failure.field == "expect"
    # shrunk: the stock must fall below 15 cards (5 rejects, each after a pass), then one pass
    assert action_steps(path) <= 15
    assert run.shrunk.divergence.actions_before + 1 == action_steps(path)

    # The printed reproduction replays game g alone and finds the same divergence; a second
    # draft gets the next free id.
    again = run_fuzz(impl=LATE_PASS, profile="anglo-american-v1", games=1, seed=1, first_game=run.game, out=out, shrink_seconds=0, echo=quiet([]))
    assert again.games == 1 and again.game == run.game
    assert again.divergence == run.divergence
    assert again.scenario == out / "aa-9901.yaml"
    assert lint([out]) == (2, [])


def test_an_adapter_failure_is_a_divergence_and_is_shrunk_too(tmp_path, mutants):
    run = run_fuzz(impl=LEGAL_ERROR, profile="torno-cisneros-v1", games=10, seed=3, out=tmp_path, shrink_seconds=30, echo=quiet([]))
    assert run.exit_status == 1 and run.divergence.kind == "adapter" and run.divergence.path == "error"
    path = run.scenario
    assert lint([path]) == (1, [])
    assert run_check(impl="reference", corpus=tmp_path).ok
    assert [r.status for r in run_check(impl=LEGAL_ERROR, corpus=tmp_path).results] == ["errored"]
    # three cards out of play: the exchange (2 actions), then 3 x (pass, reject)
    assert action_steps(path) <= 10


# -- the pieces ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_every_candidate_action_is_well_formed_and_illegal_ones_are_mostly_refused(profile_id):
    profile = load_profile(profile_id)
    rng = random.Random(5)
    refused = tried = 0
    for g in range(5):
        game = Game.from_seed(profile, g, dealer=g % 2)
        while not game.is_over:
            for seat, action in illegal_candidates(game):
                parse_action(profile.deck, action)  # never malformed input
                trial = game.clone()
                tried += 1
                try:
                    trial.apply(seat, action)
                except IllegalAction:
                    refused += 1
            seat, action = decode(game, rng.randint(0, 2**16 - 1))
            try:
                game.apply(seat, action)
            except IllegalAction:
                pass
    assert refused / tried > 0.9


def test_the_command_line(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    runner = configure(parser)
    args = parser.parse_args(["--games", "2", "--seed", "5", "--out", str(tmp_path)])
    assert (args.impl, args.profile, args.game, args.shrink_time) == ("reference", "all", 0, 60.0)
    assert runner(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert "seed 5" in out[0]
    assert re.fullmatch(rf"fuzz: {2 * len(PROFILE_IDS)} games, \d+ actions, 0 divergences", out[-1])


def test_a_failed_handshake_is_one_line_and_exit_status_2(capsys):
    with pytest.raises(ConquianError, match="failed the handshake"):
        run_fuzz(impl="python:no_such_fuzz_module:Adapter", games=1, echo=quiet([]))
    # Through the command line.
    assert cli.main(["fuzz", "--impl", "python:no_such_fuzz_module:Adapter", "--games", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("conquian-ref: error: the implementation python:no_such_fuzz_module:Adapter failed the handshake")
