"""Mutation analysis of the corpus: every deliberately wrong engine must be caught.

One test per mutant of conquian_ref.tools.mutants (parametrized by id, so a survivor names itself):
the corpus is replayed against the mutant over the protocol in direct mode, and at least one
scenario that the reference passes must fail. The reference itself must pass the same corpus,
so "caught" and "behaves differently from the reference on some scenario" are the same thing.
The corpus is loaded once for the whole file; each mutant stops at its first catching scenario.

A failure here means the corpus lacks a case: write the scenario from the rule text (see
docs/mutation.md, "When a mutant survives"), never by copying the engine's answer.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import re
from pathlib import Path

import pytest

import conquian_ref.tools.mutants as mutants_module
from conquian_ref.conformance.check import run_check
from conquian_ref.conformance.client import REFERENCE, Connection
from conquian_ref.tools.mutants import MUTANTS, reachable_mutants
from conquian_ref.tools.mutation import configure, load_scenarios, replay_all, run_mutant
from conquian_ref.spec.rulebook import load_rules
from conquian_ref.spec.scenario import corpus_dir

REACHABLE = [m.id for m in reachable_mutants()]
SMALL_CORPUS = corpus_dir() / "torno-cisneros-v1" / "exchange"  # a few files: quick CLI round trips


@pytest.fixture(scope="module")
def corpus():
    return load_scenarios()[1]


@pytest.fixture(scope="module")
def reference_failures(corpus):
    return replay_all(REFERENCE, corpus)


# -- the analysis ------------------------------------------------------------------------------
def test_the_reference_passes_the_corpus(reference_failures):
    assert reference_failures == {}, f"the reference fails {sorted(reference_failures)}: mutation analysis needs a clean corpus"


@pytest.mark.parametrize("factory", ["SameRowsAdapter", "SameTableAdapter", "SameAnswersAdapter", "SameAdapter"])
def test_a_mutant_that_changes_nothing_passes_the_corpus(factory, corpus, monkeypatch):
    # Each building block of the mutants with no change (tests/adapters/null_mutants.py) must
    # behave as the reference: a scenario it fails would catch every mutant built on it for the
    # harness's sake. (Two such scenarios did: a perft with two copies of a card, where the
    # mutants' legal() listed a discard per copy, and the two-deck scenarios under a one-copy
    # mutant table.)
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "adapters"))
    assert replay_all(f"python:null_mutants:{factory}", corpus) == {}


@pytest.mark.parametrize("mutant_id", REACHABLE)
def test_mutant_is_caught_by_the_corpus(mutant_id, corpus, reference_failures):
    m = MUTANTS[mutant_id]
    result = run_mutant(m, corpus, reference_failures, stop_at_first=True)
    assert result.caught, (
        f"mutant {m.id} survived: {m.description} (breaks {', '.join(m.rules)}); "
        "no scenario of the corpus tells it from the reference: add one (docs/mutation.md)"
    )


# -- the registry --------------------------------------------------------------------------------
def test_registry_is_large_and_ids_are_well_formed():
    assert len(REACHABLE) >= 30
    for m in MUTANTS.values():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", m.id), m.id
        assert m.description and "\n" not in m.description, m.id
        assert m.rules, m.id


def test_every_rule_a_mutant_breaks_exists_in_the_rules():
    rules = load_rules()
    for m in MUTANTS.values():
        for rid in m.rules:
            assert rid in rules, f"{m.id}: no rule {rid} in docs/rules"
            assert not rules[rid].deprecated, f"{m.id}: {rid} is deprecated"


def test_every_mutant_says_why_it_is_wrong_in_a_comment():
    # Each mutant's block (from the end of the previous `mutant(...)` call, or of the area's
    # heading, to its own call) holds a comment quoting the rule it breaks.
    registered = 0
    for area in mutants_module.AREAS:
        source = inspect.getsource(area)
        lines = source.splitlines()
        calls = [
            node for node in ast.parse(source).body
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "mutant"
        ]
        start = 0
        for call in calls:
            mutant_id = call.value.args[0].value
            assert mutant_id in MUTANTS
            block = [line for line in lines[start : call.lineno - 1] if not line.startswith("# ==")]
            assert any(line.lstrip().startswith("#") for line in block), f"{mutant_id}: quote, in a comment above it, the rule it breaks"
            start = call.end_lineno
            registered += 1
    assert registered == len(MUTANTS)


def test_unreachable_mutants_say_why():
    for m in MUTANTS.values():
        if m.unreachable:
            assert len(m.unreachable) > 20, m.id
    assert len(REACHABLE) < len(MUTANTS) or all(not m.unreachable for m in MUTANTS.values())


@pytest.mark.parametrize(
    "area",
    [
        r"C-DECK-", r"C-SET-1", r"C-RUN-1", r"C-RUN-2", r"C-RUN-3", r"(TC|AA)-RUN-1", r"C-MELD-1", r"C-ARR-",
        r"C-DEAL-1", r"RUL-10", r"RUL-15", r"TC-XCH-1", r"TC-XCH-2", r"(TC|AA)-OPEN-1", r"C-TURN-2", r"C-TURN-3",
        r"C-TURN-4", r"C-TURN-5", r"C-TURN-6", r"C-TURN-7", r"TC-FORCE-1", r"TC-FORCE-2", r"AA-FORCE-1",
        r"AA-MELD-1", r"RUL-5", r"RUL-6", r"C-END-1", r"C-END-2", r"C-END-3", r"C-END-4", r"RUL-9", r"C-OBS-1",
        r"AA-MATCH-1", r"TC-MATCH-1",
        # the Spielanleitung profiles: the two offers, demands by extension, the placement of
        # discard-then-meld, going rummy, the pot, the four seats and the duplicate cards
        r"SA-OPEN-1", r"SA-FORCE-2", r"SADM-ARR-1", r"SA-END-3", r"SA-MATCH-2", r"SAPT-TURN-1",
        r"SAPT-FORCE-1", r"SAPT-MATCH-1", r"SATD-SET-1", r"RUL-34",
    ],
)
def test_every_rule_area_has_a_mutant(area):
    assert any(re.fullmatch(area + r".*", rid) for m in reachable_mutants() for rid in m.rules), f"no mutant breaks {area}"


def test_the_mutant_modules_are_small_and_name_no_profile():
    from conquian_ref.spec.profiles import PROFILE_IDS

    for module in (*mutants_module.AREAS, mutants_module.base, mutants_module.registry):
        source = inspect.getsource(module)
        assert source.count("\n") < 400, f"{module.__name__} has grown past 400 lines: split it by rule area"
        assert not [p for p in PROFILE_IDS if p in source], f"{module.__name__} names a profile: test its policies instead"


def test_factories_resolve_and_shake_hands():
    for m in MUTANTS.values():
        assert getattr(mutants_module, m.factory_name) == m.factory
    with pytest.raises(AttributeError):
        getattr(mutants_module, "adapter_for_no_such_mutant")
    conn = Connection(MUTANTS["run-wraps"].impl)
    try:
        assert "torno-cisneros-v1" in conn.start().profiles
    finally:
        conn.close()


# -- the runners ---------------------------------------------------------------------------------
def test_the_official_check_runner_sees_a_mutant_fail():
    run = run_check(impl=MUTANTS["exchange-without-swap"].impl, corpus=SMALL_CORPUS)
    assert not run.ok and run.count("failed") >= 1


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    runner = configure(parser)
    return runner(parser.parse_args(argv))


def test_cli_reports_a_caught_mutant_as_json(capsys):
    status = _cli(["--only", "exchange-without-swap", "--corpus", str(SMALL_CORPUS), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    assert report["caught"] == 1 and report["survived"] == 0
    (entry,) = report["mutants"]
    assert entry["id"] == "exchange-without-swap" and entry["caught_by"] and entry["first_failure"]


def test_cli_exits_1_on_a_survivor(capsys):
    # No scenario can send a glyph, so glyphs-refused survives any corpus (that is why it is
    # marked unreachable and left out of the default run).
    status = _cli(["--only", "glyphs-refused", "--corpus", str(SMALL_CORPUS)])
    out = capsys.readouterr().out
    assert status == 1
    assert out.rstrip().endswith("0 caught, 1 survived")
    assert "| glyphs-refused | C-DECK-2 | SURVIVED |" in out
    assert _cli(["--only", "glyphs-refused", "--corpus", str(SMALL_CORPUS), "--all"]) == 1
    assert "| glyphs-refused | C-DECK-2 | 0 | SURVIVED |" in capsys.readouterr().out


def test_stopping_at_the_first_catch_gives_the_verdicts_of_every_scenario(capsys):
    """The default stops each mutant at its first catching scenario, those citing a rule it
    breaks first; --all replays them all: the same verdicts, the first catch among all."""
    names = ["exchange-without-swap", "pick-may-be-changed", "run-wraps", "glyphs-refused", "ace-high"]
    assert _cli(["--only", *names, "--corpus", str(SMALL_CORPUS), "--json"]) == 1
    first = json.loads(capsys.readouterr().out)
    assert _cli(["--only", *names, "--corpus", str(SMALL_CORPUS), "--json", "--all"]) == 1
    every = json.loads(capsys.readouterr().out)
    assert first["all_scenarios"] is False and every["all_scenarios"] is True
    for one, all_ in zip(first["mutants"], every["mutants"]):
        assert one["caught"] == all_["caught"] and len(one["caught_by"]) <= 1
        assert set(one["caught_by"]) <= set(all_["caught_by"])


def test_cli_refuses_an_unknown_mutant():
    from conquian_ref.engine.errors import ConquianError

    with pytest.raises(ConquianError, match="unknown mutant"):
        _cli(["--only", "no-such-mutant", "--corpus", str(SMALL_CORPUS)])


def test_docs_list_every_mutant():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "mutation.md").read_text(encoding="utf-8")
    missing = [m.id for m in MUTANTS.values() if f"`{m.id}`" not in doc]
    assert not missing, f"docs/mutation.md does not list {missing}"


def test_mutants_are_variants_not_overrides_of_the_game_s_private_methods():
    """A mutant replaces rows of the rule set through the public mechanism of a house rule
    (conquian_ref.engine.ruleset.Variant); none subclasses Game or reaches into its privates."""
    for module in (*mutants_module.AREAS, mutants_module.base, mutants_module.registry):
        source = inspect.getsource(module)
        assert not re.search(r"\b(game|g)\._[a-z]", source), f"{module.__name__} uses a private part of Game"
        assert not re.search(r"class \w+\((\w+\.)?(Game|MutantGame)\)", source), f"{module.__name__} subclasses Game"
    variants = [m for m in MUTANTS.values() if m.variant is not None]
    assert len(variants) >= len(MUTANTS) - 5, "the adapter mutants are the few that change a protocol answer"


def test_mutants_shared_among_processes_give_the_same_report_in_the_same_order():
    """`conquian-ref mutants` uses every core (--jobs): each mutant's replay is independent, so
    the report is the same, mutant by mutant and scenario by scenario, as in one process."""
    from conquian_ref.tools.mutation import run_mutants

    names = ["exchange-without-swap", "pick-may-be-changed", "run-wraps", "glyphs-refused"]
    alone = run_mutants(names, SMALL_CORPUS, jobs=1)
    shared = run_mutants(names, SMALL_CORPUS, jobs=2)
    assert [(r.id, r.caught_by, r.first_failure) for r in shared.results] == [(r.id, r.caught_by, r.first_failure) for r in alone.results]
    assert [r.id for r in shared.results] == names
