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
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from conquian_ref import cli
from conquian_ref.engine.actions import parse_action
from conquian_ref.conformance.check import run_check
from conquian_ref.engine.errors import ConquianError, IllegalAction
from conquian_ref.tools.fuzz import configure, parse_shard, read_known, run_fuzz, shard_games
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
    # every step checked, over a pipe (batches larger than a pipe holds)
    full = run_fuzz(impl=impl, profile="anglo-american-v1", games=2, seed=12, out=tmp_path, every_step=True, echo=quiet([]))
    assert full.divergence is None and full.games == 2 and full.actions > 50


# -- a wrong implementation ----------------------------------------------------------------------------
def test_a_wrong_refusal_is_found_shrunk_and_written_as_a_scenario(tmp_path, mutants):
    out = tmp_path / "out"
    lines: list[str] = []
    run = run_fuzz(impl=LATE_PASS, profile="anglo-american-v1", games=30, seed=1, out=out, shrink_seconds=30, echo=lines.append)
    assert run.exit_status == 1
    assert run.divergence.kind == "result" and run.divergence.action == {"type": "pass"}
    path = run.scenario
    assert path == out / "aa-9900.yaml" and path.is_file()
    assert lines[-1] == (
        f"fuzz: {run.games} game{'s' * (run.games != 1)}, {run.actions} actions, 1 divergence: 1 new cause (draft: {path}), "
        "0 known (0 known causes)"
    )
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
    # The legal actions are asked at every step only with --every-step (the default compares the
    # answers and the state at the end): without it this adapter's `legal` is never asked.
    kept = run_fuzz(impl=LEGAL_ERROR, profile="torno-cisneros-v1", games=3, seed=3, out=tmp_path, shrink_seconds=0, echo=quiet([]))
    assert kept.exit_status == 0
    run = run_fuzz(impl=LEGAL_ERROR, profile="torno-cisneros-v1", games=10, seed=3, out=tmp_path, shrink_seconds=30,
                   every_step=True, echo=quiet([]))
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


# -- causes, known failures, shards, speed ---------------------------------------------------------------
RENAMED = "python:fuzz_mutants:RenamedRefusals"
RENAMED_DISCARD = "python:fuzz_mutants:RenamedDiscardRefusal"
AA = "anglo-american-v1"


def _renamed_codes():
    sys.path.insert(0, str(MUTANTS))
    try:
        import fuzz_mutants
    finally:
        sys.path.remove(str(MUTANTS))
    return fuzz_mutants.RENAMED_REFUSALS


@pytest.fixture(scope="module")
def two_causes(tmp_path_factory):
    """One run with --causes 2 against the adapter with two house rules (drafts unshrunk: the
    shrink, which keeps the cause, is tested above)."""
    out = tmp_path_factory.mktemp("two-causes")
    sys.path.insert(0, str(MUTANTS))
    try:
        lines: list[str] = []
        run = run_fuzz(impl=RENAMED, profile=AA, games=60, seed=1, out=out, shrink_seconds=0, causes=2, echo=lines.append)
    finally:
        sys.path.remove(str(MUTANTS))
    return run, out, lines


def test_fuzz_causes_2_finds_both_house_rules_and_writes_two_drafts(two_causes, mutants):
    from conquian_ref.engine.refusals import BY_CODE

    run, out, lines = two_causes
    renamed = _renamed_codes()
    assert run.exit_status == 1 and len(run.found) == 2
    # Each house rule renames the refusal code of one action type: the first diverging step is
    # that action, and the answer differs in its `reason` only.
    by_action = {f.divergence.action["type"]: f for f in run.found}
    assert set(by_action) == {"discard", "decline"}
    for code, action in (("no_discard_now", "discard"), ("nothing_to_decline", "decline")):
        found = by_action[action]
        assert found.cause.signature == f"{action}: reason"
        assert found.divergence.expected == {"refused": code} and found.divergence.got == {"refused": renamed[code]}
        # The cause names the rule of the refusal row that refused it (reasons.md), one rule.
        assert found.cause.rule == BY_CODE[code].rules[0]
        assert str(found.cause) == f"{found.cause.rule}: unexplained ({action}: reason)"
        assert any(line == f"fuzz: cause {run.found.index(found) + 1}: {found.cause}" for line in lines)
    # Two drafts, one per cause, each lint-clean, passing on the reference, failing on the mutant.
    drafts = sorted(out.glob("*.yaml"))
    assert drafts == sorted(f.scenario for f in run.found) and len(drafts) == 2
    assert lint(drafts) == (2, [])
    assert run_check(impl="reference", corpus=out).ok
    assert [r.status for r in run_check(impl=RENAMED, corpus=out).results] == ["failed", "failed"]
    # The house rules are independent: with the discard one alone, only the discard draft fails.
    alone = {r.scenario.id: r.status for r in run_check(impl=RENAMED_DISCARD, corpus=out).results}
    assert alone == {by_action["discard"].scenario.stem: "failed", by_action["decline"].scenario.stem: "passed"}
    # Every divergence is counted under its cause; the run stopped at the second new cause.
    assert sum(run.counts.values()) == run.divergences >= 2 and set(run.counts) == {f.cause for f in run.found}


def test_fuzz_a_known_cause_is_counted_and_only_the_other_is_found(two_causes, tmp_path, mutants):
    run, _, _ = two_causes
    discard = next(f.cause for f in run.found if f.divergence.action["type"] == "discard")
    known_file = tmp_path / "known.yaml"
    # The cause as the run printed it, in a known-failures file (one `cause:` entry).
    known_file.write_text(f'- cause: "{discard}"\n  reason: "house rule: our own refusal codes"\n', encoding="utf-8")
    lines: list[str] = []
    out = tmp_path / "out"
    again = run_fuzz(impl=RENAMED, profile=AA, games=15, seed=1, out=out, shrink_seconds=0, causes=2,
                     known=read_known([known_file]), echo=lines.append)
    assert [f.divergence.action["type"] for f in again.found] == ["decline"]
    assert again.known == {discard: "house rule: our own refusal codes"} and again.counts[discard] >= 1
    assert len(list(out.glob("*.yaml"))) == 1 and again.exit_status == 1
    assert any(line.startswith("fuzz: ") and f"x {discard} (known: house rule: our own refusal codes)" in line for line in lines)
    assert f"{again.counts[discard]} known (1 known cause)" in lines[-1]
    # All known (the cause, or a rule it names): nothing new, exit status 0.
    both = tmp_path / "both.yaml"
    decline = next(f.cause for f in run.found if f.divergence.action["type"] == "decline")
    both.write_text(f'- cause: "{discard}"\n  reason: "codes"\n- rule: {decline.rule}\n  reason: "codes"\n', encoding="utf-8")
    quiet_run = run_fuzz(impl=RENAMED, profile=AA, games=10, seed=1, out=tmp_path / "none", shrink_seconds=0, causes=2,
                         known=read_known([both]), echo=quiet([]))
    assert quiet_run.found == [] and quiet_run.exit_status == 0 and quiet_run.divergences > 0
    assert not (tmp_path / "none").exists()


def test_fuzz_known_failures_by_scenario_id_are_left_aside_and_bad_files_are_one_line(tmp_path, capsys):
    ids = tmp_path / "ids.yaml"
    ids.write_text('- id: aa-0001\n  reason: "a scenario"\n', encoding="utf-8")
    known = read_known([ids])
    assert len(known) == 0 and known.by_id == 1
    twice = tmp_path / "twice.yaml"
    twice.write_text('- cause: "pass: result []"\n  reason: "x y z"\n- cause: "pass: result []"\n  reason: "x y z"\n', encoding="utf-8")
    with pytest.raises(ConquianError, match="listed twice"):
        read_known([twice])
    bad = tmp_path / "bad.yaml"
    bad.write_text("- rule: not-a-rule\n  reason: xyz\n", encoding="utf-8")
    assert cli.main(["fuzz", "--games", "1", "--known-failures", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(bad) in err[0]


@given(first=st.integers(0, 50), games=st.integers(1, 60), n=st.integers(1, 7))
def test_fuzz_shards_partition_the_seed_range(first, games, n):
    shards = [list(shard_games(first, games, (k, n))) for k in range(1, n + 1)]
    flat = [g for shard in shards for g in shard]
    assert sorted(flat) == list(range(first, first + games))  # the union is the range, no game twice
    for k, shard in enumerate(shards, start=1):
        assert all(g % n == k - 1 for g in shard)


def test_fuzz_shards_play_the_same_games_as_one_run(mutants, tmp_path):
    def counts(shard):
        run = run_fuzz(impl=RENAMED, profile=AA, games=6, seed=4, out=tmp_path / "o", shrink_seconds=0, causes=99,
                       shard=shard, echo=quiet([]))
        return run.games, run.actions, run.counts

    whole = counts((1, 1))
    parts = [counts((k, 3)) for k in (1, 2, 3)]
    assert [p[0] for p in parts] == [2, 2, 2] and whole[0] == 6 and whole[2]
    assert sum(p[1] for p in parts) == whole[1]
    assert sum((p[2] for p in parts), Counter()) == whole[2]


@pytest.mark.parametrize("value", ["0/2", "3/2", "2", "a/b", "1/0", "-1/2"])
def test_fuzz_a_bad_shard_value_is_one_clear_line(value, capsys):
    assert cli.main(["fuzz", "--games", "1", f"--shard={value}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--shard" in err[0] and "K/N" in err[0]
    with pytest.raises(argparse.ArgumentTypeError):
        parse_shard(value)
    assert parse_shard("2/3") == (2, 3)


def test_fuzz_the_state_at_the_end_finds_the_same_first_divergence_as_every_step(mutants, tmp_path):
    # The default compares answers at every step and the state at the end, and plays a game that
    # differs again with every step checked: it must name the same first divergence.
    fast = run_fuzz(impl=LATE_PASS, profile=AA, games=3, seed=1, out=tmp_path / "a", shrink_seconds=0, echo=quiet([]))
    full = run_fuzz(impl=LATE_PASS, profile=AA, games=3, seed=1, out=tmp_path / "b", shrink_seconds=0, every_step=True, echo=quiet([]))
    assert fast.divergence == full.divergence and fast.divergence.kind == "result"
    assert fast.replays == 1 and full.replays == 0
