"""Why the rules refuse an action: one ordered table, whose order is the documented precedence.

Each row of `REFUSALS` is one reason code of docs/rules/reasons.md: the rules behind it, the
phase and action types it is about, a condition (a small named function, or None when the phase
and the type say it all) and the message. `refusal` reports the first row that applies, so a
row earlier in the table wins over a later one (reasons.md, "Precedence"); tests/test_refusals.py
checks the table against reasons.md. The phase rows take their action types from the phase
table (conquian_ref.engine.phases): a phase refuses exactly the types it does not admit.
What the rule trace records for a refusal is `traced_rules`: the row's rules that apply under
the profile, or, for the two codes that stand for one rule per situation (`not_your_turn`,
`card_not_in_hand`), the rule of the situation at hand.

Rules: C-END-4 (nothing after the result), C-TURN-6 (no irregular actions), TC-XCH-1,
C-TURN-3, AA-FORCE-1 / RUL-14 (the phases), C-TURN-2 / C-TURN-3 (only held cards), C-ARR-1
(a use must arrange), C-TURN-5 (used or passed, used or rejected), TC-FORCE-2 (a fitting card
must be taken), AA-MELD-1 and C-FORCE-1 (forcing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .actions import FIELDS
from .phases import PHASES, Phase
from .policies import TIMINGS, MeldTiming, never

Condition = Callable[[object, int, object], bool]  # (game, seat, action) -> the row applies


@dataclass(frozen=True)
class Refusal:
    code: str
    rules: tuple[str, ...]  # the rules behind the code (reasons.md's "rules" column)
    phase: Phase | None  # the phase it is about; None: any phase
    types: tuple[str, ...] | None  # the action types it is about; None: any type
    condition: Condition | None  # the further condition; None: phase and type suffice
    message: str | Callable[[object, int, object], str]
    # For a code that stands for one rule per situation: the rules of the situation at hand
    # (what the trace records); None: `rules`, less those that do not apply under the profile.
    situation: Callable[[object, object], tuple[str, ...]] | None = None
    # The keys of the profile's `rules:` whose ids the trace records beside `rules`, where the
    # profile names them (its own statement of the same rule, e.g. `discard_after_meld`).
    concepts: tuple[str, ...] = ()
    # Whether the trace also records the profile's own rule for the kind of available card at
    # hand (the opening card, a drawn card, a card from the rival: Game.card_rules).
    about_the_card: bool = False
    # Whether the condition reads the action's cards (False: only the game and the seat, so
    # `legal_among` asks it once per action type). A row without a condition reads nothing.
    reads_action: bool = True
    # The rule sets the row belongs to, as a test of the profile and its policy entries; None:
    # every one. A row left out can never apply under that profile (its slots skip it).
    under: Callable[[object, dict], bool] | None = None


def _not_admitted(phase: Phase) -> tuple[str, ...]:
    return tuple(action_type for action_type in FIELDS if action_type not in PHASES[phase].admits)


# -- the conditions ------------------------------------------------------------------------------
def seat_may_not_act(game, seat, act) -> bool:
    return seat not in game.to_act


def plays_in_partnerships(profile, policies) -> bool:
    # With two players a use never empties the hand short of the target: exposed and hand cards
    # add up to the hand size after every turn (RUL-1), so the row belongs to partnerships only.
    return profile.partnerships


def has_exchange(profile, policies) -> bool:
    return bool(profile.exchange_cards)


def has_no_exchange(profile, policies) -> bool:
    return not profile.exchange_cards


def names_a_card_not_held(game, seat, act) -> bool:
    hand = game.hands[seat]
    return (act.card is not None and not hand & 1 << act.card) or bool(act.cards & ~hand)


def use_has_no_arrangement(game, seat, act) -> bool:
    # The profile's `meld_timing` says how the new cards must arrange (C-ARR-2, or RUL-35).
    timing = game.ruleset.policies["timing"]
    return not timing.arranges(game.table, game.exposed_of(seat), 1 << game.available | act.cards)


def use_leaves_nothing_to_discard(game, seat, act) -> bool:
    return game.leaves_nothing_to_discard(seat, act.cards)


def card_is_freshly_revealed(game, seat, act) -> bool:
    return game.revealed


def card_is_from_the_rival(game, seat, act) -> bool:
    return not game.revealed


def card_fits_own_melds(game, seat, act) -> bool:
    # The profile's `forcing.own_fit`: under the table convention a fitting card must be taken.
    return game.ruleset.policies["own_fit"].must_take(game, seat)


def fitting_cards_may_have_to_be_taken(profile, policies) -> bool:
    return policies["own_fit"].must_take is not never


def forbids_forcing_onto_rival(profile, policies) -> bool:
    return not profile.onto_rival


def card_does_not_fit_rival(game, seat, act) -> bool:
    return not game.fits_for_forcing(game.exposed_of(game.profile.next_seat(seat)), 1 << game.available)


# -- the rules of the situation, for the two codes that stand for several -----------------------------
def rules_of_the_turn(game, act) -> tuple[str, ...]:
    """Out of turn: during the exchange, the exchange rule (a seat that has picked waits for the
    other); otherwise C-TURN-6."""
    if game.phase == Phase.EXCHANGE:
        return ("C-TURN-6", game.profile.rule("exchange"))
    return ("C-TURN-6",)


def rules_of_the_card_named(game, act) -> tuple[str, ...]:
    """A card not held: a use names hand cards (C-TURN-2), a discard a hand card (C-TURN-3), an
    exchange pick a hand card (the exchange rule)."""
    if act.type == "exchange":
        return (game.profile.rule("exchange"),)
    return ("C-TURN-2",) if act.type == "use" else ("C-TURN-3",)


def traced_rules(row: Refusal, game, act) -> tuple[str, ...]:
    """The rules a refusal by `row` checked, as the trace records them."""
    if row.situation is not None:
        return row.situation(game, act)
    rules = tuple(rule for rule in row.rules if game.profile.cites(rule))
    extra = game.profile.own_rules(*row.concepts) + (game.card_rules() if row.about_the_card else ())
    return rules + tuple(dict.fromkeys(r for r in extra if r not in rules))


# -- the messages that name something ------------------------------------------------------------
def _waiting(game, seat, act) -> str:
    return f"seat {seat} may not act now; waiting for {list(game.to_act)}"


def _not_held(game, seat, act) -> str:
    if act.card is not None:
        return f"{game.deck.name(act.card)} is not in seat {seat}'s hand"
    return f"{', '.join(game.deck.names(act.cards & ~game.hands[seat]))} not in seat {seat}'s hand"


# -- the table, in the order of precedence -----------------------------------------------------------
PLAY = Phase.PLAY
REFUSALS: tuple[Refusal, ...] = (
    # code, rules behind it, phase, action types (None: any), condition, message
    Refusal("game_over", ("C-END-4",), Phase.OVER, None,
            condition=None, message="the deal is over; no action is accepted (C-END-4)"),
    Refusal("not_your_turn", ("C-TURN-6", "TC-XCH-1"), None, None,
            condition=seat_may_not_act, message=_waiting, situation=rules_of_the_turn, reads_action=False),
    # the phase codes: a phase refuses the action types it does not admit
    Refusal("must_exchange", ("TC-XCH-1",), Phase.EXCHANGE, _not_admitted(Phase.EXCHANGE),
            condition=None, message="each seat first picks one card for the exchange (TC-XCH-1)"),
    Refusal("must_discard", ("C-TURN-3", "C-FORCE-1"), Phase.DISCARD, _not_admitted(Phase.DISCARD),
            condition=None, message="after taking a card the seat discards one hand card (C-TURN-3)",
            concepts=("discard_after_meld",)),
    Refusal("must_decide_force", ("AA-FORCE-1", "RUL-14"), Phase.FORCE_DECISION, _not_admitted(Phase.FORCE_DECISION),
            condition=None, message="the rival decides first whether to force the card (AA-FORCE-1)",
            concepts=("force_option",)),
    Refusal("no_discard_now", ("C-TURN-6",), PLAY, ("discard",),
            condition=None, message="a discard follows only a take (C-TURN-6)"),
    Refusal("nothing_to_decline", ("AA-FORCE-1", "RUL-14", "RUL-4"), PLAY, ("decline",),
            condition=None, message="no forcing decision is pending (RUL-14)",
            concepts=("force_option", "no_forcing")),
    Refusal("exchange_over", ("TC-XCH-1",), PLAY, ("exchange",),
            condition=None, under=has_exchange, message="the exchange happens once, before the opening card"),
    Refusal("not_in_profile", ("AA-OPEN-1", "C-TURN-6"), PLAY, ("exchange",),
            condition=None, under=has_no_exchange, message="this profile has no exchange"),
    # a card named must be held
    Refusal("card_not_in_hand", ("C-TURN-2", "C-TURN-3", "TC-XCH-1"), None, None,
            condition=names_a_card_not_held, message=_not_held, situation=rules_of_the_card_named),
    # the rule-specific codes (each about one action type in play)
    Refusal("no_valid_arrangement", ("C-TURN-2", "C-ARR-1", "C-ARR-2", "C-RUN-1", "C-SET-1", "C-MELD-1"), PLAY, ("use",),
            condition=use_has_no_arrangement,
            message="the exposed cards, the taken card and these hand cards form no valid arrangement",
            concepts=("arrangement",)),
    Refusal("no_card_to_discard", ("RUL-38", "C-TURN-3"), PLAY, ("use",),
            condition=use_leaves_nothing_to_discard, under=plays_in_partnerships,
            message="this use would leave no hand card to discard while the team is short of the target (RUL-38)"),
    Refusal("cannot_reject_revealed", ("C-TURN-5", "TC-OPEN-1", "AA-OPEN-1"), PLAY, ("reject",),
            condition=card_is_freshly_revealed, message="a freshly revealed card is used or passed, never rejected (C-TURN-5)", reads_action=False,
            about_the_card=True),
    Refusal("cannot_pass_rival_card", ("C-TURN-5",), PLAY, ("pass",),
            condition=card_is_from_the_rival, message="a card from the rival is used or rejected, never passed back (C-TURN-5)", reads_action=False,
            about_the_card=True),
    Refusal("fitting_card_must_be_taken", ("TC-FORCE-2", "RUL-3", "RUL-4", "C-ARR-4"), PLAY, ("reject", "pass"),
            condition=card_fits_own_melds, under=fitting_cards_may_have_to_be_taken,
            message="the card fits your melds: use it or force it (TC-FORCE-2)", reads_action=False),
    Refusal("no_forcing_onto_rival", ("AA-MELD-1", "RUL-4"), PLAY, ("force",),
            condition=None, under=forbids_forcing_onto_rival, message="this profile never adds a card to the rival's melds (AA-MELD-1)",
            concepts=("no_onto_rival",)),
    Refusal("card_does_not_fit", ("C-FORCE-1", "C-ARR-4", "TC-FORCE-1"), PLAY, ("force",),
            condition=card_does_not_fit_rival, message="the card does not fit the rival's exposed melds alone (C-FORCE-1)", reads_action=False),
)

# {reason code: the rules behind it}, in the order of precedence.
REASONS: dict[str, tuple[str, ...]] = {row.code: row.rules for row in REFUSALS}
BY_CODE: dict[str, Refusal] = {row.code: row for row in REFUSALS}

def slots(refusals: tuple[Refusal, ...], profile, policies: dict) -> dict[tuple[Phase, str], tuple[Refusal, ...]]:
    """The rows that can apply to each (phase, action type) under this profile and policy
    entries, in table order: `refusal` tries only these (built once per rule set)."""
    refusals = tuple(row for row in refusals if row.under is None or row.under(profile, policies))
    return {
        (phase, action_type): tuple(
            row for row in refusals if row.phase in (None, phase) and (row.types is None or action_type in row.types)
        )
        for phase in Phase
        for action_type in FIELDS
    }


def refusal(game, seat: int, act) -> Refusal | None:
    """The first row of the game's refusal table that refuses `act` by `seat` now, or None if it
    is legal. Pure."""
    for row in game.ruleset.refusals_by_slot[game.phase, act.type]:
        if row.condition is None or row.condition(game, seat, act):
            return row
    return None


# The rows a reference candidate never breaks, each with the policy entries under which that is
# so: `Game.legal` lists only for a seat that may act; the reference's candidates
# (conquian_ref.engine.phases) name only cards the seat holds; its uses come from the meld
# table's `legal_uses`, whose cards arrange with the exposed cards and the taken card, which is
# the whole test of a use when the melds may be rearranged freely (meld_timing: with_take). A
# listing skips them where both the phase row and the refusal row are the reference's own (a
# house rule that replaces either is checked in full); tests/test_state_machine.py checks that no
# listed action is ever refused.
HELD_BY_THE_CANDIDATES: dict[str, Callable[[dict], bool]] = {
    "not_your_turn": lambda policies: True,
    "card_not_in_hand": lambda policies: True,
    "no_valid_arrangement": lambda policies: policies["timing"] is TIMINGS[MeldTiming.WITH_TAKE],
}


def listing_slots(slots: dict, phases: dict, policies: dict) -> dict:
    """For each phase and action type, what `legal_among` asks: None where a row without a
    condition refuses the type outright; otherwise the conditions that do not read the action,
    and those that do."""
    held = {code for code, holds in HELD_BY_THE_CANDIDATES.items() if holds(policies)}
    listing: dict = {phase: {} for phase in Phase}
    for (phase, action_type), rows in slots.items():
        if phases[phase] is PHASES[phase]:
            rows = tuple(row for row in rows if not (row.code in held and row is BY_CODE[row.code]))
        listing[phase][action_type] = None if any(row.condition is None for row in rows) else (
            tuple(row.condition for row in rows if not row.reads_action),
            tuple(row.condition for row in rows if row.reads_action),
        )
    # A phase whose candidates are the reference's, where no row is left to ask of any type it
    # admits (the reference's discard and force decision): None, its candidates legal as they are.
    return {
        phase: None if phases[phase] is PHASES[phase] and all(by_type[t] == ((), ()) for t in PHASES[phase].admits) else by_type
        for phase, by_type in listing.items()
    }


def legal_among(game, seat: int, candidates: list) -> list:
    """The candidates no row of the game's refusal table refuses, in their order. The order of the
    rows decides which code a refused action gets, not whether it is refused; so the conditions
    that do not read the action are asked once per action type (the candidates come grouped by
    type), those that read it once per candidate."""
    # Speed: called at every decision of every simulated game, and the most bytecode of a random
    # game's action after the meld search (a play listing changes type three or four times):
    # plain loops, and a candidate of a type that no condition reads is appended at once.
    by_type = game.ruleset.listing_by_slot[game.phase]
    if by_type is None:  # no row to ask in this phase
        return list(candidates)
    legal = []
    current_type = asks = None
    conditions = ()
    for act in candidates:
        action_type = act.type  # read once: a named tuple's field is a slow attribute in CPython 3.11
        if action_type != current_type:
            current_type = action_type
            asks = by_type[action_type]
            if asks is not None:
                type_conditions, conditions = asks
                for condition in type_conditions:
                    if condition(game, seat, act):
                        asks = None  # the whole type is refused
                        break
        if asks is None:
            continue
        if not conditions:
            legal.append(act)
            continue
        for condition in conditions:
            if condition(game, seat, act):
                break
        else:
            legal.append(act)
    return legal


def message(row: Refusal, game, seat: int, act) -> str:
    return row.message if isinstance(row.message, str) else row.message(game, seat, act)
