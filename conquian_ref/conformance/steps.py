"""The one step interpreter: a scenario is walked once, each step's requests planned and judged.

Every reader of a scenario's steps goes through `walk`: `check` and the pytest plugin (through
`replay`), `lint` and `coverage` (through `replay` on the reference engine) and `record` (which
fills its placeholders from the answers of the walk); the book draws its pictures from it with
`observe` (conquian_ref.tools.book.walk; tests/test_steps.py checks they are the book's own). So what a step asks of an
implementation is written once, in `plan`, and what makes an answer right is written once, in the
judges (conquian_ref.conformance.judges), which apply docs/protocol.md "How answers are compared".

The API:

    walk(scenario, driver, *, reasons=True, keep_going=False, observe=None, open_word=None,
         capabilities=None) -> Walk

* `scenario` has `.data` and `.profile` (a conquian_ref.spec.scenario.Scenario).
* `driver` answers `setup`, `apply`, `state`, `observation`, `legal`, `perft` (and `divide`, to
  explain a perft mismatch) for a deal, `match` for a match: conquian_ref.conformance.reference.
  Reference in-process, conquian_ref.conformance.driver.ImplementationDriver over the protocol.
* `plan(step)` is the list of (role, request) a step makes, in order: `before` (the state, when a
  refusal is expected), `action` (`("apply", seat, action)`), `after` (the state again), then one
  per check kind in `CHECK_REQUESTS` order. After the last step one more request, `("state",)`,
  reads the deal's outcome.
* A driver with `batch(requests) -> answers` (the protocol driver) gets every planned request of
  the scenario in one batch after the setup (pipelined: one round trip instead of one per
  request); an answer may be an exception, which ends the list. Without `batch` (the reference)
  each request is made when its answer is first judged. Either way the answers are judged in plan
  order, and each step only sees the answers of its own plan: nothing can drift apart.
* `reasons=False` compares a refusal without its reason code (an implementation that does not
  declare the `reason_codes` capability).
* `capabilities` (check: the implementation's handshake; None: every one) is partial checking:
  a check kind whose capability (protocol.CHECK_CAPABILITIES) is not declared is neither
  requested nor judged, and named in `Walk.skipped_checks` with its step and why; the rest of
  the scenario is run and judged as usual. What the driver notes as `untested` after the setup
  (driver.DEALING_UNTESTED) and refusals compared without their reason are listed there too.
* An AdapterFailure (conformance.failures) raised while a step is judged gets `step` (1-based)
  and `line` (of the step in the scenario file) set, the setup's and the outcome's their lines.
* An error answer to a step's action (conformance.failures.Unsupported: the engine cannot
  express that action type) is no AdapterFailure of the walk: it is the step's failure, of kind
  `unsupported` (judges.UNSUPPORTED) with the action type, and the walk ends there, whatever
  `keep_going` says (the implementation's deal no longer follows the scenario).
* `keep_going=False` (check, lint): the walk stops at the first failure, and an error of the
  engine (ConquianError: a malformed action or setup) propagates. `keep_going=True` (record, the
  book): every step is walked and judged; each step keeps all its failures and the engine's error,
  and a setup or match the engine refuses is kept in `Walk.error`.
* `observe(driver)` is called after the setup and after every step with an action; its result is
  kept in `Walk.start` and `StepResult.picture` (the book draws `driver.game` of a Reference).
  An observed walk does not batch, so that the driver is at the step being observed.
* `open_word`: a value (the word `record` for conquian_ref.tools.record) marking an expectation
  still to be written. A part of a step (its `expect`, or one check kind), the outcome, or
  `match.expect` holding it anywhere is not judged: its answer is only kept.

The result: `Walk` has `steps` (a `StepResult` per step walked: the step, its plan, `answers` by
role, `answer` of the action, `got` of each check kind, `failures`, `error`, `picture`),
`final_state`, `match` (the answer of a match scenario), `failure` (the first), `passed`,
`skipped_checks` and `rules_fired` (what the reference engine applied, for coverage; empty for other drivers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..engine.errors import ConquianError
from .compare import mismatches
from .failures import AdapterFailure, Unsupported
from .judges import UNSUPPORTED, Failure, Judge
from .protocol import CHECK_CAPABILITIES

# A request to a driver: ("state",), ("apply", seat, action), ("observation", seat),
# ("legal", seat) or ("perft", depth); the driver method is named by its first element.
Request = tuple

# The check kinds of a step, in the order their requests are made, and the request of each.
CHECK_REQUESTS: dict[str, Callable[[object], Request]] = {
    "state": lambda check: ("state",),
    "observation": lambda check: ("observation", check["seat"]),
    "legal": lambda check: ("legal", check["seat"]),
    "perft": lambda check: ("perft", len(check)),
}
FINAL: Request = ("state",)  # after the last step: the deal's outcome is read from the state


@dataclass
class StepResult:
    """One step walked: what it asked, what came back, and how it was judged."""

    index: int
    step: dict
    planned: list[tuple[str, Request]]
    answers: dict[str, object] = field(default_factory=dict)  # role -> answer (or its exception), per request made
    failures: list[Failure] = field(default_factory=list)  # at most one unless keep_going
    error: ConquianError | None = None  # the engine refused the input (keep_going only)
    picture: object = None  # observe(driver) after the action

    @property
    def failure(self) -> Failure | None:
        return self.failures[0] if self.failures else None

    @property
    def answer(self) -> tuple | None:
        """The action's answer: ("accepted", None) or ("refused", reason); None without one."""
        got = self.answers.get("action")
        return None if got is None or isinstance(got, Exception) else tuple(got)

    @property
    def got(self) -> dict[str, object]:
        """What each check kind of the step got (kind -> answer)."""
        return {kind: self.answers[kind] for kind in CHECK_REQUESTS if kind in self.answers}


@dataclass
class Walk:
    """A scenario walked (see the module docstring)."""

    scenario: object
    steps: list[StepResult] = field(default_factory=list)
    start: object = None  # observe(driver) after the setup
    final_state: dict | None = None
    match: dict | None = None  # a match scenario: the match as the driver scored it
    outcome_failures: list[Failure] = field(default_factory=list)  # the outcome or match.expect
    error: ConquianError | None = None  # the setup or match refused (keep_going only)
    rules_fired: set[str] = field(default_factory=set)
    skipped_checks: list[str] = field(default_factory=list)  # what was not checked, and why

    @property
    def failures(self) -> list[Failure]:
        return [f for s in self.steps for f in s.failures] + self.outcome_failures

    @property
    def failure(self) -> Failure | None:
        found = self.failures
        return found[0] if found else None

    @property
    def passed(self) -> bool:
        return self.failure is None


def plan(step: dict, skip: frozenset = frozenset()) -> list[tuple[str, Request]]:
    """The requests `step` makes, in order, each with its role (see the module docstring);
    none for the check kinds in `skip`."""
    planned: list[tuple[str, Request]] = []
    if "action" in step:
        refusal = isinstance(step.get("expect"), dict)  # the state around it must not change
        planned += [("before", ("state",))] if refusal else []
        planned.append(("action", ("apply", step["seat"], step["action"])))
        planned += [("after", ("state",))] if refusal else []
    check = step.get("check") or {}
    planned += [(kind, request(check[kind])) for kind, request in CHECK_REQUESTS.items() if kind in check and kind not in skip]
    return planned


def walk(
    scenario, driver, *, reasons: bool = True, keep_going: bool = False, observe=None, open_word=None, capabilities=None,
) -> Walk:
    """Walk `scenario` on `driver` (see the module docstring)."""
    walked = Walk(scenario)
    skip = frozenset() if capabilities is None else frozenset(k for k, cap in CHECK_CAPABILITIES.items() if cap not in capabilities)
    judge = Judge(reasons, keep_going, open_word, skip)
    if "match" in scenario.data:
        _walk_match(walked, driver, judge)
    else:
        walked.skipped_checks = _skipped_checks(scenario.data["steps"], skip, reasons)
        _walk_deal(walked, driver, judge, observe)
    walked.rules_fired = set(getattr(driver, "rules_fired", set()))
    return walked


def _skipped_checks(steps: list[dict], skip: frozenset, reasons: bool) -> list[str]:
    """What partial checking leaves out of a deal's steps, one line each (Walk.skipped_checks)."""
    found = [
        f"step {i}: check.{kind} (needs capability {CHECK_CAPABILITIES[kind]})"
        for i, step in enumerate(steps, 1) for kind in CHECK_REQUESTS if kind in skip and kind in (step.get("check") or {})
    ]
    refusals = [i for i, step in enumerate(steps, 1) if isinstance(step.get("expect"), dict)]
    if refusals and not reasons:
        found.append(f"steps {', '.join(map(str, refusals))}: refusal reasons not compared (needs capability reason_codes)")
    return found


def _at(exc: AdapterFailure, scenario, step: int | None, *path) -> AdapterFailure:
    """`exc` with where it happened: `step` (1-based, or None) and the line of `path` in the file."""
    exc.step = step
    line = getattr(scenario, "line", None)
    exc.line = line(*path) if line is not None else None
    return exc


def _walk_match(walked: Walk, driver, judge: Judge) -> None:
    match = walked.scenario.data["match"]
    try:
        walked.match = driver.match(walked.scenario.profile, match["first_dealer"], match["deals"])
    except ConquianError as exc:
        if not judge.keep_going:
            raise
        walked.error = exc
        return
    if not judge.is_open(match["expect"]):
        found = mismatches(match["expect"], walked.match)
        if found:
            path, e, g = found[0]
            walked.outcome_failures.append(Failure(None, f"match.expect.{path}", e, g, "the match after these deals"))


def _walk_deal(walked: Walk, driver, judge: Judge, observe) -> None:
    data = walked.scenario.data
    steps = data["steps"]
    plans = [plan(step, judge.skip) for step in steps]
    try:
        driver.setup(walked.scenario.profile, data["setup"])
    except ConquianError as exc:
        if not judge.keep_going:
            raise
        walked.error = exc
        return
    except AdapterFailure as exc:
        raise _at(exc, walked.scenario, None, "setup") from None
    walked.skipped_checks[:0] = getattr(driver, "untested", [])
    if observe is not None:
        walked.start = observe(driver)
    answers = _Answers(driver, walked.scenario, plans, batched=observe is None)
    for i, step in enumerate(steps):
        result = StepResult(i, step, plans[i])
        walked.steps.append(result)
        try:
            judge.step(result, answers.of_step(i), lambda depth, i=i: answers.divide(i, depth))
        except Unsupported as exc:  # a deviation of the engine, not a fault of the adapter
            result.failures.append(unsupported(i, step, exc))
            return
        except AdapterFailure as exc:
            raise _at(exc, walked.scenario, i + 1, "steps", i) from None
        if observe is not None and "action" in step:
            result.picture = observe(driver)
        if result.failures and not judge.keep_going:
            return
    try:
        walked.final_state = answers.final_state()
    except AdapterFailure as exc:
        raise _at(exc, walked.scenario, None, "outcome" if "outcome" in data else "steps") from None
    expected, got = data.get("outcome"), walked.final_state.get("outcome")
    if not judge.is_open(expected) and (mismatches(expected, got) or (expected is None) != (got is None)):
        walked.outcome_failures.append(Failure(None, "outcome", expected, got, "the deal's result after the last step"))


def unsupported(index: int, step: dict, exc: Unsupported) -> Failure:
    """The failure of a step whose action the implementation cannot express."""
    expected = step.get("expect", "accepted")
    return Failure(index, "unsupported", expected, {"error": exc.text}, exc.deviation, UNSUPPORTED, exc.action_type)


class _Answers:
    """The answers to a deal's planned requests, one `_StepAnswers` per step.

    Batched: every request is sent at once after the setup and step i reads its own slice of the
    answers (an answer list cut short by a failure is padded with that failure, so the failure is
    raised at the first request it left unanswered). Live: each request is made when it is read."""

    def __init__(self, driver, scenario, plans: list, batched: bool):
        self.driver, self.plans = driver, plans
        self.profile_id, self.setup = scenario.profile, scenario.data["setup"]
        batch = getattr(driver, "batch", None) if batched else None
        self._ready: list | None = None
        if batch is not None:
            requests = [request for planned in plans for _, request in planned] + [FINAL]
            got = list(batch(requests))
            self._ready = got + got[-1:] * (len(requests) - len(got))
            self._offsets = [0]
            for planned in plans:
                self._offsets.append(self._offsets[-1] + len(planned))

    def of_step(self, i: int) -> "_StepAnswers":
        if self._ready is None:
            return _StepAnswers(self.plans[i], self._live)
        ready = iter(self._ready[self._offsets[i] : self._offsets[i + 1]])
        return _StepAnswers(self.plans[i], lambda request: next(ready))

    def final_state(self) -> dict:
        fetch = self._live if self._ready is None else (lambda request: self._ready[-1])
        return _StepAnswers([("outcome", FINAL)], fetch)["outcome"]

    def _live(self, request: Request) -> object:
        try:
            return getattr(self.driver, request[0])(*request[1:])
        except ConquianError as exc:  # kept as the answer: raised where it is judged
            return exc

    def divide(self, i: int, depth: int) -> tuple[dict, dict] | None:
        """(the reference's divide, the driver's) at step i, or None if the driver has none. A
        batched driver has already played the later steps: the deal is set up again and the
        actions up to step i replayed."""
        from .reference import Reference

        if not hasattr(self.driver, "divide"):
            return None
        drivers = [Reference()] + [self.driver]
        for number, driver in enumerate(drivers):
            if driver is self.driver and self._ready is None:
                break  # a live driver is at step i already
            driver.setup(self.profile_id, self.setup)
            for planned in self.plans[: i + 1]:
                for _, request in planned:
                    if request[0] == "apply":
                        driver.apply(*request[1:])
        return drivers[0].divide(depth), self.driver.divide(depth)


class _StepAnswers:
    """One step's answers by role, fetched in plan order: reading a role first fetches every
    earlier one (so the state before a refused action is read before the action is applied)."""

    def __init__(self, planned: list[tuple[str, Request]], fetch: Callable[[Request], object]):
        self._planned, self._fetch = planned, fetch
        self.got: dict[str, object] = {}

    def __getitem__(self, role: str) -> object:
        got = self.got
        if role not in got:
            for planned_role, request in self._planned[len(got) :]:
                got[planned_role] = self._fetch(request)
                if planned_role == role:
                    break
        answer = got[role]  # a KeyError here is a judge reading a role its step did not plan
        if isinstance(answer, Exception):
            raise answer
        return answer
