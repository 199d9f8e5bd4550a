"""House rules that public Conquian engines are observed to play, each one rule changed.

They are mutants like the others (the corpus must catch each), and the first hypotheses the
diagnosis tries at a divergence (conquian_ref.conformance.attribution): a report names a
divergence they explain by the house rule and its rule. Each says, in its description, what an
engine author would say of their own engine.
"""

from __future__ import annotations

from ...engine.actions import Action
from ...engine.cards import bit, cards_of, count
from ...engine.phases import PHASES, Phase
from ...engine.outcome import How
from ...engine.policies import ForcingFit, OwnFit
from .base import phase, reference_step, refusal, step
from .registry import mutant


# C-TURN-1: the seat the card is offered to decides: use, reject, pass or force. This engine takes
# a card the next seat can use as soon as it is passed to it, choosing the hand cards itself.
def _pass_then_take(game, seat, act):
    reference_step("play.pass")(game, seat, act)
    if game.phase != Phase.PLAY:
        return
    receiver = game.active
    uses = [a for a in game.legal(receiver) if a.type == "use"]
    if uses:
        game.apply(receiver, uses[0])


mutant("automatic-take", ["C-TURN-1"], "your engine takes a card that fits your melds without being asked, as soon as it is passed to you",
       replaces={"steps.play.pass": step("play.pass", _pass_then_take)})


# The rival's option (`force_option`: AA-FORCE-1, SA-FORCE-1) or the table convention
# (TC-FORCE-2): a card that fits the player's own melds, let go, is forced at the rival's choice
# or must be used by the player, who names the hand cards. This engine takes it for the player,
# alone, as soon as they try to reject or pass it.
def _taken_when_let_go(name):
    def take_instead(game, seat, act):
        if game.table.fits(game.exposed_of(seat), bit(game.available)):
            return reference_step("play.use")(game, seat, Action("use"))
        return reference_step(name)(game, seat, act)

    return step(name, take_instead)


mutant("fitting-card-taken-automatically", ["AA-FORCE-1", "SA-FORCE-1", "TC-FORCE-2"],
       "your engine takes a card that fits your own melds for you when you try to reject or pass it", rule="force_option", replaces={
           "refusals.fitting_card_must_be_taken": None,
           "steps.play.reject": _taken_when_let_go("play.reject"),
           "steps.play.pass": _taken_when_let_go("play.pass"),
       })


# C-FORCE-1: a card that fits may be forced (or demanded) in the profile's form; this engine has
# no forcing at all: a fitting card goes like any other.
mutant("no-forcing", ["C-FORCE-1"], "your engine has no forcing at all: a fitting card may always be let go, and nobody forces or demands it",
       profile=lambda p: {"own_fit": OwnFit.NONE, "onto_rival": False} if p.own_fit != OwnFit.NONE or p.onto_rival else {})


# C-TURN-3: the discard is offered to the next seat; this engine offers it back to the discarder.
def _discard_back(game, seat, act):
    reference_step("discard.discard")(game, seat, act)
    game.active = seat


mutant("discard-offered-back", ["C-TURN-3"], "your engine offers the discard back to the player who discarded it",
       replaces={"steps.discard.discard": step("discard.discard", _discard_back)})


# C-TURN-2: a use names cards of the player's hand; this engine takes the names on trust.
mutant("use-names-cards-not-held", ["C-TURN-2"], "your engine accepts a use that names cards the player does not hold",
       replaces={"refusals.card_not_in_hand": refusal("card_not_in_hand", lambda g, s, a, ref: a.type != "use" and ref(g, s, a))})


# C-TURN-3: after a use short of the target the player discards one hand card; this engine
# passes the turn on with no discard, revealing the next card for the next seat.
def _no_discard(game, receiver):
    game.phase, game.active = Phase.PLAY, game.profile.next_seat(receiver)
    game.run("reveal" if game.stock_pile else "stock_exhausted")


mutant("no-discard-after-use", ["C-TURN-3"], "your engine ends the turn after a use: no discard follows, the next player draws",
       replaces={"steps.discard_after_take": step("discard_after_take", _no_discard)})


# C-TURN-6: a discard follows only a take; this engine lets the player discard instead of
# deciding on the available card, which then goes out of play.
def _discards_too(game, seat):
    return PHASES[Phase.PLAY].candidates(game, seat) + [Action("discard", card=c) for c in cards_of(game.hands[seat])]


def _discard_instead(game, seat, act):
    game.out_of_play.append(game.available)
    game.hands[seat] &= ~bit(act.card)
    game.log("discard", seat=seat, card=game.deck.name(act.card))
    game.available, game.revealed = act.card, False
    game.active = game.profile.next_seat(seat)


mutant("discard-before-take", ["C-TURN-6"], "your engine lets a player discard without taking a card first", replaces={
    "refusals.no_discard_now": None,
    "phases.play": phase(Phase.PLAY, candidates=_discards_too, admits=("discard", "force", "pass", "reject", "use")),
    "steps.play.discard": step("discard.discard", _discard_instead),
})


# C-TURN-5: a freshly revealed card is used or passed, a card from the rival used or rejected;
# this engine accepts reject and pass whatever the card. A card passed on is a card left by the
# rival (C-TURN-5), the opening card too once the dealer passes it: it does not go round again
# freshly revealed (RUL-40 takes it round only up to the dealer).
def _opening_card_passed_on(game, seat):
    reference_step("pass_card" if seat == game.dealer else "pass_opening_card")(game, seat)


mutant("reject-or-pass-any-card", ["C-TURN-5"], "your engine accepts a reject or a pass whatever the card: drawn from the stock or left by the rival",
       replaces={"refusals.cannot_reject_revealed": None, "refusals.cannot_pass_rival_card": None,
                 "steps.pass_opening_card": step("pass_opening_card", _opening_card_passed_on)})


# RUL-3 (C-ARR-4 for forcing): "any repartition counts, not only the extension of one meld".
# This engine forces (or takes by the table convention) only a card that extends one meld of
# some arrangement, as the spielanleitung profiles do (RUL-22): a card that fits only by
# forming new melds out of the exposed cards goes like any other. Unlike `fit-extends-one-meld`
# (the one arrangement shown), any arrangement may be the one extended.
def _extension_only(p):
    forcing = p.own_fit != OwnFit.NONE or p.onto_rival
    return {"forcing_fit": ForcingFit.EXTENSION} if forcing and p.forcing_fit == ForcingFit.ANY_ARRANGEMENT else {}


mutant("forcing-by-extension-only", ["RUL-3", "C-ARR-4"],
       "your engine forces a card only when it extends one of the player's melds; a card that fits only by rearranging them is never forced",
       profile=_extension_only)


# SAPT-TURN-1 (RUL-39): "a refused pile card stays in the pile and the refusing player draws".
# This engine sends a refused card on round the table: each next seat may use or refuse it
# until it comes back to the seat that let it go, and then the draw goes to the seat after that
# one. With two seats the card is back at once and the refusing seat draws: the reference's rule.
def _let_go_by(game) -> int | None:
    """The seat that discarded or passed the available card (None: freshly revealed)."""
    card = game.deck.name(game.available)
    for event in reversed(game.history):
        if event.get("event") in ("discard", "pass") and event.get("card") == card:
            return event["seat"]
    return None


def _round_the_table(game, seat):
    origin = None if game.revealed or game.opening_card else _let_go_by(game)
    following = game.profile.next_seat(seat)
    if origin is None or following == origin:
        if origin is not None:  # back where it started: the draw for the seat after that one
            game.active = game.profile.next_seat(origin)
        return reference_step("reject_card")(game, seat)
    if not game.pending:
        game.log("reject", seat=seat, card=game.deck.name(game.available))
    game.active = following


mutant("refused-card-goes-round", ["SAPT-TURN-1", "C-TURN-4"],
       "your engine offers a refused card to each next seat in turn; the next draw goes to the seat after the one who let it go",
       rule="next_seat", replaces={"steps.reject_card": step("reject_card", _round_the_table)})


# The opening rule of a profile without an exchange (AA-OPEN-1, SA-OPEN-1: play begins with the
# opening card); this engine has the torno exchange first (one card each, picked together). The
# profile names no exchange rule: the rows of the exchange cite the opening rule it changes.
def _with_an_exchange(p):
    if p.exchange_cards or len(p.seats) != 2:
        return {}
    opening = p.rules["opening"]
    return {"exchange_cards": 1, "rules": {**p.rules, "exchange": opening, "exchange_privacy": opening}}


mutant("exchange-in-profile-without-one", ["AA-OPEN-1", "C-TURN-6"],
       "your engine begins every deal with an exchange of one card, as the torno does, though this profile has none",
       rule="opening", profile=_with_an_exchange)


# C-TURN-3: "The discarded card becomes the available card, offered to the rival". This engine
# puts a discard that fits the next seat's melds (C-ARR-4) straight into that seat's hand, and
# that seat then discards in its turn.
def _discard_into_next_hand(game, seat, act):
    reference_step("discard.discard")(game, seat, act)
    receiver = game.active
    exposed = game.exposed_of(receiver)
    if exposed and game.table.fits(exposed, bit(game.available)):
        game.hands[receiver] |= bit(game.available)
        game.available = None
        game.phase, game.discarder = Phase.DISCARD, receiver


mutant("discard-into-next-hand", ["C-TURN-3"],
       "your engine puts a discard that fits the next player's melds into that player's hand, and that player discards next",
       replaces={"steps.discard.discard": step("discard.discard", _discard_into_next_hand)})


# The goal (AA-GOAL-1, TC-GOAL-1, ...): the target counts exposed cards "in valid melds". This
# engine counts the win as the cards go down: a use that brings the exposed count to the target
# or more wins before the melds are checked.
def _short_of_the_target(game, seat, act):
    return count(game.exposed_of(seat) | act.cards) + 1 < game.profile.target


def _take_winning_at_the_target_or_more(game, receiver, how):
    # The reference's `take` with `>=` for `==`: a use naming more cards than the target needs
    # (never a valid one: the exposed and hand cards add up to one less than the target) wins too.
    team = game.profile.team_of(receiver)
    if count(game.exposed[team] | bit(game.available)) > game.profile.target:
        game.exposed[team] |= bit(game.available)
        game.available, game.revealed, game.opening_card = None, False, False
        game.run("win_by_force" if how == How.FORCED_TO_TARGET else "win_by_use", receiver, how)
    else:
        reference_step("take")(game, receiver, how)


mutant("win-counted-before-melds-checked", ["AA-GOAL-1", "TC-GOAL-1", "C-END-1", "C-ARR-1"],
       "your engine wins a use that brings the exposed count to the target or more, before checking that the cards form melds",
       rule="goal", replaces={
           "refusals.no_valid_arrangement": refusal("no_valid_arrangement", lambda g, s, a, ref: ref(g, s, a) and _short_of_the_target(g, s, a)),
           "steps.take": step("take", _take_winning_at_the_target_or_more),
       })


# Last: the broadest. The diagnosis tries the library in order and, where two house rules agree
# with an engine equally well, names the first (conformance.attribution); a narrower house rule
# that the broader one contains (win-counted-before-melds-checked) must come first, or every
# engine that plays it would be named by the broader one.
# C-ARR-1: the exposed cards with the new ones must form a valid arrangement; this engine checks
# nothing when a player lays cards down.
mutant("no-meld-validation", ["C-ARR-1"], "your engine accepts any use: the cards laid down are never checked to form melds",
       replaces={"refusals.no_valid_arrangement": None})
