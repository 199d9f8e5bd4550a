"""A deliberately wrong engine with an automatic-take house rule, as an
in-process adapter (`--impl python:auto_take:Adapter`, with tests/adapters on sys.path).

It wraps the reference adapter; after an accepted `pass`, when the seat now to act can use the
revealed card, it takes it at once (the first `use` the reference lists), as some engines do
for their players. No scenario checks that moment directly: the first failing check comes
later, which is why the runner must find the first divergence itself."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402

TRIGGER = "pass"  # the action after which the take happens


class Adapter(ReferenceAdapter):
    def cmd_apply(self, request: dict) -> dict:
        answer = super().cmd_apply(request)
        action = request.get("action")
        if answer.get("result") == "accepted" and isinstance(action, dict) and action.get("type") == TRIGGER:
            game = self.reference.game
            for seat in game.state_json().get("to_act", []):
                uses = [a for a in self.reference.legal(seat) if a["type"] == "use"]
                if uses:
                    self.reference.apply(seat, uses[0])
                    break
        return answer


class WithoutPositions(Adapter):
    """The same engine, not declaring `setup_position`: a diagnosis stops at each scenario's first divergence."""

    def cmd_start(self, request: dict) -> dict:
        answer = super().cmd_start(request)
        answer["capabilities"] = [c for c in answer["capabilities"] if c != "setup_position"]
        return answer
