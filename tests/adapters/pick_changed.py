"""A deliberately wrong engine for the zoo (tests/zoo.py): in the exchange, a seat that has
picked the card to give may pick again, replacing its pick, until the rival has picked too, as
some engines allow. An in-process adapter (`--impl python:pick_changed:Adapter`, with
tests/adapters on sys.path), written from outside the reference: a second pick is played on the
reference with the first one taken back (and put back if the reference refuses the card), and
while the exchange lasts both seats are shown to act, the one that has picked with its picks."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402


class Adapter(ReferenceAdapter):
    def _exchanging(self) -> bool:
        game = self.reference.game
        return game is not None and game.phase == "exchange"

    def cmd_apply(self, request: dict) -> dict:
        game, seat, action = self.reference.game, request.get("seat"), request.get("action")
        repick = (self._exchanging() and seat in (0, 1) and isinstance(action, dict) and action.get("type") == "exchange"
                  and game.picks[seat] is not None)
        if (self._exchanging() and seat in (0, 1) and isinstance(action, dict) and action.get("type") != "exchange"
                and game.picks[seat] is not None):
            # shown to act, the seat that has picked is told what the exchange asks of it
            return {"result": "refused", "reason": "must_exchange", "message": "the exchange is not over: pick a card to give"}
        if not repick:
            return super().cmd_apply(request)
        first = game.picks[seat]
        game.picks[seat] = None  # taken back: the reference sees the seat's first pick
        answer = super().cmd_apply(request)
        if answer.get("result") != "accepted":
            game.picks[seat] = first
        return answer

    def cmd_state(self, request: dict) -> dict:
        answer = super().cmd_state(request)
        if self._exchanging():
            answer["state"]["to_act"] = [0, 1]
        return answer

    def cmd_observation(self, request: dict) -> dict:
        answer = super().cmd_observation(request)
        if self._exchanging() and "observation" in answer:
            answer["observation"]["to_act"] = [0, 1]
        return answer

    def cmd_legal(self, request: dict) -> dict:
        game, seat = self.reference.game, request.get("seat")
        if self._exchanging() and seat in (0, 1) and game.picks[seat] is not None:
            return {"actions": [{"type": "exchange", "card": game.deck.name(c)} for c in game.choosable(seat)]}
        return super().cmd_legal(request)
