"""Replay every scenario of the corpus on the reference engine: one test per scenario id.

A failure names the scenario's file and line, the step, what was expected and what the engine
gave, and quotes the scenario's annotation (why the rules say so).
"""

from __future__ import annotations

import pytest

from conquian_ref.conformance.reference import Reference
from conquian_ref.conformance.replay import replay
from conquian_ref.spec.scenario import corpus_dir, load_corpus

SCENARIOS, PROBLEMS = load_corpus([corpus_dir()])


def test_corpus_is_lint_clean():
    assert not PROBLEMS, "\n".join(str(p) for p in PROBLEMS)


def test_corpus_is_not_empty():
    assert len(SCENARIOS) >= 1


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario):
    result = replay(scenario, Reference())
    if result.failure:
        pytest.fail(
            result.failure.describe(scenario) + "\n  annotation: " + " ".join(scenario.data["annotation"].split()),
            pytrace=False,
        )
