"""A deliberately wrong engine for the zoo (tests/zoo.py): every deal begins with the torno's
exchange (each seat picks one hand card to give, in any order, unseen by the other; then the two
are swapped and the opening card is revealed), in a profile that has no exchange, as an engine
written for the torno and reused for another profile would. An in-process adapter (`--impl
python:exchange_first:Adapter`, with tests/adapters on sys.path), written from outside the
reference: the wrapper answers for the exchange itself, then deals the swapped hands to the
reference adapter, which plays the rest; its answers keep showing the exchange made."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402
from conquian_ref.engine.errors import ConquianError  # noqa: E402


class Adapter(ReferenceAdapter):
    picks: list | None = None  # during the exchange: each seat's pick, None until made
    given: list | None = None  # after it: the card each seat gave
    deal: dict | None = None  # the deal as set up (hands as dealt, the stock before the opening card)

    def _exchanging(self) -> bool:
        return self.picks is not None

    def cmd_setup(self, request: dict) -> dict:
        answer = super().cmd_setup(request)  # dealt by the reference (the deck form too), opening card revealed
        state = self.reference.state()
        stock = [state["available"]["card"], *state["stock"]]  # the opening card back on top
        self.deal = {"profile": request["profile"], "dealer": state["dealer"], "hands": state["hands"], "stock": stock}
        self.picks, self.given = [None, None], None
        return answer

    def cmd_setup_position(self, request: dict) -> dict:
        self.picks = self.given = None  # a position of the reference's: no exchange left to make
        return super().cmd_setup_position(request)

    def cmd_apply(self, request: dict) -> dict:
        if not self._exchanging():
            answer = super().cmd_apply(request)
            if answer.get("reason") == "not_in_profile" and self.given is not None:
                answer["reason"] = "exchange_over"  # this engine had its exchange
            return answer
        seat, action = request.get("seat"), request.get("action")
        if seat not in (0, 1):
            raise ConquianError(f"seat must be 0 or 1, got {seat!r}")
        if not isinstance(action, dict):
            raise ConquianError("an action is an object")
        card = action.get("card")
        deck = self.reference.game.deck
        if action.get("type") == "exchange" and card not in deck.names(range(deck.size)):
            raise ConquianError(f"{card!r} is not a card of this deck")  # malformed: an error answer, as the reference gives
        if self.picks[seat] is not None:
            return {"result": "refused", "reason": "not_your_turn", "message": "this seat has made its exchange pick"}
        if action.get("type") != "exchange":
            return {"result": "refused", "reason": "must_exchange", "message": "pick a card to give first"}
        if card not in self.deal["hands"][seat]:
            return {"result": "refused", "reason": "card_not_in_hand", "message": f"seat {seat} does not hold {card}"}
        self.picks[seat] = card
        if None not in self.picks:
            self._swap()
        return {"result": "accepted"}

    def _swap(self) -> None:
        """Both picks made: the cards change hands, and the reference deals the swapped hands."""
        hands = [[c for c in hand if c != self.picks[seat]] for seat, hand in enumerate(self.deal["hands"])]
        hands[0].append(self.picks[1])
        hands[1].append(self.picks[0])
        self.reference.setup(self.deal["profile"], {"dealer": self.deal["dealer"], "hands": hands, "stock": self.deal["stock"]})
        self.reference.game.history.insert(0, {"event": "exchange", "given": list(self.picks)})
        self.given, self.picks = self.picks, None

    def cmd_state(self, request: dict) -> dict:
        if self._exchanging():
            return {"state": {
                "profile": self.deal["profile"], "dealer": self.deal["dealer"], "phase": "exchange",
                "to_act": [s for s in (0, 1) if self.picks[s] is None], "hands": self.deal["hands"], "exposed": [[], []],
                "available": None, "stock": self.deal["stock"], "out_of_play": [], "exchange": {"picks": list(self.picks)},
                "pending": None, "outcome": None,
            }}
        answer = super().cmd_state(request)
        if self.given is not None:
            answer["state"]["exchange"] = {"picks": list(self.given)}
        return answer

    def cmd_observation(self, request: dict) -> dict:
        answer = super().cmd_observation(request)
        seat, seen = request.get("seat"), answer.get("observation")
        if seen is None or seat not in (0, 1):
            return answer
        if self._exchanging():
            state = self.cmd_state({})["state"]
            seen.update(phase="exchange", to_act=state["to_act"], hand=self.deal["hands"][seat], hand_counts=[len(h) for h in self.deal["hands"]],
                        available=None, stock_count=len(self.deal["stock"]), history=[],
                        exchange={"mine": self.picks[seat], "rival_picked": self.picks[1 - seat] is not None})
        elif self.given is not None:
            seen["exchange"] = {"gave": self.given[seat], "received": self.given[1 - seat]}
        return answer

    def cmd_legal(self, request: dict) -> dict:
        seat = request.get("seat")
        if self._exchanging():
            mine = seat in (0, 1) and self.picks[seat] is None
            return {"actions": [{"type": "exchange", "card": c} for c in self.deal["hands"][seat]] if mine else []}
        return super().cmd_legal(request)
