"""Mutants of the deal, the exchange and the opening: C-DEAL-1, RUL-10, RUL-15, the exchange
and its privacy (RUL-12), the opening card (RUL-7)."""

from __future__ import annotations

from ...engine.cards import mask_of
from ...engine.dealing import deal
from ...engine.game import SEATS, other
from ...engine.phases import Phase
from .base import MutantAdapter, MutantGame
from .registry import mutant


# == the deal (C-DEAL-1, RUL-10, RUL-15, TC-DEAL-1, AA-DEAL-1) =====================================
@mutant("dealer-gets-first-card", ["C-DEAL-1", "RUL-10", "TC-DEAL-1", "AA-DEAL-1"], "the dealer, not the non-dealer, receives the first card of the deal")
class DealerGetsFirstCard(MutantGame):
    # C-DEAL-1: packets go "alternately to the non-dealer and the dealer, non-dealer first".
    @classmethod
    def _dealt(cls, profile, order, dealer):
        hands, stock = deal(profile, order, other(dealer))  # deal() serves the seat after its `dealer` first
        return cls(profile, [mask_of(h) for h in hands], stock, dealer)


@mutant("deal-in-pairs", ["RUL-10", "C-DEAL-1"], "cards are dealt in packets of two instead of one at a time")
class DealInPairs(MutantAdapter):
    # RUL-10: "one card at a time, alternately" (deal.packet_size: 1); this profile says 2.
    def change_profile(self, p):
        return {"packet_size": 2}


@mutant("deck-top-is-last", ["RUL-15", "C-DEAL-1"], "the last card of the deck order is the top")
class DeckTopIsLast(MutantGame):
    # RUL-15: "index 0 is the top card"; this engine deals from the other end.
    @classmethod
    def _dealt(cls, profile, order, dealer):
        return super()._dealt(profile, order[::-1], dealer)


@mutant("stock-reversed", ["C-DEAL-1", "RUL-15"], "after the deal the stock is turned over: the last card of the deck order is revealed first")
class StockReversed(MutantGame):
    # C-DEAL-1: "The cards left form the stock in the same order, the first of them on top".
    @classmethod
    def _dealt(cls, profile, order, dealer):
        hands, stock = deal(profile, order, dealer)
        return cls(profile, [mask_of(h) for h in hands], stock[::-1], dealer)


# == the exchange (TC-XCH-1, TC-XCH-2, RUL-12) =====================================================
@mutant("exchange-without-swap", ["TC-XCH-1"], "both seats pick a card but the picks are never swapped")
class ExchangeWithoutSwap(MutantGame):
    # TC-XCH-1: "when both are made the two cards are swapped"; here each seat keeps its own.
    def _do_exchange(self, seat, act):
        hands = list(self.hands)
        super()._do_exchange(seat, act)
        self.hands = hands


@mutant("exchange-in-fixed-order", ["TC-XCH-1"], "the non-dealer must pick first; the dealer waits")
class ExchangeInFixedOrder(MutantGame):
    # TC-XCH-1: both picks are made "in any order"; here the dealer may pick only second.
    @property
    def to_act(self):
        first = other(self.dealer)
        if self.phase == Phase.EXCHANGE and self.picks[first] is None:
            return (first,)
        return super().to_act


@mutant("picked-seat-must-exchange", ["TC-XCH-1", "C-TURN-6"], "a seat that has already picked is told must_exchange instead of not_your_turn")
class PickedSeatMustExchange(MutantGame):
    # reasons.md: not_your_turn covers "a seat that has already made its exchange pick", and it
    # comes before the phase codes.
    def _refusal(self, seat, act):
        if self.phase == Phase.EXCHANGE and seat not in self.to_act and act.type != "exchange":
            return "must_exchange", "the exchange is not complete"
        return super()._refusal(seat, act)


@mutant("exchange-over-not-in-profile", ["TC-XCH-1"], "a second exchange, in a profile with an exchange, is refused as not_in_profile instead of exchange_over")
class ExchangeOverNotInProfile(MutantGame):
    # reasons.md: exchange_over is given for "an exchange after the exchange phase" in a profile that has one.
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        return ("not_in_profile", "no exchange now") if refusal and refusal[0] == "exchange_over" else refusal


@mutant("pick-may-be-changed", ["TC-XCH-1"], "a seat may pick again, replacing its pick, until the rival has picked")
class PickMayBeChanged(MutantGame):
    # TC-XCH-1: "each player must pick exactly one card"; here a seat may change its mind.
    @property
    def to_act(self):
        return SEATS if self.phase == Phase.EXCHANGE else super().to_act


@mutant("opening-before-exchange", ["TC-XCH-1", "TC-OPEN-1"], "the opening card is revealed at the deal, before the exchange")
class OpeningBeforeExchange(MutantGame):
    # TC-XCH-1 / TC-OPEN-1: the exchange comes "Before the opening"; "After the exchange the top
    # stock card is revealed". Here it is face up during the exchange.
    def __init__(self, profile, hands, stock, dealer):
        super().__init__(profile, hands, stock, dealer)
        if self.phase == Phase.EXCHANGE:
            self.active = other(dealer)
            self._reveal()

    def _reveal_opening(self):
        if self.available is None:
            return super()._reveal_opening()
        self.phase, self.active = Phase.PLAY, other(self.dealer)


@mutant("exchange-pick-logged", ["TC-XCH-2", "C-OBS-1"], "each exchange pick is written in the public history at once")
class ExchangePickLogged(MutantGame):
    # TC-XCH-2: "neither may see the other's pick before making their own"; this history shows it.
    def _do_exchange(self, seat, act):
        self._log("pick", seat=seat, card=self.deck.name(act.card))
        super()._do_exchange(seat, act)


@mutant("rival-pick-not-public", ["RUL-12", "TC-XCH-2"], "the observation never says that the rival has picked")
class RivalPickNotPublic(MutantAdapter):
    # RUL-12: "that the rival has picked is public"; this observation always says it has not.
    def change_observation(self, obs):
        if obs.get("exchange") and "rival_picked" in obs["exchange"]:
            obs["exchange"]["rival_picked"] = False


@mutant("exchange-forgotten", ["TC-XCH-2", "C-OBS-1"], "after the swap the observation forgets the card given and received")
class ExchangeForgotten(MutantAdapter):
    # TC-XCH-2: "Each player knows the card they gave and the card they received"; this observation drops them.
    def change_observation(self, obs):
        if obs.get("exchange") and "gave" in obs["exchange"]:
            obs["exchange"] = None


# == the opening (TC-OPEN-1, AA-OPEN-1, RUL-7) ======================================================
@mutant("opening-to-dealer", ["TC-OPEN-1", "AA-OPEN-1", "RUL-7"], "the opening card is offered to the dealer")
class OpeningToDealer(MutantGame):
    # TC-OPEN-1 / AA-OPEN-1: the top stock card is revealed and "offered to the non-dealer".
    def _reveal_opening(self):
        self.phase, self.active = Phase.PLAY, self.dealer
        self._reveal()


@mutant("opening-may-be-rejected", ["TC-OPEN-1", "AA-OPEN-1", "RUL-7"], "the opening card may be rejected like a rival's card")
class OpeningMayBeRejected(MutantGame):
    # TC-OPEN-1 / RUL-7: the opening card is freshly revealed: "use it or pass it, and must not reject it".
    def _refusal(self, seat, act):
        if act.type == "reject" and self.revealed and self._reveal_count() == 1:
            return self._refusal_as_if(seat, act, revealed=False)
        return super()._refusal(seat, act)


# == the two offers of the starter (SA-OPEN-1, RUL-20) ===============================================
@mutant("starter-refused-draws-for-dealer", ["SA-OPEN-1", "RUL-20"], "after both offers of the starter are refused, the next card is revealed for the dealer, as after any reject")
class StarterRefusedDrawsForDealer(MutantAdapter):
    # SA-OPEN-1 / RUL-20: when the dealer refuses the starter "the top stock card is drawn face up
    # for the non-dealer"; this engine reads the opening as RUL-7's, where a reject reveals for
    # the seat that rejected.
    def change_profile(self, p):
        return {"opening_style": "revealed_to_non_dealer"} if p.opening_style == "offered_to_both_then_draw" else {}
