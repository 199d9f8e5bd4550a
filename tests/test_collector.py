"""The garbage collector's setting in the processes conquian-ref runs (conformance/collector.py):
the command line and the reference adapter make its full passes ten times rarer; the engine,
which other programs embed, never touches it."""

from __future__ import annotations

import gc

import pytest

from conquian_ref import cli
from conquian_ref.conformance import adapter
from conquian_ref.conformance.collector import FULL_PASS_EVERY


@pytest.fixture
def thresholds():
    saved = gc.get_threshold()
    gc.set_threshold(500, 7, 10)  # a process's own young thresholds, which are kept
    yield
    gc.set_threshold(*saved)


def test_the_command_line_makes_the_collectors_full_passes_rarer(thresholds, capsys):
    assert cli.main(["--version"]) == 0
    assert gc.get_threshold() == (500, 7, FULL_PASS_EVERY)


def test_the_reference_adapter_makes_the_collectors_full_passes_rarer(thresholds, monkeypatch):
    monkeypatch.setattr(adapter, "serve", lambda allow_profile_files: 0)
    assert adapter.main([]) == 0
    assert gc.get_threshold() == (500, 7, FULL_PASS_EVERY)


def test_the_engine_and_its_simulations_leave_the_collector_alone(thresholds):
    from conquian_ref.spec.profiles import load_profile
    from conquian_ref.tools.simulate import simulate

    simulate(load_profile("spielanleitung-two-decks-v1"), 3, 1, progress=False)
    assert gc.get_threshold() == (500, 7, 10)
