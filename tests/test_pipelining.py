"""The replay sends a scenario's requests in one batch (conformance.steps, through the driver's `batch`): pin what that must
not change. Answers are still compared step by step, a perft mismatch is divided at the step
where it happened (not after the later steps the adapter already played), and large answers
cannot deadlock the two pipes."""

from __future__ import annotations

import sys
from pathlib import Path

from conquian_ref.conformance.adapter import ReferenceAdapter
from conquian_ref.conformance.check import run_check
from conquian_ref.engine.game import Game
from conquian_ref.engine.perft import divide
from conquian_ref.spec.profiles import load_profile
from conquian_ref.spec.scenario import corpus_dir, load_corpus

ADAPTERS = Path(__file__).parent / "adapters"
SCENARIOS, _ = load_corpus([corpus_dir()])


class WrongPerft(ReferenceAdapter):
    """Counts one sequence too many at every depth, but divides correctly."""

    def cmd_perft(self, request: dict) -> dict:
        answer = super().cmd_perft(request)
        if not request.get("divide"):
            answer["counts"] = [n + 1 for n in answer["counts"]]
        return answer


def test_a_perft_mismatch_is_divided_at_its_own_step():
    # A scenario with a perft check followed by more steps: the adapter has played those
    # steps by the time the mismatch is seen.
    scenario = next(
        s for s in SCENARIOS
        if any("perft" in step.get("check", {}) and i < len(s.steps) - 1 for i, step in enumerate(s.steps))
    )
    at = next(i for i, step in enumerate(scenario.steps) if "perft" in step.get("check", {}))
    run = run_check(impl=f"python:{__name__}:WrongPerft", scenarios=[scenario])
    failure = run.results[0].failure
    assert failure is not None and failure.step == at and failure.field == "check.perft"
    # The divide printed is the reference's own divide at that step.
    game = _position_at(scenario, at)
    depth = next(d for d, (a, b) in enumerate(zip(scenario.steps[at]["check"]["perft"], failure.got), 1) if a != b)
    expected = "; ".join(f"{k} -> {v}" for k, v in divide(game, depth).items())
    assert failure.message == f"divide at depth {depth} (the same on the reference): {expected}"


class WrongDivide(WrongPerft):
    """Counts and divides one sequence too many under its first move at every depth."""

    def cmd_perft(self, request: dict) -> dict:
        answer = super().cmd_perft(request)
        if request.get("divide"):
            first = next(iter(answer["divide"]))
            answer["divide"][first] += 1
        return answer


def test_a_perft_failure_shows_both_divides():
    scenario = next(s for s in SCENARIOS if any("perft" in step.get("check", {}) for step in s.steps))
    at = next(i for i, step in enumerate(scenario.steps) if "perft" in step.get("check", {}))
    failure = run_check(impl=f"python:{__name__}:WrongDivide", scenarios=[scenario]).results[0].failure
    assert failure is not None and failure.step == at and failure.field == "check.perft"
    game = _position_at(scenario, at)
    depth = next(d for d, (a, b) in enumerate(zip(scenario.steps[at]["check"]["perft"], failure.got), 1) if a != b)
    reference = divide(game, depth)
    first = next(iter(reference))
    # The differing entry comes first, with the reference's count and the implementation's.
    head = f"divide at depth {depth}, reference | implementation: {first}: {reference[first]} | {reference[first] + 1} (differs)"
    assert failure.message.startswith(head), failure.message
    for key, count in list(reference.items())[1:5]:
        assert f"{key}: {count} | {count}" in failure.message


def test_large_answers_do_not_deadlock_a_pipelined_batch():
    # The longest scenarios: many 60 KB state answers in one batch.
    longest = sorted(SCENARIOS, key=lambda s: -len(s.data.get("steps", [])))[:3]
    run = run_check(impl=f"{sys.executable} {ADAPTERS / 'padded.py'}", scenarios=longest, timeout=20)
    assert [r.status for r in run.results] == ["passed"] * 3, [str(r.adapter or r.failure) for r in run.results]


def _position_at(scenario, at: int) -> Game:
    """The reference's game after the scenario's steps up to `at` (its accepted actions)."""
    setup = scenario.data["setup"]
    profile = load_profile(scenario.profile)
    game = Game.from_deck(profile, setup["deck"], setup["dealer"]) if "deck" in setup else \
        Game.from_deal(profile, setup["hands"], setup["stock"], setup["dealer"])
    for step in scenario.steps[: at + 1]:
        if "action" in step and step.get("expect", "accepted") == "accepted":
            game.apply(step["seat"], step["action"])
    return game
