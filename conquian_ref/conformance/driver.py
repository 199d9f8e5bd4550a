"""A connection as a driver: `ImplementationDriver` answers the step interpreter's requests
(conquian_ref.conformance.steps) over the protocol, so an implementation under test is walked
exactly as the reference engine is.

Each driver request is the protocol command of the same name (docs/protocol.md, "Commands");
`batch` sends a scenario's planned requests pipelined. A setup is sent in the form the
implementation declared (`setup_hands` or `setup_deck`), converted through the profile's
dealing pattern when the scenario gives the other form (RUL-10); a deck order converted to hands
leaves the implementation's dealing untested, which the driver notes in `untested` (the step
interpreter reports it among the checks skipped). Every answer is checked for the key and the
shape its command answers with (its conformance.protocol.Command) before anything reads it; a
request's fields are the command's, from the driver call's arguments.
"""

from __future__ import annotations

from .client import Connection
from .failures import AdapterFailure, BadAnswer
from .protocol import COMMANDS

# Why a deck order sent as hands leaves something untested (steps.Walk.skipped_checks).
DEALING_UNTESTED = "setup: dealing not tested (the deck order was sent as hands and stock: no setup_deck capability)"

class ImplementationDriver:
    """The driver interface of conquian_ref.conformance.steps over a Connection."""

    def __init__(self, connection: Connection):
        self.conn = connection
        self.name = connection.handshake.name if connection.handshake else connection.impl
        self.untested: list[str] = []  # what the last setup left untested

    def setup(self, profile_id: str, setup: dict) -> None:
        caps = self.conn.handshake.capabilities
        fields = COMMANDS["setup"].fields(profile_id, setup["dealer"])
        self.untested = []
        if "deck" in setup and "setup_deck" not in caps:
            fields.update(hands_and_stock(profile_id, setup))
            self.untested.append(DEALING_UNTESTED)
        elif "deck" not in setup and "setup_hands" not in caps:
            fields["deck"] = deck_order(profile_id, setup)
        else:
            fields.update({k: setup[k] for k in ("hands", "stock", "deck") if k in setup})
        self._answer("setup", fields)

    def setup_position(self, profile_id: str, position: dict) -> None:
        """Take the deal up at `position` (Game.position()'s form: the reference's state, public
        history and opening-card flag), for an implementation declaring `setup_position`."""
        self.untested = []
        self._request("setup_position", profile_id, position)

    def batch(self, requests: list[tuple]) -> list:
        """Several requests sent together (pipelined: written at once, the answers read in
        order), each answer checked and unpacked as the single call does. A failure ends the
        list: the answers before it still count, then the AdapterFailure."""
        answers = self.conn.request_many([(cmd, COMMANDS[cmd].fields(*args)) for cmd, *args in requests])
        results: list = []
        for (cmd, *_), answer in zip(requests, answers):
            try:
                if isinstance(answer, AdapterFailure):
                    raise answer
                results.append(self._unpacked(cmd, answer))
            except AdapterFailure as exc:
                return results + [exc]
        return results

    def apply(self, seat: int, action: dict) -> tuple[str, str | None]:
        return self._request("apply", seat, action)

    def state(self) -> dict:
        return self._request("state")

    def observation(self, seat: int) -> dict:
        return self._request("observation", seat)

    def legal(self, seat: int) -> list[dict]:
        return self._request("legal", seat)

    def perft(self, depth: int) -> list[int]:
        return self._request("perft", depth)

    def divide(self, depth: int) -> dict:
        divided = self._answer("perft", {"depth": depth, "divide": True}).get("divide", {})
        return divided if isinstance(divided, dict) else {"(divide)": divided}

    def match(self, profile_id: str, first_dealer: int, outcomes: list[dict]) -> dict:
        return self._request("match", profile_id, first_dealer, outcomes)

    def _request(self, cmd: str, *args):
        return self._unpacked(cmd, self.conn.request(cmd, **COMMANDS[cmd].fields(*args)))

    def _answer(self, cmd: str, fields: dict) -> dict:
        """The answer to one request, with the keys the protocol says it carries."""
        return self._has_keys(cmd, self.conn.request(cmd, **fields))

    def _has_keys(self, cmd: str, answer: dict) -> dict:
        command = COMMANDS[cmd]
        for key in command.answer:
            if key not in answer:
                raise BadAnswer(f"the {cmd!r} answer lacks {key!r}", self.conn.stderr_tail, cmd)
        problem = command.shape_problem(answer)
        if problem:
            raise BadAnswer(problem, self.conn.stderr_tail, cmd)
        return answer

    def _unpacked(self, cmd: str, answer: dict):
        """What the driver call returns: the answer's one key, an `apply` result as a pair."""
        answer = self._has_keys(cmd, answer)
        return _result(answer) if cmd == "apply" else answer[COMMANDS[cmd].answer[0]]


def _result(answer: dict) -> tuple[str, str | None]:
    """An `apply` answer (its result already one of the two) as a pair; a reason is kept only
    when it is text, so that nothing else reaches the comparison."""
    if answer["result"] == "accepted":
        return "accepted", None
    reason = answer.get("reason")
    return "refused", reason if isinstance(reason, str) or reason is None else repr(reason)[:80]


def deck_order(profile_id: str, setup: dict) -> list[str]:
    """The deck order that deals `setup`'s hands and stock (for an implementation without setup_hands)."""
    from ..engine.dealing import undeal
    from ..spec.profiles import load_profile

    return undeal(load_profile(profile_id), setup["hands"], setup["stock"], setup["dealer"])


def hands_and_stock(profile_id: str, setup: dict) -> dict:
    """The hands and stock dealt from `setup`'s deck order (for an implementation without setup_deck)."""
    from ..engine.dealing import deal
    from ..spec.profiles import load_profile

    hands, stock = deal(load_profile(profile_id), setup["deck"], setup["dealer"])
    return {"hands": hands, "stock": stock}
