"""The zoo of house-rule engines, second half: the other JavaScript engines, one with two house rules, and the Python one
(tests/zoo.py says what the zoo asserts and why)."""

from __future__ import annotations

import pytest

from zoo import ZOO, names_exactly_the_house_rules

REST = ZOO[4:]


@pytest.mark.parametrize("engine, impl, profile, played", REST, ids=[p.values[0] for p in REST])
def test_the_report_names_exactly_the_house_rules_an_engine_plays(engine, impl, profile, played, monkeypatch):
    names_exactly_the_house_rules(engine, impl, profile, played, monkeypatch)
