"""What a seat may know: C-OBS-1, TC-XCH-2, RUL-8, RUL-12.

Hidden information is a security property, so it is checked two ways over random games:

1. directly: no card of the rival's hand appears anywhere in a seat's observation, except the
   card this seat itself gave in the exchange (it knows where that went); no stock card appears
   at all, and neither does the stock order;
2. by indistinguishability: two deals that differ only in cards the seat cannot see (a rival
   hand card swapped with a deep stock card that the played line never reveals) give identical
   observations for that seat, step by step, along the same actions.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conquian_ref.engine.game import Game

from helpers import AA, TC, all_cards

BY_ID = {TC.id: TC, AA.id: AA}
GAMES = st.tuples(st.sampled_from(sorted(BY_ID)), st.integers(0, 2**32 - 1), st.integers(0, 1))


def strings(value):
    """Every string inside a JSON value (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def check_observation(game: Game, seat: int) -> None:
    profile = game.profile
    state = game.state_json()
    obs = game.observation(seat)
    cards = set(all_cards(profile))
    seen = {s for s in strings(obs) if s in cards}
    rival_hand = set(state["hands"][1 - seat])
    legit = set()
    if obs["exchange"] is not None and "gave" in obs["exchange"]:
        legit.add(obs["exchange"]["gave"])
    leaked = (seen & rival_hand) - legit
    assert not leaked, f"seat {seat} sees the rival's hand cards {leaked}"
    assert not seen & set(state["stock"]), "a stock card appears in an observation"
    assert "stock" not in obs
    assert obs["stock_count"] == len(state["stock"])
    # what the seat must know (C-OBS-1)
    assert obs["hand"] == state["hands"][seat]
    assert obs["exposed"] == state["exposed"]
    assert obs["available"] == state["available"]
    assert obs["out_of_play"] == state["out_of_play"]  # RUL-8
    assert obs["hand_counts"] == [len(h) for h in state["hands"]]
    # the exchange before both picks (RUL-12): only whether the rival has picked
    if state["phase"] == "exchange":
        picks = state["exchange"]["picks"]
        assert obs["exchange"] == {"mine": picks[seat], "rival_picked": picks[1 - seat] is not None}


def random_action(rng, game, seat, avoid=None):
    legal = game.legal_actions(seat)
    if avoid is not None:
        legal = [a for a in legal if avoid not in a.get("cards", []) and a.get("card") != avoid]
    if not legal:
        return None
    uses = [a for a in legal if a["type"] == "use"]
    if uses and rng.random() < 0.6:
        return max(uses, key=lambda a: (len(a["cards"]), rng.random()))
    return rng.choice(legal)


@settings(max_examples=settings().max_examples * 2)
@given(GAMES)
def test_C_OBS_1_no_rival_hand_card_and_no_stock_card_in_an_observation(game_args):
    profile_id, seed, dealer = game_args
    profile = BY_ID[profile_id]
    game = Game.from_seed(profile, seed, dealer)
    rng = random.Random(seed)
    while True:
        check_observation(game, 0)
        check_observation(game, 1)
        if game.is_over:
            break
        seat = rng.choice(game.to_act)
        game.apply(seat, random_action(rng, game, seat))


@settings(max_examples=settings().max_examples * 2)
@given(GAMES, st.integers(0, 1), st.integers(0, 2**32 - 1))
def test_C_OBS_1_deals_differing_only_in_unseen_cards_look_the_same(game_args, observer, pick):
    profile_id, seed, dealer = game_args
    profile = BY_ID[profile_id]
    rival = 1 - observer
    order_a = profile.deck.shuffled(seed)
    game_a = Game.from_deck(profile, order_a, dealer)
    # a card dealt to the rival, and the bottom card of the stock
    rival_cards = game_a.state_json()["hands"][rival]
    hidden = random.Random(pick).choice(rival_cards)
    deep = order_a[-1]
    order_b = [deep if c == hidden else hidden if c == deep else c for c in order_a]
    game_b = Game.from_deck(profile, order_b, dealer)
    assert game_a.observation(observer) == game_b.observation(observer)
    assert game_a.observation(rival) != game_b.observation(rival)  # the two deals do differ

    rng = random.Random(seed ^ pick)
    steps = 0
    # play while the deep card stays in the stock (it is the last one), the rival never shows
    # the hidden card, and the game goes on
    while not game_a.is_over and game_a.stock_count > 1:
        seat = rng.choice(game_a.to_act)
        action = random_action(rng, game_a, seat, avoid=hidden if seat == rival else None)
        if action is None:
            break
        game_a.apply(seat, action)
        game_b.apply(seat, action)  # the same line is legal in the other deal
        assert game_a.observation(observer) == game_b.observation(observer), (steps, seat, action)
        steps += 1
    assert steps > 0
    assert deep not in set(strings(game_a.observation(observer)))


def test_C_OBS_1_observation_has_no_stock_order_field_at_the_start():
    for profile in (TC, AA):
        game = Game.from_seed(profile, 5, 0)
        for seat in (0, 1):
            obs = game.observation(seat)
            assert "stock" not in obs and obs["stock_count"] == game.stock_count
            check_observation(game, seat)
