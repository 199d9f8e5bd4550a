"""Replay every scenario of the corpus on the reference engine: one test per scenario id.

A failure names the scenario's file and line, the step, what was expected and what the engine
gave, and quotes the scenario's annotation (why the rules say so).
"""

from __future__ import annotations

import pytest

from conquian_ref.conformance.reference import Reference
from conquian_ref.conformance.replay import replay
from conquian_ref.spec.profiles import PROFILE_IDS
from conquian_ref.spec.scenario import corpus_dir, load_corpus

SCENARIOS, PROBLEMS = load_corpus([corpus_dir()])


def test_corpus_is_lint_clean():
    assert not PROBLEMS, "\n".join(str(p) for p in PROBLEMS)


def test_corpus_is_not_empty():
    assert len(SCENARIOS) >= 1


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_every_profile_has_three_golden_complete_deals_and_twenty_scenarios(profile):
    # At least 3 golden complete deals for each profile (a whole deal to its
    # end: tagged golden, an outcome), at least 20 scenarios for each variation.
    mine = [s for s in SCENARIOS if s.profile == profile]
    golden = [s.id for s in mine if "golden" in s.data.get("tags", []) and s.data.get("outcome") is not None]
    assert len(golden) >= 3, golden
    assert len(mine) >= 20


def test_the_spielanleitung_baseline_has_forty_scenarios():
    assert len([s for s in SCENARIOS if s.profile == "spielanleitung-v1"]) >= 40


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario):
    result = replay(scenario, Reference())
    if result.failure:
        pytest.fail(
            result.failure.describe(scenario) + "\n  annotation: " + " ".join(scenario.data["annotation"].split()),
            pytrace=False,
        )
