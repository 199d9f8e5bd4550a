"""Mutants of forcing: onto the rival with the table convention (forcing.onto_rival: true,
own_fit: automatic; RUL-17), the rival's option (own_fit: rival_option, onto_rival: false;
RUL-14), and what follows a force (RUL-5, RUL-6)."""

from __future__ import annotations

import dataclasses

from ...engine.cards import bit, count
from ...engine.outcome import How, Outcome
from ...engine.phases import PHASES, Phase
from ...engine.policies import FITS, ForcingFit, OwnFit
from .base import phase, reference_step, refusal, step
from .registry import mutant


def _opens_decision(game, seat) -> bool:
    """The reference's rival's option: letting the card go asks the next seat to decide."""
    return game.ruleset.policies["own_fit"].opens_decision(game, seat)


def _uses_with_hand_cards(game, seat) -> bool:
    """The available card can be used with some hand cards (or alone)."""
    return bool(game.table.legal_uses(game.exposed_of(seat), bit(game.available), game.hands[seat]))


# == forcing onto the rival, the table convention (TC-FORCE-1..3, RUL-17) ===========================
# TC-FORCE-2: the player "must not reject or pass it"; this profile drops the table convention.
mutant("tc-fitting-card-may-go", ["TC-FORCE-2"], "the table convention is dropped: a player may reject or pass a card fitting their own melds",
       profile=lambda p: {"own_fit": OwnFit.NONE} if p.own_fit == OwnFit.AUTOMATIC else {})


# TC-FORCE-2 "applies to every available card, discarded, passed or freshly revealed".
mutant("tc-convention-spares-revealed", ["TC-FORCE-2"], "the table convention is applied to rival cards only, not to freshly revealed ones", replaces={
    "refusals.fitting_card_must_be_taken": refusal("fitting_card_must_be_taken", lambda g, s, a, ref: not g.revealed and ref(g, s, a)),
})


# TC-FORCE-2 "applies to every available card, discarded, passed or freshly revealed".
def _passed(game) -> bool:
    return bool(game.history) and game.history[-1]["event"] == "pass"


mutant("tc-convention-spares-passed", ["TC-FORCE-2"], "the table convention does not apply to a card the rival passed", replaces={
    "refusals.fitting_card_must_be_taken": refusal("fitting_card_must_be_taken", lambda g, s, a, ref: not _passed(g) and ref(g, s, a)),
})


# TC-FORCE-1: forcing "holds for any available card, ... and for a freshly revealed card".
mutant("tc-force-only-rival-cards", ["TC-FORCE-1"], "a freshly revealed card cannot be forced onto the rival", replaces={
    "refusals.card_does_not_fit": refusal("card_does_not_fit", lambda g, s, a, ref: g.revealed or ref(g, s, a)),
})


# TC-FORCE-2 applies when the card "fits the active player's own melds (C-ARR-4)": exposed cards
# alone, "without any hand card".
mutant("tc-convention-counts-hand-cards", ["TC-FORCE-2", "C-ARR-4"], "the table convention also forbids letting go a card that could be used with hand cards", replaces={
    "refusals.fitting_card_must_be_taken": refusal(
        "fitting_card_must_be_taken", lambda g, s, a, ref: g.profile.own_fit == OwnFit.AUTOMATIC and _uses_with_hand_cards(g, s)
    ),
})


# TC-FORCE-1: the active player "may ... force the available card onto the rival's melds".
mutant("tc-no-force-onto-rival", ["TC-FORCE-1"], "forcing onto the rival is dropped: the active player may never force the available card onto the rival's melds",
       profile={"onto_rival": False})


# C-FORCE-1: a force "is possible only when the card fits them" (card_does_not_fit otherwise).
mutant("force-without-fit", ["C-FORCE-1", "C-ARR-4"], "a card may be forced onto the rival's melds even if it does not fit them",
       replaces={"refusals.card_does_not_fit": None})


# C-FORCE-1: the force "is possible only when the card fits them", the receiver's melds.
mutant("force-checks-own-melds", ["C-FORCE-1", "TC-FORCE-1"], "a force is allowed when the card fits the forcer's own melds, not the rival's", replaces={
    "refusals.card_does_not_fit": refusal("card_does_not_fit", lambda g, s, a, ref: not g.table.fits(g.exposed_of(s), bit(g.available))),
})


# RUL-17: "any available card" may be forced, "including a card the rival has just discarded".
mutant("tc-force-only-revealed", ["RUL-17", "TC-FORCE-1"], "a card the rival discarded cannot be forced back onto the rival", replaces={
    "refusals.card_does_not_fit": refusal("card_does_not_fit", lambda g, s, a, ref: not g.revealed or ref(g, s, a)),
})


# == forcing at the rival's option (AA-FORCE-1, AA-FORCE-2, AA-MELD-1, RUL-14) ======================
# AA-FORCE-1: on a reject or pass of a fitting card "the rival must first choose to force it or to decline".
mutant("aa-no-force-option", ["AA-FORCE-1", "RUL-14"], "the rival is never asked to force or decline a fitting card: the rival's option is dropped",
       profile=lambda p: {"own_fit": OwnFit.NONE} if p.own_fit == OwnFit.RIVAL_OPTION else {})


# RUL-14: "On a decline the reject or pass takes place as the active player declared it".
def _decline_returns_card(game, seat, act):
    game.phase, game.pending = Phase.PLAY, None


mutant("aa-decline-returns-card", ["RUL-14", "AA-FORCE-1"], "after a decline the card goes back to the active player to decide again",
       replaces={"steps.force_decision.decline": step("force_decision.decline", _decline_returns_card)})


# AA-FORCE-1: the card must fit "their own melds without hand cards (C-ARR-4)".
mutant("aa-option-counts-hand-cards", ["AA-FORCE-1", "C-ARR-4"], "the rival's force decision also opens for a card that fits only with hand cards", replaces={
    "steps.decision_opens": step("decision_opens", lambda g, s: g.profile.own_fit == OwnFit.RIVAL_OPTION and _uses_with_hand_cards(g, s)),
})


# AA-FORCE-1: "This applies both to a card left by the rival and to a freshly revealed card".
mutant("aa-option-spares-revealed", ["AA-FORCE-1"], "the rival's force decision opens for rival cards only, not for a freshly revealed card", replaces={
    "steps.decision_opens": step("decision_opens", lambda g, s: not g.revealed and reference_step("decision_opens")(g, s)),
})


# RUL-14 decided (b), not (c) "the rival may still force later, even after declining".
def _force_back_after_declined_pass(game, seat, act) -> bool:
    h = game.history
    after = game.phase == Phase.PLAY and len(h) >= 2 and h[-1]["event"] == "decline" and h[-2]["event"] == "pass"
    return after and game.table.fits(game.exposed_of(game.profile.next_seat(seat)), bit(game.available))


mutant("aa-force-after-decline", ["RUL-14"], "after declining a pass, the rival may still force the passed card back", replaces={
    # the two rows that refuse a force in play, past the turn: neither refuses this one
    f"refusals.{code}": refusal(code, lambda g, s, a, ref: ref(g, s, a) and not _force_back_after_declined_pass(g, s, a))
    for code in ("no_forcing_onto_rival", "card_does_not_fit")
})


# C-TURN-5: a freshly revealed card "must not be rejected", fitting or not; AA-FORCE-1 gives the
# rival a choice only on a reject or pass the rules allow.
mutant("aa-option-before-reject-check", ["C-TURN-5", "AA-FORCE-1"], "at the rival's option, a reject of a freshly revealed card that fits opens the force decision instead of being refused", replaces={
    "refusals.cannot_reject_revealed": refusal("cannot_reject_revealed", lambda g, s, a, ref: ref(g, s, a) and not _opens_decision(g, s)),
})


# C-TURN-5: "A card offered by the rival must not be passed back", fitting or not.
mutant("aa-option-before-pass-check", ["C-TURN-5", "AA-FORCE-1"], "at the rival's option, a pass of a rival card that fits opens the force decision instead of being refused", replaces={
    "refusals.cannot_pass_rival_card": refusal("cannot_pass_rival_card", lambda g, s, a, ref: ref(g, s, a) and not _opens_decision(g, s)),
})


# AA-MELD-1: "A player must never add any card ... to the rival's melds".
mutant("aa-force-onto-rival", ["AA-MELD-1"], "forcing onto the rival is allowed where the profile forbids it: the active player may force a card onto the rival's melds",
       profile={"onto_rival": True})


# == after a force (RUL-5, RUL-6) =====================================================================
# RUL-5 decided (a): "the receiver discards, and the forcer moves next with that discard"; this
# engine takes the rejected alternative (c).
def _receiver_draws(game, receiver):
    game.phase, game.active, game.discarder = Phase.PLAY, receiver, None
    if game.stock_pile:
        game.run("reveal")
    else:
        game.run("end", Outcome(How.STOCK_EXHAUSTED))


mutant("receiver-draws-after-force", ["RUL-5", "C-FORCE-1", "AA-FORCE-2"], "after a force the receiver discards nothing and a stock card is revealed for the receiver",
       replaces={"steps.discard_after_force": step("discard_after_force", _receiver_draws)})


# RUL-6: "the receiver wins at once, without a discard".
mutant("forced-to-target-no-win", ["RUL-6", "C-END-1", "AA-FORCE-2"], "a forced card completing the receiver's target does not win: a discard step follows", replaces={
    "steps.win_by_force": step("win_by_force", lambda g, receiver, how: g.run("discard_after_force", receiver)),
})


# RUL-6 rejects alternative (b), "a force that would complete the receiver's target is illegal".
def _force_completes_target(game, seat, act, reference) -> bool:
    if game.phase == Phase.FORCE_DECISION:  # the deciding seat forces onto the active seat
        return count(game.exposed_of(game.active)) + 1 == game.profile.target
    receiver = game.profile.next_seat(seat)
    return reference(game, seat, act) or count(game.exposed_of(receiver)) + 1 == game.profile.target


mutant("forced-to-target-refused", ["RUL-6"], "a force that would bring the receiver to the target is refused", replaces={
    # card_does_not_fit, in play as the reference has it and in a force decision as well
    "refusals.card_does_not_fit": dataclasses.replace(
        refusal("card_does_not_fit", _force_completes_target), phase=None, types=("force",)
    ),
})


# == what fits for a demand: the extension of one meld (SA-FORCE-2, RUL-22) ==========================
# SA-FORCE-2: a card "may be demanded only if it extends one meld"; this engine reads "fits" as
# RUL-3 does (any repartition).
mutant("demand-by-any-arrangement", ["SA-FORCE-2", "RUL-22"], "a card that fits only by rearranging several melds may be demanded",
       profile=lambda p: {"forcing_fit": ForcingFit.ANY_ARRANGEMENT} if p.forcing_fit == ForcingFit.EXTENSION else {})


# RUL-22 quantifies over arrangements ("some valid arrangement of the player's exposed cards has
# a meld M"): the partition shown does not matter (RUL-13). This engine tries one.
def _extends_a_shown_meld(table, exposed: int, card_bit: int) -> bool:
    melds = table.arrangement(exposed) or []
    return any((meld | card_bit) in table.is_meld for meld in melds)


mutant("demand-by-the-shown-arrangement", ["SA-FORCE-2", "RUL-22", "RUL-13"], "a card may be demanded only if it extends a meld of the canonical arrangement, not of any arrangement", replaces={
    "policies.fit.extension": dataclasses.replace(FITS[ForcingFit.EXTENSION], fits=_extends_a_shown_meld),
})


# == four seats: the next seat decides a demand (SAPT-FORCE-1, RUL-39) ================================
# SAPT-FORCE-1: "A demand is decided by the next seat in playing order".
def _partner_decides(game) -> tuple[int, ...]:
    if len(game.profile.seats) == 4:
        return ((game.active + 2) % 4,)
    return PHASES[Phase.FORCE_DECISION].seats(game)


mutant("demand-by-the-partner", ["SAPT-FORCE-1", "RUL-39"], "with four seats the active player's partner decides a demand, not the next seat",
       replaces={"phases.force_decision": phase(Phase.FORCE_DECISION, seats=_partner_decides)})
