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
types `Game.legal` lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Callable

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
    seats that may act (a function of the game), and the `Game` method that lists the legal
    actions of those types (one method per phase: `legal` is called at every decision, so its
    listing is not split further)."""

    admits: tuple[str, ...]
    seats: Callable[[object], tuple[int, ...]]
    lister: str


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


PHASES: dict[Phase, PhaseRule] = {
    Phase.EXCHANGE: PhaseRule(("exchange",), _seats_yet_to_pick, "_legal_exchange"),
    Phase.PLAY: PhaseRule(("force", "pass", "reject", "use"), _active_seat, "_legal_play"),
    Phase.DISCARD: PhaseRule(("discard",), _discarding_seat, "_legal_discard"),
    Phase.FORCE_DECISION: PhaseRule(("decline", "force"), _rival_of_active, "_legal_decision"),
    Phase.OVER: PhaseRule((), _nobody, "_legal_nothing"),
}
