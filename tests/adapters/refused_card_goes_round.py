"""A deliberately wrong engine for the zoo (tests/zoo.py), for four seats: a refused card is not
put out of play at once but offered to each next seat in turn, until it comes back to the seat
that let it go (discarded or passed it); then it goes out of play and the next card is drawn
for the seat after that one, as some engines play "round the table". An in-process adapter
(`--impl python:refused_card_goes_round:Adapter`, with tests/adapters on sys.path), written from
outside the reference: a reject (or the decline that carries one out) is played on by hand
while the card has seats left to visit, and by the reference adapter when it is back, the draw
then moved to the seat after the one that let it go."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402


class Adapter(ReferenceAdapter):
    def _let_go_by(self, game) -> int | None:
        """The seat that discarded or passed the available card, from the public history."""
        card = game.deck.name(game.available)
        return next((e["seat"] for e in reversed(game.history) if e["event"] in ("discard", "pass") and e.get("card") == card), None)

    def cmd_apply(self, request: dict) -> dict:
        game, seat, action = self.reference.game, request.get("seat"), request.get("action")
        kind = action.get("type") if isinstance(action, dict) else None
        if game is None or len(game.profile.seats) < 3 or game.phase not in ("play", "force_decision"):
            return super().cmd_apply(request)
        # the seat whose reject this action carries out, if any, and whether the card goes on round
        rejecter = seat if kind == "reject" and game.phase == "play" else game.active if kind == "decline" and game.pending == "reject" else None
        origin = None if rejecter is None or game.revealed or game.opening_card else self._let_go_by(game)
        if origin is None:
            return super().cmd_apply(request)
        following = game.profile.next_seat(rejecter)
        opens_a_decision = kind == "reject" and game.ruleset.policies["own_fit"].opens_decision(game, rejecter)
        if following != origin and not opens_a_decision and request.get("action") in self.reference.legal(seat):
            if kind == "decline":  # the decision is over, declined
                game.log("decline", seat=seat)
                game.phase, game.pending = "play", None
            else:
                game.log("reject", seat=seat, card=game.deck.name(game.available))
            game.active = following  # the card goes on round, still a card left by another seat
            return {"result": "accepted"}
        answer = super().cmd_apply(request)
        last = game.history[-1] if game.history else {}
        if answer.get("result") == "accepted" and following == origin and last.get("event") == "reveal":
            game.active = last["seat"] = game.profile.next_seat(origin)  # back where it started: the draw after that seat
        return answer
