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
SETUP_CAPABILITIES = ("setup_hands", "setup_deck")  # a handshake declares at least one


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


# What the value of each answer key must be, as (test, what it should be): an answer of another
# shape is a `bad_answer` against its scenario (the runner never computes on a wrong shape).
ANSWER_SHAPES = {
    "setup": (lambda v: v is True, "true"),
    "apply": (lambda v: v in ("accepted", "refused"), "'accepted' or 'refused'"),
    "state": (lambda v: isinstance(v, dict), "an object"),
    "observation": (lambda v: isinstance(v, dict), "an object"),
    "legal": (lambda v: isinstance(v, list) and all(isinstance(a, dict) for a in v), "a list of action objects"),
    "perft": (lambda v: isinstance(v, list) and all(map(_is_int, v)), "a list of integers"),
    "match": (lambda v: isinstance(v, dict), "an object"),
}


def answer_shape_problem(cmd: str, answer: dict) -> str | None:
    """Why the answer to `cmd` has the wrong shape (its first key, ANSWER_KEYS), or None."""
    shape = ANSWER_SHAPES.get(cmd)
    if shape is None:
        return None
    key = ANSWER_KEYS[cmd][0]
    test, wanted = shape
    if test(answer[key]):
        return None
    return f"the {cmd!r} answer's {key!r} is {json.dumps(answer[key])[:80]}, not {wanted}"


# What a handshake must say for a run to test anything (issue 11): (test, the one line if not).
HANDSHAKE_CHECKS = (
    (lambda a: a.get("version", PROTOCOL_VERSION) == PROTOCOL_VERSION,
     lambda a: f"it declares protocol version {json.dumps(a.get('version'))[:40]}; the runner speaks {PROTOCOL_VERSION}"),
    (lambda a: isinstance(a["implementation"], dict),
     lambda a: f"'implementation' is {json.dumps(a['implementation'])[:60]}, not an object"),
    (lambda a: _strings(a["profiles"]), lambda a: f"'profiles' is {json.dumps(a['profiles'])[:60]}, not a list of profile ids"),
    (lambda a: _strings(a["capabilities"]),
     lambda a: f"'capabilities' is {json.dumps(a['capabilities'])[:60]}, not a list of names"),
    (lambda a: not _unknown_profiles(a["profiles"]),
     lambda a: f"it declares unknown profile(s) {', '.join(_unknown_profiles(a['profiles']))[:120]} (known: see docs/rules/)"),
    (lambda a: a["profiles"] != [], lambda a: "it declares no profile"),
    (lambda a: "state" in a["capabilities"], lambda a: "it lacks the required capability 'state'"),
    (lambda a: any(c in a["capabilities"] for c in SETUP_CAPABILITIES),
     lambda a: f"it declares neither setup capability ({' nor '.join(SETUP_CAPABILITIES)})"),
)


def _unknown_profiles(profiles: list) -> list[str]:
    from ..spec.profiles import PROFILE_IDS

    return [p for p in profiles if p not in PROFILE_IDS]


def handshake_problem(answer: dict) -> str | None:
    """Why a `start` answer (with its ANSWER_KEYS) cannot begin a run that tests anything, or None."""
    for test, says in HANDSHAKE_CHECKS:
        if not test(answer):
            return says(answer)
    return None


class MessageValidator:
    """`check --validate-messages`: a `trace` callable for client.Connection that checks every
    request sent and every answer read against the protocol schema, like bowtie's `-V`. The
    first message that does not conform fails the run with the message and the schema's
    complaint; implementers use it while wiring an adapter in."""

    def __init__(self):
        # Requests sent and not yet answered, oldest first (pipelining): [(seq, cmd)]. An answer
        # is matched by its seq, so the requests left unanswered by an adapter that was restarted
        # are never matched against the new process's answers (the new `start` carries a new seq).
        self.pending: list[tuple[object, str]] = []
        self.last_cmd = None
        self.count = 0

    def __call__(self, direction: str, message: dict) -> None:
        from ..spec.schemas import definition_validator

        if direction == "restart":  # the process was replaced: nothing sent before is answered now
            self.pending.clear()
            return
        if direction == "request":
            self.last_cmd = message.get("cmd")
            self.pending.append((message.get("seq"), self.last_cmd))
            pointer = f"/$defs/requests/{self.last_cmd}"
        else:
            self.last_cmd = self._answered(message.get("seq"))
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

    def _answered(self, seq: object) -> str | None:
        """The command an answer with `seq` answers; the requests before it are dropped (no
        answer can come for them in order). An answer with an unknown seq (null, in an error
        for a line the adapter could not read) is taken as the oldest pending one's."""
        seqs = [s for s, _ in self.pending]
        at = seqs.index(seq) if seq in seqs else 0
        if not self.pending:
            return self.last_cmd
        cmd = self.pending[at][1]
        del self.pending[: at + 1]
        return cmd
