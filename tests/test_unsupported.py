"""An action the engine cannot express is a deviation, not a crash (docs/implementers.md, section 10).

An adapter answers an `apply` it cannot express with an error answer. The scenario then fails at
that step with a failure of kind `unsupported` naming the action type; the adapter is not
restarted, the run is never stopped for it, and the answers pipelined after the error are read
and dropped by their `seq`, so the next scenario never reads them (the stale-answer bug: false
`errored` scenarios after one that had failed). The engine is tests/adapters/unsupported_force.py:
the reference, except that every `force` and `decline` is answered with an error.
"""

from __future__ import annotations

import copy
import shlex
import sys
from pathlib import Path

import pytest

from conquian_ref.conformance.check import run_check
from conquian_ref.conformance.client import Connection
from conquian_ref.conformance.failures import Unsupported
from conquian_ref.conformance.judges import UNSUPPORTED
from conquian_ref.conformance.results import Status
from conquian_ref.spec.scenario import Scenario, corpus_dir, load_corpus
from conquian_ref.tools.fuzz.campaign import run_fuzz

ADAPTERS = Path(__file__).parent / "adapters"
PROCESS = f"{shlex.quote(sys.executable)} {shlex.quote(str(ADAPTERS / 'unsupported_force.py'))}"  # answers pipelined
DIRECT = "python:unsupported_force:Adapter"
UNEXPRESSED = {"force", "decline"}


@pytest.fixture(scope="module")
def corpus() -> list[Scenario]:
    scenarios, problems = load_corpus([corpus_dir()])
    assert not problems
    return scenarios


@pytest.fixture
def on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(ADAPTERS))


def actions_of(scenario: Scenario) -> set[str]:
    return {step["action"]["type"] for step in scenario.steps if isinstance(step.get("action"), dict)} if "steps" in scenario.data else set()


def test_an_unsupported_action_fails_its_scenario_and_the_whole_corpus_runs(corpus):
    run = run_check(impl=PROCESS, scenarios=corpus, timeout=20)
    statuses = {r.status for r in run.results}
    assert Status.ERRORED not in statuses and Status.NOT_RUN not in statuses, run.stopped_early
    assert not run.stopped_early
    failed = [r for r in run.results if r.status == Status.FAILED]
    passed = [r for r in run.results if r.status == Status.PASSED]
    assert failed and passed and len(failed) + len(passed) == len(corpus)
    for result in failed:
        failure = result.failure
        assert failure.kind == UNSUPPORTED and failure.field == "unsupported", result.scenario.id
        assert failure.action_type in UNEXPRESSED and failure.action_type in actions_of(result.scenario)
        assert f"your engine cannot express `{failure.action_type}`" in failure.message
        # the step it names is the first of that type the scenario plays
        step = result.scenario.steps[failure.step]
        assert step["action"]["type"] == failure.action_type
        assert all(s.get("action", {}).get("type") not in UNEXPRESSED for s in result.scenario.steps[: failure.step])
        # the diagnosis names the same deviation, without taking the adapter for a broken one
        cause = result.divergence.cause
        assert cause.unsupported and cause.signature == "cannot express forcing", cause
    # One cause for the whole corpus: the engine cannot express forcing (C-FORCE-1), whatever the
    # action type (force or decline), step or profile.
    assert {str(r.cause) for r in failed} == {"C-FORCE-1: your engine cannot express forcing"}
    # every scenario that plays neither passes: the error answers left nothing behind
    assert {r.scenario.id for r in passed} == {s.id for s in corpus if not actions_of(s) & UNEXPRESSED}


def test_the_answers_after_an_error_answer_are_dropped_not_read_by_the_next_request(corpus):
    scenario = next(s for s in corpus if "steps" in s.data and "hands" in s.data["setup"])
    conn = Connection(PROCESS, timeout=20)
    try:
        conn.start()
        setup = {k: scenario.data["setup"][k] for k in ("dealer", "hands", "stock")}
        conn.request("setup", profile=scenario.profile, **setup)
        answers = conn.request_many([("apply", {"seat": 0, "action": {"type": "force"}}), ("state", {}), ("state", {}), ("legal", {"seat": 0})])
        assert len(answers) == 1 and isinstance(answers[0], Unsupported) and answers[0].action_type == "force"
        assert conn.in_sync
        # the next request reads its own answer (a state), not one of the three dropped
        assert conn.request("state")["seq"] == conn.seq
    finally:
        conn.close()


def test_a_scenario_failing_before_an_unsupported_action_leaves_no_answer_to_the_next(corpus):
    # The stale-answer bug: a check fails first, then a later `force` gets an error answer while
    # the rest of the pipelined answers are in flight; the next scenario used to read them
    # (wrong seq: errored).
    forcing = next(s for s in corpus if s.profile == "anglo-american-v1" and "steps" in s.data
                   and any(step.get("action", {}).get("type") == "force" for step in s.steps[1:]))
    first = copy.deepcopy(forcing.data)
    first["steps"][0].setdefault("check", {})["state"] = {"dealer": 1 - first["setup"]["dealer"]}  # wrong on purpose
    broken = Scenario(first, forcing.path, forcing.lines)
    plain = [s for s in corpus if s.profile == "anglo-american-v1" and "steps" in s.data and not actions_of(s) & UNEXPRESSED][:3]
    run = run_check(impl=PROCESS, scenarios=[broken, *plain], timeout=20)
    assert run.results[0].status == Status.FAILED and run.results[0].failure.field == "check.state.dealer"
    assert [r.status for r in run.results[1:]] == [Status.PASSED] * 3


def test_in_process_an_unsupported_action_is_the_same_deviation(corpus, on_path):
    chosen = [s for s in corpus if s.profile == "anglo-american-v1"][:60]
    run = run_check(impl=DIRECT, scenarios=chosen)
    failed = [r for r in run.results if r.status != Status.PASSED]
    assert failed and all(r.status == Status.FAILED and r.failure.kind == UNSUPPORTED for r in failed)


def test_only_an_error_answer_to_apply_is_unsupported(corpus):
    # An error answer to any other request stays what it was: the adapter's failure.
    scenario = next(s for s in corpus if "steps" in s.data)
    conn = Connection(PROCESS, timeout=20)
    try:
        conn.start()
        answers = conn.request_many([("state", {}), ("state", {})])  # no deal set up: an error answer
        assert len(answers) == 1 and answers[0].kind == "error" and not isinstance(answers[0], Unsupported)
        assert conn.in_sync and conn.request("setup", profile=scenario.profile, **scenario.data["setup"])["ok"]
    finally:
        conn.close()


def test_fuzz_counts_an_unsupported_action_as_a_divergence_and_plays_every_game(tmp_path):
    lines: list[str] = []
    run = run_fuzz(impl=PROCESS, profile="anglo-american-v1", games=12, seed=7, causes=1000, out=tmp_path,
                   shrink_seconds=0, timeout=20, echo=lines.append)
    assert run.games == 12, lines
    assert run.divergences > 0
    for found in run.found:
        assert found.divergence.kind == "unsupported" and found.divergence.path in UNEXPRESSED, found.divergence
        assert str(found.cause) == "C-FORCE-1: your engine cannot express forcing", found.cause
    # One cause, as check names it: force and decline are the one thing the engine lacks, forcing.
    assert {str(cause) for cause in run.counts} == {"C-FORCE-1: your engine cannot express forcing"}


def test_a_timeout_after_a_failed_check_restarts_the_adapter_before_the_next_scenario(corpus, tmp_path):
    # A scenario fails a check at step 1; its step 2 is answered after the timeout, while the
    # runner has moved on: out of step, the adapter is restarted, so the late answer (and the
    # rest of that batch) is never read by the next scenario.
    plain = [s for s in corpus if s.profile == "anglo-american-v1" and "steps" in s.data and len(s.steps) > 2
             and "action" in s.steps[0] and "action" in s.steps[1] and not isinstance(s.steps[0].get("expect"), dict)]
    data = copy.deepcopy(plain[0].data)
    data["steps"][0]["check"] = {"state": {"dealer": 1 - data["setup"]["dealer"]}}  # wrong on purpose
    failing = Scenario(data, plain[0].path, plain[0].lines)
    # requests after the handshake: setup, step 1's apply and state, then step 2's apply (late)
    late = f"{shlex.quote(sys.executable)} {shlex.quote(str(ADAPTERS / 'late_answer.py'))} --at 4 --once {shlex.quote(str(tmp_path / 'once'))}"
    run = run_check(impl=late, scenarios=[failing, *plain[1:4]], timeout=1)
    assert run.results[0].status == Status.FAILED and run.results[0].failure.field == "check.state.dealer"
    assert [r.status for r in run.results[1:]] == [Status.PASSED] * 3
