"""Malformed actions from a Python caller (the engine's Python API) are MalformedInput, never a
foreign exception or a hang: each action once seen to crash or hang the engine is pinned here,
and a property test throws arbitrary JSON values and arbitrary Action tuples at `Game.apply`.
Whatever is thrown, the state is left exactly as it was."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian_ref import PROFILE_IDS, Action, Game, IllegalAction, MalformedInput, load_profile
from conquian_ref.engine.errors import shown

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
ACTION_TYPES = st.sampled_from(["use", "discard", "exchange", "reject", "pass", "force", "decline", "bogus"])


def _deep(value: object, depth: int) -> object:
    for _ in range(depth):
        value = [value]
    return value


def _game(profile_id: str) -> Game:
    return Game.from_seed(load_profile(profile_id), seed=7, dealer=0)


def _refused_unchanged(game: Game, action: object) -> type:
    """Apply `action` for the seat to act; return the exception class raised (the state unchanged)."""
    before = json.dumps(game.state_json())
    with pytest.raises((MalformedInput, IllegalAction)) as caught:
        game.apply(game.to_act[0], action)
    assert json.dumps(game.state_json()) == before
    return caught.type


@pytest.mark.parametrize("action", [
    {"type": ["use"]},  # an unhashable type was a TypeError
    {"type": {"use": 1}},
    {"type": "discard", "card": _deep("AS", 5000)},  # a card nested 5,000 deep was a RecursionError
    {"type": "use", "cards": [_deep("AS", 5000)]},
    {"type": "use", "cards": ["x" * 1_000_000]},
    Action("bogus"),  # an unknown type in an Action was an AttributeError
    Action(True),
    Action("use", cards=True),
    Action("use", cards=1 << 200),
    Action("discard"),  # a discard without its card
    Action("reject", card=3),  # a card where the type has none
    Action("discard", card=-1),
], ids=shown)
def test_malformed_actions_are_malformed_input(action):
    assert _refused_unchanged(_game(PROFILE_IDS[0]), action) is MalformedInput


def test_a_negative_use_mask_returns_at_once():
    # `cards_of` never ended on a negative mask; run in a child so that a regression fails, not hangs.
    code = (
        "from conquian_ref import Action, Game, MalformedInput, PROFILE_IDS, load_profile\n"
        "g = Game.from_seed(load_profile(PROFILE_IDS[0]), seed=7, dealer=0)\n"
        "try:\n    g.apply(g.to_act[0], Action('use', cards=-1))\n"
        "except MalformedInput as e:\n    print(e.field)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.stdout.strip() == "action.cards"


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
@given(action=st.one_of(JSON, st.dictionaries(st.sampled_from(["type", "card", "cards", "x"]), JSON, max_size=3)))
def test_any_json_action_is_refused_or_malformed_never_a_crash(profile_id, action):
    game = _game(profile_id)
    before = json.dumps(game.state_json())
    try:
        game.apply(game.to_act[0], action)
    except (MalformedInput, IllegalAction):
        assert json.dumps(game.state_json()) == before
    # an accepted action is legal: nothing to check beyond "no other exception"


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
@given(kind=ACTION_TYPES, card=st.none() | st.integers(-5, 60) | st.booleans(), cards=st.integers(-(1 << 41), 1 << 41))
def test_any_action_tuple_is_refused_or_malformed_never_a_crash(profile_id, kind, card, cards):
    game = _game(profile_id)
    before = json.dumps(game.state_json())
    try:
        game.apply(game.to_act[0], Action(kind, card=card, cards=cards))
    except (MalformedInput, IllegalAction):
        assert json.dumps(game.state_json()) == before



@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_an_action_added_to_the_list_legal_returned_is_still_checked(profile_id):
    """apply() trusts only the very objects legal() listed (kept as its own copy): an action a
    caller appends to the list it got is checked in full, refused, and changes nothing."""
    game = Game.from_seed(load_profile(profile_id), 3)
    seat = game.to_act[0]
    listed = game.legal(seat)
    not_held = next(c for c in range(game.deck.size) if not game.hands[seat] >> c & 1)
    intruder = Action("exchange", card=not_held) if game.phase == "exchange" else Action("use", cards=1 << not_held)
    listed.append(intruder)
    before = game.state_json()
    with pytest.raises(IllegalAction) as refused:
        game.apply(seat, intruder)
    assert refused.value.reason == "card_not_in_hand"
    assert game.state_json() == before


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
@pytest.mark.parametrize("seat_of", [lambda s: bool(s), lambda s: float(s)], ids=["bool", "float"])
def test_bug_a_seat_equal_to_an_int_is_malformed_even_for_an_action_legal_listed(profile_id, seat_of):
    """`seat=True` (or 1.0) equals seat 1: apply() took the fast path for an action legal(1) had
    just listed, recorded `"seat": true` in the history, and a float raised TypeError midway.
    A seat is an int: anything else is MalformedInput, the state unchanged, on every path."""
    game = Game.from_seed(load_profile(profile_id), 3)
    seat = game.to_act[0]
    if seat not in (0, 1):
        pytest.skip("only seats 0 and 1 have a bool twin")
    listed = game.legal(seat)
    before = json.dumps(game.state_json())
    with pytest.raises(MalformedInput):
        game.apply(seat_of(seat), listed[0])
    with pytest.raises(MalformedInput):
        game.legal(seat_of(seat))
    assert json.dumps(game.state_json()) == before
    assert all(type(e.get("seat", 0)) is int for e in game.history)


@pytest.mark.parametrize("action, field, says", [
    ({"type": "pass", "card": "AS"}, "action.card", "a 'pass' action has no field 'card'"),
    ({"type": "discard"}, "action.card", "a 'discard' action needs a 'card'"),
    ({"type": "use", "card": "AS"}, "action.card", "a 'use' action has no field 'card'"),  # an unknown key is named first
    ({"type": "use", "cards": [], 1: 2}, "action.1", "has no field 1"),
])
def test_an_action_with_other_keys_than_its_type_has_is_malformed_at_the_key(action, field, says):
    from conquian_ref.engine.actions import parse_action

    with pytest.raises(MalformedInput) as caught:
        parse_action(_game(PROFILE_IDS[0]).deck, action)
    assert caught.value.field == field and says in str(caught.value)
