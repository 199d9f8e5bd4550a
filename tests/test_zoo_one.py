"""The zoo of house-rule engines, first third: six JavaScript engines with one house rule each
(tests/zoo.py says what the zoo asserts and why)."""

from __future__ import annotations

import pytest

from zoo import ZOO, names_exactly_the_house_rules

FIRST = ZOO[:6]


@pytest.mark.parametrize("engine, impl, profile, played", FIRST, ids=[p.values[0] for p in FIRST])
def test_the_report_names_exactly_the_house_rules_an_engine_plays(engine, impl, profile, played, monkeypatch, tmp_path):
    names_exactly_the_house_rules(engine, impl, profile, played, monkeypatch, tmp_path)
