"""Mutants of the end of a deal (C-END-1..4, the profiles' goal rules, RUL-9), of turn order
(C-TURN-1, C-TURN-6) and of the reason codes and their precedence (docs/rules/reasons.md)."""

from __future__ import annotations

from ...engine.cards import bit
from ...engine.game import SEATS
from ...engine.match import Match
from ...engine.melds import MeldTable
from ...engine.outcome import How, Outcome
from ...engine.phases import Phase
from .base import MutantAdapter, MutantGame, MutantTable
from .registry import mutant


# == the end of a deal (C-END-1..4, TC-GOAL-1, AA-GOAL-1, RUL-9) =====================================
@mutant("forced-win-recorded-as-use", ["RUL-6"], "a win by a forced card is recorded as target_reached instead of forced_to_target")
class ForcedWinRecordedAsUse(MutantGame):
    # RUL-6: "The outcome records how: forced_to_target".
    def _take(self, receiver, how):
        super()._take(receiver, How.TARGET_REACHED)


@mutant("no-win-at-target", ["C-END-1", "TC-GOAL-1", "AA-GOAL-1"], "a use reaching the target does not win: the discard step follows as after any take")
class NoWinAtTarget(MutantGame):
    # C-END-1: "A player whose exposed cards reach the profile's target wins at once, without discarding".
    def _take(self, receiver, how):
        if how == How.TARGET_REACHED:
            return self._take_without_win(receiver)
        super()._take(receiver, how)


@mutant("empty-hand-wins", ["C-END-2", "TC-GOAL-1", "AA-GOAL-1"], "discarding the last hand card wins the deal")
class EmptyHandWins(MutantGame):
    # C-END-2: "A player who discards the last hand card with target - 1 cards exposed has not won".
    def _do_discard(self, seat, act):
        super()._do_discard(seat, act)
        if not self.hands[seat]:
            self._end(Outcome("win", seat, How.TARGET_REACHED))


@mutant("target-one-less", ["TC-GOAL-1", "AA-GOAL-1", "RUL-1"], "the target is one card less (9 in torno, 10 in anglo)")
class TargetOneLess(MutantAdapter):
    # TC-GOAL-1: 10 exposed cards; AA-GOAL-1: "exactly 11"; this profile asks one less.
    def change_profile(self, p):
        return {"target": p.target - 1}


@mutant("draw-on-last-reveal", ["C-END-3", "RUL-9", "TC-END-1", "AA-END-1"], "the deal is drawn as soon as the last stock card is revealed")
class DrawOnLastReveal(MutantGame):
    # RUL-9 decided (b): a draw "only when the available card is rejected while the stock is empty".
    def _reveal(self):
        super()._reveal()
        if not self._stock:
            self._end(Outcome("draw", None, How.STOCK_EXHAUSTED))


@mutant("draw-on-pass-with-empty-stock", ["RUL-9", "C-END-3", "TC-END-1", "AA-END-1"], "passing the last revealed card with an empty stock ends the deal in a draw")
class DrawOnPassWithEmptyStock(MutantGame):
    # RUL-9: "Passing never ends the deal".
    def _pass(self, seat):
        super()._pass(seat)
        if not self._stock:
            self._end(Outcome("draw", None, How.STOCK_EXHAUSTED))


@mutant("no-game-over-code", ["C-END-4"], "an action after the result is refused as not_your_turn instead of game_over")
class NoGameOverCode(MutantGame):
    # C-END-4 and reasons.md: every action after the result is refused with game_over.
    def _refusal(self, seat, act):
        if self.phase == Phase.OVER:
            return "not_your_turn", "nobody may act now"
        return super()._refusal(seat, act)


# == turn order and reason codes (C-TURN-1, C-TURN-6, reasons.md) ====================================
@mutant("either-seat-may-act", ["C-TURN-1", "C-TURN-6"], "during play either seat may act on the available card")
class EitherSeatMayAct(MutantGame):
    # C-TURN-1: the card "is offered to exactly one seat"; C-TURN-6: a player must not act out of turn.
    @property
    def to_act(self):
        return SEATS if self.phase == Phase.PLAY else super().to_act


@mutant("legal-for-waiting-seat", ["C-TURN-6", "C-TURN-1"], "asked for the legal actions of the seat that waits, the engine lists the active seat's")
class LegalForWaitingSeat(MutantGame):
    # C-TURN-6: a player must not act out of turn, so the waiting seat has no legal action
    # (the engine refuses them all with not_your_turn, and its `legal` must say so).
    def legal(self, seat):
        if self.phase == Phase.PLAY and seat not in self.to_act:
            return super().legal(self.active)
        return super().legal(seat)


@mutant("active-seat-must-decide", ["AA-FORCE-1", "RUL-14"], "during a force decision the active seat is told must_decide_force instead of not_your_turn")
class ActiveSeatMustDecide(MutantGame):
    # reasons.md: must_decide_force is for "the deciding seat"; the active seat waits (not_your_turn first).
    def _refusal(self, seat, act):
        if self.phase == Phase.FORCE_DECISION and seat == self.active:
            return "must_decide_force", "the rival decides first"
        return super()._refusal(seat, act)


class _HandCheckFirst(MutantGame):
    """reasons.md, precedence: the phase codes (3) come before card_not_in_hand (4). Each mutant
    below reverses that order for ONE phase code: an action naming a card the seat does not
    hold is refused as card_not_in_hand where the reference says `phase_code`."""

    phase_code = ""

    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        named = act.cards | (bit(act.card) if act.card is not None else 0)
        if refusal and refusal[0] == self.phase_code and named & ~self.hands[seat]:
            return "card_not_in_hand", "a card named is not in the hand"
        return refusal


@mutant("hand-check-before-must-exchange", ["TC-XCH-1"], "during the exchange, a use or discard naming a card not held is refused as card_not_in_hand, not must_exchange")
class HandCheckBeforeMustExchange(_HandCheckFirst):
    # reasons.md: must_exchange (3) is reported before card_not_in_hand (4).
    phase_code = "must_exchange"


@mutant("hand-check-before-must-discard", ["C-TURN-3"], "in the discard step, a use naming a card not held is refused as card_not_in_hand, not must_discard")
class HandCheckBeforeMustDiscard(_HandCheckFirst):
    # reasons.md: must_discard (3) is reported before card_not_in_hand (4).
    phase_code = "must_discard"


@mutant("hand-check-before-must-decide", ["AA-FORCE-1", "RUL-14"], "in a force decision, a use or discard naming a card not held is refused as card_not_in_hand, not must_decide_force")
class HandCheckBeforeMustDecide(_HandCheckFirst):
    # reasons.md: must_decide_force (3) is reported before card_not_in_hand (4).
    phase_code = "must_decide_force"


@mutant("hand-check-before-no-discard-now", ["C-TURN-6"], "a discard of a card not held, sent during play, is refused as card_not_in_hand, not no_discard_now")
class HandCheckBeforeNoDiscardNow(_HandCheckFirst):
    # reasons.md: no_discard_now (3) is reported before card_not_in_hand (4).
    phase_code = "no_discard_now"


@mutant("hand-check-before-exchange-over", ["TC-XCH-1"], "a late exchange of a card not held is refused as card_not_in_hand, not exchange_over")
class HandCheckBeforeExchangeOver(_HandCheckFirst):
    # reasons.md: exchange_over (3) is reported before card_not_in_hand (4).
    phase_code = "exchange_over"


@mutant("hand-check-before-not-in-profile", ["AA-OPEN-1", "C-TURN-6"], "in a profile without an exchange, an exchange of a card not held is refused as card_not_in_hand, not not_in_profile")
class HandCheckBeforeNotInProfile(_HandCheckFirst):
    # reasons.md: not_in_profile (3) is reported before card_not_in_hand (4).
    phase_code = "not_in_profile"


@mutant("hand-meld-must-touch-take", ["C-TURN-2"], "a use may lay down only hand cards that meld with the taken card or the exposed cards, not a separate meld of hand cards")
class HandMeldMustTouchTake(MutantGame):
    # C-TURN-2: the taken card goes down "together with any hand cards the player names, so that
    # all of that player's exposed cards have a valid arrangement"; here every new meld must
    # hold the taken card or an exposed card.
    class table_class(MutantTable):
        def legal_uses(self, exposed, card_bit, hand):
            return MeldTable.legal_uses(self, exposed, card_bit, hand)

        def _use_options(self, must, hand):
            return frozenset((0,)) if must == 0 else super()._use_options(must, hand)

    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal is None and act.type == "use" and self.phase == Phase.PLAY:
            if act.cards not in self.table.legal_uses(self.exposed[seat], bit(self.available), self.hands[seat]):
                return "no_valid_arrangement", "hand cards go down only with the taken card's melds"
        return refusal


@mutant("forced-win-scores-nothing", ["AA-MATCH-1"], "a deal won by a forced card scores no point")
class ForcedWinScoresNothing(MutantAdapter):
    # AA-MATCH-1: "A win scores 1 point for the winner", however it was reached.
    class match_class(Match):
        def record(self, outcome):
            super().record(Outcome("draw", None, outcome.how) if outcome.how == How.FORCED_TO_TARGET else outcome)


@mutant("convention-before-wrong-kind", ["TC-FORCE-2", "C-TURN-5"], "a pass of a fitting rival card is refused as fitting_card_must_be_taken, not cannot_pass_rival_card")
class ConventionBeforeWrongKind(MutantGame):
    # reasons.md, precedence: cannot_reject_revealed and cannot_pass_rival_card come before
    # fitting_card_must_be_taken ("The cannot_* code is reported").
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0].startswith("cannot_") and not self._may_decline_card(seat):
            return "fitting_card_must_be_taken", "the card fits your melds"
        return refusal


@mutant("decline-not-in-profile", ["RUL-4", "AA-FORCE-1"], "a decline under the table convention (no force decision) is refused as not_in_profile instead of nothing_to_decline")
class DeclineNotInProfile(MutantGame):
    # reasons.md: nothing_to_decline is given "including every decline" where the profile has no force decision.
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0] == "nothing_to_decline" and self.profile.own_fit == "automatic":
            return "not_in_profile", "this profile has no force decision"
        return refusal


# == going rummy (SA-END-3, RUL-24) ====================================================================
@mutant("rummy-not-recorded", ["SA-END-3", "RUL-24"], "a win by a player with nothing exposed before is recorded as an ordinary win")
class RummyNotRecorded(MutantAdapter):
    # SA-END-3: such a win "is going rummy" and "the outcome records it" (how: rummy).
    def change_profile(self, p):
        return {"going_rummy": False} if p.going_rummy else {}


@mutant("rummy-after-earlier-melds", ["SA-END-3", "RUL-24"], "any win by use is recorded as going rummy, even with cards exposed before")
class RummyAfterEarlierMelds(MutantGame):
    # SA-END-3: going rummy needs "no exposed cards before the winning action".
    def _take(self, receiver, how):
        super()._take(receiver, How.RUMMY if self.profile.going_rummy and how == How.TARGET_REACHED else how)
