"""Mutants of the end of a deal (C-END-1..4, the profiles' goal rules, RUL-9), of turn order
(C-TURN-1, C-TURN-6) and of the reason codes and their precedence (docs/rules/reasons.md)."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from ...engine.cards import bit
from ...engine.match import Match
from ...engine.melds import MeldTable
from ...engine.outcome import How, Outcome
from ...engine.phases import PHASES, SEATS, Phase
from ...engine.policies import OwnFit
from ...engine.refusals import BY_CODE, names_a_card_not_held, use_leaves_nothing_to_discard
from .base import MutantAdapter, MutantTable, phase, reference_step, refusal, step, table
from .registry import mutant

# == the end of a deal (C-END-1..4, TC-GOAL-1, AA-GOAL-1, RUL-9) =====================================
# RUL-6: "The outcome records how: forced_to_target". Every take is recorded as a use's.
mutant("forced-win-recorded-as-use", ["RUL-6"], "a win by a forced card is recorded as target_reached instead of forced_to_target", replaces={
    "steps.take": step("take", lambda g, receiver, how: reference_step("take")(g, receiver, How.TARGET_REACHED)),
})


# C-END-1: "A player whose exposed cards reach the profile's target wins at once, without discarding".
def _no_win_by_use(game, winner, how):
    if how == How.TARGET_REACHED:
        return game.run("discard_after_take", winner)
    reference_step("win_by_use")(game, winner, how)


mutant("no-win-at-target", ["C-END-1", "TC-GOAL-1", "AA-GOAL-1"], "a use reaching the target does not win: the discard step follows as after any take",
       replaces={"steps.win_by_use": step("win_by_use", _no_win_by_use)})


# C-END-2: "A player who discards the last hand card with target - 1 cards exposed has not won".
def _empty_hand_wins(game, seat, act):
    reference_step("discard.discard")(game, seat, act)
    if not game.hands[seat]:
        game.run("end", Outcome(How.TARGET_REACHED, seat))


mutant("empty-hand-wins", ["C-END-2", "TC-GOAL-1", "AA-GOAL-1"], "discarding the last hand card wins the deal",
       replaces={"steps.discard.discard": step("discard.discard", _empty_hand_wins)})


# TC-GOAL-1: 10 exposed cards; AA-GOAL-1: "exactly 11"; this profile asks one less.
mutant("target-one-less", ["TC-GOAL-1", "AA-GOAL-1", "RUL-1"], "the target is one card less (9 in torno, 10 in anglo)",
       profile=lambda p: {"target": p.target - 1})


# RUL-9 decided (b): a draw "only when the available card is rejected while the stock is empty".
def _draw_on_last_reveal(game):
    reference_step("reveal")(game)
    if not game.stock_pile:
        game.run("end", Outcome(How.STOCK_EXHAUSTED))


mutant("draw-on-last-reveal", ["C-END-3", "RUL-9", "TC-END-1", "AA-END-1"], "the deal is drawn as soon as the last stock card is revealed",
       replaces={"steps.reveal": step("reveal", _draw_on_last_reveal)})


# RUL-9: "Passing never ends the deal".
def _draw_on_pass(name):
    def pass_draws(game, seat):
        reference_step(name)(game, seat)
        if not game.stock_pile:
            game.run("end", Outcome(How.STOCK_EXHAUSTED))

    return step(name, pass_draws)


mutant("draw-on-pass-with-empty-stock", ["RUL-9", "C-END-3", "TC-END-1", "AA-END-1"], "passing the last revealed card with an empty stock ends the deal in a draw",
       replaces={"steps.pass_card": _draw_on_pass("pass_card"), "steps.pass_opening_card": _draw_on_pass("pass_opening_card")})


# C-END-4 and reasons.md: every action after the result is refused with game_over. Without that
# row, nobody may act after the result: not_your_turn.
mutant("no-game-over-code", ["C-END-4"], "an action after the result is refused as not_your_turn instead of game_over",
       replaces={"refusals.game_over": None})


# == turn order and reason codes (C-TURN-1, C-TURN-6, reasons.md) ====================================
# C-TURN-1: the card "is offered to exactly one seat"; C-TURN-6: a player must not act out of turn.
mutant("either-seat-may-act", ["C-TURN-1", "C-TURN-6"], "during play either seat may act on the available card",
       replaces={"phases.play": phase(Phase.PLAY, seats=lambda game: SEATS)})


# C-TURN-6: a player must not act out of turn, so the waiting seat has no legal action (the engine
# refuses them all with not_your_turn, and its `legal` must say so). The reference's listing
# cannot disagree with its refusals: an adapter mutant.
class _LegalForWaitingSeat(MutantAdapter):
    def cmd_legal(self, request: dict) -> dict:
        game, seat = self.game, request.get("seat")
        waiting = type(seat) is int and seat in game.profile.seats and seat not in game.to_act if game else False
        if waiting and game.phase == Phase.PLAY:
            return super().cmd_legal({**request, "seat": game.active})
        return super().cmd_legal(request)


mutant("legal-for-waiting-seat", ["C-TURN-6", "C-TURN-1"], "asked for the legal actions of the seat that waits, the engine lists the active seat's",
       adapter=_LegalForWaitingSeat)


# reasons.md: must_decide_force is for "the deciding seat"; the active seat waits (not_your_turn first).
def _active_waits(game, seat) -> bool:
    return game.phase == Phase.FORCE_DECISION and seat == game.active


mutant("active-seat-must-decide", ["AA-FORCE-1", "RUL-14"], "during a force decision the active seat is told must_decide_force instead of not_your_turn", replaces={
    "refusals.not_your_turn": refusal("not_your_turn", lambda g, s, a, ref: ref(g, s, a) and not _active_waits(g, s)),
    # must_decide_force, for every action of the active seat (not only the types the phase refuses)
    "refusals.must_decide_force": dataclasses.replace(
        BY_CODE["must_decide_force"],
        types=None,
        condition=lambda g, s, a: a.type not in PHASES[Phase.FORCE_DECISION].admits or _active_waits(g, s),
    ),
})


# reasons.md, precedence: the phase codes (3) come before card_not_in_hand (4). Each mutant below
# reverses that order for ONE phase code: an action naming a card the seat does not hold passes
# the phase code's row, and the card_not_in_hand row (any phase) refuses it next.
def _hand_check_first(phase_code: str) -> dict:
    return {f"refusals.{phase_code}": refusal(phase_code, lambda g, s, a, ref: ref(g, s, a) and not names_a_card_not_held(g, s, a))}


# reasons.md: must_exchange (3) is reported before card_not_in_hand (4).
mutant("hand-check-before-must-exchange", ["TC-XCH-1"], "during the exchange, a use or discard naming a card not held is refused as card_not_in_hand, not must_exchange",
       replaces=_hand_check_first("must_exchange"))

# reasons.md: must_discard (3) is reported before card_not_in_hand (4).
mutant("hand-check-before-must-discard", ["C-TURN-3"], "in the discard step, a use naming a card not held is refused as card_not_in_hand, not must_discard",
       replaces=_hand_check_first("must_discard"))

# reasons.md: must_decide_force (3) is reported before card_not_in_hand (4).
mutant("hand-check-before-must-decide", ["AA-FORCE-1", "RUL-14"], "in a force decision, a use or discard naming a card not held is refused as card_not_in_hand, not must_decide_force",
       replaces=_hand_check_first("must_decide_force"))

# reasons.md: no_discard_now (3) is reported before card_not_in_hand (4).
mutant("hand-check-before-no-discard-now", ["C-TURN-6"], "a discard of a card not held, sent during play, is refused as card_not_in_hand, not no_discard_now",
       replaces=_hand_check_first("no_discard_now"))

# reasons.md: exchange_over (3) is reported before card_not_in_hand (4).
mutant("hand-check-before-exchange-over", ["TC-XCH-1"], "a late exchange of a card not held is refused as card_not_in_hand, not exchange_over",
       replaces=_hand_check_first("exchange_over"))

# reasons.md: not_in_profile (3) is reported before card_not_in_hand (4).
mutant("hand-check-before-not-in-profile", ["AA-OPEN-1", "C-TURN-6"], "in a profile without an exchange, an exchange of a card not held is refused as card_not_in_hand, not not_in_profile",
       replaces=_hand_check_first("not_in_profile"))


# C-TURN-2: the taken card goes down "together with any hand cards the player names, so that all
# of that player's exposed cards have a valid arrangement"; here every new meld must hold the
# taken card or an exposed card. (As the mutant always did: the reference's search of the uses,
# which asks each subset of up to `few_candidates` candidate hand cards, and only above that
# leaves out the melds made of hand cards alone.)
class _TouchingTable(MutantTable):
    def __init__(self, profile):
        super().__init__(profile)
        self.touching = lru_cache(maxsize=None)(self._touching)

    def legal_uses(self, exposed, card_bit, hand):
        uses = MeldTable.legal_uses(self, exposed, card_bit, hand)
        must = exposed | card_bit
        if (hand & self.meldable(must | hand)).bit_count() <= self.few_candidates:
            return uses
        return frozenset(cards for cards in uses if self.touching(must, cards))

    def _touching(self, must: int, cards: int) -> bool:
        """`must | cards` splits into melds each holding a card of `must`."""
        if must == 0:
            return cards == 0
        low = must & -must
        pool = must | cards
        return any(
            meld & low and meld & pool == meld and self.touching(must & ~meld, cards & ~meld) for meld in self.melds
        )


def _not_a_listed_use(game, seat, act, reference) -> bool:
    if reference(game, seat, act):
        return True
    listed = act.cards in game.table.legal_uses(game.exposed_of(seat), bit(game.available), game.hands[seat])
    return not listed and not use_leaves_nothing_to_discard(game, seat, act)  # (that row refuses first, as it did)


mutant("hand-meld-must-touch-take", ["C-TURN-2"], "a use may lay down only hand cards that meld with the taken card or the exposed cards, not a separate meld of hand cards", replaces={
    "melds": table(_TouchingTable),
    "refusals.no_valid_arrangement": refusal("no_valid_arrangement", _not_a_listed_use),
})


# AA-MATCH-1: "A win scores 1 point for the winner", however it was reached.
class _ForcedWinScoresNothing(Match):
    def record(self, outcome):
        super().record(Outcome(outcome.how) if outcome.how == How.FORCED_TO_TARGET else outcome)


mutant("forced-win-scores-nothing", ["AA-MATCH-1"], "a deal won by a forced card scores no point",
       replaces={"match": _ForcedWinScoresNothing})


# reasons.md, precedence: cannot_reject_revealed and cannot_pass_rival_card come before
# fitting_card_must_be_taken ("The cannot_* code is reported"). Here a card the seat must take
# passes the cannot_* rows, and the fitting_card_must_be_taken row refuses it next.
def _unless_must_take(code):
    return refusal(code, lambda g, s, a, ref: ref(g, s, a) and not g.ruleset.policies["own_fit"].must_take(g, s))


mutant("convention-before-wrong-kind", ["TC-FORCE-2", "C-TURN-5"], "a pass of a fitting rival card is refused as fitting_card_must_be_taken, not cannot_pass_rival_card", replaces={
    f"refusals.{code}": _unless_must_take(code) for code in ("cannot_reject_revealed", "cannot_pass_rival_card")
})


# reasons.md: nothing_to_decline is given "including every decline" where the profile has no force decision.
def _automatic(game) -> bool:
    return game.profile.own_fit == OwnFit.AUTOMATIC


mutant("decline-not-in-profile", ["RUL-4", "AA-FORCE-1"], "a decline under the table convention (no force decision) is refused as not_in_profile instead of nothing_to_decline", replaces={
    "refusals.nothing_to_decline": refusal("nothing_to_decline", lambda g, s, a, ref: not _automatic(g) and ref(g, s, a)),
    # not_in_profile, for an exchange as the reference has it and for such a decline
    "refusals.not_in_profile": dataclasses.replace(
        refusal("not_in_profile", lambda g, s, a, ref: _automatic(g) if a.type == "decline" else ref(g, s, a)),
        types=("decline", "exchange"),
    ),
})


# == going rummy (SA-END-3, RUL-24) ====================================================================
# SA-END-3: such a win "is going rummy" and "the outcome records it" (how: rummy).
mutant("rummy-not-recorded", ["SA-END-3", "RUL-24"], "a win by a player with nothing exposed before is recorded as an ordinary win",
       profile=lambda p: {"going_rummy": False} if p.going_rummy else {})


# SA-END-3: going rummy needs "no exposed cards before the winning action".
def _rummy_always(game, receiver, how):
    reference_step("take")(game, receiver, How.RUMMY if game.profile.going_rummy and how == How.TARGET_REACHED else how)


mutant("rummy-after-earlier-melds", ["SA-END-3", "RUL-24"], "any win by use is recorded as going rummy, even with cards exposed before",
       replaces={"steps.take": step("take", _rummy_always)})
