"""The rule trace is honest: `Game.rules_fired` holds the rules whose check ran (read by rule
coverage and the fuzzer), `Game.rules_by_construction` the rules that hold because of how the
data and the actions are built, and the two are kept apart.

Three citations used to be wrong; each has a test named after the bug:
- RUL-5 ("the forcer moves next with the discard") was recorded on a forced win, where no
  discard follows;
- RUL-14 (the rival's force decision, a ruling of the profiles with `forcing.own_fit:
  rival_option` only) was recorded when a `decline` was refused under a profile without it;
- C-DEAL-1 and the profile's deal rule were recorded for a setup from explicit hands, where no
  deck is dealt.
"""

from __future__ import annotations

import pytest

from conquian_ref.engine.errors import IllegalAction
from conquian_ref.engine.game import Game, rules_by_construction
from conquian_ref.engine.match import Match
from conquian_ref.engine.outcome import How, Outcome

from helpers import AA, TC, all_cards, decline, deal, force, pass_, reject
from test_game_rules import anglo_fitting_rival_card, anglo_ten_exposed_empty_hand, torno_after_opening_meld, torno_nine_exposed_empty_hand


# -- RUL-5 ---------------------------------------------------------------------------------------------
def test_bug_rul_5_not_recorded_on_a_forced_win_under_torno():
    game = torno_nine_exposed_empty_hand(["12O"])
    game.apply(0, reject())
    game.apply(0, force())
    assert game.outcome.how == How.FORCED_TO_TARGET
    assert "RUL-6" in game.fired_last and "RUL-5" not in game.fired_last
    assert "RUL-5" not in game.rules_fired


def test_bug_rul_5_not_recorded_on_a_forced_win_under_anglo():
    game = anglo_ten_exposed_empty_hand(["5C", "QH"])
    for seat, action in [(0, reject()), (0, pass_()), (1, reject()), (1, pass_()), (0, force())]:
        game.apply(seat, action)
    assert game.outcome.how == How.FORCED_TO_TARGET
    assert "RUL-5" not in game.rules_fired


@pytest.mark.parametrize("forced", ["torno", "anglo"])
def test_rul_5_is_recorded_when_the_receiver_of_a_force_must_discard(forced):
    if forced == "torno":
        game = torno_after_opening_meld(["4O"])
        game.apply(0, force())
    else:
        game = anglo_fitting_rival_card()
        game.apply(1, reject())
        game.apply(0, force())
    assert game.phase == "discard"
    assert "RUL-5" in game.fired_last


# -- RUL-14 --------------------------------------------------------------------------------------------
def test_bug_rul_14_not_recorded_when_torno_refuses_a_decline():
    game = torno_after_opening_meld(["4O"])
    with pytest.raises(Exception):
        game.apply(0, decline())
    assert game.fired_last == ["RUL-4"]  # no force decision in this form of forcing (RUL-4)
    assert "RUL-14" not in game.rules_fired and "AA-FORCE-1" not in game.rules_fired


def test_rul_14_is_recorded_when_anglo_refuses_a_decline():
    game = anglo_fitting_rival_card()
    with pytest.raises(Exception):
        game.apply(1, decline())
    assert set(game.fired_last) == {"AA-FORCE-1", "RUL-14", "RUL-4"}


def test_a_refusal_records_only_the_rules_of_the_profile():
    for make, foreign in [(lambda: torno_after_opening_meld(["4O"]), "AA-"), (anglo_fitting_rival_card, "TC-")]:
        game = make()
        for seat in (0, 1):
            for action in [decline(), force(), {"type": "exchange", "card": all_cards(game.profile)[0]}]:
                try:
                    game.apply(seat, action)
                except Exception:
                    assert not [r for r in game.fired_last if r.startswith(foreign)]
                    assert all(game.profile.cites(r) for r in game.fired_last)
                else:
                    break


# -- the deal ------------------------------------------------------------------------------------------
DEAL_RULES = {"C-DEAL-1", "RUL-10", "RUL-15"}


@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_bug_deal_rules_not_recorded_for_a_setup_from_explicit_hands(profile):
    cards = all_cards(profile)
    n = profile.hand_size
    game = deal(profile, [cards[:n], cards[n : 2 * n]])
    assert not DEAL_RULES & game.rules_fired
    assert profile.rule("deal") not in game.rules_fired
    # the profile's deal rule (hand and stock sizes) holds: other hands are refused as malformed
    assert profile.rule("deal") in game.rules_by_construction


@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_the_deal_rules_are_recorded_when_a_deck_order_is_dealt(profile):
    game = Game.from_deck(profile, profile.deck.shuffled(3), dealer=1)
    assert DEAL_RULES | {profile.rule("deal"), "C-DECK-2"} <= game.rules_fired
    assert profile.rule("deal") not in game.rules_by_construction


# -- checked apart from by construction ---------------------------------------------------------------
@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_rules_by_construction_are_never_recorded_as_checked(profile):
    built = rules_by_construction(profile)
    assert {"C-DECK-1", profile.rule("deck")} <= built
    for seed in range(20):
        game = Game.from_seed(profile, seed, dealer=seed % 2)
        while not game.is_over:
            seat = game.to_act[0]
            game.observation(seat)
            game.apply(seat, game.legal(seat)[seed % len(game.legal(seat))])
        assert not built & game.rules_fired, sorted(built & game.rules_fired)
        assert all(profile.cites(r) for r in game.rules_fired), sorted(r for r in game.rules_fired if not profile.cites(r))


def test_no_rule_is_recorded_with_the_trace_off():
    game = Game.from_seed(TC, 5)
    game.trace = False
    game.rules_fired.clear()
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, game.legal(seat)[0])
    assert game.rules_fired == set() and game.fired_last == []


def test_the_match_rule_is_the_profile_s_own():
    for profile in (TC, AA):
        match = Match(profile, 0)
        match.record(Outcome(How.STOCK_EXHAUSTED))
        assert match.rules_applied == [profile.rule("match")]


# -- a code standing for one rule per situation records the situation's rule ---------------------------
def _refused(game, seat, action) -> list[str]:
    with pytest.raises(IllegalAction):
        game.apply(seat, action)
    return game.fired_last


def test_out_of_turn_in_play_records_no_exchange_rule():
    game = torno_after_opening_meld(["4O"])
    assert _refused(game, 1, reject()) == ["C-TURN-6"]


def test_out_of_turn_in_the_exchange_records_the_exchange_rule():
    game = Game.from_seed(TC, 2)
    game.apply(0, {"type": "exchange", "card": game.deck.name(next(iter(_held(game, 0))))})
    assert _refused(game, 0, {"type": "exchange", "card": game.deck.name(next(iter(_held(game, 0))))}) == ["C-TURN-6", "TC-XCH-1"]


def test_a_card_not_held_records_the_rule_of_the_action_named():
    game = torno_after_opening_meld(["4O"])
    seat = game.to_act[0]
    missing = next(c for c in range(game.deck.size) if c not in _held(game, seat) and c != game.available)
    assert _refused(game, seat, {"type": "use", "cards": [game.deck.name(missing)]}) == ["C-TURN-2"]


def _held(game, seat) -> list[int]:
    return [c for c in range(game.deck.size) if game.hands[seat] >> c & 1]
