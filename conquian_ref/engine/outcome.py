"""How a deal ends, as data (C-END-1, C-END-3, RUL-6)."""

from __future__ import annotations

from dataclasses import dataclass

# How a deal can end, and the rule behind each ending.
HOW = {
    "target_reached": "C-END-1",  # a use brought the player's exposed cards to the target
    "forced_to_target": "RUL-6",  # a forced card brought the receiver to the target
    "stock_exhausted": "C-END-3",  # the available card was rejected with an empty stock
}


@dataclass(frozen=True)
class Outcome:
    """The result of one deal: a win for `winner`, or a draw (winner None)."""

    result: str  # "win" | "draw"
    winner: int | None
    how: str  # a key of HOW

    def to_json(self) -> dict:
        return {"result": self.result, "winner": self.winner, "how": self.how}
