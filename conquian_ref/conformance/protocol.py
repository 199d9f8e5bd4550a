"""The conformance protocol in one place: its version, capabilities and commands, and the
validation of its messages (docs/protocol.md; every message has a schema in
schema/protocol.schema.json, `$defs/requests/<cmd>` and `$defs/answer_to/<cmd>`).

The reference adapter (conquian_ref.conformance.adapter) answers with these names, the client
(conquian_ref.conformance.client) and the driver (conquian_ref.conformance.driver) ask with them,
and the runner (conquian_ref.conformance.check) skips a scenario by them. tests/test_protocol.py
checks them against the schema.
"""

from __future__ import annotations

import json

from ..engine.errors import ConquianError

PROTOCOL_VERSION = 1

# What an adapter may declare in its handshake (docs/protocol.md, "Capabilities").
CAPABILITIES = (
    "setup_hands", "setup_deck", "reason_codes", "state", "observation", "legal_actions", "perft", "match", "stakes",
    "four_seats", "duplicate_cards",
)
REQUIRED = frozenset({"state"})  # every deal scenario checks its outcome and unchanged refusals
# The capability each check kind of a scenario step needs; a match scenario needs MATCH, and a
# match scenario of a profile with stakes and a pot (`match: {stake: ...}`) needs STAKES too.
CHECK_CAPABILITIES = {"observation": "observation", "legal": "legal_actions", "perft": "perft"}
MATCH = "match"
STAKES = "stakes"
# Every scenario of a profile with four seats (two partnerships) needs FOUR_SEATS; of a profile
# with two copies of each card, DUPLICATE_CARDS (card lists are multisets).
FOUR_SEATS = "four_seats"
DUPLICATE_CARDS = "duplicate_cards"
# The keys of a `match` answer's `match` object; a stakes match adds STAKES_ANSWER_KEYS (wins,
# net units, the pot), which an adapter without the `stakes` capability never has to send.
MATCH_ANSWER_KEYS = ("points", "next_dealer", "winner")
STAKES_ANSWER_KEYS = ("wins", "net", "pot")

# Each command and the keys its answer must carry (an answer without one is a `bad_answer`).
ANSWER_KEYS = {
    "start": ("implementation", "profiles", "capabilities"),
    "setup": ("ok",),
    "apply": ("result",),
    "state": ("state",),
    "observation": ("observation",),
    "legal": ("actions",),
    "perft": ("counts",),
    "match": ("match",),
    "stop": ("ok",),
}
COMMANDS = tuple(ANSWER_KEYS)


class MessageValidator:
    """`check --validate-messages`: a `trace` callable for client.Connection that checks every
    request sent and every answer read against the protocol schema, like bowtie's `-V`. The
    first message that does not conform fails the run with the message and the schema's
    complaint; implementers use it while wiring an adapter in."""

    def __init__(self):
        self.pending: list[str] = []  # commands sent and not yet answered, oldest first (pipelining)
        self.last_cmd = None
        self.count = 0

    def __call__(self, direction: str, message: dict) -> None:
        from ..spec.schemas import definition_validator

        if direction == "request":
            self.last_cmd = message.get("cmd")
            self.pending.append(self.last_cmd)
            pointer = f"/$defs/requests/{self.last_cmd}"
        else:
            self.last_cmd = self.pending.pop(0) if self.pending else self.last_cmd
            pointer = f"/$defs/answer_to/{self.last_cmd}"
        errors = sorted(definition_validator("protocol", pointer).iter_errors(message), key=lambda e: e.path)
        self.count += 1
        if errors:
            err = errors[0]
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            raise ConquianError(
                f"protocol violation in the {direction} for {self.last_cmd!r} at {where}: {err.message}; message: "
                + json.dumps(message)[:300]
            )
