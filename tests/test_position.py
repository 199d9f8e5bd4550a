"""A deal taken up at a mid-deal position (conquian_ref.engine.position, the protocol's
`setup_position`): the round trip on every profile, and every impossible or malformed position
refused as MalformedInput naming the field, never played and never a crash.

The round trip: random games of every profile (seeded deals, a seeded random policy) are cut at
a random point; `Game.from_position(game.position())` then gives the same state, observations and
legal lists as the original, and stays the same through the rest of the game played on both.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian_ref.engine.errors import ConquianError, MalformedInput
from conquian_ref.engine.game import Game
from conquian_ref.engine.position import POSITION_KEYS, STATE_KEYS

from helpers import AA, BY_ID, TC, choose, played

GAMES = st.tuples(st.sampled_from(sorted(BY_ID)), st.integers(0, 2**32 - 1), st.integers(0, 3))


def same_deal(a: Game, b: Game) -> None:
    assert a.state_json() == b.state_json()
    for seat in a.profile.seats:
        assert a.observation(seat) == b.observation(seat)
        assert a.legal_actions(seat) == b.legal_actions(seat)


def over_json(position: dict) -> dict:
    """The position as it travels in a protocol message."""
    return json.loads(json.dumps(position))


@settings(max_examples=settings().max_examples * 4)
@given(GAMES)
def test_a_position_taken_up_plays_on_exactly_as_the_original(game_args):
    profile_id, seed, dealer = game_args
    game, rng = played(BY_ID[profile_id], seed, dealer)
    taken_up = Game.from_position(game.profile, over_json(game.position()))
    same_deal(game, taken_up)
    while not game.is_over:
        seat = rng.choice(game.to_act)
        action = choose(rng, game.legal_actions(seat))
        game.apply(seat, action)
        taken_up.apply(seat, action)
        same_deal(game, taken_up)
    assert taken_up.position() == game.position()


@pytest.mark.parametrize("profile_id", sorted(BY_ID))
def test_every_phase_of_every_profile_round_trips(profile_id):
    # a fixed batch, whatever the Hypothesis draw: every position of a few whole games, the
    # exchange (one pick made), a discard, a force decision and the end among them
    profile, phases = BY_ID[profile_id], set()
    for seed in range(4):
        game, rng = played(profile, seed, seed, steps=0)
        while True:
            phases.add(str(game.phase))
            same_deal(game, Game.from_position(profile, over_json(game.position())))
            if game.is_over:
                break
            seat = rng.choice(game.to_act)
            game.apply(seat, choose(rng, game.legal_actions(seat)))
    assert {"play", "discard", "over"} <= phases


def test_tc_xch_1_a_position_with_one_exchange_pick_made_keeps_it_hidden_and_pending():
    game = Game.from_seed(TC, 7)
    game.apply(1, game.legal_actions(1)[0])
    taken_up = Game.from_position(TC, over_json(game.position()))
    same_deal(game, taken_up)
    assert taken_up.state_json()["exchange"]["picks"][0] is None and taken_up.to_act == (0,)


def test_rul_20_the_opening_card_flag_is_restored():
    # the opening card passed on is still the opening card: rejecting it reveals the next card
    # for the non-dealer under the two offers of the starter (RUL-20), so the flag matters
    for profile in BY_ID.values():
        game = Game.from_seed(profile, 3)
        if profile.exchange_cards:
            continue
        seat = game.to_act[0]
        if {"type": "pass"} not in game.legal_actions(seat):
            continue
        game.apply(seat, {"type": "pass"})
        position = game.position()
        assert position["opening_card"] is game.opening_card
        same_deal(game, Game.from_position(profile, position))


@pytest.mark.parametrize("profile_id", ["torno-cisneros-v1", "anglo-american-v1", "spielanleitung-partnership-v1",
                                        "spielanleitung-two-decks-v1"])
def test_house_rules_play_on_from_the_reference_position(profile_id):
    # every mutant (a house rule of the reference) takes up the reference's position, shows it
    # as it is, and plays on by its own rules with nothing but the engine's own errors
    from conquian_ref.tools.mutants import MUTANTS

    profile = BY_ID[profile_id]
    game, _ = played(profile, 11, 0, steps=9)
    position = over_json(game.position())
    for mutant in MUTANTS.values():
        if mutant.variant is None:
            continue
        if mutant.id == "pair-is-a-set" and profile.deck.copies == 2:
            continue  # its two-copies solver recurses without end from any deal (on main too): not a position's doing
        try:
            taken_up = Game.from_position(profile, position, variants=(mutant.variant,))
        except MalformedInput as exc:  # only a house rule that changes the deck is refused
            assert exc.field == "position" and "deck" in exc.message
            continue
        assert taken_up.ruleset.variants == (mutant.variant,)
        if taken_up.deck == game.deck:  # (a house rule that renames the cards shows other names)
            assert taken_up.state_json()["hands"] == game.state_json()["hands"]
        rng = random.Random(mutant.id)
        for _ in range(40):  # played on by the house rule: the engine's own errors at most
            if taken_up.is_over or not taken_up.to_act:
                break
            seat = rng.choice(taken_up.to_act)
            legal = taken_up.legal_actions(seat)
            if not legal:
                break
            try:
                taken_up.apply(seat, rng.choice(legal))
            except ConquianError:
                break


# -- refused positions ------------------------------------------------------------------------------
def position_after(profile, seed: int, steps: int) -> dict:
    game, _ = played(profile, seed, 0, steps)
    return over_json(game.position())


def refused_at(profile, position) -> MalformedInput:
    with pytest.raises(MalformedInput) as caught:
        Game.from_position(profile, position)
    return caught.value


def aa_position(steps: int = 6) -> dict:
    return position_after(AA, 5, steps)


def test_a_position_that_is_not_an_object_or_lacks_a_key_names_the_key():
    assert refused_at(AA, []).field == "position"
    for key in POSITION_KEYS:
        position = aa_position()
        del position[key]
        assert refused_at(AA, position).field == f"position.{key}"
    for key in STATE_KEYS:
        position = aa_position()
        del position["state"][key]
        assert refused_at(AA, position).field == f"position.state.{key}"
    position = aa_position()
    position["state"]["extra"] = 1
    assert refused_at(AA, position).field == "position.state.extra"


def test_a_position_of_another_profile_is_refused():
    assert refused_at(TC, aa_position()).field == "position.state.profile"


def test_c_deck_2_a_card_twice_or_missing_is_named_at_its_place():
    position = aa_position()
    state = position["state"]
    state["stock"][0] = state["hands"][0][0]
    assert refused_at(AA, position).field == "position.state.stock[0]"
    position = aa_position()
    position["state"]["stock"].pop()
    error = refused_at(AA, position)
    assert error.field == "position.state" and "missing" in error.message


def test_rul_1_a_hand_of_the_wrong_size_is_refused():
    # a card moved from a hand to the stock: every card once, but no deal of the profile
    position = aa_position()
    state = position["state"]
    state["stock"].append(state["hands"][0].pop())
    assert refused_at(AA, position).field == "position.state.hands[0]"


def test_c_arr_1_exposed_cards_that_no_play_reached_are_refused():
    # a hand card and an exposed card swapped: the history no longer leads there
    for steps in range(2, 30):
        position = position_after(AA, 5, steps)
        state = position["state"]
        seat = next((s for s in (0, 1) if state["exposed"][s] and state["hands"][s]), None)
        if seat is not None:
            break
    state["exposed"][seat][0], state["hands"][seat][0] = state["hands"][seat][0], state["exposed"][seat][0]
    assert refused_at(AA, position).field.startswith(("position.history", "position.state"))


@pytest.mark.parametrize("key, value", [
    ("phase", "discard"), ("to_act", [0, 1]), ("dealer", 1), ("pending", "pass"), ("outcome", {"result": "draw"}),
    ("exchange", {"picks": [None, None]}), ("available", None), ("hands", 5), ("dealer", True), ("to_act", [True]),
])
def test_a_state_key_the_history_does_not_lead_to_is_named(key, value):
    position = aa_position()
    if position["state"][key] == value:
        pytest.skip("the position already holds it")
    position["state"][key] = value
    assert refused_at(AA, position).field.startswith(("position.state", "position.history"))


def test_the_opening_card_flag_must_be_the_replays():
    position = aa_position(0)
    assert position["opening_card"] is True
    position["opening_card"] = False
    assert refused_at(AA, position).field == "position.opening_card"
    position["opening_card"] = 1
    assert refused_at(AA, position).field == "position.opening_card"


def test_a_history_changed_cut_or_padded_is_named_at_the_event():
    position = aa_position(8)
    history = position["history"]
    assert len(history) > 4
    changed = copy.deepcopy(position)
    changed["history"][2]["seat"] = 1 - changed["history"][2].get("seat", 0)
    assert refused_at(AA, changed).field.startswith(("position.history", "position.state"))
    cut = copy.deepcopy(position)
    cut["history"].pop()
    assert refused_at(AA, cut).field.startswith(("position.history", "position.state"))
    padded = copy.deepcopy(position)
    padded["history"].append({"event": "pass", "seat": 0})
    assert refused_at(AA, padded).field.startswith(("position.history", "position.state"))
    unknown = copy.deepcopy(position)
    unknown["history"][1] = {"event": "teleport"}
    assert refused_at(AA, unknown).field.startswith(("position.history", "position.state"))
    long = copy.deepcopy(position)
    long["history"] = [{"event": "pass", "seat": 0}] * 10_000
    assert refused_at(AA, long).field == "position.history"
    for junk in ("x", None, [1], [{"seat": 0}]):
        position["history"] = junk
        assert refused_at(AA, position).field.startswith("position.history")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=4) | st.sampled_from(["7H", "QS", "play"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=6)


def paths(value, path=()):
    """Every path to a value inside a JSON value."""
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, path + (key,))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from paths(inner, path + (i,))


@settings(max_examples=settings().max_examples * 8)
@given(st.sampled_from(sorted(BY_ID)), st.integers(0, 2**16), st.integers(0, 40), st.data())
def test_a_position_changed_anywhere_is_taken_up_faithfully_or_refused_naming_a_field(profile_id, seed, steps, data):
    profile = BY_ID[profile_id]
    original, _ = played(profile, seed, 0, steps)
    position = over_json(original.position())
    where = data.draw(st.sampled_from(list(paths(position))[1:]))
    *parent_path, last = where
    parent = position
    for key in parent_path:
        parent = parent[key]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[last]
    else:
        parent[last] = data.draw(JSON)
    try:
        taken_up = Game.from_position(profile, position)
    except MalformedInput as exc:
        assert exc.field.startswith("position")
    else:  # a change the reference reads as the same position (a hand in another order, a glyph)
        same_deal(original, taken_up)
        assert taken_up.position() == original.position()
