"""How a deal ends, as data: `How`, one member per ending, each naming its rule (C-END-1,
RUL-6, C-END-3, RUL-24)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class How(StrEnum):
    """How a deal ended: the value is the outcome's `how` in JSON, `rule` the rule behind it."""

    TARGET_REACHED = "target_reached", "C-END-1"  # a use brought the player's exposed cards to the target
    FORCED_TO_TARGET = "forced_to_target", "RUL-6"  # a forced card brought the receiver to the target
    STOCK_EXHAUSTED = "stock_exhausted", "C-END-3"  # the available card was rejected with an empty stock
    RUMMY = "rummy", "RUL-24"  # under going_rummy: a use by a player with nothing exposed reached the target

    def __new__(cls, value: str, rule: str):
        member = str.__new__(cls, value)
        member._value_ = value
        member.rule = rule
        return member


# {how: rule id}, for the tools that read the endings as a mapping (simulate, the book).
HOW: dict[str, str] = {str(how): how.rule for how in How}


@dataclass(frozen=True)
class Outcome:
    """The result of one deal: how it ended and, for a win, the winning seat (None: a draw)."""

    how: How
    winner: int | None = None

    @property
    def result(self) -> str:
        """"win" or "draw", as the protocol and the scenario files write it."""
        return "draw" if self.winner is None else "win"

    def to_json(self) -> dict:
        return {"result": self.result, "winner": self.winner, "how": str(self.how)}
