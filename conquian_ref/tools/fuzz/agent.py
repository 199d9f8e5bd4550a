"""What a fuzzed game is, and how its actions are chosen.

A game is data: a deck order, a dealer, and a list of integers, one per step (`GameSpec`).
Each integer chooses the step's action in the position reached (`decode`), among the
reference's legal actions or, 15 % of the time, a plausible illegal one (`illegal_groups`).
Three sources of those integers: the seeded random agent (`AgentSource`), a recorded list
(`ListSource`) and Hypothesis while shrinking (`DrawSource`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...engine.actions import FIELDS, Action
from ...engine.game import Game

CHOICE_BITS = 16
CHOICE_MAX = 2**CHOICE_BITS - 1  # a step choice is an integer 0..CHOICE_MAX (see decode)
SLOTS, ILLEGAL_SLOTS = 20, 3  # choice % 20 in 17..19: a plausible illegal action (15 %)


@dataclass
class GameSpec:
    """One fuzzed game: a deck order (top first), a dealer, and the step choices (see decode)."""

    profile_id: str
    deck: list[str]
    dealer: int
    choices: list[int] = field(default_factory=list)


# -- choosing actions ------------------------------------------------------------------------------
def legal_candidates(game: Game) -> list[tuple[int, dict]]:
    """Every legal (seat, action) now: the seats that may act, in seat order; the engine's order."""
    return [(seat, action) for seat in game.to_act for action in game.legal_actions(seat)]


def illegal_groups(game: Game, listed: dict[int, list[Action]] | None = None) -> tuple[list[tuple[int, dict]], ...]:
    """Plausible illegal (seat, action) pairs, deterministic from the position, in three groups:
    (every action type the acting seat may not play now), (cards it does not hold), (the wrong
    seat; a use of two hand cards, which usually forms no arrangement). Always well formed, never
    malformed input; an occasional one may turn out legal, which is harmless. `listed`: as for
    `choose`."""
    return tuple(illegal_group(game, k, listed) for k in range(ILLEGAL_SLOTS))


def illegal_group(game: Game, k: int, listed: dict[int, list[Action]] | None = None) -> list[tuple[int, dict]]:
    """Group `k` of illegal_groups, worked out alone (the cards not held need no legal listing)."""
    to_act = game.to_act
    seat = to_act[0] if to_act else game.active
    # The hand as its bit mask (card c held: mask >> c & 1), not as a list: this runs at every
    # illegal step, and the bit tests give the same cards as the list did, with less work.
    return _GROUPS[k](game, to_act, seat, game.hands[seat], listed)


def _other_type(game: Game, to_act, seat: int, hand: int, listed) -> list[tuple[int, dict]]:
    """Every action type the acting seat may not play now, with its lowest card (or one it lacks)."""
    legal_types = {a.type for a in _legal(game, seat, listed)}
    own = game.deck.name((hand & -hand).bit_length() - 1 if hand else _foreign(game, seat, hand)[0])
    group: list[tuple[int, dict]] = []
    for kind, fields in FIELDS.items():
        if kind in legal_types:
            continue
        if fields == ("card",):
            group.append((seat, {"type": kind, "card": own}))
        elif fields == ("cards",):
            group.append((seat, {"type": kind, "cards": [own]}))
        else:
            group.append((seat, {"type": kind}))
    return group


def _not_held(game: Game, to_act, seat: int, hand: int, listed) -> list[tuple[int, dict]]:
    """The phase's action with a card the seat does not hold."""
    name, phase = game.deck.name, game.phase
    if phase == "exchange":
        return [(seat, {"type": "exchange", "card": name(card)}) for card in _foreign(game, seat, hand)]
    if phase == "play":
        return [(seat, {"type": "use", "cards": [name(card)]}) for card in _foreign(game, seat, hand)]
    return [(seat, {"type": "discard", "card": name(card)}) for card in _foreign(game, seat, hand)]


def _misplaced(game: Game, to_act, seat: int, hand: int, listed) -> list[tuple[int, dict]]:
    """The rival playing the seat's first legal action; a use of the seat's lowest and highest cards."""
    rival = game.profile.next_seat(seat)
    legal = _legal(game, seat, listed)
    group = []
    if rival not in to_act and legal:
        group.append((rival, legal[0].to_json(game.deck)))
    if game.phase == "play" and hand & (hand - 1):  # two cards or more: the lowest and the highest
        group.append((seat, {"type": "use", "cards": [game.deck.name((hand & -hand).bit_length() - 1), game.deck.name(hand.bit_length() - 1)]}))
    return group


_GROUPS = (_other_type, _not_held, _misplaced)


def _foreign(game: Game, seat: int, hand: int) -> list[int]:
    """Cards the seat does not hold, found cheaply: the top of the stock, the rival's lowest card,
    the first card out of play, the lowest exposed card of the seat's team (or else the lowest
    card of the deck the seat lacks)."""
    rival = game.profile.next_seat(seat)
    pool = game.stock_pile[-1:] + _lowest(game.hands[rival]) + game.out_of_play[:1] + _lowest(game.exposed_of(seat))
    return list(dict.fromkeys(c for c in pool if not hand >> c & 1)) or _lowest(~hand & (hand + 1) & ((1 << game.deck.size) - 1))


def _lowest(mask: int) -> list[int]:
    """The lowest card of a mask, as a list of none or one card."""
    return [(mask & -mask).bit_length() - 1] if mask else []


def illegal_candidates(game: Game) -> list[tuple[int, dict]]:
    """Every plausible illegal (seat, action) of illegal_groups, in one list."""
    return [pair for group in illegal_groups(game) for pair in group]


def decode(game: Game, choice: int) -> tuple[int, dict]:
    """The (seat, action) a step choice selects in this position (see `choose`)."""
    seat, action, _ = choose(game, choice)
    return seat, action


def _legal(game: Game, seat: int, listed: dict[int, list[Action]] | None) -> list[Action]:
    """game.legal(seat), kept in `listed` (the listings of this position, or None: none kept)."""
    if listed is None:
        return game.legal(seat)
    actions = listed.get(seat)
    if actions is None:
        actions = listed[seat] = game.legal(seat)
    return actions


def choose(game: Game, choice: int, listed: dict[int, list[Action]] | None = None) -> tuple[int, dict, Action | None]:
    """The (seat, action, parsed) a step choice selects in this position; `parsed` is the
    engine's Action for a legal choice (cheaper to apply than the JSON, which the game would parse
    again), None for an illegal one. `choice % 20` in 17, 18, 19
    picks a plausible illegal action (15 % of random choices) of the group of that number (another
    type, a card not held, the wrong seat or a bad use: so an illegal choice keeps its meaning when
    the shrinker moves it to another step); anything else a legal one. `choice // 20` indexes the
    list. Choice 0 is the first legal action, so shrinking a choice simplifies it. `listed`: the
    seats' legal actions in this position as far as listed already (a refused action leaves the
    position as it was, so the step after it needs no new listing), filled in as they are listed."""
    slot, index = choice % SLOTS, choice // SLOTS
    # legal_candidates, as engine Actions: only the chosen one is written as JSON. (Not listed
    # for an illegal slot: illegal_groups lists what it needs.)
    illegal = slot >= SLOTS - ILLEGAL_SLOTS
    if not illegal:
        to_act = game.to_act
        if len(to_act) == 1:  # one seat acts (all but the exchange): its own list, no (seat, action) pairs built
            seat = to_act[0]
            legal_of_seat = _legal(game, seat, listed)
            if legal_of_seat:
                act = legal_of_seat[index % len(legal_of_seat)]
                return seat, act.to_json(game.deck), act
        else:
            legal = [(seat, act) for seat in to_act for act in _legal(game, seat, listed)]
            if legal:
                seat, act = legal[index % len(legal)]
                return seat, act.to_json(game.deck), act
    group = illegal_group(game, slot - (SLOTS - ILLEGAL_SLOTS), listed) if illegal else []
    group = group or [pair for g in illegal_groups(game, listed) for pair in g]
    seat, action = group[index % len(group)]
    return seat, action, None


# -- where the choices come from -------------------------------------------------------------------
class AgentSource:
    """The random agent: a fresh choice per step, recorded."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.choices: list[int] = []

    def next(self) -> int | None:
        choice = self.rng.getrandbits(CHOICE_BITS)  # uniform over 0..CHOICE_MAX, as randint is, for less work
        self.choices.append(choice)
        return choice


class ListSource:
    """Replays recorded choices, then stops."""

    def __init__(self, choices: list[int]):
        self.choices = list(choices)
        self.i = 0

    def next(self) -> int | None:
        if self.i >= len(self.choices):
            return None
        self.i += 1
        return self.choices[self.i - 1]


class DrawSource:
    """Draws choices from Hypothesis: a boolean "one more step" (shrinks towards stopping), then
    the choice (shrinks towards 0, the first legal action). At most `cap` steps."""

    def __init__(self, data, cap: int):
        from hypothesis import strategies as st

        self.data, self.cap = data, cap
        self.more, self.value = st.booleans(), st.integers(0, CHOICE_MAX)
        self.choices: list[int] = []

    def next(self) -> int | None:
        if len(self.choices) >= self.cap or not self.data.draw(self.more):
            return None
        self.choices.append(self.data.draw(self.value))
        return self.choices[-1]
