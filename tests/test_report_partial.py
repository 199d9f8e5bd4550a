"""The reports say what partial checking left out, and where an adapter failed: the checks
a scenario could not make (a capability not declared, a deal given as hands) are listed in the
text, the JSON and the JUnit reports, and an errored scenario names its step and the file's line
of that step.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conquian_ref.conformance.check import needs, run_check
from conquian_ref.conformance.results import Result, Run
from conquian_ref.conformance.client import Handshake
from conquian_ref.conformance.failures import Crash
from conquian_ref.conformance.reports import json_report, json_text, junit_report, text_report, unmade_checks
from conquian_ref.spec.scenario import corpus_dir, load_scenario
from conquian_ref.spec.schemas import validator

ADAPTERS = Path(__file__).resolve().parent / "adapters"


@pytest.fixture(scope="module")
def partial_run() -> Run:
    """Scenarios of one folder run against an adapter declaring only `state` and `setup_hands`:
    their legal-action, observation and perft checks cannot be made, their decks are dealt by
    the runner."""
    chosen = [load_scenario(p) for p in sorted(corpus_dir().glob("*/deal/*.yaml"))]
    partial = {"state", "legal_actions", "observation", "perft"}  # what partial checking leaves out one by one
    chosen = [s for s in chosen if needs(s) <= partial][:12]
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(ADAPTERS))
        return run_check(impl="python:few_capabilities:Adapter", scenarios=chosen)


def test_checks_not_made_are_listed_in_every_report(partial_run):
    made = [r for r in partial_run.results if r.skipped_checks]
    assert made, "the selection has checks the capabilities do not allow"
    assert all(r.status != "skipped" for r in partial_run.results)  # never skipped whole
    text = text_report(partial_run)
    assert "checks not made (the capabilities do not allow them" in text
    for what, n in unmade_checks(partial_run):
        assert f"  {what} — in {n} scenario" in text
    report = json.loads(json_text(json_report(partial_run)))
    assert not list(validator("report").iter_errors(report))
    listed = {r["id"]: r["skipped_checks"] for r in report["results"] if "skipped_checks" in r}
    assert listed == {r.scenario.id: r.skipped_checks for r in made}
    junit = ET.fromstring(junit_report(partial_run).encode())
    outs = [case.findtext("system-out") or "" for case in junit.iter("testcase")]
    assert sum(o.startswith("checks not made: ") for o in outs) == sum(not r.counts_as_failure for r in made)


def test_a_deck_given_as_hands_says_dealing_not_tested(partial_run):
    decks = [r for r in partial_run.results if "deck" in r.scenario.data["setup"]]
    assert decks, "the selection has a scenario whose setup is a deck order"
    for r in decks:
        assert any("dealing not tested" in text for text in r.skipped_checks), r.skipped_checks
    assert "dealing not tested" in text_report(partial_run)


def test_an_errored_scenario_names_its_step_and_line():
    s = load_scenario(sorted(corpus_dir().glob("*/turn/*.yaml"))[0])
    failure = Crash("the adapter exited (status 1)", "", "apply")
    failure.step, failure.line = 2, s.line("steps", 1)
    run = Run("my-engine", Handshake({"name": "my-engine"}, [s.profile], {"state"}))
    run.results = [Result(s, "errored", adapter=failure)]
    assert f"{s.path}:{failure.line}: {s.id}: step 2: adapter crash" in text_report(run)
    entry = json.loads(json_text(json_report(run)))["results"][0]
    assert (entry["adapter_failure"]["step"], entry["adapter_failure"]["line"]) == (2, failure.line)
    assert not list(validator("report").iter_errors(json_report(run)))
    error = ET.fromstring(junit_report(run).encode()).find(".//error")
    assert error.get("message").startswith("step 2: adapter crash: ")
