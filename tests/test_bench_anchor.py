"""`conquian-ref bench`'s anchor, OpenSpiel's gin_rummy (conquian_ref/tools/bench_anchor.py), on
both paths without OpenSpiel installed: a tiny fake `pyspiel` module on `sys.path` stands in for
it (the ratio is measured and printed), and a `pyspiel` that cannot be imported gives one line
and no ratio, never a crash. No test reads a timing's value."""

from __future__ import annotations

import sys

import pytest

from conquian_ref.spec.profiles import load_profile
from conquian_ref.tools import bench, bench_anchor

# A game of two chance actions (the second drawn by its probabilities) and three decisions.
FAKE_PYSPIEL = '''
class State:
    def __init__(self):
        self.history = []
    def is_terminal(self):
        return len(self.history) == 5
    def is_chance_node(self):
        return len(self.history) < 2
    def chance_outcomes(self):
        return [(0, 0.25), (1, 0.75)]
    def legal_actions(self):
        return [7, 8, 9]
    def apply_action(self, action):
        self.history.append(action)

class Game:
    def new_initial_state(self):
        return State()

def load_game(name):
    assert name == "gin_rummy", name
    return Game()
'''


@pytest.fixture
def fake_pyspiel(tmp_path, monkeypatch):
    (tmp_path / "pyspiel.py").write_text(FAKE_PYSPIEL, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "pyspiel", raising=False)  # the real one, if this venv has it
    yield
    sys.modules.pop("pyspiel", None)


@pytest.fixture
def no_pyspiel(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` raises ImportError


def test_counts_all_actions_and_decisions_apart(fake_pyspiel):
    anchor = bench_anchor.bench_anchor(cpu_seconds=0.0, repeats=2, seed=1)
    assert anchor["game"] == "gin_rummy"
    assert anchor["games"] >= 1
    assert anchor["actions"] == 5 * anchor["games"]
    assert anchor["decisions"] == 3 * anchor["games"]


def test_the_ratio_is_measured_and_printed_with_the_anchor(fake_pyspiel):
    assert bench_anchor.anchor_status() is None
    result = bench.bench_profile(load_profile("anglo-american-v1"), quick=True, anchored=True)
    ratio, ours, anchor = result["anchor_ratio"], result["games"]["actions_per_cpu_second"], result["anchor"]
    assert ratio["vs_all_actions"] == pytest.approx(ours / anchor["actions_per_cpu_second"], rel=1e-2)
    assert ratio["vs_decisions"] > ratio["vs_all_actions"]  # decisions are fewer than all actions
    text = bench_anchor.anchor_markdown({"anchor_status": None, "profiles": [result]})
    assert "| anglo-american-v1 |" in text
    assert "**all** actions" in text  # it says which count the ratio uses
    # the same ratio for the same games with the meld search looked up: the most a faster search gives
    floor = result["floor_anchor_ratio"]
    assert floor["vs_all_actions"] == pytest.approx(result["floor"]["actions_per_cpu_second"] / anchor["actions_per_cpu_second"], rel=1e-2)
    assert f"| {floor['vs_all_actions']:.2f}x |" in text
    # and with every search remembered (the memos kept): between the two
    warm = result["warm_anchor_ratio"]
    assert warm["vs_all_actions"] == pytest.approx(result["warm"]["actions_per_cpu_second"] / anchor["actions_per_cpu_second"], rel=1e-2)
    assert f"| {warm['vs_all_actions']:.2f}x | {floor['vs_all_actions']:.2f}x |" in text


def test_without_pyspiel_one_line_and_no_ratio(no_pyspiel):
    status = bench_anchor.anchor_status()
    assert status is not None and "\n" not in status and "pyspiel" in status
    assert bench_anchor.bench_anchor(0.0, 1, seed=1) is None
    result = bench.bench_profile(load_profile("anglo-american-v1"), quick=True, anchored=False)
    assert "anchor" not in result and "anchor_ratio" not in result
    assert bench_anchor.anchor_markdown({"anchor_status": status, "profiles": [result]}) == status
    assert bench_anchor.ratios(result["games"], None) is None
