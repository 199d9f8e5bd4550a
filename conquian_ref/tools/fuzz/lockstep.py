"""Lockstep play: one game on the reference engine and on the implementation together.

The reference is an in-process `Game`; the implementation is reached over the conformance
protocol (a `Connection`, docs/protocol.md), using only the capabilities its handshake
declared. The agent chooses every action from the reference's position alone, so a whole game
is planned on the reference first (planning.py), then sent to the implementation as one pipelined
batch after its setup, and the answers are compared in order (`compare`); the first difference
is the game's divergence. A failure of the adapter itself (crash, timeout, garbage, error
answer, ...) is a divergence of kind `adapter`, and the adapter is restarted before the next
game; an error answer to an `apply` is a divergence of kind `unsupported` (an action the engine
cannot express: a deviation, not a fault), with no restart.

Two depths of checking (docs/fuzzing.md, "What is compared"):

* `every_step`: the legal actions of every seat before each action and the state after it;
* otherwise ("end", the campaign's default): every action's answer, and the state once, at the
  end of the game. A game that differs anywhere is then played again with every step checked,
  which finds the first diverging step; only a game that differs is paid for twice.

The answers are first compared as bytes with the lines the reference adapter writes (`_expected`);
only bytes that differ are parsed and judged, with the same verdicts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ...conformance.client import REQUEST_ENCODER, Ahead, Connection
from ...conformance.driver import ImplementationDriver, hands_and_stock
from ...conformance.failures import AdapterFailure, BadAnswer, Unsupported
from ...engine.actions import Action
from ...engine.game import Game
from ...engine.profile import Profile
from ...engine.ruleset import Variant
from .agent import ListSource
from .compare import legal_divergence, result_divergence, state_divergence
from .divergence import Divergence, Trace, short
from .planning import Plan, Step, plan, reference_steps
from .texts import ACCEPTED, ANSWER, action_text, refused


class Lockstep:
    """Plays games on the reference and on the implementation together.

    `run` plays one game and waits for it. A campaign overlaps its games instead: `plan` the
    next game on the reference and `prepare` its requests while the adapter answers the previous
    one, `finish` the previous one (read its answers, compare), then `send` the next (`Pending`):
    the two processes work at the same time, on two cores, and the adapter waits between games
    only for the judging of the last one and a write."""

    def __init__(self, conn: Connection, variants: tuple[Variant, ...] = ()):
        self.conn = conn
        # The house rules a known-failures file names (docs/fuzzing.md): the reference plays them,
        # so everything else is checked exactly.
        self.variants = tuple(variants)
        self.driver = ImplementationDriver(conn)
        self.caps = set(conn.handshake.capabilities)
        self.broken = False  # the adapter failed: restart it before the next game
        self.replays = 0  # games played again with every step checked
        self.raw = True  # compare answer lines as bytes first (_expected)
        self._action_texts: dict[str, dict[Action, str]] = {}  # per profile: an action's request text (_members)

    def run(self, profile: Profile, deck: list[str], dealer: int, source, fresh: bool = False, every_step: bool = True) -> Trace:
        """Play one game, its steps chosen by `source`; `fresh`: on a freshly restarted adapter
        (so that a failure that depends on what the adapter saw before cannot count). Without
        `every_step`, a game that differs is played again with every step checked."""
        if not every_step:
            game = plan(profile, deck, dealer, source, False, self.caps, self.variants)
            return self.finish(self.send(self.prepare(profile, deck, dealer, game, _choices(source, game), fresh)))
        self._restart_if(fresh)
        # Step by step (each step's requests pipelined), stopping at the first divergence: what
        # the shrink asks for, game after game, and Hypothesis draws no further than needed.
        game = Game.from_deck(profile, deck, dealer, self.variants)
        setup_state = game.state_json() if "state" in self.caps else None
        pairs = [_setup_pair(profile, deck, dealer, self.caps)] + self._setup_checks(setup_state)
        applied = 0
        found = self._exchange(pairs)
        steps = reference_steps(game, source, True, self.caps)
        while found is None:
            step = next(steps, None)
            if step is None:
                break
            applied += step.action is not None
            found = self._exchange(self._step_checks(profile, applied - (step.action is not None), step))
        return Trace(found, applied if found is None else min(applied, found.steps), list(getattr(source, "choices", []))[:applied])

    def _exchange(self, pairs: list[tuple]) -> Divergence | None:
        """Send these (request, check) pairs pipelined, and judge the answers in order."""
        answers = self.conn.request_many([(cmd, fields) for (cmd, fields), _ in pairs])
        return self._judged([check for _, check in pairs], answers)

    def driver_in_step(self) -> ImplementationDriver:
        """The driver, on an adapter restarted first if it failed or may still owe answers (for
        a diagnosis between games)."""
        self._restart_if(False)
        return self.driver

    def _restart_if(self, fresh: bool) -> None:
        # Out of step: an answer of the last game may still come (a failure after its divergence).
        if self.broken or fresh or not self.conn.in_sync:
            self.conn.restart()  # AdapterFailure propagates: the caller decides
            self.caps = set(self.conn.handshake.capabilities)
            self.broken = False

    def prepare(self, profile: Profile, deck: list[str], dealer: int, game: Plan, choices: list[int], fresh: bool = False) -> "Pending":
        """Every request of the planned game, its check, its text and the answer expected, ready
        to `send`: worked out while the adapter still answers the game before (a campaign
        prepares game g + 1 before it finishes game g, so the adapter waits only for the write)."""
        pending = Pending(profile, deck, dealer, game, choices, fresh, caps=frozenset(self.caps))
        pairs = [_setup_pair(profile, deck, dealer, self.caps)] + self._setup_checks(game.setup_state)
        for i, step in enumerate(game.steps):
            if step.legal is None and step.state is None:  # the default: the action alone (as _step_checks has it)
                pairs.append(_apply_pair(i, step))
            else:
                pairs += self._step_checks(profile, i, step)
        if game.last_legal is not None:
            pairs += self._step_checks(profile, len(game.steps), Step(None, None, None, game.last_legal))
        if game.final_state is not None:
            last = game.steps[-1] if game.steps else Step(None, None, None)
            pairs.append((("state", {}), ("state", "end", max(len(game.steps) - 1, 0), last.seat, last.action, game.final_state)))
        pending.requests = [request for request, _ in pairs]
        pending.checks = [check for _, check in pairs]
        pending.members, pending.answers = self._texts(pairs, game.steps, profile)
        return pending

    def send(self, pending: "Pending") -> "Pending":
        """Set the deal up and send every request of a prepared game, without waiting."""
        self._restart_if(pending.fresh)
        if pending.caps != self.caps:  # a restarted adapter declared other capabilities: the requests follow them
            pending = self.prepare(pending.profile, pending.deck, pending.dealer, pending.game, pending.choices, pending.fresh)
        # Written now if a pipe holds it; a larger batch (every step checked) is sent in finish.
        pending.ahead = self.conn.send_ahead(pending.requests, pending.members)
        pending.expected = self._expected(pending)  # while the adapter answers
        return pending

    def _texts(self, pairs: list[tuple], steps: list[Step], profile: Profile) -> tuple[list[str], list[str]]:
        """Each request's fields as the JSON members the connection would write (send_ahead),
        and the reference adapter's answer to it after its seq (see `_expected`). An action's text
        is written once per run and profile, kept under its engine Action, for it is written at
        every step of every game (by the encoder, a tenth of the fuzzer's own work)."""
        texts = self._action_texts.setdefault(profile.id, {})
        members, answers = [], []
        for (cmd, fields), check in pairs:
            if cmd != "apply":
                members.append(REQUEST_ENCODER.encode(fields)[1:-1])
                answers.append(ANSWER[cmd](check))
                continue
            step = steps[check[2]]
            text = texts.get(step.act) if step.act is not None else None
            if text is None:
                text = action_text(fields["action"])
                if step.act is not None:
                    texts[step.act] = text
            members.append(f'"seat":{fields["seat"]},"action":{text}')
            answers.append(ACCEPTED if step.want == "accepted" else refused(step.want["refused"], step.message))
        return members, answers

    def _expected(self, pending: "Pending") -> bytes | None:
        """The answer lines the reference adapter would write to a game sent ahead, byte for
        byte. Most answers agree, and the same bytes are the same answers, so when the adapter
        writes exactly these nothing needs parsing or judging (Connection.read_ahead): half of the
        fuzzer's own work per game was reading answers that said what was expected. Any other
        bytes (another implementation's spelling, a divergence) are read and judged as before."""
        first = pending.ahead.first_seq if pending.ahead is not None else None
        if first is None or not pending.answers or not self.raw:
            return None
        # The connection numbers the requests of a batch one after the other (send_ahead).
        return "".join([f'{{"seq":{seq}{answer}\n' for seq, answer in enumerate(pending.answers, first)]).encode()

    def finish(self, pending: "Pending") -> Trace:
        """Read and compare the answers of a game sent; a game that differs without every step
        checked is played again with every step checked, to find its first diverging step."""
        game = pending.game
        expected = pending.expected
        answers = self.conn.read_ahead(pending.ahead, expected)
        divergence = None if answers is None else self._judged(pending.checks, answers)
        if expected is not None and answers is not None and divergence is None:
            self.raw = False  # the same answers in other bytes: this implementation spells them otherwise
        applied = len(game.steps) if divergence is None else min(len(game.steps), divergence.steps)
        trace = Trace(divergence, applied, pending.choices)
        if divergence is None or game.every_step:
            return trace
        self.replays += 1
        again = self.run(pending.profile, pending.deck, pending.dealer, ListSource(pending.choices), pending.fresh, True)
        # Not found again (an implementation whose answers depend on more than the game): keep
        # what the first pass saw.
        return again if again.divergence is not None else trace

    def _judged(self, checks: list[tuple], answers: list) -> Divergence | None:
        """The first divergence of the answers, judged in order (an adapter failure is one: the
        adapter is then restarted before the next game)."""
        try:
            for answer, check in zip(answers, checks):
                if isinstance(answer, Unsupported):  # the engine cannot express the action: no restart
                    return _unsupported(answer, check)
                if isinstance(answer, AdapterFailure):
                    raise _Adapter(answer, *check[1:5])
                try:
                    got = self.driver._unpacked(check[0], answer)  # the driver's own reading of an answer
                except AdapterFailure as exc:
                    raise _Adapter(exc, *check[1:5]) from None
                found = self._judge(check, got)
                if found:
                    return found
        except _Adapter as exc:
            self.broken = True
            failure = exc.failure
            return Divergence(
                "adapter", exc.where, exc.actions_before, exc.seat, exc.action, None, None, failure.kind, failure.message,
                keys=(failure.kind,),
            )
        return None

    # (request, check) pairs: the protocol request, and what its answer is judged against,
    # (kind, where, step, seat, action, expected).
    def _setup_checks(self, state: dict | None) -> list[tuple]:
        return [] if state is None else [(("state", {}), ("state", "setup", 0, None, None, state))]

    def _step_checks(self, profile: Profile, i: int, step: Step) -> list[tuple]:
        pairs = []
        for seat in profile.seats if step.legal is not None else ():
            pairs.append((("legal", {"seat": seat}), ("legal", "legal", i, seat, None, step.legal[seat])))
        if step.action is not None:
            pairs.append(_apply_pair(i, step))
        if step.state is not None:
            pairs.append((("state", {}), ("state", "state", i, step.seat, step.action, step.state)))
        return pairs

    def _judge(self, check: tuple, got: object) -> Divergence | None:
        kind, where, step, seat, action, want = check
        if kind == "setup":
            return None  # the answer carries `ok` (its protocol.Command), nothing to compare
        if kind == "legal":
            if not isinstance(got, list) or not all(isinstance(a, dict) for a in got):
                raise _Adapter(BadAnswer(f"legal: not a list of actions: {short(got)}"), where, step, seat, None)
            found = legal_divergence(want, got, step, seat)
        elif kind == "apply":
            result, reason = got
            answer = "accepted" if result == "accepted" else {"refused": reason}
            found = result_divergence(want, answer, "reason_codes" in self.caps, step, seat, action)
        else:
            # The same JSON text is the same state (the common case, and cheap); otherwise the
            # official comparator decides (hands as multisets, 1 == 1.0, extra keys ignored).
            same = _text(want) == _text(got)
            found = None if same else state_divergence(want, got, "setup" if where == "setup" else "state", step, seat, action)
            if found is not None and where == "end":
                found.message = (found.message + " (seen in the state at the end of the game)").strip()
        return found


@dataclass
class Pending:
    """A game prepared for the implementation, then sent to it, its answers not read yet."""

    profile: Profile
    deck: list[str]
    dealer: int
    game: Plan
    choices: list[int]
    fresh: bool
    caps: frozenset[str] = frozenset()  # the capabilities its requests follow
    requests: list[tuple[str, dict]] = field(default_factory=list)
    checks: list[tuple] = field(default_factory=list)
    members: list[str] | None = None  # each request's fields as JSON text (Lockstep._texts)
    answers: list[str] = field(default_factory=list)  # the reference adapter's answers, after their seq (Lockstep._expected)
    ahead: Ahead | None = None  # what Connection.send_ahead made of its requests
    expected: bytes | None = None  # the reference adapter's answer lines (Lockstep._expected)


def _choices(source, game: Plan) -> list[int]:
    """The step choices the planned game used (its source records them)."""
    return list(getattr(source, "choices", []))[: len(game.steps)]


def _text(value: object) -> str:
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return ""


def _apply_pair(i: int, step: Step) -> tuple:  # the request of step i's action, and its check
    return ("apply", {"seat": step.seat, "action": step.action}), ("apply", "apply", i, step.seat, step.action, step.want)


def _setup_pair(profile: Profile, deck: list[str], dealer: int, caps: set[str]) -> tuple:
    """The setup request, in the form the implementation declared (as the driver sends it)."""
    fields = {"profile": profile.id, "dealer": dealer}
    fields.update({"deck": deck} if "setup_deck" in caps else hands_and_stock(profile.id, {"deck": deck, "dealer": dealer}))
    return ("setup", fields), ("setup", "setup", 0, None, None, None)


def _unsupported(failure: Unsupported, check: tuple) -> Divergence:
    """The divergence of an action the implementation cannot express (an error answer to `apply`)."""
    _, where, step, seat, action, want = check
    return Divergence("unsupported", where, step, seat, action, want, {"error": failure.text}, failure.action_type,
                      failure.deviation, keys=("unsupported",))


class _Adapter(Exception):
    """An AdapterFailure, with where in the game it happened."""

    def __init__(self, failure: AdapterFailure, where: str, actions_before: int, seat, action):
        self.failure, self.where, self.actions_before, self.seat, self.action = failure, where, actions_before, seat, action
