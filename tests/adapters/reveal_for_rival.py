"""A deliberately wrong engine for the zoo (tests/zoo.py): after a reject, the next stock card is
revealed for the rival of the seat that rejected, not for that seat, as some engines do. An
in-process adapter (`--impl python:reveal_for_rival:Adapter`, with tests/adapters on sys.path),
written from outside the reference: it lets the reference adapter play the reject (or the
decline that carries out a reject), then gives the revealed card, and its reveal event, to the
rival. A reveal for another seat (the starter refused by the dealer, RUL-20) is left alone."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402


class Adapter(ReferenceAdapter):
    def cmd_apply(self, request: dict) -> dict:
        game = self.reference.game
        action = request.get("action")
        kind = action.get("type") if isinstance(action, dict) else None
        # The seat whose reject this action carries out: the rejecting seat, or the seat whose
        # pending reject the rival declines to force.
        rejecter = None
        if game is not None and kind == "reject":
            rejecter = request.get("seat")
        elif game is not None and kind == "decline" and game.pending == "reject":
            rejecter = game.active
        answer = super().cmd_apply(request)
        game = self.reference.game
        last = game.history[-1] if game.history else {}
        if (answer.get("result") == "accepted" and rejecter is not None and game.phase == "play" and game.revealed
                and game.active == rejecter and last.get("event") == "reveal"):
            game.active = 1 - rejecter
            last["seat"] = game.active
        return answer
