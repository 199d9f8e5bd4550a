"""Replaying a scenario against an implementation, step by step.

An implementation is reached through a *driver* with six calls: `setup`, `apply`, `state`,
`observation`, `legal`, `perft`. `ReferenceDriver` drives the reference engine in-process; the
conformance protocol (docs/protocol.md) will provide a driver for any other program.

`replay` stops at the first failure: after a divergence every later step would be measured
against a different game. A `Failure` names the step, the field, what was expected and what
was got; the runner adds the file, line and annotation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .reference import Reference
from .compare import compare_actions, mismatches
from ..engine.errors import IllegalAction
from ..spec.scenario import Scenario


@dataclass
class Failure:
    """The first disagreement between a scenario and an implementation."""

    step: int | None  # index into steps; None for setup and the final outcome
    field: str  # e.g. "expect", "check.state.hands[0]", "check.legal", "outcome"
    expected: object
    got: object
    message: str = ""

    def describe(self, scenario: Scenario) -> str:
        where = "setup/outcome" if self.step is None else f"step {self.step + 1}"
        path = ("steps", self.step) if self.step is not None else ("outcome",)
        lines = [
            f"{scenario.path}:{scenario.line(*path)}: {scenario.id} {where}: {self.field}",
            f"  expected: {json.dumps(self.expected, ensure_ascii=False)}",
            f"  got:      {json.dumps(self.got, ensure_ascii=False)}",
        ]
        if self.message:
            lines.append(f"  {self.message}")
        return "\n".join(lines)


@dataclass
class ReplayResult:
    scenario: Scenario
    failure: Failure | None
    rules_fired: set[str] = field(default_factory=set)

    @property
    def passed(self) -> bool:
        return self.failure is None


ReferenceDriver = Reference  # the name replay's callers know; see conquian_ref.conformance.reference


def replay(scenario: Scenario, driver, reasons: bool = True) -> ReplayResult:
    """Run `scenario` on `driver`; the result holds the first failure, if any.
    With `reasons=False` a refusal is compared without its reason code (for an implementation
    that does not declare the reason_codes capability)."""
    data = scenario.data
    if "match" in data:
        return _replay_match(scenario, driver)
    driver = _Pipeline(driver)
    driver.setup(scenario.profile, data["setup"])
    # Every request the replay will make is known from the scenario: they go in one batch, the
    # final state (the outcome) included, and the answers are compared step by step as usual.
    driver.prefetch([call for step in scenario.steps for call in _calls(step)] + [("state",)])
    for i, step in enumerate(scenario.steps):
        failure = _run_step(driver, i, step, reasons)
        if failure:
            return ReplayResult(scenario, failure, getattr(driver, "rules_fired", set()))
    got = driver.state().get("outcome")
    expected = data["outcome"]
    failure = None
    if mismatches(expected, got) or (expected is None) != (got is None):
        failure = Failure(None, "outcome", expected, got, "the deal's result after the last step")
    return ReplayResult(scenario, failure, getattr(driver, "rules_fired", set()))


class _Pipeline:
    """A driver that is told in advance which calls the replay will make.

    Over the protocol those requests are sent together (pipelined: written at once, the answers
    read in order), so a scenario costs two round trips (setup, then everything else) instead of
    one per request; the replay still makes its calls one by one and compares each answer as
    before. If the adapter fails partway, the answers before the failure are still served and
    the failure is raised at the call that has no answer. A driver without `batch` (the
    in-process reference) simply answers each call when it is made."""

    def __init__(self, driver):
        self._driver = driver
        self._ahead: list = []
        self._setup: tuple = ()
        self._played: list[tuple] = []  # the apply calls answered so far

    def __getattr__(self, name):
        return getattr(self._driver, name)

    def setup(self, profile_id: str, setup: dict) -> None:
        self._setup, self._played = (profile_id, setup), []
        self._driver.setup(profile_id, setup)

    def prefetch(self, calls: list[tuple]) -> None:
        batch = getattr(self._driver, "batch", None)
        self._ahead = list(zip(calls, batch(calls))) if batch is not None else []
        self._ahead.reverse()  # popped from the end

    def _call(self, *call):
        if call[0] == "apply":
            self._played.append(call)
        if self._ahead:
            planned, answer = self._ahead.pop()
            assert planned == call, (planned, call)  # _calls must mirror _run_step exactly
            if isinstance(answer, Exception):
                self._ahead = []
                raise answer
            return answer
        return getattr(self._driver, call[0])(*call[1:])

    def state(self) -> dict:
        return self._call("state")

    def apply(self, seat: int, action: dict):
        return self._call("apply", seat, action)

    def observation(self, seat: int) -> dict:
        return self._call("observation", seat)

    def legal(self, seat: int) -> list[dict]:
        return self._call("legal", seat)

    def perft(self, depth: int) -> list[int]:
        return self._call("perft", depth)

    def divide(self, depth: int) -> dict:
        """Divide at the current step: a pipelined implementation has already played the later
        steps, so the deal is set up again and the actions so far replayed first."""
        if self._ahead:
            self._ahead = []
            self._driver.setup(*self._setup)
            for _, seat, action in self._played:
                self._driver.apply(seat, action)
        return self._driver.divide(depth)


def _calls(step: dict) -> list[tuple]:
    """The driver calls `_run_step` makes for `step`, in order (when nothing fails)."""
    calls = []
    if "action" in step:
        refused = step.get("expect", "accepted") != "accepted"
        calls += [("state",)] if refused else []
        calls.append(("apply", step["seat"], step["action"]))
        calls += [("state",)] if refused else []
    check = step.get("check", {})
    if "state" in check:
        calls.append(("state",))
    if "observation" in check:
        calls.append(("observation", check["observation"]["seat"]))
    if "legal" in check:
        calls.append(("legal", check["legal"]["seat"]))
    if "perft" in check:
        calls.append(("perft", len(check["perft"])))
    return calls


def _replay_match(scenario: Scenario, driver) -> ReplayResult:
    match = scenario.data["match"]
    got = driver.match(scenario.profile, match["first_dealer"], match["deals"])
    found = mismatches(match["expect"], got)
    failure = None
    if found:
        path, e, g = found[0]
        failure = Failure(None, f"match.expect.{path}", e, g, "the match after these deals")
    return ReplayResult(scenario, failure, getattr(driver, "rules_fired", set()))


def _run_step(driver, i: int, step: dict, reasons: bool = True) -> Failure | None:
    if "action" in step:
        expect = step.get("expect", "accepted")
        want = ("accepted", None) if expect == "accepted" else ("refused", expect["refused"])
        before = driver.state() if want[0] == "refused" else None
        got = tuple(driver.apply(step["seat"], step["action"]))
        if not reasons and got[0] == "refused":
            want, got = (want[0], None), (got[0], None)
        if tuple(got) != want:
            return Failure(i, "expect", _result_json(want), _result_json(got), f"seat {step['seat']} plays {json.dumps(step['action'])}")
        if before is not None:
            # Unchanged under the comparator's rules (hands and exposed cards as sets), every key.
            after = driver.state()
            diff = mismatches(before, after)
            if diff:
                return Failure(i, "state unchanged after a refusal", before, after, f"changed: {', '.join(p for p, _, _ in diff[:5])}")
    check = step.get("check")
    if check:
        return _run_check(driver, i, check)
    return None


def _result_json(result: tuple) -> object:
    return "accepted" if result[0] == "accepted" else {"refused": result[1]}


def _run_check(driver, i: int, check: dict) -> Failure | None:
    if "state" in check:
        found = mismatches(check["state"], driver.state())
        if found:
            path, e, g = found[0]
            return Failure(i, f"check.state.{path}", e, g)
    if "observation" in check:
        obs_check = check["observation"]
        obs = driver.observation(obs_check["seat"])
        found = mismatches(obs_check["match"], obs)
        if found:
            path, e, g = found[0]
            return Failure(i, f"check.observation.{path}", e, g, f"observation of seat {obs_check['seat']}")
        text = json.dumps(obs)
        leaked = [c for c in obs_check.get("absent", []) if f'"{c}"' in text]
        if leaked:
            return Failure(i, "check.observation.absent", [], leaked, "hidden cards appear in the observation")
    if "legal" in check:
        seat = check["legal"]["seat"]
        missing, extra = compare_actions(check["legal"]["actions"], driver.legal(seat))
        if missing or extra:
            return Failure(i, "check.legal", {"missing": missing}, {"extra": extra}, f"legal actions of seat {seat}")
    if "perft" in check:
        counts = driver.perft(len(check["perft"]))
        if counts != check["perft"]:
            message = ""
            if hasattr(driver, "divide"):
                depth = next(d for d, (a, b) in enumerate(zip(check["perft"], counts), 1) if a != b)
                divided = driver.divide(depth)
                message = f"divide at depth {depth}: " + "; ".join(f"{k} -> {v}" for k, v in divided.items())
            return Failure(i, "check.perft", check["perft"], counts, message)
    return None
