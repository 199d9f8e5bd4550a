"""Mutants of the deal, the exchange and the opening: C-DEAL-1, RUL-10, RUL-15, the exchange
and its privacy (RUL-12), the opening card (RUL-7)."""

from __future__ import annotations

import dataclasses

from ...engine.dealing import deal
from ...engine.phases import PHASES, SEATS, Phase
from ...engine.policies import OpeningStyle
from ...engine.refusals import BY_CODE
from .base import observation, phase, reference_step, refusal, step
from .registry import mutant


# == the deal (C-DEAL-1, RUL-10, RUL-15, TC-DEAL-1, AA-DEAL-1) =====================================
# C-DEAL-1: packets go "alternately to the non-dealer and the dealer, non-dealer first".
def _deal_dealer_first(profile, order, dealer):
    before = next(s for s in profile.seats if profile.next_seat(s) == dealer)
    return deal(profile, order, before)  # deal() serves the seat after its `dealer` first


mutant("dealer-gets-first-card", ["C-DEAL-1", "RUL-10", "TC-DEAL-1", "AA-DEAL-1"], "the dealer, not the non-dealer, receives the first card of the deal",
       replaces={"deal": _deal_dealer_first})


# RUL-10: "one card at a time, alternately" (deal.packet_size: 1); this profile says 2.
mutant("deal-in-pairs", ["RUL-10", "C-DEAL-1"], "cards are dealt in packets of two instead of one at a time",
       profile={"packet_size": 2})


# RUL-15: "index 0 is the top card"; this engine deals from the other end.
mutant("deck-top-is-last", ["RUL-15", "C-DEAL-1"], "the last card of the deck order is the top",
       replaces={"deal": lambda profile, order, dealer: deal(profile, order[::-1], dealer)})


# C-DEAL-1: "The cards left form the stock in the same order, the first of them on top".
def _deal_stock_reversed(profile, order, dealer):
    hands, stock = deal(profile, order, dealer)
    return hands, stock[::-1]


mutant("stock-reversed", ["C-DEAL-1", "RUL-15"], "after the deal the stock is turned over: the last card of the deck order is revealed first",
       replaces={"deal": _deal_stock_reversed})


# == the exchange (TC-XCH-1, TC-XCH-2, RUL-12) =====================================================
# TC-XCH-1: "when both are made the two cards are swapped"; here each seat keeps its own.
def _swap_nothing(game):
    hands = list(game.hands)
    reference_step("swap_picks")(game)  # logged and followed by the opening, as in the reference
    game.hands = hands


mutant("exchange-without-swap", ["TC-XCH-1"], "both seats pick a card but the picks are never swapped",
       replaces={"steps.swap_picks": step("swap_picks", _swap_nothing)})


# TC-XCH-1: both picks are made "in any order"; here the dealer may pick only second.
def _non_dealer_picks_first(game):
    first = game.profile.next_seat(game.dealer)
    return (first,) if game.picks[first] is None else PHASES[Phase.EXCHANGE].seats(game)


mutant("exchange-in-fixed-order", ["TC-XCH-1"], "the non-dealer must pick first; the dealer waits",
       replaces={"phases.exchange": phase(Phase.EXCHANGE, seats=_non_dealer_picks_first)})


# reasons.md: not_your_turn covers "a seat that has already made its exchange pick", and it
# comes before the phase codes; here such a seat is told must_exchange (the next row).
mutant("picked-seat-must-exchange", ["TC-XCH-1", "C-TURN-6"], "a seat that has already picked is told must_exchange instead of not_your_turn", replaces={
    "refusals.not_your_turn": refusal(
        "not_your_turn", lambda g, s, a, ref: ref(g, s, a) and not (g.phase == Phase.EXCHANGE and a.type != "exchange")
    ),
})


# reasons.md: exchange_over is given for "an exchange after the exchange phase" in a profile that has one.
mutant("exchange-over-not-in-profile", ["TC-XCH-1"], "a second exchange, in a profile with an exchange, is refused as not_in_profile instead of exchange_over", replaces={
    "refusals.exchange_over": dataclasses.replace(BY_CODE["exchange_over"], code="not_in_profile", message="no exchange now"),
})


# TC-XCH-1: "each player must pick exactly one card"; here a seat may change its mind.
mutant("pick-may-be-changed", ["TC-XCH-1"], "a seat may pick again, replacing its pick, until the rival has picked",
       replaces={"phases.exchange": phase(Phase.EXCHANGE, seats=lambda game: SEATS)})


# TC-XCH-1 / TC-OPEN-1: the exchange comes "Before the opening"; "After the exchange the top
# stock card is revealed". Here it is face up during the exchange.
def _begin_with_the_opening_card(game):
    reference_step("begin")(game)
    if game.phase == Phase.EXCHANGE:
        game.active = game.profile.next_seat(game.dealer)
        game.run("reveal")


def _opening_card_already_revealed(game):
    if game.available is None:
        return reference_step("reveal_opening")(game)
    game.phase, game.active = Phase.PLAY, game.profile.next_seat(game.dealer)


mutant("opening-before-exchange", ["TC-XCH-1", "TC-OPEN-1"], "the opening card is revealed at the deal, before the exchange", replaces={
    "steps.begin": step("begin", _begin_with_the_opening_card),
    "steps.reveal_opening": step("reveal_opening", _opening_card_already_revealed),
})


# TC-XCH-2: "neither may see the other's pick before making their own"; this history shows it.
def _pick_logged(game, seat, act):
    game.log("pick", seat=seat, card=game.deck.name(act.card))
    reference_step("exchange.exchange")(game, seat, act)


mutant("exchange-pick-logged", ["TC-XCH-2", "C-OBS-1"], "each exchange pick is written in the public history at once",
       replaces={"steps.exchange.exchange": step("exchange.exchange", _pick_logged)})


# RUL-12: "that the rival has picked is public"; this observation always says it has not.
def _rival_never_picked(game, obs):
    if obs.get("exchange") and "rival_picked" in obs["exchange"]:
        obs["exchange"]["rival_picked"] = False


mutant("rival-pick-not-public", ["RUL-12", "TC-XCH-2"], "the observation never says that the rival has picked",
       replaces={"observe": observation(_rival_never_picked)})


# TC-XCH-2: "Each player knows the card they gave and the card they received"; this observation drops them.
def _exchange_forgotten(game, obs):
    if obs.get("exchange") and "gave" in obs["exchange"]:
        obs["exchange"] = None


mutant("exchange-forgotten", ["TC-XCH-2", "C-OBS-1"], "after the swap the observation forgets the card given and received",
       replaces={"observe": observation(_exchange_forgotten)})


# == the opening (TC-OPEN-1, AA-OPEN-1, RUL-7) ======================================================
# TC-OPEN-1 / AA-OPEN-1: the top stock card is revealed and "offered to the non-dealer". (As the
# old mutant did, the card is not marked as the opening card: to the engine it is a drawn card.)
def _reveal_for_dealer(game):
    game.phase, game.active = Phase.PLAY, game.dealer
    game.run("reveal")


mutant("opening-to-dealer", ["TC-OPEN-1", "AA-OPEN-1", "RUL-7"], "the opening card is offered to the dealer",
       replaces={"steps.reveal_opening": step("reveal_opening", _reveal_for_dealer)})


# TC-OPEN-1 / RUL-7: the opening card is freshly revealed: "use it or pass it, and must not reject it".
def _reveal_count(game) -> int:
    return sum(e["event"] == "reveal" for e in game.history)


mutant("opening-may-be-rejected", ["TC-OPEN-1", "AA-OPEN-1", "RUL-7"], "the opening card may be rejected like a rival's card", replaces={
    "refusals.cannot_reject_revealed": refusal("cannot_reject_revealed", lambda g, s, a, ref: ref(g, s, a) and _reveal_count(g) != 1),
})


# == the two offers of the starter (SA-OPEN-1, RUL-20) ===============================================
# SA-OPEN-1 / RUL-20: when the dealer refuses the starter "the top stock card is drawn face up
# for the non-dealer"; this engine reads the opening as RUL-7's, where a reject reveals for
# the seat that rejected.
mutant("starter-refused-draws-for-dealer", ["SA-OPEN-1", "RUL-20"], "after both offers of the starter are refused, the next card is revealed for the dealer, as after any reject",
       profile=lambda p: {"opening_style": OpeningStyle.REVEALED_TO_NON_DEALER} if p.opening_style == OpeningStyle.OFFERED_TO_BOTH_THEN_DRAW else {})
