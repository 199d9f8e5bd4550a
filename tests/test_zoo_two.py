"""The zoo of house-rule engines, second third: the other JavaScript engines with one house rule, and two with two
(tests/zoo.py says what the zoo asserts and why)."""

from __future__ import annotations

import pytest

from zoo import ZOO, names_exactly_the_house_rules

SECOND = ZOO[6:11]


@pytest.mark.parametrize("engine, impl, profile, played", SECOND, ids=[p.values[0] for p in SECOND])
def test_the_report_names_exactly_the_house_rules_an_engine_plays(engine, impl, profile, played, monkeypatch, tmp_path):
    names_exactly_the_house_rules(engine, impl, profile, played, monkeypatch, tmp_path)
