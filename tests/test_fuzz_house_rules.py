"""Fuzz names the house rule, as check does, and sees past every divergence (issue 21, items 2, 3 and 6).

* A diverging game is diagnosed as a scenario: its cause is the house rule of the library that
  plays as the engine does, with that house rule's own rule (tools/fuzz/diagnose.py).
* With `setup_position`, the game goes on past each divergence, so a house rule met first never
  hides a second one in the same games (the later cause is drafted unshrunk, with a note).
* Where two house rules explain a divergence equally well, the run settles on the fewest that
  explain all its divergences, as check does (tools/fuzz/naming.py).
* A `house_rule:` known-failures entry is played by the reference itself: the rest is checked
  exactly; a name the library lacks is a usage error, in fuzz and in check.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from conquian_ref import cli
from conquian_ref.engine.errors import ConquianError
from conquian_ref.tools.fuzz import read_known, run_fuzz
from conquian_ref.tools.mutants import MUTANTS, house_rules

ROOT = Path(__file__).resolve().parents[1]
AA = "anglo-american-v1"
NODE_ENGINE = f"node {ROOT / 'examples' / 'javascript' / 'conquian-adapter.js'} --house "
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")


def fuzz(impl: str, out: Path, games: int = 30, known=None):
    lines: list[str] = []
    run = run_fuzz(impl=impl, profile=AA, games=games, seed=1, out=out, shrink_seconds=0, causes=9, echo=lines.append,
                   hypotheses=house_rules(), known=known)
    return run, lines


def named(run) -> dict[str, str]:
    """{house rule: its cause's rule} over every cause the run counted (new and known)."""
    assert all(cause.explained for cause in run.counts), f"unexplained: {sorted(map(str, run.counts))}"
    return {cause.house_rule: cause.rule for cause in run.counts}


def test_fuzz_names_the_automatic_take_by_its_house_rule_and_rule(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "adapters"))
    run, lines = fuzz("python:auto_take:Adapter", tmp_path)
    house_rule = MUTANTS["automatic-take"]
    assert set(named(run)) == {"automatic-take"}
    assert run.found[0].cause.rule in (house_rule.variant.rule, *house_rule.rules)  # the house rule's own rule
    # One cause, every divergence of every game counted under it (more divergences than games:
    # each game is followed past its first).
    assert len(run.found) == 1 and run.divergences > run.games // 2
    assert any(line == f"fuzz: cause 1: {run.found[0].cause}" for line in lines)


@needs_node
def test_fuzz_sees_past_the_first_divergence_and_settles_on_the_fewest_house_rules(tmp_path):
    # The discard offered back shows at the first discard of nearly every game; the 7-J gap only
    # later, so it is found past the first divergence. Ranks sorted as text explain some of the
    # gap's divergences as well: the run settles on the two house rules the engine plays.
    run, lines = fuzz(NODE_ENGINE + "seven-jack-gap,offer-back", tmp_path, games=20)
    assert set(named(run)) == {"discard-offered-back", "seven-ten-gap"}
    assert {f.cause.house_rule for f in run.found} == {"discard-offered-back", "seven-ten-gap"}
    gap = next(f for f in run.found if f.cause.house_rule == "seven-ten-gap")
    offer = next(f for f in run.found if f.cause.house_rule == "discard-offered-back")
    assert offer.divergence.actions_before < 6  # the first discard
    assert run.counts[offer.cause] > run.games  # followed past the first divergence, game after game
    if gap.later:
        assert gap.shrunk.note.startswith("not shrunk: seen past the game's first divergence")
    assert all(f.scenario is not None and f.scenario.exists() and not f.problems for f in run.found)


@needs_node
def test_fuzz_plays_a_known_house_rule_on_the_reference_and_checks_the_rest_exactly(tmp_path):
    engine = NODE_ENGINE + "no-forcing,offer-back"
    alone, _ = fuzz(engine, tmp_path / "plain", games=20)
    assert set(named(alone)) == {"no-forcing", "discard-offered-back"}
    known_file = tmp_path / "known.yaml"
    known_file.write_text('- house_rule: no-forcing\n  reason: "we never force"\n', encoding="utf-8")
    run, lines = fuzz(engine, tmp_path / "known", games=10, known=read_known([known_file]))
    assert "fuzz: the reference plays the known house rule(s) no-forcing" in lines
    # No divergence of the forcing at all (the reference does not force either), the other house
    # rule still found, the reference playing no-forcing in every replay of the hypotheses too.
    assert named(run) == {"discard-offered-back": "C-TURN-3"} and run.found
    # With both listed, the engine is the reference: not one divergence.
    both = tmp_path / "both.yaml"
    both.write_text('- house_rule: no-forcing\n  reason: "we never force"\n- house_rule: discard-offered-back\n  reason: "our discards come back"\n', encoding="utf-8")
    quiet, _ = fuzz(engine, tmp_path / "both", games=10, known=read_known([both]))
    assert quiet.divergences == 0 and quiet.exit_status == 0 and quiet.games == 10


@pytest.mark.parametrize("command", [["fuzz", "--games", "1"], ["check", "-k", "aa-0001"]])
def test_a_known_house_rule_the_library_lacks_is_a_usage_error_naming_the_nearest(command, tmp_path, capsys):
    typo = tmp_path / "known.yaml"
    typo.write_text('- house_rule: no-forcin\n  reason: "we never force"\n', encoding="utf-8")
    with pytest.raises(ConquianError, match=r"known.yaml:1: house_rule: no house rule 'no-forcin' in the library; did you mean 'no-forcing'\?"):
        read_known([typo])
    assert cli.main([*command, "--known-failures", str(typo)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "did you mean 'no-forcing'" in err[0]
