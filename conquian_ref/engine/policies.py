"""The profile's policies as enums, each value mapped to the behaviour that implements it.

A policy field of a profile (schema/profile.schema.json) that changes what the engine does is a
`StrEnum` here, and one table maps each of its values to a small record of functions and the
rule ids behind them, the way jsonschema maps a keyword to the function that checks it. The
engine asks the table (through its `RuleSet`, conquian_ref.engine.ruleset), never compares a
policy value as a string: grep a value, land on its behaviour.

| field | values | rules |
|---|---|---|
| `forcing.fit` | any_arrangement, extension | C-ARR-4 / RUL-3; RUL-22 |
| `forcing.own_fit` | automatic, rival_option, none | RUL-4, RUL-14, RUL-23 |
| `opening.style` | revealed_to_non_dealer, offered_to_both_then_draw | RUL-7; RUL-20 |
| `meld_timing` | with_take, discard_then_meld | C-ARR-2; RUL-35 |
| `melds.set_suits` | distinct, any | C-SET-1; RUL-33 (read by the meld rule, conquian_ref.engine.melds) |
| `empty_hand` | discard (absent: the default), turn_passes | C-TURN-3 / RUL-19; RUL-43 |

A rule tuple here, as on every row of the engine, holds rule ids and the keys of the profile's
`rules:` (lowercase, e.g. `force_fit`): a key stands for the profile's own id for it, where the
profile names one (conquian_ref.engine.ruleset.resolve).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Callable


class ForcingFit(StrEnum):
    """What "fits" means when a card may be forced or demanded (`forcing.fit`)."""

    ANY_ARRANGEMENT = "any_arrangement"  # it joins the exposed cards alone under some repartition
    EXTENSION = "extension"  # it extends one meld of some arrangement


class OwnFit(StrEnum):
    """What happens to a card that fits the active seat's own melds (`forcing.own_fit`)."""

    AUTOMATIC = "automatic"  # it may not be rejected or passed: the table convention
    RIVAL_OPTION = "rival_option"  # letting it go opens the next seat's force decision
    NONE = "none"  # it goes like any other card


class OpeningStyle(StrEnum):
    """How the opening card is offered (`opening.style`)."""

    REVEALED_TO_NON_DEALER = "revealed_to_non_dealer"
    OFFERED_TO_BOTH_THEN_DRAW = "offered_to_both_then_draw"


class MeldTiming(StrEnum):
    """When the taken card joins the melds (`meld_timing`)."""

    WITH_TAKE = "with_take"  # with the hand cards named, every exposed card rearranged as needed
    DISCARD_THEN_MELD = "discard_then_meld"  # placed as the melds lie, before any rearranging


class EmptyHand(StrEnum):
    """What follows a take that leaves the taker's hand empty short of the target (`empty_hand`)."""

    DISCARD = "discard"  # a discard, as after every take: such a take cannot happen (RUL-1, RUL-38)
    TURN_PASSES = "turn_passes"  # no discard: the turn passes (RUL-43, the literal twice-around)


class SetSuits(StrEnum):
    """Which cards a set may hold (`melds.set_suits`)."""

    DISTINCT = "distinct"  # different suits (C-SET-1)
    ANY = "any"  # identical cards too, with two decks (RUL-33)


# -- forcing.fit -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FitRule:
    """`fits(table, exposed, card_bit)`: whether the card fits these exposed cards for forcing."""

    fits: Callable[[object, int, int], bool]
    rules: tuple[str, ...]


def fits_any_arrangement(table, exposed: int, card_bit: int) -> bool:
    return table.fits(exposed, card_bit)


def fits_by_extension(table, exposed: int, card_bit: int) -> bool:
    return exposed != 0 and table.extends(exposed, card_bit)


FITS: dict[ForcingFit, FitRule] = {
    ForcingFit.ANY_ARRANGEMENT: FitRule(fits_any_arrangement, ("C-ARR-4", "RUL-3")),
    ForcingFit.EXTENSION: FitRule(fits_by_extension, ("RUL-22", "force_fit")),
}


# -- forcing.own_fit ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class OwnFitRule:
    """`must_take(game, seat)`: the available card may not be rejected or passed by `seat`;
    `opens_decision(game, seat)`: letting it go asks the next seat to force or decline."""

    must_take: Callable[[object, int], bool]
    opens_decision: Callable[[object, int], bool]
    rules: tuple[str, ...]  # what asking `opens_decision` applies
    consults: tuple[str, ...] = ()  # the other policy entries it asks, whose rules it applies too


def never(game, seat: int) -> bool:
    return False


def fits_own_melds(game, seat: int) -> bool:
    """The available card fits the seat's own exposed melds, in the profile's sense of forcing."""
    return game.fits_for_forcing(game.exposed_of(seat), 1 << game.available)


def fits_and_a_demand_is_possible(game, seat: int) -> bool:
    """The card fits the seat's own melds, and taking it would leave a card to discard (RUL-38)."""
    # fits_own_melds written out: asked at three decisions in four of a random game; its extra
    # call and second exposed_of were 0.2 % of the game's instructions (valgrind).
    exposed = game.exposed_of(seat)
    return exposed != 0 and game.fits_for_forcing(exposed, 1 << game.available) and not game.leaves_nothing_to_discard(seat, 0)


OWN_FITS: dict[OwnFit, OwnFitRule] = {
    OwnFit.AUTOMATIC: OwnFitRule(must_take=fits_own_melds, opens_decision=never, rules=()),
    OwnFit.RIVAL_OPTION: OwnFitRule(must_take=never, opens_decision=fits_and_a_demand_is_possible, rules=("force_option", "RUL-14", "RUL-23", "RUL-38"), consults=("fit",)),
    OwnFit.NONE: OwnFitRule(must_take=never, opens_decision=never, rules=("no_forcing",)),
}


# -- opening.style -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class OpeningRule:
    """The ruling behind the style, and whether the dealer's refusal of the opening card reveals
    the next card for the non-dealer (RUL-20) rather than for the refusing seat (C-TURN-4)."""

    rules: tuple[str, ...]
    refusal_draws_for_non_dealer: bool


OPENINGS: dict[OpeningStyle, OpeningRule] = {
    OpeningStyle.REVEALED_TO_NON_DEALER: OpeningRule(("RUL-7",), refusal_draws_for_non_dealer=False),
    OpeningStyle.OFFERED_TO_BOTH_THEN_DRAW: OpeningRule(("RUL-20", "starter"), refusal_draws_for_non_dealer=True),
}


# -- meld_timing -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TimingRule:
    """`arranges(table, exposed, new)`: the exposed cards with the new cards (the taken card and
    the hand cards named) have a valid arrangement under this timing."""

    arranges: Callable[[object, int, int], bool]
    rules: tuple[str, ...]


def arranges_freely(table, exposed: int, new: int) -> bool:
    return table.arrangeable(exposed | new)


def placed_as_the_melds_lie(table, exposed: int, new: int) -> bool:
    return table.placeable(exposed, new)


TIMINGS: dict[MeldTiming, TimingRule] = {
    MeldTiming.WITH_TAKE: TimingRule(arranges_freely, ("C-ARR-2",)),
    MeldTiming.DISCARD_THEN_MELD: TimingRule(placed_as_the_melds_lie, ("RUL-35",)),
}


# -- empty_hand --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class EmptyHandRule:
    """`turn_passes`: a take that empties the taker's hand short of the target ends the turn with
    no discard (the `empty_hand_passes_turn` step); otherwise a discard must follow every such
    take, so a take that would leave nothing to discard is never made (RUL-1 with two players,
    RUL-38's refusal with four)."""

    turn_passes: bool
    rules: tuple[str, ...]


EMPTY_HANDS: dict[EmptyHand, EmptyHandRule] = {
    EmptyHand.DISCARD: EmptyHandRule(turn_passes=False, rules=("C-TURN-3", "RUL-19")),
    EmptyHand.TURN_PASSES: EmptyHandRule(turn_passes=True, rules=("RUL-43", "empty_hand")),
}
