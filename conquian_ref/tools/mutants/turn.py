"""Mutants of a turn: use and discard (C-TURN-2, C-TURN-3, C-TURN-6), reject and reveal
(C-TURN-4, C-TURN-5, C-TURN-7, RUL-8), pass (C-TURN-5)."""

from __future__ import annotations

from ...engine.cards import bit
from ...engine.game import Game, other
from ...engine.outcome import How, Outcome
from ...engine.phases import Phase
from .base import MutantAdapter, MutantGame
from .registry import mutant


# == use and discard (C-TURN-2, C-TURN-3, C-TURN-6) ================================================
@mutant("taken-card-kept-in-hand", ["C-TURN-6", "C-TURN-2", "AA-EX-1"], "a card that melds with nothing may be taken into the hand (use with no cards)")
class TakenCardKeptInHand(MutantGame):
    # C-TURN-6: a player must not "keep a taken card in hand"; here an empty use of a card that
    # fits no arrangement puts it in the hand, and a discard follows.
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0] == "no_valid_arrangement" and not act.cards:
            return None
        return refusal

    def _do_use(self, seat, act):
        if act.cards or self.table.arrangeable(self.exposed[seat] | bit(self.available)):
            return super()._do_use(seat, act)
        self.hands[seat] |= bit(self.available)
        self.available, self.revealed = None, False
        self.phase, self.discarder = Phase.DISCARD, seat


@mutant("use-may-name-available", ["C-TURN-2"], "a use may list the available card among its hand cards")
class UseMayNameAvailable(MutantGame):
    # C-TURN-2 / reasons.md: the action names hand cards; "naming the available card itself in a
    # use is also this case" (card_not_in_hand). Here the available card is silently dropped.
    def _without_available(self, act):
        return act._replace(cards=act.cards & ~bit(self.available)) if act.type == "use" and self.available is not None else act

    def _refusal(self, seat, act):
        return super()._refusal(seat, self._without_available(act))

    def _do_use(self, seat, act):
        super()._do_use(seat, self._without_available(act))

    def extra_candidates(self, seat):
        return {a._replace(cards=a.cards | bit(self.available)) for a in Game.legal(self, seat) if a.type == "use"}


@mutant("arrangement-before-hand-check", ["C-TURN-2"], "a use naming a card not held that would also not arrange is refused as no_valid_arrangement")
class ArrangementBeforeHandCheck(MutantGame):
    # reasons.md, precedence: card_not_in_hand comes before no_valid_arrangement ("a use that names
    # a card not held and would also have no arrangement is card_not_in_hand").
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0] == "card_not_in_hand" and act.type == "use" and self.phase == Phase.PLAY:
            if not self.table.arrangeable(self.exposed[seat] | bit(self.available) | act.cards):
                return "no_valid_arrangement", "no valid arrangement"
        return refusal


@mutant("discard-is-fresh", ["C-TURN-3", "C-TURN-5"], "a discard reaches the rival as a freshly revealed card (pass, not reject)")
class DiscardIsFresh(MutantGame):
    # C-TURN-3 / C-TURN-5: the discard is a card "offered by the rival": used, rejected or forced, never passed.
    def _do_discard(self, seat, act):
        super()._do_discard(seat, act)
        self.revealed = True


@mutant("discard-goes-out-of-play", ["C-TURN-3"], "the discard goes out of play and a stock card is revealed for the rival")
class DiscardGoesOutOfPlay(MutantGame):
    # C-TURN-3: "The discarded card becomes the available card, offered to the rival".
    def _do_discard(self, seat, act):
        super()._do_discard(seat, act)
        self.out_of_play.append(self.available)
        if self._stock:
            self._reveal()
        else:
            self._end(Outcome("draw", None, How.STOCK_EXHAUSTED))


# == reject and reveal (C-TURN-4, C-TURN-5, C-TURN-7, RUL-8) ========================================
@mutant("reject-reveals-for-rival", ["C-TURN-4"], "after a reject the next stock card is offered to the rival")
class RejectRevealsForRival(MutantGame):
    # C-TURN-4: the top stock card is revealed "as the new available card, offered to the same player".
    def _reject(self, seat):
        self.active = other(seat)
        super()._reject(seat)


@mutant("reject-reveals-bottom-card", ["C-TURN-4"], "a reject reveals the bottom card of the stock instead of the top one")
class RejectRevealsBottomCard(MutantGame):
    # C-TURN-4: "the top stock card is revealed as the new available card".
    def _reject(self, seat):
        self._stock.reverse()
        super()._reject(seat)
        self._stock.reverse()


@mutant("revealed-card-may-be-rejected", ["C-TURN-5"], "a card revealed after a reject may itself be rejected")
class RevealedCardMayBeRejected(MutantGame):
    # C-TURN-5: "A freshly revealed card (the opening card, or a card revealed after a reject) must
    # not be rejected"; here only the opening card is protected.
    def _refusal(self, seat, act):
        if act.type == "reject" and self.revealed and self._reveal_count() > 1:
            return self._refusal_as_if(seat, act, revealed=False)
        return super()._refusal(seat, act)


@mutant("rejected-card-to-stock", ["C-TURN-7", "RUL-8"], "a rejected card goes under the stock instead of out of play")
class RejectedCardToStock(MutantGame):
    # C-TURN-7: "Out-of-play cards must never come back into play"; here a rejected card is recycled.
    def _reject(self, seat):
        if not self.pending:
            self._log("reject", seat=seat, card=self.deck.name(self.available))
        self._stock.insert(0, self.available)  # the bottom: the stock's top is its last item
        self.available = None
        self._reveal()


@mutant("stock-rebuilt-from-rejects", ["C-TURN-7", "C-END-3"], "when the stock runs out the rejected cards become a new stock")
class StockRebuiltFromRejects(MutantGame):
    # C-TURN-7: "the stock is never rebuilt or reshuffled"; here a reject with an empty stock rebuilds it.
    def _reject(self, seat):
        if not self._stock:
            self._stock = list(reversed(self.out_of_play + [self.available]))
            self.out_of_play, self.available = [], None
            return self._reveal()
        super()._reject(seat)


@mutant("out-of-play-hidden", ["RUL-8", "C-OBS-1"], "the observation does not show the out-of-play cards")
class OutOfPlayHidden(MutantAdapter):
    # RUL-8: rejected cards are "out of play for good and public in every observation".
    def change_observation(self, obs):
        obs["out_of_play"] = []


# == pass (C-TURN-5) =================================================================================
@mutant("pass-back-rival-card", ["C-TURN-5"], "a card offered by the rival may be passed back")
class PassBackRivalCard(MutantGame):
    # C-TURN-5: "A card offered by the rival must not be passed back".
    def _refusal(self, seat, act):
        if act.type == "pass" and self.phase == Phase.PLAY and not self.revealed:
            return self._refusal_as_if(seat, act, revealed=True)
        return super()._refusal(seat, act)


@mutant("passed-card-stays-fresh", ["C-TURN-5"], "a passed card reaches the rival as a freshly revealed card")
class PassedCardStaysFresh(MutantGame):
    # C-TURN-5: the rival may use or reject a passed card "but not pass it back": it is the rival's card now.
    def _pass(self, seat):
        super()._pass(seat)
        self.revealed = True


# == discard-then-meld: the taken card is placed first (SADM-ARR-1, RUL-35) ===========================
@mutant("placement-allows-borrowing", ["SADM-ARR-1", "RUL-35"], "under discard-then-meld a use may rearrange the exposed melds, as in the baseline")
class PlacementAllowsBorrowing(MutantAdapter):
    # SADM-ARR-1: the taken card is placed "before any borrowing", "with no exposed card moved";
    # this engine lets the use rearrange freely (SA-ARR-1).
    def change_profile(self, p):
        return {"meld_timing": "with_take"} if p.meld_timing == "discard_then_meld" else {}


# == four seats: cards go to the next seat (SAPT-TURN-1, RUL-39) ======================================
@mutant("discard-to-the-partner", ["SAPT-TURN-1", "RUL-39"], "with four seats a discard is offered to the partner, not to the next seat")
class DiscardToThePartner(MutantGame):
    # SAPT-TURN-1: a discard "is offered to the next seat in playing order, always an opponent".
    def _do_discard(self, seat, act):
        super()._do_discard(seat, act)
        if len(self.profile.seats) == 4:
            self.active = (seat + 2) % 4
