"""The conformance protocol in one place: its version, capabilities and commands, and the
validation of its messages (docs/protocol.md; every message has a schema in
schema/protocol.schema.json, `$defs/requests/<cmd>` and `$defs/answer_to/<cmd>`).

Each command is one `Command` declaration in `COMMANDS`: its request fields, the keys and shape
of its answer, the capability it needs. The reference adapter (conquian_ref.conformance.adapter)
answers by it, the driver (conquian_ref.conformance.driver) asks and reads answers by it, the
client checks the handshake by it, and the runner (conquian_ref.conformance.check) skips a
scenario by the capabilities. tests/test_protocol.py checks them against the schema.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from ..engine.errors import ConquianError

PROTOCOL_VERSION = 1

# What an adapter may declare in its handshake (docs/protocol.md, "Capabilities").
CAPABILITIES = (
    "setup_hands", "setup_deck", "setup_position", "reason_codes", "state", "observation", "legal_actions", "perft", "match", "stakes",
    "four_seats", "duplicate_cards",
)
REQUIRED = frozenset({"state"})  # every deal scenario checks its outcome and unchanged refusals
# A match scenario needs MATCH, and a match scenario of a profile with stakes and a pot
# (`match: {stake: ...}`) needs STAKES too; each check kind, the capability of its command.
MATCH = "match"
STAKES = "stakes"
# Every scenario of a profile with four seats (two partnerships) needs FOUR_SEATS; of a profile
# with two copies of each card, DUPLICATE_CARDS (card lists are multisets).
FOUR_SEATS = "four_seats"
DUPLICATE_CARDS = "duplicate_cards"
# Taking a deal up at a mid-deal position (`setup_position`), to go on past a divergence.
SETUP_POSITION = "setup_position"
# The keys of a `match` answer's `match` object; a stakes match adds STAKES_ANSWER_KEYS (wins,
# net units, the pot), which an adapter without the `stakes` capability never has to send.
MATCH_ANSWER_KEYS = ("points", "next_dealer", "winner")
STAKES_ANSWER_KEYS = ("wins", "net", "pot")


def match_answer(score: dict) -> dict:
    """The `match` answer's object from a full score (engine Match.to_json): the protocol's keys
    only, the stakes keys only when the score has them (a match of another profile is unchanged)."""
    return {k: score[k] for k in MATCH_ANSWER_KEYS + STAKES_ANSWER_KEYS if k in score}

def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


@dataclass(frozen=True)
class Command:
    """One protocol command, declared once (docs/protocol.md, "Commands"; its messages are
    `$defs/requests/<name>` and `$defs/answer_to/<name>` of the schema). The driver builds its
    request from `request` and reads its answer by `answer` and `shape`; the protocol checks
    read `answer` and `shape`; the reference adapter answers it by the handler of its name or,
    for a plain query, by the `Reference` method of its name (adapter.ReferenceAdapter.handle)."""

    name: str
    request: tuple[str, ...]  # the request's fields, in the order of the driver's (and Reference's) arguments
    answer: tuple[str, ...]  # the keys its answer must carry (else a BadAnswer); the first is what a driver call returns
    shape: Callable[[object], bool] | None = None  # the test of that first key's value (else a BadAnswer)
    wanted: str = ""  # what the value should be, in words
    capability: str | None = None  # what a handshake declares for the runner to ask it (None: every adapter)

    def fields(self, *args) -> dict:
        """The request's fields from the arguments of the driver call."""
        return dict(zip(self.request, args))

    def shape_problem(self, answer: dict) -> str | None:
        """Why `answer` (with its keys) has the wrong shape, or None."""
        key = self.answer[0]
        if self.shape is None or self.shape(answer[key]):
            return None
        return f"the {self.name!r} answer's {key!r} is {json.dumps(answer[key])[:80]}, not {self.wanted}"


# Every command: what it asks, what it answers, and who must answer it. A new command is one row
# here, its handler in adapter.py (none for a plain query) and its method in reference.py.
COMMANDS: dict[str, Command] = {c.name: c for c in (
    Command("start", ("version",), ("implementation", "profiles", "capabilities")),
    Command("setup", ("profile", "dealer"), ("ok",), lambda v: v is True, "true"),  # + hands and stock, or deck
    # A deal taken up at a mid-deal position (the state, the public history, the opening-card
    # flag): the runner puts an implementation at the reference's position after a divergence.
    Command("setup_position", ("profile", "position"), ("ok",), lambda v: v is True, "true", capability=SETUP_POSITION),
    Command("apply", ("seat", "action"), ("result",), lambda v: v in ("accepted", "refused"), "'accepted' or 'refused'"),
    Command("state", (), ("state",), lambda v: isinstance(v, dict), "an object", capability="state"),
    Command("observation", ("seat",), ("observation",), lambda v: isinstance(v, dict), "an object", capability="observation"),
    Command("legal", ("seat",), ("actions",), lambda v: isinstance(v, list) and all(isinstance(a, dict) for a in v),
            "a list of action objects", capability="legal_actions"),
    Command("perft", ("depth",), ("counts",), lambda v: isinstance(v, list) and all(map(_is_int, v)), "a list of integers",
            capability="perft"),  # + divide
    Command("match", ("profile", "first_dealer", "deals"), ("match",), lambda v: isinstance(v, dict), "an object", capability=MATCH),
    Command("stop", (), ("ok",)),
)}
# The capability each check kind of a scenario step needs: the capability of the command of its name.
CHECK_CAPABILITIES = {kind: COMMANDS[kind].capability for kind in ("observation", "legal", "perft")}
SETUP_CAPABILITIES = ("setup_hands", "setup_deck")  # a handshake declares at least one


def answer_shape_problem(cmd: str, answer: dict) -> str | None:
    """Why the answer to `cmd` has the wrong shape (its first key, Command.shape), or None."""
    return COMMANDS[cmd].shape_problem(answer)


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
    """Why a `start` answer (with the keys of its Command) cannot begin a run that tests anything, or None."""
    for test, says in HANDSHAKE_CHECKS:
        if not test(answer):
            return says(answer)
    return None


class MessageValidator:
    """`check --validate-messages`: an `on_message` callable for client.Connection that checks every
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
