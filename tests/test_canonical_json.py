"""Canonical JSON: round trips, fixed points, determinism, and the privacy of the exchange.

* Everything the engine reports is plain JSON: for positions of seeded random games,
  `json.loads(json.dumps(x)) == x` for state_json(), both observations, every legal action of
  both seats and the outcome (a tuple, a set or a non-string key would not survive the trip).
* The canonical form of an action is a fixed point: `parse_action(deck, a).to_json(deck) == a`
  for every listed legal action; a use whose cards are listed in another order (or in the glyph
  form, C-DECK-2) parses to the same Action, and applying it gives the same state.
* Determinism: the same deck order and the same actions give identical state_json() and
  observation sequences, whether the deal is given as a deck order or as hands and stock.
* TC-XCH-2 / RUL-12 / C-OBS-1: in torno-cisneros-v1, whichever card the first seat picks, the
  other seat's observation (and what it may do) is the same until the second pick is made;
  after both picks each seat's observation shows exactly the card it gave and the card it
  received, and its hand accordingly.

The number of games follows the Hypothesis settings profile of tests/conftest.py.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conquian_ref.engine.actions import parse_action
from conquian_ref.engine.dealing import deal as deal_cards
from conquian_ref.engine.game import Game

from helpers import AA, TC

BY_ID = {TC.id: TC, AA.id: AA}
GAMES = st.tuples(st.sampled_from(sorted(BY_ID)), st.integers(0, 2**32 - 1), st.integers(0, 1))


def round_trips(value) -> bool:
    return json.loads(json.dumps(value, ensure_ascii=False)) == value


def choose(rng: random.Random, legal: list[dict]) -> dict:
    uses = [a for a in legal if a["type"] == "use"]
    if uses and rng.random() < 0.6:
        return max(uses, key=lambda a: (len(a["cards"]), rng.random()))
    return rng.choice(legal)


def play(profile, seed: int, dealer: int):
    """A seeded random game: yields the game and the actions so far at every position."""
    game = Game.from_deck(profile, profile.deck.shuffled(seed), dealer)
    rng = random.Random(seed)
    actions: list[tuple[int, dict]] = []
    yield game, actions
    while not game.is_over:
        seat = rng.choice(game.to_act)
        action = choose(rng, game.legal_actions(seat))
        game.apply(seat, action)
        actions.append((seat, copy.deepcopy(action)))
        yield game, actions
        assert len(actions) < 1000


def check_position(game: Game, rng: random.Random) -> None:
    deck = game.deck
    assert round_trips(game.state_json())
    for seat in (0, 1):
        assert round_trips(game.observation(seat))
    if game.outcome is not None:
        assert round_trips(game.outcome.to_json())
        assert game.outcome.to_json() == game.state_json()["outcome"]
    for seat in (0, 1):
        legal = game.legal_actions(seat)
        assert round_trips(legal)
        for action in legal:
            assert round_trips(action)
            parsed = parse_action(deck, action)
            assert parsed.to_json(deck) == action, "the canonical form is not a fixed point"
            if action["type"] != "use" or len(action["cards"]) < 2:
                continue
            # the same set of cards in another order, and partly in the glyph form (C-DECK-2)
            shuffled = list(action["cards"])
            while shuffled == action["cards"]:
                rng.shuffle(shuffled)
            glyphs = [deck.glyph(deck.parse(c)) if i % 2 else c for i, c in enumerate(shuffled)]
            for variant in ({"type": "use", "cards": shuffled}, {"type": "use", "cards": glyphs}):
                assert parse_action(deck, variant) == parsed
                assert parse_action(deck, variant).to_json(deck) == action
                a, b = game.clone(), game.clone()
                a.apply(seat, action)
                b.apply(seat, variant)
                assert a.state_json() == b.state_json() and a.history == b.history


@settings(max_examples=settings().max_examples * 2)
@given(GAMES)
def test_everything_reported_is_canonical_json(game_args):
    profile_id, seed, dealer = game_args
    rng = random.Random(seed)
    for game, _ in play(BY_ID[profile_id], seed, dealer):
        check_position(game, rng)


@settings(max_examples=settings().max_examples * 2)
@given(GAMES)
def test_the_same_deck_order_and_actions_give_the_same_states(game_args):
    profile_id, seed, dealer = game_args
    profile = BY_ID[profile_id]
    states, observations = [], []
    for game, actions in play(profile, seed, dealer):
        states.append(copy.deepcopy(game.state_json()))
        observations.append(copy.deepcopy((game.observation(0), game.observation(1))))
    # two fresh replays of the same actions: from the deck order, and from the hands and stock
    # it deals (C-DEAL-1)
    order = profile.deck.shuffled(seed)
    hands, stock = deal_cards(profile, list(order), dealer)
    for replay in (Game.from_deck(profile, list(order), dealer), Game.from_deal(profile, hands, stock, dealer)):
        got_states = [copy.deepcopy(replay.state_json())]
        got_observations = [copy.deepcopy((replay.observation(0), replay.observation(1)))]
        for seat, action in actions:
            replay.apply(seat, action)
            got_states.append(copy.deepcopy(replay.state_json()))
            got_observations.append(copy.deepcopy((replay.observation(0), replay.observation(1))))
        assert got_states == states
        assert got_observations == observations
        assert json.dumps(got_states, sort_keys=True) == json.dumps(states, sort_keys=True)


# --- TC-XCH-2, RUL-12: the exchange is private until both picks are made -----------------------------


@settings(max_examples=settings().max_examples * 2)
@given(st.integers(0, 2**32 - 1), st.integers(0, 1), st.integers(0, 1), st.integers(0, 8))
def test_TC_XCH_2_the_first_pick_is_invisible_to_the_other_seat(seed, dealer, first, second_index):
    profile = TC
    start = Game.from_seed(profile, seed, dealer)
    other = 1 - first
    hands = start.state_json()["hands"]
    assert start.phase == "exchange" and set(start.to_act) == {0, 1}
    views = {}
    for card in hands[first]:
        game = start.clone()
        game.apply(first, {"type": "exchange", "card": card})
        # what the seat that has not picked may know and do: identical for every first pick
        views[card] = json.dumps(
            {"observation": game.observation(other), "to_act": list(game.to_act), "legal": game.legal_actions(other)},
            sort_keys=True,
            ensure_ascii=False,
        )
        obs_other = game.observation(other)
        assert obs_other["exchange"] == {"mine": None, "rival_picked": True}  # RUL-12: that, not which
        assert obs_other["hand"] == hands[other]
        assert f'"{card}"' not in json.dumps(obs_other, ensure_ascii=False)
        # the picker sees its own pick, and the rival has not picked
        assert game.observation(first)["exchange"] == {"mine": card, "rival_picked": False}
        # the second pick completes the exchange: each seat knows exactly what it gave and got
        received = hands[other][second_index]
        game.apply(other, {"type": "exchange", "card": received})
        mine, theirs = game.observation(first), game.observation(other)
        assert mine["exchange"] == {"gave": card, "received": received}
        assert theirs["exchange"] == {"gave": received, "received": card}
        assert sorted(mine["hand"]) == sorted(set(hands[first]) - {card} | {received})
        assert sorted(theirs["hand"]) == sorted(set(hands[other]) - {received} | {card})
        # neither seat sees the other's remaining hand
        rest = set(hands[other]) - {received}
        assert not {c for c in rest if f'"{c}"' in json.dumps(mine, ensure_ascii=False)}
    assert len(views) == len(hands[first]) == profile.hand_size
    assert len(set(views.values())) == 1, "the other seat can tell which card was picked first"
    # and before any pick the other seat saw the same, except that the rival has now picked
    before = start.observation(other)
    after = json.loads(next(iter(views.values())))["observation"]
    assert before["exchange"] == {"mine": None, "rival_picked": False}
    assert {k: v for k, v in before.items() if k not in ("exchange", "to_act")} == {
        k: v for k, v in after.items() if k not in ("exchange", "to_act")
    }
