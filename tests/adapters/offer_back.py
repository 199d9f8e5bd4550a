"""A deliberately wrong engine for the zoo (tests/zoo.py): after a discard, the discarded card is
offered back to the seat that discarded it instead of to the next seat, as some engines do (the
available card keeps the seat it was offered to last). An in-process adapter (`--impl
python:offer_back:Adapter`, with tests/adapters on sys.path), written from outside the reference:
it lets the reference adapter play the discard, then hands the card back to the discarder."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402


class Adapter(ReferenceAdapter):
    def cmd_apply(self, request: dict) -> dict:
        answer = super().cmd_apply(request)
        action = request.get("action")
        if answer.get("result") == "accepted" and isinstance(action, dict) and action.get("type") == "discard":
            game = self.reference.game
            if game.available is not None:  # the discard is on offer (not after the end of the deal)
                game.active = request["seat"]
        return answer
