"""A deliberately wrong engine for the zoo (tests/zoo.py): a use that does not win ends the turn
with no discard, and the next stock card is revealed for the rival, as some engines do. An
in-process adapter (`--impl python:no_discard_after_use:Adapter`, with tests/adapters on
sys.path), written from outside the reference: it lets the reference adapter play the use, then,
where the reference waits for the user's discard, skips it and reveals the top stock card for
the next seat (a draw when the stock is empty, as after a reject)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402
from conquian_ref.engine.outcome import How, Outcome  # noqa: E402


class Adapter(ReferenceAdapter):
    def cmd_apply(self, request: dict) -> dict:
        answer = super().cmd_apply(request)
        action = request.get("action")
        game = self.reference.game
        if (answer.get("result") == "accepted" and isinstance(action, dict) and action.get("type") == "use"
                and game.phase == "discard"):
            game.phase, game.discarder = "play", None
            game.active = game.profile.next_seat(request["seat"])
            if not game.stock_pile:
                game.phase, game.outcome = "over", Outcome(How.STOCK_EXHAUSTED)
                game.log("end", **game.outcome.to_json())
                return answer
            game.available, game.revealed = game.stock_pile.pop(), True
            game.log("reveal", card=game.deck.name(game.available), seat=game.active)
        return answer
