"""The rules as tables: the phases (conquian_ref.engine.phases), the refusals in their order of
precedence (conquian_ref.engine.refusals) and the endings (conquian_ref.engine.outcome.How),
each checked against the document it implements and against one another.
"""

from __future__ import annotations

import random
import re

import pytest

import conquian_ref
from conquian_ref.engine.actions import FIELDS, Action
from conquian_ref.engine.outcome import HOW, How
from conquian_ref.engine.phases import PHASES, Phase
from conquian_ref.engine.refusals import REASONS, REFUSALS
from conquian_ref.spec.profiles import PROFILE_IDS
from conquian_ref.spec.rulebook import load_rules, rules_dir

from conquian_ref.engine.game import Game

from helpers import AA, ALL_PROFILES, TC

REASONS_MD = (rules_dir() / "reasons.md").read_text(encoding="utf-8")


# -- reasons.md against the refusal table ------------------------------------------------------------
def documented_rows() -> list[tuple[str, list[str]]]:
    """(code, rules) of each row of the table in reasons.md, in the document's order."""
    rows = re.findall(r"^\| `([a-z_]+)` \|.*\| ([A-Z0-9, -]+) \|$", REASONS_MD, flags=re.M)
    return [(code, [r.strip() for r in rules.split(",")]) for code, rules in rows]


def documented_precedence() -> list[str]:
    section = REASONS_MD[REASONS_MD.index("## Precedence") : REASONS_MD.index("\nSo ")]
    return re.findall(r"`([a-z_]+)`", section)


def test_the_documented_table_lists_the_refusal_rows_in_order_with_their_rules():
    assert documented_rows() == [(row.code, list(row.rules)) for row in REFUSALS]


def test_the_documented_precedence_is_the_order_of_the_refusal_table():
    assert documented_precedence() == [row.code for row in REFUSALS]


def test_every_rule_behind_a_refusal_is_defined():
    known = load_rules()
    for row in REFUSALS:
        assert row.rules and all(rid in known for rid in row.rules), row.code


def test_reasons_is_the_refusal_table():
    assert list(REASONS) == [row.code for row in REFUSALS]
    assert conquian_ref.REASONS is REASONS  # the public face hands on the same table


def test_each_condition_is_a_small_named_function():
    for row in REFUSALS:
        if row.condition is not None:
            assert row.condition.__name__.isidentifier() and row.condition.__name__ != "<lambda>", row.code


# -- the phase table drives the phase refusals, to_act and legal() ----------------------------------
@pytest.mark.parametrize("phase", [p for p in Phase if p != Phase.OVER])
def test_a_phase_refuses_exactly_the_action_types_it_does_not_admit(phase):
    for kind in FIELDS:
        rows = [row for row in REFUSALS if row.phase == phase and row.types is not None and kind in row.types]
        phase_rows = [row for row in rows if row.code in PHASE_CODES]
        if kind in PHASES[phase].admits:
            assert not phase_rows, f"{phase} admits {kind} yet {phase_rows[0].code} refuses it"
        else:
            assert phase_rows, f"{phase} admits no {kind}, and no phase code refuses it"


PHASE_CODES = ("must_exchange", "must_discard", "must_decide_force", "no_discard_now", "nothing_to_decline", "exchange_over", "not_in_profile")


def test_the_phases_admit_types_in_name_order_so_legal_lists_are_sorted():
    for rule in PHASES.values():
        assert list(rule.admits) == sorted(rule.admits)
        assert set(rule.admits) <= set(FIELDS)


def test_a_phase_is_a_string_for_the_json_and_for_comparisons():
    game = Game.from_seed(TC, 1)
    assert game.phase == "exchange" and game.phase is Phase.EXCHANGE
    assert game.state_json()["phase"] == "exchange" and type(game.state_json()["phase"]) is str
    assert game.observation(0)["phase"] == "exchange"


@pytest.mark.parametrize("profile", ALL_PROFILES, ids=lambda p: p.id)
def test_legal_lists_only_the_types_the_phase_admits_and_only_for_the_seats_that_act(profile):
    game = Game.from_seed(profile, 7)
    for _ in range(60):
        if game.is_over:
            break
        assert game.to_act == PHASES[game.phase].seats(game)
        for seat in (0, 1):
            actions = game.legal(seat)
            if seat not in game.to_act:
                assert actions == []
            assert {a.type for a in actions} <= set(PHASES[game.phase].admits)
        seat = game.to_act[0]
        game.apply(seat, game.legal(seat)[-1])


# -- the endings -------------------------------------------------------------------------------------
def test_each_ending_names_its_rule():
    assert {how.value: how.rule for how in How} == HOW
    assert How("forced_to_target").rule == "RUL-6" and How.TARGET_REACHED.rule == "C-END-1"
    assert How.STOCK_EXHAUSTED == "stock_exhausted"
    for how in How:
        assert how.rule in load_rules()


def test_an_outcome_writes_its_ending_as_a_plain_string():
    from conquian_ref.engine.outcome import Outcome

    data = Outcome(How.FORCED_TO_TARGET, 0).to_json()
    assert data == {"result": "win", "winner": 0, "how": "forced_to_target"} and type(data["how"]) is str


def test_a_refused_action_names_the_first_applicable_row():
    game = Game.from_seed(TC, 1)  # the exchange: a discard of a card not held breaks must_exchange and card_not_in_hand
    held = game.hands[0]
    missing = next(c for c in range(game.deck.size) if not held >> c & 1)
    assert game.refusal(0, Action("discard", card=missing))[0] == "must_exchange"


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_legality_has_one_source_every_listed_action_passes_every_refusal_row(profile_id):
    """The legal list is the phase's candidates that no refusal row refuses. A listing skips a
    few rows its candidates never break (refusals.HELD_BY_THE_CANDIDATES); asked in full, the
    refusal table must refuse no listed action and every candidate left out."""
    from conquian_ref.engine.game import Game
    from conquian_ref.spec.profiles import load_profile

    profile = load_profile(profile_id)
    for seed in range(12):
        game = Game.from_seed(profile, seed, dealer=seed % len(profile.seats))
        game.trace = False
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            listed = game.legal(seat)
            candidates = game.ruleset.phases[game.phase].candidates(game, seat)
            assert all(game.refusal(seat, act) is None for act in listed), (seed, game.phase)
            assert all(game.refusal(seat, act) is not None for act in candidates if act not in listed)
            game.apply(seat, listed[rng.randrange(len(listed))])
