"""The phases of a deal, and the one table of what each phase admits.

    exchange ─► play ◄──► discard          (over: after a win or a draw)
                 │  ▲
                 ▼  │
            force_decision                 (under forcing.own_fit: rival_option)

`exchange` (TC-XCH-1): both seats pick a card to give, in any order; until then nothing else.
`play` (C-TURN-1): the seat holding the available card decides: use, reject, pass or force.
`discard` (C-TURN-3): the seat that just took a card discards one.
`force_decision` (AA-FORCE-1, RUL-14): the rival of the active seat forces or declines a
fitting card the active seat tried to let go.
`over` (C-END-4): the deal has a result; nobody acts.

`PHASES` drives three things, so they cannot disagree: who may act (`Game.to_act`), which
action types each phase refuses with its phase code (conquian_ref.engine.refusals) and which
candidate actions `Game.legal` puts to the refusal table (the legal actions are the candidates
no row refuses: listing and refusing have one source).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Callable

from .actions import Action
from .cards import deck_order_key

SEATS = (0, 1)  # the seats of a two-player profile; a profile's own are `Profile.seats`


class Phase(StrEnum):
    """A phase of the deal; a str, so `state_json()["phase"]` and `game.phase == "play"` work."""

    EXCHANGE = "exchange"
    PLAY = "play"
    DISCARD = "discard"
    FORCE_DECISION = "force_decision"
    OVER = "over"


@dataclass(frozen=True)
class PhaseRule:
    """What a phase admits: the action types (sorted by name, the order of `Game.legal`), the
    seats that may act (a function of the game), and the candidate actions of a seat (a
    function of the game and the seat, in the order of `Game.legal`): every action of an admitted
    type that could be legal, which the refusal table then filters."""

    admits: tuple[str, ...]
    seats: Callable[[object], tuple[int, ...]]
    candidates: Callable[[object, int], list]


def _seats_yet_to_pick(game) -> tuple[int, ...]:
    return tuple(s for s in SEATS if game.picks[s] is None)


def _active_seat(game) -> tuple[int, ...]:
    return (game.active,)


def _discarding_seat(game) -> tuple[int, ...]:
    return (game.discarder,)


def _rival_of_active(game) -> tuple[int, ...]:
    # The next seat decides a demand (RUL-39): the rival with two players.
    return (game.profile.next_seat(game.active),)


def _nobody(game) -> tuple[int, ...]:
    return ()


# The actions without cards, made once (an Action is immutable).
_FORCE, _PASS, _REJECT, _DECLINE = Action("force"), Action("pass"), Action("reject"), Action("decline")


# The card passed by position, Action(type, card): a keyword costs 380 ns a call against 210 in
# CPython 3.11 (timeit), and a discard listing makes one action per hand card.
def _exchange_picks(game, seat: int) -> list[Action]:
    return [Action("exchange", c) for c in game.choosable(seat)]


def _discards(game, seat: int) -> list[Action]:
    return [Action("discard", c) for c in game.choosable(seat)]


def _force_or_decline(game, seat: int) -> list[Action]:
    return [_DECLINE, _FORCE]


def _play(game, seat: int) -> list[Action]:
    """force, pass, reject, then each use whose cards arrange with the exposed cards and the
    taken card (the meld table's search), in deck order of their cards (Action.sort_key)."""
    uses = game.table.legal_uses(game.exposed_of(seat), 1 << game.available, game.hands[seat])
    if not uses:  # the common case (the card is in no meld): no memo to ask
        return [_FORCE, _PASS, _REJECT]
    return [_FORCE, _PASS, _REJECT, *use_actions(uses)]


@lru_cache(maxsize=1 << 14)  # the same sets of uses recur across a game: sorted once (a frozenset caches its hash)
def use_actions(uses: frozenset[int]) -> tuple[Action, ...]:
    return tuple(Action("use", cards=s) for s in sorted(uses, key=deck_order_key))


def _none(game, seat: int) -> list[Action]:
    return []


PHASES: dict[Phase, PhaseRule] = {
    Phase.EXCHANGE: PhaseRule(("exchange",), _seats_yet_to_pick, _exchange_picks),
    Phase.PLAY: PhaseRule(("force", "pass", "reject", "use"), _active_seat, _play),
    Phase.DISCARD: PhaseRule(("discard",), _discarding_seat, _discards),
    Phase.FORCE_DECISION: PhaseRule(("decline", "force"), _rival_of_active, _force_or_decline),
    Phase.OVER: PhaseRule((), _nobody, _none),
}
