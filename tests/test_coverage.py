"""Rule coverage of the corpus, and the rules documents' own consistency.

Pins the guarantees of scenarios/README.md: every rule id of each profile is cited by a
scenario; every cited rule is checked by the reference engine while that scenario replays,
unless it holds by construction there (reported apart) or is a worked example;
every reason code is produced by some scenario; every reason code is documented in the order
the engine applies them.
"""

from __future__ import annotations

import re

import pytest

from conquian_ref.tools.coverage import measure
from conquian_ref.engine.refusals import REASONS
from conquian_ref.spec.profiles import PROFILE_IDS, rule_prefix
from conquian_ref.spec.rulebook import load_rules, rules_dir, rules_for
from conquian_ref.spec.scenario import corpus_dir


@pytest.fixture(scope="module")
def coverage():
    return measure([corpus_dir()])


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_every_rule_of_the_profile_is_cited(coverage, profile):
    assert coverage.uncited[profile] == []


def test_every_cited_rule_fires_while_its_scenario_replays(coverage):
    assert coverage.not_fired == []


def test_rules_by_construction_are_reported_apart_never_as_checked(coverage):
    from conquian_ref.engine.trace import rules_by_construction
    from conquian_ref.spec.profiles import load_profile

    for profile in PROFILE_IDS:
        built = rules_by_construction(load_profile(profile))
        assert "C-DECK-1" in coverage.by_construction[profile]
        assert set(coverage.by_construction[profile]) >= {r for r in built if coverage.cited[profile].get(r)}


def test_the_json_report_keeps_by_construction_apart(coverage):
    data = coverage.to_json()
    assert set(data["by_construction"]) == set(PROFILE_IDS)
    assert data["cited_but_not_fired"] == []


def test_every_reason_code_is_produced_by_a_scenario(coverage):
    assert coverage.reasons_missing == []


def test_every_scenario_passes_on_the_reference(coverage):
    assert coverage.failing == []


def test_rule_ids_are_unique_across_documents():
    seen = {}
    for path in sorted(rules_dir().glob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^### (\S+) — ", line)
            if m:
                assert m.group(1) not in seen, f"{m.group(1)} in {path.name} and {seen[m.group(1)]}"
                seen[m.group(1)] = path.name
    assert set(seen) == set(load_rules())


@pytest.mark.parametrize("rule_id", sorted(load_rules()))
def test_every_rule_has_a_source_and_an_example(rule_id):
    rule = load_rules()[rule_id]
    if rule_id.startswith("RUL-"):
        for part in ("Question", "Alternatives", "Decision", "Reason"):
            assert part in rule.text, f"{rule_id} lacks its {part}"
    else:
        assert "Source:" in rule.text and "Example:" in rule.text, rule_id


def test_each_profile_has_its_own_rules():
    for profile in PROFILE_IDS:
        prefix = rule_prefix(profile) + "-"
        assert any(r.startswith(prefix) for r in rules_for(profile))


def test_reason_codes_are_documented_in_precedence_order():
    text = (rules_dir() / "reasons.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| `([a-z_]+)` \|", text, flags=re.M)
    assert sorted(table) == sorted(REASONS)
    precedence = text[text.index("## Precedence") :]
    order = sorted(REASONS, key=lambda code: precedence.index(f"`{code}`"))
    assert order == list(REASONS), "docs/rules/reasons.md precedence differs from refusals.REASONS order"


def test_every_rule_cited_by_a_reason_code_exists():
    known = load_rules()
    for code, rule_ids in REASONS.items():
        for rid in rule_ids:
            assert rid in known, f"{code} cites unknown rule {rid}"


def test_reason_code_rules_match_the_documented_table():
    text = (rules_dir() / "reasons.md").read_text(encoding="utf-8")
    rows = {m.group(1): [r.strip() for r in m.group(2).split(",")] for m in re.finditer(r"^\| `([a-z_]+)` \|.*\| ([A-Z0-9, -]+) \|$", text, flags=re.M)}
    assert rows == {code: list(rules) for code, rules in REASONS.items()}
