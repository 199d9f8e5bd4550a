"""Mutants of a turn: use and discard (C-TURN-2, C-TURN-3, C-TURN-6), reject and reveal
(C-TURN-4, C-TURN-5, C-TURN-7, RUL-8), pass (C-TURN-5), an emptied hand (SATL-TURN-1, RUL-43)."""

from __future__ import annotations

from ...engine.actions import Action
from ...engine.cards import bit
from ...engine.phases import PHASES, Phase
from ...engine.policies import EmptyHand, MeldTiming
from ...engine.outcome import How, Outcome
from .base import observation, phase, reference_step, refusal, step
from .registry import mutant

# == use and discard (C-TURN-2, C-TURN-3, C-TURN-6) ================================================
# C-TURN-6: a player must not "keep a taken card in hand"; here an empty use of a card that fits
# no arrangement puts it in the hand, and a discard follows.


def _with_empty_use(game, seat):
    """The reference's candidates, with the use of no hand card among them (sorted first among
    the uses: an empty card list comes first)."""
    actions = PHASES[Phase.PLAY].candidates(game, seat)
    return actions if Action("use") in actions else actions[:3] + [Action("use")] + actions[3:]


def _keep_in_hand(game, seat, act):
    if act.cards or game.table.arrangeable(game.exposed_of(seat) | bit(game.available)):
        return reference_step("play.use")(game, seat, act)
    game.hands[seat] |= bit(game.available)
    game.available, game.revealed = None, False
    game.phase, game.discarder = Phase.DISCARD, seat


mutant("taken-card-kept-in-hand", ["C-TURN-6", "C-TURN-2", "AA-EX-1"], "a card that melds with nothing may be taken into the hand (use with no cards)", replaces={
    "refusals.no_valid_arrangement": refusal("no_valid_arrangement", lambda g, s, a, ref: bool(a.cards) and ref(g, s, a)),
    "phases.play": phase(Phase.PLAY, candidates=_with_empty_use),
    "steps.play.use": step("play.use", _keep_in_hand),
})


# C-TURN-2 / reasons.md: the action names hand cards; "naming the available card itself in a use
# is also this case" (card_not_in_hand). Here the available card is silently dropped.
def _without_available(game, act):
    return act._replace(cards=act.cards & ~bit(game.available)) if game.available is not None else act


def _uses_naming_available(game, seat):
    actions = PHASES[Phase.PLAY].candidates(game, seat)
    extra = [a._replace(cards=a.cards | bit(game.available)) for a in actions if a.type == "use"]
    return sorted(set(actions) | set(extra), key=Action.sort_key)


def _refused_without_available(code):
    return refusal(code, lambda g, s, a, ref: ref(g, s, _without_available(g, a)) if a.type == "use" else ref(g, s, a))


mutant("use-may-name-available", ["C-TURN-2"], "a use may list the available card among its hand cards", replaces={
    **{f"refusals.{code}": _refused_without_available(code) for code in ("card_not_in_hand", "no_valid_arrangement", "no_card_to_discard")},
    "phases.play": phase(Phase.PLAY, candidates=_uses_naming_available),
    "steps.play.use": step("play.use", lambda g, s, a: reference_step("play.use")(g, s, _without_available(g, a))),
})


# reasons.md, precedence: card_not_in_hand comes before no_valid_arrangement ("a use that names a
# card not held and would also have no arrangement is card_not_in_hand").
def _held_or_arrangeable(game, seat, act, reference):
    if act.type == "use" and game.phase == Phase.PLAY and reference(game, seat, act):
        return game.table.arrangeable(game.exposed_of(seat) | bit(game.available) | act.cards)
    return reference(game, seat, act)


def _not_held_nor_arrangeable(game, seat, act, reference):
    return reference(game, seat, act) or (
        act.cards & ~game.hands[seat] and not game.table.arrangeable(game.exposed_of(seat) | bit(game.available) | act.cards)
    )


mutant("arrangement-before-hand-check", ["C-TURN-2"], "a use naming a card not held that would also not arrange is refused as no_valid_arrangement", replaces={
    "refusals.card_not_in_hand": refusal("card_not_in_hand", _held_or_arrangeable),
    "refusals.no_valid_arrangement": refusal("no_valid_arrangement", _not_held_nor_arrangeable),
})


# C-TURN-3 / C-TURN-5: the discard is a card "offered by the rival": used, rejected or forced, never passed.
def _discard_fresh(game, seat, act):
    reference_step("discard.discard")(game, seat, act)
    game.revealed = True


mutant("discard-is-fresh", ["C-TURN-3", "C-TURN-5"], "a discard reaches the rival as a freshly revealed card (pass, not reject)",
       replaces={"steps.discard.discard": step("discard.discard", _discard_fresh)})


# C-TURN-3: "The discarded card becomes the available card, offered to the rival".
def _discard_out_of_play(game, seat, act):
    reference_step("discard.discard")(game, seat, act)
    game.out_of_play.append(game.available)
    if game.stock_pile:
        game.run("reveal")
    else:
        game.run("end", Outcome(How.STOCK_EXHAUSTED))


mutant("discard-goes-out-of-play", ["C-TURN-3"], "the discard goes out of play and a stock card is revealed for the rival",
       replaces={"steps.discard.discard": step("discard.discard", _discard_out_of_play)})


# == reject and reveal (C-TURN-4, C-TURN-5, C-TURN-7, RUL-8) ========================================
# C-TURN-4: the top stock card is revealed "as the new available card, offered to the same player".
def _reject_for_next_seat(game, seat):
    game.active = game.profile.next_seat(seat)
    reference_step("reject_card")(game, seat)


mutant("reject-reveals-for-rival", ["C-TURN-4"], "after a reject the next stock card is offered to the rival",
       replaces={"steps.reject_card": step("reject_card", _reject_for_next_seat)})


# C-TURN-4: "the top stock card is revealed as the new available card".
def _reveal_bottom(game, seat):
    game.stock_pile.reverse()
    reference_step("reject_card")(game, seat)
    game.stock_pile.reverse()


mutant("reject-reveals-bottom-card", ["C-TURN-4"], "a reject reveals the bottom card of the stock instead of the top one",
       replaces={"steps.reject_card": step("reject_card", _reveal_bottom)})


# C-TURN-5: "A freshly revealed card (the opening card, or a card revealed after a reject) must
# not be rejected"; here only the opening card is protected.
def _reveal_count(game) -> int:
    return sum(e["event"] == "reveal" for e in game.history)


mutant("revealed-card-may-be-rejected", ["C-TURN-5"], "a card revealed after a reject may itself be rejected", replaces={
    "refusals.cannot_reject_revealed": refusal("cannot_reject_revealed", lambda g, s, a, ref: ref(g, s, a) and _reveal_count(g) == 1),
})


# C-TURN-7: "Out-of-play cards must never come back into play"; here a rejected card is recycled.
def _reject_under_stock(game, seat):
    if not game.pending:
        game.log("reject", seat=seat, card=game.deck.name(game.available))
    game.stock_pile.insert(0, game.available)  # the bottom: the stock's top is its last item
    game.available = None
    game.run("reveal")


mutant("rejected-card-to-stock", ["C-TURN-7", "RUL-8"], "a rejected card goes under the stock instead of out of play",
       replaces={"steps.reject_card": step("reject_card", _reject_under_stock)})


# C-TURN-7: "the stock is never rebuilt or reshuffled"; here a reject with an empty stock rebuilds it.
def _rebuild_stock(game, seat):
    if not game.stock_pile:
        game.stock_pile = list(reversed(game.out_of_play + [game.available]))
        game.out_of_play, game.available = [], None
        return game.run("reveal")
    reference_step("reject_card")(game, seat)


mutant("stock-rebuilt-from-rejects", ["C-TURN-7", "C-END-3"], "when the stock runs out the rejected cards become a new stock",
       replaces={"steps.reject_card": step("reject_card", _rebuild_stock)})


# RUL-8: rejected cards are "out of play for good and public in every observation".
mutant("out-of-play-hidden", ["RUL-8", "C-OBS-1"], "the observation does not show the out-of-play cards",
       replaces={"observe": observation(lambda game, obs: obs.update(out_of_play=[]))})


# == pass (C-TURN-5) =================================================================================
# C-TURN-5: "A card offered by the rival must not be passed back".
mutant("pass-back-rival-card", ["C-TURN-5"], "a card offered by the rival may be passed back",
       replaces={"refusals.cannot_pass_rival_card": None})


# C-TURN-5: the rival may use or reject a passed card "but not pass it back": it is the rival's card now.
def _stays_fresh(name):
    def pass_stays_fresh(game, seat):
        reference_step(name)(game, seat)
        game.revealed = True

    return step(name, pass_stays_fresh)


mutant("passed-card-stays-fresh", ["C-TURN-5"], "a passed card reaches the rival as a freshly revealed card",
       replaces={"steps.pass_card": _stays_fresh("pass_card"), "steps.pass_opening_card": _stays_fresh("pass_opening_card")})


# == discard-then-meld: the taken card is placed first (SADM-ARR-1, RUL-35) ===========================
# SADM-ARR-1: the taken card is placed "before any borrowing", "with no exposed card moved"; this
# engine lets the use rearrange freely (SA-ARR-1).
mutant("placement-allows-borrowing", ["SADM-ARR-1", "RUL-35"], "under discard-then-meld a use may rearrange the exposed melds, as in the baseline",
       profile=lambda p: {"meld_timing": MeldTiming.WITH_TAKE} if p.meld_timing == MeldTiming.DISCARD_THEN_MELD else {})


# == four seats: cards go to the next seat (SAPT-TURN-1, RUL-39) ======================================
# SAPT-TURN-1: a discard "is offered to the next seat in playing order, always an opponent".
def _discard_to_partner(game, seat, act):
    reference_step("discard.discard")(game, seat, act)
    if len(game.profile.seats) == 4:
        game.active = (seat + 2) % 4


mutant("discard-to-the-partner", ["SAPT-TURN-1", "RUL-39"], "with four seats a discard is offered to the partner, not to the next seat",
       replaces={"steps.discard.discard": step("discard.discard", _discard_to_partner)})


# == an emptied hand passes the turn (SATL-TURN-1, RUL-43) ==========================================
# SATL-TURN-1: a take "that leaves the player's hand empty while fewer than 15 cards are exposed
# ends the turn with no discard"; this engine keeps the baseline's discard after every take, so the
# player with nothing to discard is stuck in the discard step.
mutant("emptied-hand-must-discard", ["SATL-TURN-1", "RUL-43"], "a take that empties the hand short of the target is followed by a discard step, as after any take",
       profile=lambda p: {"empty_hand": EmptyHand.DISCARD} if p.empty_hand == EmptyHand.TURN_PASSES else {})


# SATL-TURN-1: "The opponent's turn then begins with the top stock card drawn face up for them";
# here the card is drawn for the player whose hand was emptied.
def _card_for_the_emptied_hand(game, receiver):
    reference_step("empty_hand_passes_turn")(game, receiver)
    if not game.is_over:
        game.active = receiver


mutant("emptied-hand-draws-again", ["SATL-TURN-1", "RUL-43"], "after a take that empties the hand the next stock card is drawn for the same player, not the opponent",
       replaces={"steps.empty_hand_passes_turn": step("empty_hand_passes_turn", _card_for_the_emptied_hand)})


# SATL-GOAL-1: "14 exposed cards with an empty hand do not win"; here a take that empties the
# hand wins at once, whatever the count.
def _emptied_hand_wins(game, receiver):
    game.run("end", Outcome(How.TARGET_REACHED, receiver))


mutant("emptied-hand-wins", ["SATL-GOAL-1", "C-END-2", "RUL-43"], "a take that empties the hand wins at once, short of the target",
       replaces={"steps.empty_hand_passes_turn": step("empty_hand_passes_turn", _emptied_hand_wins)})
