"""What makes an answer right: the judges of the step interpreter (conquian_ref.conformance.steps).

`Judge` judges each part of a walked step in plan order, the action first, then each check kind
with its judge in `JUDGES` (whose order is the order of a step's check requests); each applies
docs/protocol.md "How answers are compared" through the official comparator (conformance.compare)
and returns a `Failure`, the first disagreement, or None. `Failure` is a rule disagreement: the
implementation answered, wrongly (an answer that is not one is a conformance.failures
AdapterFailure).

A judge reads a step's answers by role (`answers[role]`: "action", "before" and "after" around
an expected refusal, or a check kind); reading an answer that is an exception raises it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..engine.errors import ConquianError
from .compare import compare_actions, mismatches


# The kinds of Failure: an answer that differs, or an action the engine cannot express (an
# error answer to `apply`, conformance.failures.Unsupported: a deviation, not a crash).
DIFFERS, UNSUPPORTED = "differs", "unsupported"


@dataclass
class Failure:
    """The first disagreement between a scenario and an implementation."""

    step: int | None  # index into steps; None for setup and the final outcome
    field: str  # e.g. "expect", "check.state.hands[0]", "check.legal", "outcome", "unsupported"
    expected: object
    got: object
    message: str = ""
    kind: str = DIFFERS  # DIFFERS or UNSUPPORTED
    action_type: str | None = None  # UNSUPPORTED: the type of the action the engine cannot express

    def describe(self, scenario) -> str:
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


class Judge:
    """What makes an answer right: one method per part of a step, the outcome judged in walk."""

    def __init__(self, reasons: bool, keep_going: bool, open_word: object, skip: frozenset = frozenset()):
        self.reasons, self.keep_going, self.open_word, self.skip = reasons, keep_going, open_word, skip

    def is_open(self, value: object) -> bool:
        """Whether `value` holds the open word anywhere (an expectation still to be recorded)."""
        if self.open_word is None:
            return False
        if value == self.open_word:
            return True
        if isinstance(value, dict):
            return any(self.is_open(v) for v in value.values())
        return isinstance(value, list) and any(self.is_open(v) for v in value)

    def step(self, result, answers, divide) -> None:
        """Judge each part of the step in plan order (the action, then each check kind): `result`
        is its steps.StepResult, which gets the failures; `answers` its answers by role."""
        step, check = result.step, result.step.get("check") or {}
        result.answers = answers.got  # filled as the answers are read
        parts = (["action"] if "action" in step else []) + [kind for kind in JUDGES if kind in check and kind not in self.skip]
        for part in parts:
            expected = step.get("expect", "accepted") if part == "action" else check[part]
            try:
                failure = self.part(result, part, expected, answers, divide)
            except ConquianError as exc:
                if not self.keep_going:
                    raise
                result.error = result.error or exc
                continue
            if failure:
                result.failures.append(failure)
                if not self.keep_going:
                    return

    def part(self, result, part: str, expected: object, answers, divide) -> Failure | None:
        if self.open_word is not None and self.is_open(expected):
            answers[part]  # fetched and kept, not judged
            return None
        if part == "action":
            return self.action(result, answers)
        return JUDGES[part](result.index, expected, answers[part], divide)

    def action(self, result, answers) -> Failure | None:
        step = result.step
        expect = step.get("expect", "accepted")
        want = ("accepted", None) if expect == "accepted" else ("refused", expect["refused"])
        got = tuple(answers["action"])
        if not self.reasons and got[0] == "refused":
            want, got = (want[0], None), (got[0], None)
        if got != want:
            return Failure(result.index, "expect", _result_json(want), _result_json(got), f"seat {step['seat']} plays {json.dumps(step['action'])}")
        if want[0] == "refused":
            # Unchanged under the comparator's rules (hands and exposed cards as sets), every key.
            before, after = answers["before"], answers["after"]
            diff = mismatches(before, after)
            if diff:
                return Failure(result.index, "state unchanged after a refusal", before, after, f"changed: {', '.join(p for p, _, _ in diff[:5])}")
        return None


def _result_json(result: tuple) -> object:
    return "accepted" if result[0] == "accepted" else {"refused": result[1]}


def _judge_state(i: int, expected: dict, got: dict, divide) -> Failure | None:
    found = mismatches(expected, got)
    if found:
        path, e, g = found[0]
        return Failure(i, f"check.state.{path}", e, g)
    return None


def _judge_observation(i: int, expected: dict, got: dict, divide) -> Failure | None:
    found = mismatches(expected["match"], got)
    if found:
        path, e, g = found[0]
        return Failure(i, f"check.observation.{path}", e, g, f"observation of seat {expected['seat']}")
    text = json.dumps(got)
    leaked = [c for c in expected.get("absent", []) if f'"{c}"' in text]
    if leaked:
        return Failure(i, "check.observation.absent", [], leaked, "hidden cards appear in the observation")
    return None


def _judge_legal(i: int, expected: dict, got: list, divide) -> Failure | None:
    missing, extra = compare_actions(expected["actions"], got)
    if missing or extra:
        return Failure(i, "check.legal", {"missing": missing}, {"extra": extra}, f"legal actions of seat {expected['seat']}")
    return None


def _judge_perft(i: int, expected: list, got: list, divide) -> Failure | None:
    if got == expected:
        return None
    depth = next((d for d, (a, b) in enumerate(zip(expected, got), 1) if a != b), None)
    divided = None if depth is None else divide(depth)
    return Failure(i, "check.perft", expected, got, "" if divided is None else _divides(depth, *divided))


DIVIDE_SHOWN = 24  # entries of a divide in a failure message


def _divides(depth: int, reference: dict, implementation: dict) -> str:
    """Both divides at `depth`, the reference's and the implementation's, the differing entries first."""
    if reference == implementation:
        entries = "; ".join(f"{k} -> {v}" for k, v in list(reference.items())[:DIVIDE_SHOWN])
        return f"divide at depth {depth} (the same on the reference): {entries}"
    keys = list(reference) + [k for k in implementation if k not in reference]
    keys.sort(key=lambda k: reference.get(k) == implementation.get(k))  # stable: differing first
    entries = "; ".join(
        f"{k}: {reference.get(k, '-')} | {implementation.get(k, '-')}{'' if reference.get(k) == implementation.get(k) else ' (differs)'}"
        for k in keys[:DIVIDE_SHOWN]
    )
    more = f"; ... {len(keys) - DIVIDE_SHOWN} more" if len(keys) > DIVIDE_SHOWN else ""
    return f"divide at depth {depth}, reference | implementation: {entries}{more}"


# The judge of each check kind: (step index, the check's expectation, the answer, divide) -> Failure.
JUDGES = {"state": _judge_state, "observation": _judge_observation, "legal": _judge_legal, "perft": _judge_perft}
