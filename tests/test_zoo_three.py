"""The zoo of house-rule engines, last third: two JavaScript engines with two or three house rules, and the Python engines
(tests/zoo.py says what the zoo asserts and why)."""

from __future__ import annotations

import pytest

from zoo import ZOO, names_exactly_the_house_rules

LAST = ZOO[11:]


@pytest.mark.parametrize("engine, impl, profile, played", LAST, ids=[p.values[0] for p in LAST])
def test_the_report_names_exactly_the_house_rules_an_engine_plays(engine, impl, profile, played, monkeypatch, tmp_path):
    names_exactly_the_house_rules(engine, impl, profile, played, monkeypatch, tmp_path)
