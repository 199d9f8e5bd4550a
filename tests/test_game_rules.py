"""The turn rules, one scripted deal per rule id or reason code.

Every deal is built with `Game.from_deal` (hands as dealt, stock top first; see helpers.deal).
What each test asserts is derived from the rule text (docs plan: C-, TC-, AA-, RUL- ids) and
the two sources: the torno contract ("Conquian Torno Cisneros — reglas v1") and the nine-section
page "Conquián". Every refusal is checked through helpers.assert_refused: the reason code, and
that the full state, both observations and both seats' legal actions are unchanged.

Seat 0 deals in every scripted deal unless said otherwise, so seat 1 plays first.
"""

from __future__ import annotations

import json

import pytest

from conquian_ref.engine.refusals import REASONS
from conquian_ref.engine.game import Game
from conquian_ref.spec.profiles import load_profile

from helpers import (
    AA,
    TC,
    all_cards,
    assert_refused,
    available,
    deal,
    decline,
    discard,
    exchange,
    exposed,
    force,
    hand,
    pass_,
    reject,
    use,
)

ANY_ACTIONS = [use(), reject(), pass_(), force(), decline()]


def offered(card, to, revealed):
    return {"card": card, "revealed": revealed, "offered_to": to}


# === C-DEAL-1, TC-DEAL-1, AA-DEAL-1, RUL-10, RUL-15: dealing from a deck order =======================


@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_C_DEAL_1_one_card_at_a_time_non_dealer_first_rest_is_the_stock(profile, dealer):
    order = profile.deck.shuffled(2024 + dealer)
    game = Game.from_deck(profile, order, dealer)
    n = profile.hand_size
    non_dealer = 1 - dealer
    state = game.state_json()
    # index 0 is the top card (RUL-15): cards 0, 2, 4, ... go to the non-dealer, 1, 3, 5, ... to the dealer
    expected_hands = {non_dealer: order[0 : 2 * n : 2], dealer: order[1 : 2 * n : 2]}
    for seat in (0, 1):
        assert sorted(state["hands"][seat], key=all_cards(profile).index) == sorted(expected_hands[seat], key=all_cards(profile).index)
        assert len(state["hands"][seat]) == n
    rest = order[2 * n :]
    assert state["out_of_play"] == [] and state["exposed"] == [[], []]
    if profile is TC:
        # TC-DEAL-1: 9 each, 22 in the stock, order kept; the exchange comes before any reveal
        assert n == 9 and len(rest) == 22
        assert state["phase"] == "exchange" and state["available"] is None
        assert state["stock"] == rest
    else:
        # AA-DEAL-1: 10 each, 20 in the stock, no initial discard; the top card is revealed at once
        # for the non-dealer (AA-OPEN-1)
        assert n == 10 and len(rest) == 20
        assert state["available"] == offered(rest[0], non_dealer, True)
        assert state["stock"] == rest[1:]
        assert state["phase"] == "play" and state["to_act"] == [non_dealer]


def test_C_DEAL_1_from_deal_keeps_the_stock_order_top_first():
    hands = [["AS", "2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KS"],
             ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH", "KH"]]
    stock = [c for c in reversed(all_cards(AA)) if c not in hands[0] + hands[1]]
    game = Game.from_deal(AA, hands, stock, dealer=1)
    assert game.state_json()["available"] == offered(stock[0], 0, True)
    assert game.state_json()["stock"] == stock[1:]
    assert game.stock_count == 19


# === TC-XCH-1, TC-XCH-2, RUL-12: the exchange ========================================================

TC_H0 = ["5O", "6O", "1C", "2C", "3E", "6B", "11C", "12O", "1B"]  # dealer
TC_H1 = ["2O", "3O", "7C", "7E", "10B", "11B", "5C", "12E", "4B"]  # non-dealer, plays first


def torno(top, h0=TC_H0, h1=TC_H1, picks=("1B", "4B")) -> Game:
    """A torno deal after the exchange (seat 0 gives picks[0], seat 1 gives picks[1])."""
    game = deal(TC, [h0, h1], top=top)
    game.apply(0, exchange(picks[0]))
    game.apply(1, exchange(picks[1]))
    return game


def test_TC_XCH_1_the_two_picked_cards_are_swapped():
    game = deal(TC, [TC_H0, TC_H1], top=["1O"])
    assert game.phase == "exchange" and set(game.to_act) == {0, 1}
    game.apply(1, exchange("4B"))
    game.apply(0, exchange("1B"))
    assert set(hand(game, 0)) == set(TC_H0) - {"1B"} | {"4B"}
    assert set(hand(game, 1)) == set(TC_H1) - {"4B"} | {"1B"}


def test_TC_XCH_1_both_pick_before_the_opening_card_is_revealed():
    game = deal(TC, [TC_H0, TC_H1], top=["1O"])
    game.apply(0, exchange("1B"))
    assert game.phase == "exchange"
    assert game.to_act == (1,)
    assert available(game) is None and game.stock_count == 22
    assert set(hand(game, 0)) == set(TC_H0)  # nothing swapped yet
    # the seat that has picked cannot pick again
    assert_refused(game, 0, exchange("12O"), "not_your_turn")
    game.apply(1, exchange("4B"))
    # TC-OPEN-1: only now is the top card revealed, for the non-dealer
    assert available(game) == offered("1O", 1, True)
    assert game.phase == "play" and game.to_act == (1,)


def test_TC_XCH_2_RUL_12_a_pick_is_hidden_from_the_rival_until_both_have_picked():
    game = deal(TC, [TC_H0, TC_H1], top=["1O"])
    game.apply(0, exchange("12O"))
    seen_by_1 = game.observation(1)
    # that the rival has picked is public; which card is not
    assert seen_by_1["exchange"] == {"mine": None, "rival_picked": True}
    assert "12O" not in json.dumps(seen_by_1)
    assert game.observation(0)["exchange"] == {"mine": "12O", "rival_picked": False}
    # the pick of seat 1 is equally hidden from seat 0
    game2 = deal(TC, [TC_H0, TC_H1], top=["1O"])
    game2.apply(1, exchange("12E"))
    assert game2.observation(0)["exchange"] == {"mine": None, "rival_picked": True}
    assert "12E" not in json.dumps(game2.observation(0))


def test_TC_XCH_2_after_the_swap_each_seat_knows_what_it_gave_and_received():
    game = torno(["1O"], picks=("12O", "12E"))
    assert game.observation(0)["exchange"] == {"gave": "12O", "received": "12E"}
    assert game.observation(1)["exchange"] == {"gave": "12E", "received": "12O"}
    assert "12E" in game.observation(0)["hand"] and "12O" in game.observation(1)["hand"]


def test_must_exchange_nothing_else_during_the_exchange():
    game = deal(TC, [TC_H0, TC_H1], top=["1O"])
    for seat in (0, 1):
        for action in ANY_ACTIONS + [discard(TC_H0[0] if seat == 0 else TC_H1[0])]:
            assert_refused(game, seat, action, "must_exchange")
    game.apply(0, exchange("1B"))
    assert_refused(game, 1, discard("4B"), "must_exchange")


def test_card_not_in_hand_for_the_exchange():
    game = deal(TC, [TC_H0, TC_H1], top=["1O"])
    assert_refused(game, 0, exchange("2O"), "card_not_in_hand")  # the rival's card
    assert_refused(game, 0, exchange("1O"), "card_not_in_hand")  # a stock card


def test_exchange_over_once_the_play_has_started():
    game = torno(["1O"])
    assert_refused(game, 1, exchange("2O"), "exchange_over")


def test_not_in_profile_no_exchange_in_anglo():
    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    assert game.phase == "play"
    assert game.observation(1)["exchange"] is None
    assert_refused(game, 1, exchange("2H"), "not_in_profile")


# === TC-OPEN-1, AA-OPEN-1, RUL-7, C-TURN-5: the opening card ==========================================

AA_H0 = ["AS", "3S", "5D", "7C", "JD", "QC", "KD", "2D", "6C", "JS"]  # dealer
AA_H1 = ["2H", "3H", "5H", "KS", "QD", "JC", "7D", "2C", "4C", "6S"]  # non-dealer, plays first


@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_TC_OPEN_1_AA_OPEN_1_non_dealer_holds_the_revealed_card_and_may_not_reject_it(profile):
    game = torno(["1O"]) if profile is TC else deal(AA, [AA_H0, AA_H1], top=["AH"])
    card = "1O" if profile is TC else "AH"
    assert available(game) == offered(card, 1, True)
    assert game.to_act == (1,)
    assert_refused(game, 1, reject(), "cannot_reject_revealed")
    assert_refused(game, 0, use(), "not_your_turn")
    assert_refused(game, 0, reject(), "not_your_turn")
    legal = game.legal_actions(1)
    assert {"type": "pass"} in legal
    assert {"type": "reject"} not in legal
    assert any(a["type"] == "use" for a in legal)


@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_C_TURN_5_passing_the_revealed_card_ends_the_turn_without_discard(profile):
    game = torno(["1O", "10C"]) if profile is TC else deal(AA, [AA_H0, AA_H1], top=["AH", "QH"])
    card, nxt = ("1O", "10C") if profile is TC else ("AH", "QH")
    hands_before = [hand(game, 0), hand(game, 1)]
    game.apply(1, pass_())
    # "pasarla al rival" / "dejarla al rival sin exponer ni descartar"
    assert available(game) == offered(card, 0, False)
    assert game.phase == "play" and game.to_act == (0,)
    assert [hand(game, 0), hand(game, 1)] == hands_before
    assert game.state_json()["exposed"] == [[], []]
    # a card offered by the rival cannot be passed back (C-TURN-5)
    assert_refused(game, 0, pass_(), "cannot_pass_rival_card")
    # C-TURN-4: it can be rejected: out of play, and the next card is revealed for the same seat
    game.apply(0, reject())
    assert game.state_json()["out_of_play"] == [card]
    assert available(game) == offered(nxt, 0, True)
    # "una carta recién revelada ... no permite revelar otra en ese mismo turno"
    assert_refused(game, 0, reject(), "cannot_reject_revealed")


# === C-TURN-2, C-TURN-3: use and discard ===============================================================


def test_C_TURN_2_use_exposes_the_taken_card_with_the_chosen_hand_cards():
    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    game.apply(1, use("2H", "3H"))
    assert exposed(game, 1) == ["AH", "2H", "3H"]
    assert "AH" not in hand(game, 1)  # a taken card is never kept in hand (C-TURN-6)
    assert not {"2H", "3H"} & set(hand(game, 1))
    assert len(hand(game, 1)) == 8
    assert available(game) is None
    assert game.phase == "discard" and game.to_act == (1,)


def test_C_TURN_2_extra_meld_of_hand_cards_only_in_the_same_use():
    h1 = ["4H", "5H", "QS", "AC", "2C", "3C", "7D", "JD", "KS", "2S"]
    h0 = ["AS", "3S", "5D", "7C", "QD", "QC", "KD", "2D", "6C", "JS"]
    game = deal(AA, [h0, h1], top=["6H"])
    assert use("4H", "5H", "AC", "2C", "3C") in game.legal_actions(1)
    assert use("AC", "2C", "3C") not in game.legal_actions(1)
    assert_refused(game, 1, use("AC", "2C", "3C"), "no_valid_arrangement")
    game.apply(1, use("4H", "5H", "AC", "2C", "3C"))
    assert exposed(game, 1) == ["4H", "5H", "6H", "AC", "2C", "3C"]


def test_C_TURN_3_after_a_use_exactly_one_discard_which_becomes_the_rivals_card():
    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    game.apply(1, use("2H", "3H"))
    for action in ANY_ACTIONS + [use("5H")]:
        assert_refused(game, 1, action, "must_discard")
    assert_refused(game, 0, discard("AS"), "not_your_turn")
    assert_refused(game, 1, discard("2H"), "card_not_in_hand")  # exposed cards never return (C-ARR-3)
    assert_refused(game, 1, discard("AS"), "card_not_in_hand")
    assert game.legal_actions(1) == [discard(c) for c in hand(game, 1)]
    game.apply(1, discard("KS"))
    assert available(game) == offered("KS", 0, False)
    assert game.phase == "play" and game.to_act == (0,)
    assert len(hand(game, 1)) + len(exposed(game, 1)) == AA.hand_size
    assert game.history[-1] == {"event": "discard", "seat": 1, "card": "KS"}


def test_no_discard_now_outside_the_discard_step():
    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    assert_refused(game, 1, discard("KS"), "no_discard_now")
    game.apply(1, use("2H", "3H"))
    game.apply(1, discard("KS"))
    assert_refused(game, 0, discard("AS"), "no_discard_now")


def test_not_your_turn_the_rival_may_not_act():
    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    for action in ANY_ACTIONS + [discard("AS")]:
        assert_refused(game, 0, action, "not_your_turn")


def test_card_not_in_hand_for_a_use():
    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    assert_refused(game, 1, use("2H", "AS"), "card_not_in_hand")  # the rival's card
    assert_refused(game, 1, use("2H", "4H"), "card_not_in_hand")  # a stock card


def test_no_valid_arrangement_for_a_use():
    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    assert_refused(game, 1, use(), "no_valid_arrangement")  # a card alone is no meld: never kept
    assert_refused(game, 1, use("2H"), "no_valid_arrangement")
    assert_refused(game, 1, use("2H", "3H", "KS"), "no_valid_arrangement")
    assert_refused(game, 1, use("2H", "3H", "5H"), "no_valid_arrangement")


# === C-TURN-4: reject and reveal ======================================================================


def test_C_TURN_4_reject_puts_the_rivals_card_out_of_play_and_reveals_for_the_same_seat():
    game = deal(AA, [AA_H0, AA_H1], top=["AH", "QH"])
    game.apply(1, use("2H", "3H"))
    game.apply(1, discard("KS"))
    stock_before = game.state_json()["stock"]
    game.apply(0, reject())
    state = game.state_json()
    assert state["out_of_play"] == ["KS"]
    assert state["available"] == offered("QH", 0, True)
    assert state["stock"] == stock_before[1:]
    assert state["to_act"] == [0]
    # RUL-8: the rejected card is public in both observations
    assert game.observation(0)["out_of_play"] == ["KS"] == game.observation(1)["out_of_play"]
    # C-TURN-1 / C-TURN-7: only the available card can be taken; the rejected one never comes back
    assert_refused(game, 0, use("KS"), "card_not_in_hand")
    assert all("KS" not in a.get("cards", []) for a in game.legal_actions(0))


def test_C_TURN_6_hand_cards_go_down_only_with_the_taken_card():
    # the example of the rules: 4H 5H 6H in hand, QS offered, nothing melds with QS
    h1 = ["4H", "5H", "6H", "AS", "2D", "JD", "KC", "3C", "7S", "AD"]
    h0 = ["2S", "3S", "5D", "7C", "QD", "QC", "KD", "4D", "6C", "JS"]
    game = deal(AA, [h0, h1], top=["QS"])
    assert game.legal_actions(1) == [pass_()]
    assert_refused(game, 1, use("4H", "5H", "6H"), "no_valid_arrangement")
    assert_refused(game, 1, discard("4H"), "no_discard_now")


# === AA-EX-1: the worked example of "Conquián" §09 ====================================================

EX_H0 = ["AS", "3S", "5S", "7S", "QD", "2C", "4C", "6C", "JC", "KC"]  # non-dealer here
EX_H1 = ["4H", "5H", "QS", "2D", "4D", "6D", "JD", "KD", "AC", "3C"]  # dealer: 4♥ 5♥ and an unwanted Q♠


def test_AA_EX_1_take_six_expose_four_five_six_discard_queen():
    game = deal(AA, [EX_H0, EX_H1], top=["6H"], dealer=1)
    game.apply(0, pass_())  # the rival leaves 6♥
    assert available(game) == offered("6H", 1, False)
    assert game.legal_actions(1) == [reject(), use("4H", "5H")]
    game.apply(1, use("4H", "5H"))
    assert exposed(game, 1) == ["4H", "5H", "6H"]
    game.apply(1, discard("QS"))
    assert available(game) == offered("QS", 0, False)
    assert set(hand(game, 1)) == set(EX_H1) - {"4H", "5H", "QS"}


def test_AA_EX_1_seven_cannot_be_kept_and_four_five_not_exposed_without_the_central_card():
    game = deal(AA, [EX_H0, EX_H1], top=["7H", "6H"], dealer=1)
    game.apply(0, pass_())  # the centre offers 7♥
    # no way to take 7♥ into the hand waiting for a six, nor to expose 4♥-5♥ with it
    assert game.legal_actions(1) == [reject()]
    assert_refused(game, 1, use(), "no_valid_arrangement")
    assert_refused(game, 1, use("4H", "5H"), "no_valid_arrangement")
    game.apply(1, reject())
    # the next card, 6♥, makes the run
    assert available(game) == offered("6H", 1, True)
    game.apply(1, use("4H", "5H"))
    game.apply(1, discard("QS"))
    assert exposed(game, 1) == ["4H", "5H", "6H"]
    assert game.state_json()["out_of_play"] == ["7H"]


# === TC-FORCE-1/2/3, RUL-5, RUL-17: forcing in torno ====================================================


def torno_after_opening_meld(top):
    """Seat 1 takes the opening 1O with 2O 3O and discards 12E; seat 0 rejects 12E, so top[1] is
    revealed for seat 0."""
    game = torno(["1O", *top])
    game.apply(1, use("2O", "3O"))
    game.apply(1, discard("12E"))
    game.apply(0, reject())
    return game


def test_TC_FORCE_1_card_does_not_fit_the_rivals_melds():
    game = torno(["1O"])
    # at the opening the rival has nothing exposed: nothing fits there
    assert_refused(game, 1, force(), "card_does_not_fit")
    game.apply(1, use("2O", "3O"))
    game.apply(1, discard("12E"))
    # 12E does not fit 1O-2O-3O
    assert_refused(game, 0, force(), "card_does_not_fit")
    assert {"type": "force"} not in game.legal_actions(0)


def test_TC_FORCE_1_RUL_5_forcing_a_revealed_card_onto_the_rival_then_the_forcer_holds_the_discard():
    game = torno_after_opening_meld(["4O"])
    assert available(game) == offered("4O", 0, True)
    assert {"type": "force"} in game.legal_actions(0)
    hand_before = hand(game, 1)
    game.apply(0, force())
    # the card joins the receiver's melds alone (TC-FORCE-3: no hand card of either seat)
    assert exposed(game, 1) == ["1O", "2O", "3O", "4O"]
    assert hand(game, 1) == hand_before
    assert exposed(game, 0) == []
    # "el receptor descarta"
    assert game.phase == "discard" and game.to_act == (1,)
    assert_refused(game, 0, use(), "not_your_turn")
    game.apply(1, discard("11B"))
    # "... y el turno continúa desde él": the forcer moves next with that discard (RUL-5)
    assert available(game) == offered("11B", 0, False)
    assert game.to_act == (0,)
    assert game.outcome is None
    assert "TC-FORCE-1" in game.rules_fired


def test_TC_FORCE_2_a_revealed_card_fitting_own_melds_may_not_be_passed():
    game = torno_after_opening_meld(["10C", "4O"])
    game.apply(0, pass_())  # 10C fits nobody
    game.apply(1, reject())  # 10C is seat 0's card; it does not fit seat 1's melds
    assert available(game) == offered("4O", 1, True)
    assert_refused(game, 1, pass_(), "fitting_card_must_be_taken")
    assert_refused(game, 1, reject(), "cannot_reject_revealed")
    assert_refused(game, 1, force(), "card_does_not_fit")  # seat 0 has nothing exposed
    assert game.legal_actions(1) == [use()]
    game.apply(1, use())
    assert exposed(game, 1) == ["1O", "2O", "3O", "4O"]


TC_H0_WITH_4O = ["5O", "6O", "1C", "2C", "3E", "6B", "11C", "4O", "1B"]


def torno_card_fitting_both():
    """Seat 1 has 1O-2O-3O, seat 0 has 5O-6O-7O, and seat 0 has just discarded 4O: it fits both."""
    game = torno(["1O", "7O"], h0=TC_H0_WITH_4O)
    game.apply(1, use("2O", "3O"))
    game.apply(1, discard("12E"))
    game.apply(0, reject())
    game.apply(0, use("5O", "6O"))
    game.apply(0, discard("4O"))
    assert available(game) == offered("4O", 1, False)
    return game


def test_TC_FORCE_2_a_rivals_card_fitting_own_melds_may_not_be_rejected():
    game = torno_card_fitting_both()
    assert_refused(game, 1, reject(), "fitting_card_must_be_taken")
    assert_refused(game, 1, pass_(), "cannot_pass_rival_card")
    # still legal: use it (with any hand cards) or force it onto the rival, where it also fits
    assert game.legal_actions(1) == [force(), use()]
    game.apply(1, use())
    assert exposed(game, 1) == ["1O", "2O", "3O", "4O"]
    assert game.phase == "discard"


def test_TC_FORCE_2_RUL_17_the_fitting_card_may_be_forced_back_onto_the_rival_who_discarded_it():
    game = torno_card_fitting_both()
    game.apply(1, force())
    assert exposed(game, 0) == ["4O", "5O", "6O", "7O"]
    assert game.phase == "discard" and game.to_act == (0,)
    game.apply(0, discard("11C"))
    assert available(game) == offered("11C", 1, False)
    assert game.to_act == (1,)


def test_TC_FORCE_2_a_card_fitting_only_the_rival_may_still_be_passed_or_rejected():
    game = torno_after_opening_meld(["4O"])
    # 4O fits seat 1's melds, not seat 0's (nothing exposed): seat 0 may pass it
    assert {"type": "pass"} in game.legal_actions(0)
    game.apply(0, pass_())
    # now seat 1 holds it and it fits seat 1's own melds: it must be taken
    assert_refused(game, 1, reject(), "fitting_card_must_be_taken")


def test_nothing_to_decline_in_torno():
    game = torno_card_fitting_both()
    assert_refused(game, 1, decline(), "nothing_to_decline")
    assert_refused(game, 0, decline(), "not_your_turn")


# === AA-FORCE-1/2, AA-MELD-1, RUL-11, RUL-14: forcing in anglo ==========================================


def anglo_fitting_rival_card():
    """Seat 1 has AH-2H-3H exposed and 5H in hand; seat 0 passes the revealed 4H to it."""
    game = deal(AA, [AA_H0, AA_H1], top=["AH", "4H", "QH"])
    game.apply(1, use("2H", "3H"))
    game.apply(1, discard("KS"))
    game.apply(0, reject())
    assert available(game) == offered("4H", 0, True)
    # AA-MELD-1: no card is ever added to the rival's melds
    assert_refused(game, 0, force(), "no_forcing_onto_rival")
    assert game.legal_actions(0) == [pass_()]
    game.apply(0, pass_())  # 4H does not fit seat 0's (empty) melds: no decision for seat 1
    assert game.phase == "play"
    assert available(game) == offered("4H", 1, False)
    return game


def test_AA_FORCE_1_rejecting_a_fitting_card_lets_the_rival_decide():
    game = anglo_fitting_rival_card()
    assert_refused(game, 1, pass_(), "cannot_pass_rival_card")
    assert_refused(game, 1, force(), "no_forcing_onto_rival")
    assert_refused(game, 1, decline(), "nothing_to_decline")
    assert {"type": "reject"} in game.legal_actions(1)
    game.apply(1, reject())
    assert game.phase == "force_decision"
    assert game.to_act == (0,)
    assert game.state_json()["pending"] == "reject"
    assert available(game) == offered("4H", 1, False)  # the card has not moved yet
    assert game.legal_actions(0) == [decline(), force()]
    assert game.legal_actions(1) == []


def test_must_decide_force_and_not_your_turn_during_the_decision():
    game = anglo_fitting_rival_card()
    game.apply(1, reject())
    for action in [use(), reject(), pass_(), discard("AS"), exchange("AS")]:
        assert_refused(game, 0, action, "must_decide_force")
    for action in ANY_ACTIONS + [discard("5H")]:
        assert_refused(game, 1, action, "not_your_turn")


def test_AA_FORCE_2_RUL_11_forced_card_joins_alone_then_the_receiver_discards_RUL_5():
    game = anglo_fitting_rival_card()
    game.apply(1, reject())
    game.apply(0, force())
    # the card joins alone: 5H, which would extend the run too, stays in the hand (RUL-11)
    assert exposed(game, 1) == ["AH", "2H", "3H", "4H"]
    assert "5H" in hand(game, 1)
    assert game.state_json()["out_of_play"] == ["KS"]  # the reject never took place
    assert game.phase == "discard" and game.to_act == (1,)
    game.apply(1, discard("QD"))
    assert available(game) == offered("QD", 0, False)
    assert len(hand(game, 1)) + len(exposed(game, 1)) == AA.hand_size


def test_RUL_14_on_a_decline_the_reject_takes_place_as_declared():
    game = anglo_fitting_rival_card()
    game.apply(1, reject())
    game.apply(0, decline())
    state = game.state_json()
    assert state["out_of_play"] == ["KS", "4H"]
    assert state["available"] == offered("QH", 1, True)
    assert state["pending"] is None and state["phase"] == "play"
    assert exposed(game, 1) == ["AH", "2H", "3H"]


def anglo_fitting_revealed_card():
    """Seat 1 has AH-2H-3H; 4H is freshly revealed for seat 1 itself."""
    game = deal(AA, [AA_H0, AA_H1], top=["AH", "QH", "4H"])
    game.apply(1, use("2H", "3H"))
    game.apply(1, discard("KS"))
    game.apply(0, reject())
    game.apply(0, pass_())  # QH
    game.apply(1, reject())  # QH does not fit: rejected at once, no decision
    assert game.state_json()["out_of_play"] == ["KS", "QH"]
    assert available(game) == offered("4H", 1, True)
    return game


def test_AA_FORCE_1_applies_to_the_freshly_revealed_card_too():
    game = anglo_fitting_revealed_card()
    assert_refused(game, 1, reject(), "cannot_reject_revealed")
    game.apply(1, pass_())
    assert game.phase == "force_decision" and game.to_act == (0,)
    assert game.state_json()["pending"] == "pass"
    game.apply(0, force())
    assert exposed(game, 1) == ["AH", "2H", "3H", "4H"]
    assert game.phase == "discard" and game.to_act == (1,)


def test_RUL_14_on_a_decline_the_pass_takes_place_as_declared():
    game = anglo_fitting_revealed_card()
    game.apply(1, pass_())
    game.apply(0, decline())
    assert available(game) == offered("4H", 0, False)
    assert game.phase == "play" and game.to_act == (0,)
    assert game.state_json()["pending"] is None


def test_AA_FORCE_1_a_non_fitting_reject_needs_no_decision():
    game = deal(AA, [AA_H0, AA_H1], top=["AH", "4H"])
    game.apply(1, pass_())
    game.apply(0, reject())  # AH: seat 0 has no melds
    assert game.phase == "play" and available(game) == offered("4H", 0, True)


# === C-END-1, C-END-2, RUL-6, TC-GOAL-1, AA-GOAL-1: winning ===============================================


def test_C_END_1_TC_RUN_1_torno_win_by_a_use_with_a_whole_suit_no_discard():
    h1 = ["1O", "2O", "3O", "4O", "5O", "6O", "7O", "10O", "3C"]
    h0 = ["11O", "4C", "7C", "12C", "2E", "5E", "10E", "3B", "5B"]
    game = deal(TC, [h0, h1], top=["12O"])
    game.apply(0, exchange("11O"))
    game.apply(1, exchange("3C"))
    game.apply(1, use("1O", "2O", "3O", "4O", "5O", "6O", "7O", "10O", "11O"))
    assert exposed(game, 1) == [r + "O" for r in ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"]]
    assert game.is_over and game.phase == "over"
    assert game.state_json()["outcome"] == {"result": "win", "winner": 1, "how": "target_reached"}
    assert game.to_act == ()
    assert hand(game, 1) == []


def test_C_END_1_anglo_win_with_exactly_eleven_exposed():
    h1 = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH", "AS"]
    h0 = ["2S", "4S", "6D", "JD", "QS", "KD", "3C", "7C", "JC", "2D"]
    game = deal(AA, [h0, h1], top=["AD"])
    game.apply(1, use(*h1))
    assert len(exposed(game, 1)) == 11
    assert game.state_json()["outcome"] == {"result": "win", "winner": 1, "how": "target_reached"}
    assert game.state_json()["phase"] == "over"


def test_C_END_4_game_over_no_action_after_the_result():
    h1 = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH", "AS"]
    h0 = ["2S", "4S", "6D", "JD", "QS", "KD", "3C", "7C", "JC", "2D"]
    game = deal(AA, [h0, h1], top=["AD"])
    game.apply(1, use(*h1))
    for seat in (0, 1):
        for action in ANY_ACTIONS + [discard("2S"), exchange("2S"), use("2S")]:
            assert_refused(game, seat, action, "game_over")
        assert game.legal_actions(seat) == []


TC_END_H1 = ["1O", "2O", "3O", "4O", "5O", "6O", "7O", "10O", "3C"]
TC_END_H0 = ["1C", "4C", "7C", "12C", "2E", "5E", "10E", "3B", "5B"]


def torno_nine_exposed_empty_hand(top):
    """Seat 1 exposes 1O..11O (nine cards) on the opening 11O and discards its last card, 5B."""
    game = deal(TC, [TC_END_H0, TC_END_H1], top=["11O", *top])
    game.apply(0, exchange("5B"))
    game.apply(1, exchange("3C"))
    game.apply(1, use("1O", "2O", "3O", "4O", "5O", "6O", "7O", "10O"))
    assert len(exposed(game, 1)) == 9 and hand(game, 1) == ["5B"]
    assert game.phase == "discard"  # nine exposed is not the target
    game.apply(1, discard("5B"))
    return game


def test_C_END_2_TC_GOAL_1_emptying_the_hand_with_nine_exposed_does_not_win():
    game = torno_nine_exposed_empty_hand(["11B", "12O"])
    assert hand(game, 1) == [] and len(exposed(game, 1)) == 9
    assert game.outcome is None and not game.is_over
    assert available(game) == offered("5B", 0, False)


def test_C_END_2_with_an_empty_hand_only_a_card_fitting_alone_can_be_taken():
    game = torno_nine_exposed_empty_hand(["11B", "12O"])
    game.apply(0, reject())  # 5B
    game.apply(0, pass_())  # 11B
    assert available(game) == offered("11B", 1, False)
    assert game.legal_actions(1) == [reject()]
    assert_refused(game, 1, use(), "no_valid_arrangement")
    game.apply(1, reject())
    assert available(game) == offered("12O", 1, True)
    assert game.legal_actions(1) == [use()]  # it fits: it must be taken (TC-FORCE-2), and it wins
    game.apply(1, use())
    assert game.state_json()["outcome"] == {"result": "win", "winner": 1, "how": "target_reached"}


def test_RUL_6_torno_a_forced_card_reaching_the_target_wins_for_the_receiver():
    game = torno_nine_exposed_empty_hand(["12O"])
    game.apply(0, reject())  # 5B; 12O is revealed for seat 0
    assert available(game) == offered("12O", 0, True)
    game.apply(0, force())
    assert len(exposed(game, 1)) == 10
    assert game.state_json()["outcome"] == {"result": "win", "winner": 1, "how": "forced_to_target"}
    assert game.phase == "over" and game.to_act == ()  # no discard
    assert_refused(game, 1, discard("5B"), "game_over")


AA_END_H1 = ["AS", "AD", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "KS"]
AA_END_H0 = ["2S", "4S", "6D", "JD", "QS", "KD", "3C", "7C", "JC", "2D"]


def anglo_ten_exposed_empty_hand(top):
    game = deal(AA, [AA_END_H0, AA_END_H1], top=["AC", *top])
    game.apply(1, use("AS", "AD", "2H", "3H", "4H", "5H", "6H", "7H", "JH"))
    assert len(exposed(game, 1)) == 10 and game.phase == "discard"
    game.apply(1, discard("KS"))
    return game


def test_AA_GOAL_1_ten_exposed_and_an_empty_hand_do_not_win():
    game = anglo_ten_exposed_empty_hand(["5C", "QH"])
    assert hand(game, 1) == [] and game.outcome is None
    game.apply(0, reject())
    game.apply(0, pass_())  # 5C
    assert game.legal_actions(1) == [reject()]
    assert_refused(game, 1, use(), "no_valid_arrangement")
    game.apply(1, reject())
    assert available(game) == offered("QH", 1, True)
    assert use() in game.legal_actions(1)
    game.apply(1, use())
    assert game.state_json()["outcome"] == {"result": "win", "winner": 1, "how": "target_reached"}
    assert len(exposed(game, 1)) == 11


def test_RUL_6_anglo_a_forced_card_reaching_the_target_wins_for_the_receiver():
    game = anglo_ten_exposed_empty_hand(["5C", "QH"])
    game.apply(0, reject())
    game.apply(0, pass_())
    game.apply(1, reject())
    game.apply(1, pass_())  # QH fits seat 1's melds: seat 0 decides
    assert game.phase == "force_decision"
    game.apply(0, force())
    assert game.state_json()["outcome"] == {"result": "win", "winner": 1, "how": "forced_to_target"}
    assert game.phase == "over"


# === C-END-3, TC-END-1, AA-END-1, RUL-9: stock exhaustion ====================================================

PAIR = {TC.id: ("12C", "12E", "12B"), AA.id: ("KH", "KD", "KS")}


def exhaustion_deal(profile) -> Game:
    """Seat 1 holds two cards of a rank whose third is the bottom card of the stock. Everything is
    passed or rejected until the stock is empty; the last revealed card is seat 0's."""
    a, b, last = PAIR[profile.id]
    others = [c for c in all_cards(profile) if c not in (a, b, last)]
    n = profile.hand_size
    h1 = [a, b] + others[: n - 2]
    h0 = others[n - 2 : 2 * n - 2]
    stock = others[2 * n - 2 :] + [last]
    game = Game.from_deal(profile, [h0, h1], stock, 0)
    if profile.exchange_cards:
        game.apply(0, exchange(h0[0]))
        game.apply(1, exchange(h1[-1]))
    while game.stock_count > 0:
        seat = game.to_act[0]
        game.apply(seat, pass_() if available(game)["revealed"] else reject())
    assert available(game) == offered(last, 0, True)
    return game


@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_RUL_9_passing_with_an_empty_stock_does_not_end_the_deal(profile):
    game = exhaustion_deal(profile)
    _, _, last = PAIR[profile.id]
    game.apply(0, pass_())
    assert game.outcome is None and game.phase == "play"
    assert available(game) == offered(last, 1, False)


@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_C_END_3_rejecting_with_an_empty_stock_is_a_draw(profile):
    game = exhaustion_deal(profile)
    _, _, last = PAIR[profile.id]
    game.apply(0, pass_())
    game.apply(1, reject())
    state = game.state_json()
    assert state["outcome"] == {"result": "draw", "winner": None, "how": "stock_exhausted"}
    assert state["phase"] == "over" and state["available"] is None
    assert state["out_of_play"][-1] == last
    assert len(state["out_of_play"]) == profile.stock_size
    assert_refused(game, 0, use(), "game_over")
    assert_refused(game, 1, use(), "game_over")


@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_C_END_3_the_last_card_keeps_its_chance_of_being_used(profile):
    game = exhaustion_deal(profile)
    a, b, last = PAIR[profile.id]
    game.apply(0, pass_())
    assert use(a, b) in game.legal_actions(1)
    game.apply(1, use(a, b))
    assert sorted(exposed(game, 1)) == sorted([a, b, last])
    assert game.outcome is None
    discarded = hand(game, 1)[0]
    game.apply(1, discard(discarded))
    # the discard is still playable; rejecting it, with no card to reveal, is the draw
    assert available(game) == offered(discarded, 0, False)
    game.apply(0, reject())
    assert game.state_json()["outcome"] == {"result": "draw", "winner": None, "how": "stock_exhausted"}


def test_TC_END_1_the_last_card_keeps_its_chance_of_being_forced():
    # Seat 1 melds 1O-2O-3O on the opening card; 4O is the bottom card of the stock.
    others = [c for c in all_cards(TC) if c not in ("1O", "2O", "3O", "4O")]
    h1 = ["2O", "3O"] + others[:7]
    h0 = others[7:16]
    game = Game.from_deal(TC, [h0, h1], ["1O"] + others[16:] + ["4O"], 0)
    game.apply(0, exchange(h0[0]))
    game.apply(1, exchange(h1[-1]))
    game.apply(1, use("2O", "3O"))
    game.apply(1, discard(hand(game, 1)[-1]))
    while game.stock_count > 0:
        seat = game.to_act[0]
        game.apply(seat, pass_() if available(game)["revealed"] else reject())
    assert available(game) == offered("4O", 0, True)
    assert force() in game.legal_actions(0)
    game.apply(0, force())
    assert exposed(game, 1) == ["1O", "2O", "3O", "4O"]
    game.apply(1, discard(hand(game, 1)[0]))
    assert game.outcome is None
    game.apply(0, reject())
    assert game.state_json()["outcome"] == {"result": "draw", "winner": None, "how": "stock_exhausted"}


def anglo_last_card_fits_seat_1():
    """Seat 1 melds AH-2H-3H on the opening card; 4H, the only card fitting it, is the bottom of
    the stock. Everything else is passed or rejected; the last card is revealed for seat 0, who
    passes it to seat 1."""
    others = [c for c in all_cards(AA) if c not in ("AH", "2H", "3H", "4H")]
    h1 = ["2H", "3H"] + others[:8]
    h0 = others[8:18]
    game = Game.from_deal(AA, [h0, h1], ["AH"] + others[18:] + ["4H"], 0)
    game.apply(1, use("2H", "3H"))
    game.apply(1, discard(hand(game, 1)[-1]))
    while game.stock_count > 0:
        seat = game.to_act[0]
        game.apply(seat, pass_() if available(game)["revealed"] else reject())
    assert available(game) == offered("4H", 0, True)
    game.apply(0, pass_())
    assert available(game) == offered("4H", 1, False)
    return game


def test_AA_END_1_a_declined_reject_with_an_empty_stock_is_a_draw():
    game = anglo_last_card_fits_seat_1()
    game.apply(1, reject())
    assert game.phase == "force_decision" and game.outcome is None
    game.apply(0, decline())
    assert game.state_json()["outcome"] == {"result": "draw", "winner": None, "how": "stock_exhausted"}
    assert game.state_json()["out_of_play"][-1] == "4H"


def test_AA_END_1_a_forced_last_card_keeps_the_deal_going():
    game = anglo_last_card_fits_seat_1()
    game.apply(1, reject())
    game.apply(0, force())
    assert exposed(game, 1) == ["AH", "2H", "3H", "4H"]
    assert game.phase == "discard" and game.outcome is None
    game.apply(1, discard(hand(game, 1)[0]))
    game.apply(0, reject())
    assert game.state_json()["outcome"] == {"result": "draw", "winner": None, "how": "stock_exhausted"}


# === precedence of the reason codes (docs/rules/reasons.md) ==============================================


def test_precedence_game_over_before_not_your_turn():
    h1 = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH", "AS"]
    h0 = ["2S", "4S", "6D", "JD", "QS", "KD", "3C", "7C", "JC", "2D"]
    game = deal(AA, [h0, h1], top=["AD"])
    game.apply(1, use(*h1))
    assert_refused(game, 0, discard("2S"), "game_over")
    assert_refused(game, 1, discard("2S"), "game_over")


def test_precedence_not_your_turn_before_must_exchange():
    game = deal(TC, [TC_H0, TC_H1], top=["1O"])
    game.apply(0, exchange("1B"))
    assert_refused(game, 0, use(), "not_your_turn")


def test_precedence_phase_codes_before_card_not_in_hand():
    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    game.apply(1, use("2H", "3H"))
    # the seat that must discard sends a use naming a card it does not hold
    assert_refused(game, 1, use("AS"), "must_discard")
    assert_refused(game, 1, exchange("AS"), "must_discard")
    game.apply(1, discard("KS"))
    # a discard of a card not held, outside the discard step
    assert_refused(game, 0, discard("KS"), "no_discard_now")


def test_precedence_card_not_in_hand_before_no_valid_arrangement():
    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    assert_refused(game, 1, use("AS", "KD"), "card_not_in_hand")
    # naming the available card itself in a use
    assert_refused(game, 1, use("AH", "2H", "3H"), "card_not_in_hand")


def test_precedence_cannot_pass_before_fitting_card_must_be_taken():
    game = torno_card_fitting_both()
    assert_refused(game, 1, pass_(), "cannot_pass_rival_card")
    game = torno_after_opening_meld(["10C", "4O"])
    game.apply(0, pass_())
    game.apply(1, reject())
    assert_refused(game, 1, reject(), "cannot_reject_revealed")


def test_a_seat_that_is_not_0_or_1_is_malformed_not_refused():
    from conquian_ref.engine.errors import MalformedInput

    game = deal(AA, [AA_H0, AA_H1], top=["AH"])
    before = game.state_json()
    for seat in (2, -1, True, "1", None):
        with pytest.raises(MalformedInput) as info:
            game.apply(seat, pass_())
        assert info.value.field == "seat"
    assert game.state_json() == before


def test_RUL_38_a_use_that_leaves_no_card_to_discard_is_refused():
    # RUL-38 (spielanleitung-partnership-v1): a non-winning take is followed by a discard, so a
    # use that would empty the seat's hand while the team is short of 15 cannot be made.
    pt = load_profile("spielanleitung-partnership-v1")
    hands = [
        ["2H", "3H", "4H", "5H", "6H", "7H", "JH"],  # seat 0, the first player (seat 3 deals)
        ["2S", "4S", "6S", "JS", "2D", "4D", "6D"],
        ["3S", "5S", "7S", "QS", "3D", "5D", "7D"],
        ["KS", "JD", "QD", "KD", "2C", "4C", "6C"],
    ]
    used = {c for h in hands for c in h} | {"AH"}
    stock = ["AH"] + [c for c in all_cards(pt) if c not in used]
    game = Game.from_deal(pt, hands, stock, dealer=3)
    assert game.to_act == (0,) and available(game) == {"card": "AH", "revealed": True, "offered_to": 0}
    everything = use("2H", "3H", "4H", "5H", "6H", "7H", "JH")  # one run of 8: team at 8 of 15
    assert everything not in game.legal_actions(0)
    assert_refused(game, 0, everything, "no_card_to_discard")
    game.apply(0, use("2H", "3H", "4H", "5H", "6H", "7H"))  # keeps JH to discard
    assert game.phase == "discard" and hand(game, 0) == ["JH"]


def test_every_reason_code_is_pinned_by_a_scripted_test():
    # a guard for this file: every reason of refusals.REASONS appears in some assert_refused above
    import inspect
    import sys

    source = inspect.getsource(sys.modules[__name__])
    for reason in REASONS:
        assert f'"{reason}")' in source, reason
